#include "reports/recommendation_json.h"

#include <cstdio>

#include "models/input/names.h"
#include "reports/format.h"

namespace gpuplan::reports {
namespace {

using nlohmann::json;

//! "32 nodes from the start; +4 in month 3 (day 91), +2 in month 5 (day 152)".
std::string schedule_text(const std::vector<uint32_t>& nodes,
                          const std::vector<MonthWindow>& months) {
  std::string s =
      format_count(nodes.front()) + (nodes.front() == 1 ? " node" : " nodes") + " from the start";
  const char* sep = "; ";
  for (std::size_t w = 1; w < nodes.size(); ++w) {
    if (nodes[w] == nodes[w - 1]) continue;
    s += sep + std::string("+") + format_count(nodes[w] - nodes[w - 1]) + " in month " +
         std::to_string(months[w].month) + " (day " +
         std::to_string(int(months[w].start_s / 86400.0)) + ")";
    sep = ", ";
  }
  return s;
}

//! The months of an option sized under slos_hold every_month: the nodes of each month and the
//! share of replicas meeting the SLOs in it, the purchases, and the first month no count meets.
json schedule_json(const ScheduleSearch& s, const std::vector<MonthWindow>& months) {
  json by_month = json::array(), purchases = json::array();
  for (std::size_t w = 0; w < s.at_window.size(); ++w) {
    json row = {{"month", months[w].month},
                {"start_s", months[w].start_s},
                {"end_s", months[w].end_s},
                {"p_slos_met", s.at_window[w].p_met}};
    if (!s.nodes_by_month.empty()) row["nodes"] = s.nodes_by_month[w];
    by_month.push_back(std::move(row));
  }
  const std::vector<uint32_t>& n = s.nodes_by_month;
  for (std::size_t w = 1; w < n.size(); ++w)
    if (n[w] > n[w - 1])
      purchases.push_back(
          {{"month", months[w].month}, {"at_s", months[w].start_s}, {"add", n[w] - n[w - 1]}});
  return {{"nodes_at_start", n.empty() ? json(nullptr) : json(n.front())},
          {"purchases", purchases},
          {"text", n.empty() ? json(nullptr) : json(schedule_text(n, months))},
          {"unmet_month", s.unmet_window ? json(months[*s.unmet_window].month) : json(nullptr)},
          {"months", by_month}};
}

//! An option as recommendation.json lists it; `window_s` [s] is what its cost covers.
json option_json(const study::RecommendOption& o, double window_s,
                 const std::vector<MonthWindow>& months) {
  const ProbeOutcome& at = o.search.at_count;
  const uint32_t nodes = o.search.count.value_or(o.count_max);
  double dollar_hour = o.price_per_node_hour * nodes;
  double tflops = o.bf16_tflops * o.gpus_per_node * nodes;
  json with = json::array();
  for (const study::PinnedPool& w : o.with) {
    with.push_back({{"pool", w.pool},
                    {"instance", w.instance},
                    {"pricing", std::string(enum_name(w.pricing))},
                    {"nodes", w.count},
                    {"gpus", uint64_t{w.count} * w.gpus_per_node}});
    dollar_hour += w.price_per_node_hour * w.count;
  }
  json probes = json::array();
  for (const auto& [n, p] : o.search.probes)
    probes.push_back({{"nodes", n}, {"p_slos_met", p.p_met}, {"cost_usd_total", p.cost_usd}});
  json row = {{"pool", o.pool},
              {"instance", o.instance},
              {"pricing", std::string(enum_name(o.pricing))},
              {"meets_slos", o.search.count.has_value()},
              {"nodes", nodes},
              {"gpus", uint64_t{nodes} * o.gpus_per_node},
              {"p_slos_met", at.p_met},
              {"cost_usd_total", at.cost_usd},
              {"cost_usd_window", at.window_cost_usd},
              {"cost_usd_per_month", study::usd_per_month(at.window_cost_usd, window_s)},
              {"cost_usd_per_job", at.jobs_completed > 0 ? at.cost_usd / at.jobs_completed : 0.0},
              {"bf16_tflops_per_usd_hour", dollar_hour > 0 ? tflops / dollar_hour : 0.0},
              {"with", with},
              {"over_budget", o.over_budget},
              {"probes", probes}};
  if (o.schedule) row["schedule"] = schedule_json(*o.schedule, months);
  return row;
}

}  // namespace

json recommendation_json(const Scenario& sc, const study::Recommendation& r) {
  const RecommendConfig& rc = *sc.recommend;
  json rows = json::array();
  for (const study::RecommendOption& opt : r.options)
    rows.push_back(option_json(opt, r.window_s, r.months));
  for (std::size_t i = 0; i < r.options.size(); ++i) {
    json& row = rows[i];
    const std::optional<uint32_t> unmet =
        r.options[i].schedule ? r.options[i].schedule->unmet_window : std::nullopt;
    if (unmet) {
      char why[192];
      std::snprintf(why, sizeof why,
                    "SLOs not met in month %u even at %u nodes: met in %.3f of replicas, %.3f "
                    "required",
                    r.months[*unmet].month, r.options[i].count_max,
                    r.options[i].schedule->at_window[*unmet].p_met, rc.probability);
      row["lost_because"] = why;
    } else if (!r.options[i].search.count) {
      char why[160];
      std::snprintf(why, sizeof why,
                    "SLOs not met even at %u nodes: met in %.3f of replicas, %.3f required",
                    r.options[i].count_max, row["p_slos_met"].get<double>(), rc.probability);
      row["lost_because"] = why;
    } else if (r.options[i].over_budget) {
      row["lost_because"] =
          "over budget: " + format_money(row["cost_usd_per_month"].get<double>()) +
          " per month, above the cap of " + format_money(r.max_usd_per_month.value_or(0));
    } else if (i != r.ranked.front()) {
      const double more = row["cost_usd_total"].get<double>() -
                          rows[r.ranked.front()]["cost_usd_total"].get<double>();
      char why[64];
      std::snprintf(why, sizeof why, "cost higher by $%.2f", more);
      row["lost_because"] = why;
      row["cost_usd_above_recommended"] = more;
    }
  }
  json slos = json::array();
  for (const RecommendSlo& s : rc.slos) {
    json j = {{"metric", s.metric}};
    if (s.min) j["min"] = *s.min;
    if (s.max) j["max"] = *s.max;
    slos.push_back(j);
  }
  json rec = {
      {"scenario", sc.name},
      {"seed", sc.seed},
      {"method",
       rc.slos_hold == SloPeriod::every_month
           ? (rc.purchases ? "every month on its own: month by month the fewest nodes meeting "
                             "its SLOs, never fewer than the month before (a purchase "
                             "schedule), by bisection; common random numbers (one seed for "
                             "every probe)"
                           : "every month on its own: the fewest nodes from the start meeting "
                             "the SLOs in every month, by bisection; common random numbers "
                             "(one seed for every probe)")
           : "bisection on node count; common random numbers (one seed for every "
             "probe)"},
      {"slos_hold", std::string(enum_name(rc.slos_hold))},
      {"purchases", rc.purchases},
      {"slos", slos},
      {"probability", rc.probability},
      {"replications", r.replications},
      {"max_usd_per_month", r.max_usd_per_month ? json(*r.max_usd_per_month) : json(nullptr)},
      {"recommended", nullptr},
      {"runners_up", json::array()},
      {"candidates", rows}};
  if (r.ranked.empty()) return rec;
  rec["recommended"] = rows[r.ranked.front()];
  for (std::size_t k = 1; k < r.ranked.size() && k <= 4; ++k)
    rec["runners_up"].push_back(rows[r.ranked[k]]);
  if (r.best.held)
    rec["recommended"]["cost_usd_per_useful_gpu_hour"] =
        r.best.mean("cost_usd.per_useful_gpu_hour");
  return rec;
}

}  // namespace gpuplan::reports
