// The `teams` section (docs/teams.md): Kueue-style quotas per flavor (a GPU type of the cluster),
// cohorts, and the team of every job class.
#include <algorithm>

#include "models/load/loader.h"

namespace gpuplan::loading {
namespace {

//! Largest quota or limit a scenario may write [GPUs] (below the core's "unlimited").
constexpr uint64_t MAX_QUOTA_GPUS = 100000000;
//! Most teams a scenario may have (sim/core/queue_policy.h holds them in a 64-bit mask).
constexpr size_t MAX_TEAMS = 64;

//! Case-insensitive equality of GPU ids (as the catalog matches them).
bool same_id(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

void Loader::load_team_quota(const json& o, const std::string& p,
                             const std::vector<std::string>& flavors, Team& team) {
  if (!object(o, p, "an object of GPU type → quota, e.g. {\"A100-80GB\": 32}")) return;
  for (auto it = o.begin(); it != o.end(); ++it) {
    if (fields::is_comment_key(it.key())) continue;
    const std::string fp = child(p, it.key());
    const auto f = std::find_if(flavors.begin(), flavors.end(),
                                [&](const std::string& x) { return same_id(x, it.key()); });
    if (f == flavors.end()) {
      d_.unknown_name(fp, "GPU type of the cluster's pools", it.key(), flavors);
      continue;
    }
    TeamFlavorQuota q;
    q.flavor = *f;
    const json& v = it.value();
    if (v.is_number()) {
      q.nominal = static_cast<uint32_t>(integer(v, fp, 0, MAX_QUOTA_GPUS).value_or(0));
    } else if (object(v, fp,
                      "a GPU count, or {\"nominal\", \"borrowing_limit\", \"lending_limit\"}")) {
      check_keys(v, fp, {"nominal", "borrowing_limit", "lending_limit"});
      if (const json* n = need(v, fp, "nominal", "the GPUs of this type the team is entitled to"))
        q.nominal =
            static_cast<uint32_t>(integer(*n, fp + "/nominal", 0, MAX_QUOTA_GPUS).value_or(0));
      if (const json* b = get(v, "borrowing_limit")) {
        if (auto x = integer(*b, fp + "/borrowing_limit", 0, MAX_QUOTA_GPUS))
          q.borrowing_limit = static_cast<uint32_t>(*x);
      }
      if (const json* l = get(v, "lending_limit")) {
        if (auto x = integer(*l, fp + "/lending_limit", 0, MAX_QUOTA_GPUS)) {
          q.lending_limit = static_cast<uint32_t>(*x);
          if (*x > q.nominal) {
            d_.error(fp + "/lending_limit", DiagCode::out_of_range,
                     "lending_limit " + num(double(*x)) + " exceeds the nominal quota " +
                         num(double(q.nominal)) + "; a team lends at most its own quota");
          }
        }
      }
    }
    if (std::any_of(team.quota.begin(), team.quota.end(),
                    [&](const TeamFlavorQuota& x) { return x.flavor == q.flavor; })) {
      d_.error(fp, DiagCode::out_of_range,
               "GPU type " + in_quotes(q.flavor) + " appears twice in this quota");
      continue;
    }
    team.quota.push_back(q);
  }
}

void Loader::load_team_weight(const json& v, const std::string& p, Team& team) {
  const std::optional<double> w = number(v, p, 0, 1e6);
  if (!w) return;
  if (!(*w > 0)) {
    d_.error(p, DiagCode::out_of_range,
             "a team's weight is its share under fair_share and must be above 0, e.g. 1");
    return;
  }
  team.weight = *w;
}

void Loader::load_teams(const json* v, Scenario& sc) {
  std::vector<std::string> flavors;  // distinct GPU types of the pools, in pool order
  for (const Pool& pool : sc.pools)
    if (pool.gpu && std::find(flavors.begin(), flavors.end(), pool.gpu->id) == flavors.end())
      flavors.push_back(pool.gpu->id);
  std::vector<std::string> names;
  if (v) {
    if (!v->is_array()) {
      wrong_type(*v, "/teams", "an array of teams");
    } else if (v->size() > MAX_TEAMS) {
      d_.error("/teams", DiagCode::limit_exceeded,
               std::to_string(v->size()) + " teams; at most " + std::to_string(MAX_TEAMS) +
                   " are supported (a fifo pass tracks them in a 64-bit mask)");
    } else {
      for (size_t i = 0; i < v->size(); ++i) {
        const std::string p = child("/teams", i);
        const json& o = (*v)[i];
        if (!object(o, p)) continue;
        check_keys(o, p, {"name", "description", "cohort", "quota", "weight"});
        Team team;
        if (const json* n = need(o, p, "name", "names the team in results, e.g. \"research\"")) {
          if (auto s = name(*n, p + "/name")) {
            if (std::find(names.begin(), names.end(), *s) != names.end()) {
              d_.error(p + "/name", DiagCode::out_of_range,
                       "duplicate team name " + in_quotes(*s) + "; team names must be unique");
            }
            team.name = *s;
          }
        }
        if (const json* c = get(o, "cohort")) team.cohort = name(*c, p + "/cohort").value_or("");
        if (const json* q = get(o, "quota")) load_team_quota(*q, p + "/quota", flavors, team);
        if (const json* w = get(o, "weight")) load_team_weight(*w, p + "/weight", team);
        names.push_back(team.name);
        sc.teams.push_back(std::move(team));
      }
    }
  }
  for (JobClass& jc : sc.workload) {
    const std::string tp = jc.pointer + "/team";
    if (jc.team_name.empty()) {
      if (!sc.teams.empty()) {
        d_.error(jc.pointer, DiagCode::missing_key,
                 "missing \"team\": with a \"teams\" section every class names its team");
      }
      continue;
    }
    const auto it = std::find(names.begin(), names.end(), jc.team_name);
    if (it == names.end()) {
      d_.unknown_name(tp, "team", jc.team_name, names);
      continue;
    }
    jc.team = static_cast<uint32_t>(it - names.begin());
  }
}

}  // namespace gpuplan::loading
