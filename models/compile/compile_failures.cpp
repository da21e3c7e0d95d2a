#include "models/compile/compile_failures.h"

namespace gpuplan {

void compile_failures(const Scenario& sc, CompiledScenario& out) {
  if (!sc.failures) return;
  const FailureConfig& fc = *sc.failures;
  ModelView& v = out.scalars;
  const NetworkView net = out.network.view();
  // NOTE: a leaf switch is a level-1 group (a leaf with its nodes); below two levels there is no
  // switch between nodes and the core, so switch causes strike single nodes.
  const bool switches = net.n_levels >= 2;
  FailureSpec spec;
  spec.repair = compile_distribution(fc.repair.kind, fc.repair.a, fc.repair.b, fc.repair.values,
                                     fc.repair.weights, out);
  for (const FailureCauseConfig& c : fc.causes) {
    FailureCause cause{c.rate_per_gpu_hour * fc.scale / 3600.0, c.scope};
    if (cause.scope == FailureScope::switch_leaf && !switches) cause.scope = FailureScope::node;
    (cause.scope == FailureScope::switch_leaf ? spec.switch_rate_per_gpu_s
                                              : spec.node_rate_per_gpu_s) += cause.rate_per_gpu_s;
    out.failure_causes.push_back(cause);
    out.cause_names.push_back(c.name);
  }
  spec.switch_level = switches ? net.leaf_level : NONE;
  out.failures.push_back(spec);
  for (const Pool& p : sc.pools) out.pool_spares.push_back(p.spares);
  // Calendar room: one failure clock per pool and per group, one repair per node and per group,
  // and one stale finish per job slot that an interruption leaves behind.
  v.extra_events +=
      static_cast<uint32_t>(sc.pools.size()) + 2 * net.n_groups + v.n_nodes + v.max_active_jobs;
}

}  // namespace gpuplan
