#include "models/compile/compiled_scenario.h"

#include "sim/core/features.h"

namespace gpuplan {

DistSpec compile_distribution(DistKind kind, double a, double b, const std::vector<double>& values,
                              const std::vector<double>& weights, CompiledScenario& out) {
  DistSpec spec{kind, a, b, 0, 0};
  if (kind != DistKind::empirical) return spec;
  spec.table_idx = static_cast<uint32_t>(out.dist_values.size());
  spec.table_n = static_cast<uint32_t>(values.size());
  double total = 0;
  for (size_t i = 0; i < values.size(); ++i) total += weights.empty() ? 1.0 : weights[i];
  double cum = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    cum += (weights.empty() ? 1.0 : weights[i]) / total;
    out.dist_values.push_back(values[i]);
    out.dist_cum.push_back(i + 1 == values.size() ? 1.0 : cum);
  }
  return spec;
}

ModelView CompiledScenario::view() const {
  ModelView v = scalars;
  v.pools = const_span(pools);
  v.classes = const_span(classes);
  v.node_pool = const_span(node_pool);
  v.dist_values = const_span(dist_values);
  v.dist_cum = const_span(dist_cum);
  v.gpu_values = const_span(gpu_values);
  v.gpu_cum = const_span(gpu_cum);
  v.trace = const_span(trace);
  v.slowdown = const_span(slowdown);
  v.pool_supply = const_span(pool_supply);
  v.class_runs = const_span(class_runs);
  v.wave_quantiles = const_span(wave_quantiles);
  v.price_steps = const_span(price_steps);
  v.arrival_segments = const_span(arrival_segments);
  v.purchases = const_span(purchases);
  v.failures = const_span(failures);
  v.failure_causes = const_span(failure_causes);
  v.pool_spares = const_span(pool_spares);
  v.maintenance = const_span(maintenance);
  v.net = network.view();
  v.teams.class_team = const_span(class_team);
  v.teams.team_cohort = const_span(team_cohort);
  v.teams.pool_flavor = const_span(pool_flavor);
  v.teams.quotas = const_span(team_quotas);
  v.teams.weights = const_span(team_weights);
  v.teams.flavor_gpus = const_span(flavor_gpus);
  v.share.pools = const_span(share_pools);
  v.share.entry_units = const_span(share_entry_units);
  v.share.class_kind = const_span(share_class_kind);
  v.share.class_entries = const_span(share_class_entries);
  v.share.class_fraction = const_span(share_class_fraction);
  v.share.class_milli = const_span(share_class_milli);
  v.share.class_mem_mib = const_span(share_class_mem_mib);
  v.share.class_compute = const_span(share_class_compute);
  v.features = model_features(v);
  return v;
}

}  // namespace gpuplan
