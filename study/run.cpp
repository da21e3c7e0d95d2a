#include "study/run.h"

#include "study/aggregate.h"

namespace gpuplan::study {
namespace {

//! The one replication as a study of one: its outcome, with its histograms pooled.
McStudy study_of_one(const ModelView& v, const SingleRun& r) {
  McStudy st;
  ReplicaOutcome o = outcome_of(v, r.state());
  st.wait_hist_all.assign(o.wait_hist.begin(), o.wait_hist.end());
  st.jct_hist_all.assign(o.jct_hist.begin(), o.jct_hist.end());
  if (!o.metrics.saturated()) {
    st.wait_hist_ok = st.wait_hist_all;
    st.jct_hist_ok = st.jct_hist_all;
  } else {
    st.wait_hist_ok.assign(st.wait_hist_all.size(), 0);
    st.jct_hist_ok.assign(st.jct_hist_all.size(), 0);
  }
  std::vector<uint32_t>().swap(o.wait_hist);
  std::vector<uint32_t>().swap(o.jct_hist);
  st.replicas.push_back(std::move(o));
  st.device = "1 thread";
  st.threads = 1;
  st.batch_size = 1;
  st.batches = 1;
  return st;
}

}  // namespace

Summary run(const Scenario& sc, const CompiledScenario& cs, const RunOptions& o) {
  const ModelView v = cs.view();
  // NOTE: the only call of the engine's single run in study/; records stream to o.jobs.
  auto single = std::make_shared<SingleRun>(run_single(v, o.jobs, o.replica_idx));
  const McStudy one = study_of_one(v, *single);
  StudyInfo info;
  info.device = "1 thread";
  return aggregate(sc, cs, one, info, std::move(single));
}

}  // namespace gpuplan::study
