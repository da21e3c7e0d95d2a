#include "models/compile/compile_maintenance.h"

#include <algorithm>

namespace gpuplan {

void compile_maintenance(const Scenario& sc, CompiledScenario& out) {
  ModelView& v = out.scalars;
  for (size_t p = 0; p < sc.pools.size(); ++p) {
    for (const MaintenanceConfig& w : sc.pools[p].maintenance) {
      // A rolling window: batch b takes the next `batch` nodes, one duration after batch b - 1.
      for (uint32_t b = 0; b < w.batches(); ++b) {
        MaintenanceWindow mw;
        mw.start = w.start_s + double(b) * w.duration_s;
        mw.duration = w.duration_s;
        mw.period = w.every_s.value_or(NEVER);
        mw.drain_ahead = w.drain == DrainPolicy::wait ? w.drain_ahead_s : 0.0;
        mw.first_node = out.pools[p].first_node + w.first + b * w.batch;
        mw.n_nodes = std::min(w.batch, w.nodes - b * w.batch);
        mw.drain = w.drain;
        out.maintenance.push_back(mw);
      }
    }
  }
  if (out.maintenance.empty()) return;
  // Calendar room: one pending event per batch, and one stale finish per job slot that a stop
  // leaves behind.
  v.extra_events += static_cast<uint32_t>(out.maintenance.size()) + v.max_active_jobs;
}

}  // namespace gpuplan
