#include "models/compile/compile_teams.h"

#include <algorithm>

namespace gpuplan {

void compile_teams(const Scenario& sc, CompiledScenario& out) {
  if (sc.teams.empty()) return;
  ModelView& v = out.scalars;
  for (const Pool& p : sc.pools) {
    const std::string& id = p.gpu ? p.gpu->id : sc.instance_of(p).gpu;
    auto it = std::find(out.flavor_names.begin(), out.flavor_names.end(), id);
    if (it == out.flavor_names.end()) it = out.flavor_names.insert(out.flavor_names.end(), id);
    out.pool_flavor.push_back(static_cast<uint32_t>(it - out.flavor_names.begin()));
  }
  std::vector<std::string> cohorts;
  for (const Team& t : sc.teams) {
    out.team_names.push_back(t.name);
    if (t.cohort.empty()) {
      out.team_cohort.push_back(NONE);
    } else {
      auto it = std::find(cohorts.begin(), cohorts.end(), t.cohort);
      if (it == cohorts.end()) it = cohorts.insert(cohorts.end(), t.cohort);
      out.team_cohort.push_back(static_cast<uint32_t>(it - cohorts.begin()));
    }
    for (const std::string& f : out.flavor_names) {
      TeamQuota q;
      q.nominal = 0;
      for (const TeamFlavorQuota& x : t.quota) {
        if (x.flavor != f) continue;
        q.nominal = x.nominal;
        q.borrowing_limit = x.borrowing_limit.value_or(QUOTA_UNLIMITED);
        q.lending_limit = x.lending_limit.value_or(QUOTA_UNLIMITED);
      }
      out.team_quotas.push_back(q);
    }
  }
  for (const Team& t : sc.teams) out.team_weights.push_back(t.weight);
  out.flavor_gpus.assign(out.flavor_names.size(), 0.0);
  for (size_t p = 0; p < out.pool_flavor.size(); ++p)
    out.flavor_gpus[out.pool_flavor[p]] +=
        double(out.pools[p].n_nodes) * out.pools[p].gpus_per_node;
  for (const JobClass& jc : sc.workload) out.class_team.push_back(jc.team);
  v.teams.n_teams = static_cast<uint32_t>(sc.teams.size());
  v.teams.n_flavors = static_cast<uint32_t>(out.flavor_names.size());
  v.teams.reclaim = sc.scheduler.reclaim;
}

std::vector<FlavorCapacity> flavor_capacities(const Scenario& sc, const CompiledScenario& out) {
  std::vector<FlavorCapacity> caps;
  for (const std::string& f : out.flavor_names) caps.push_back({f, 0, 0});
  for (size_t p = 0; p < out.pool_flavor.size(); ++p)
    caps[out.pool_flavor[p]].cluster_gpus +=
        uint64_t(out.pools[p].n_nodes) * out.pools[p].gpus_per_node;
  const size_t nf = caps.size();
  for (size_t t = 0; t < sc.teams.size(); ++t)
    for (size_t r = 0; r < nf; ++r) caps[r].nominal_gpus += out.team_quotas[t * nf + r].nominal;
  return caps;
}

}  // namespace gpuplan
