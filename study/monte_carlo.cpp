#include "study/monte_carlo.h"

#include "sim/backends/mc_mpi.h"
#include "study/aggregate.h"

namespace gpuplan::study {

Summary monte_carlo(const Scenario& sc, const CompiledScenario& cs, const MonteCarloOptions& o) {
  McOptions mo;
  mo.replications = o.replications;
  mo.max_replications = o.max_replications;
  mo.batch = o.batch;
  mo.threads = o.threads;
  mo.backend = o.backend;
  mo.target_ci_rel = o.target_ci_rel;
  mo.processes = mpi_world();
  mo.progress = o.progress;
  const McStudy st = run_monte_carlo(cs.view(), mo);
  if (!mo.processes.root()) {
    Summary none;
    none.held = false;  // NOTE: only rank 0 holds the study
    return none;
  }
  StudyInfo info;
  info.monte_carlo = true;
  info.replications_requested = o.replications;
  info.max_replications = o.max_replications;
  info.target_ci_rel = o.target_ci_rel;
  info.target_requested = st.target_requested;
  info.target_met = st.target_met;
  info.backend = st.backend;
  info.device = st.device;
  info.processes = st.processes;
  info.batch_size = st.batch_size;
  info.batches = st.batches;
  info.bytes_per_replica = st.bytes_per_replica;
  return aggregate(sc, cs, st, info);
}

}  // namespace gpuplan::study
