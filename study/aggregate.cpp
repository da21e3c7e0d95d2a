#include "study/aggregate.h"

#include "study/bounded_ci.h"
#include "study/energy.h"
#include "study/tco.h"
#include "study/warnings.h"

namespace gpuplan::study {

Summary aggregate(const Scenario& sc, const CompiledScenario& cs, const McStudy& st, StudyInfo info,
                  std::shared_ptr<const SingleRun> single) {
  Summary s;
  info.replications = static_cast<uint32_t>(st.replicas.size());
  s.info = std::move(info);
  s.single = std::move(single);
  s.stats =
      summarize_study(cs.view(), st, cs.pool_names, cs.class_names, cs.cause_names, cs.team_names);
  bound_nonnegative_cis(s.stats, sc.seed);
  for (const ReplicaOutcome& o : st.replicas) s.saturation.push_back(o.metrics.saturation);
  s.wait_hist = s.stats.statistics_over_all ? st.wait_hist_all : st.wait_hist_ok;
  s.jct_hist = s.stats.statistics_over_all ? st.jct_hist_all : st.jct_hist_ok;
  summarize_tco(sc, cs, st, s);
  summarize_energy(sc, cs, st, s);
  s.warnings = study_warnings(sc, cs, s);
  return s;
}

}  // namespace gpuplan::study
