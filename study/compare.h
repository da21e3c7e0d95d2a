#pragma once
//! `gpuplan compare A B` as a library call: a paired Monte Carlo study of two scenarios with common
//! random numbers (replica k of both draws from the same Philox streams, keyed by the one seed and
//! k), and the difference B - A of every headline metric with a paired 95% CI.
#include <string>
#include <vector>

#include "models/compile/compile.h"
#include "models/scenario/scenario.h"
#include "study/monte_carlo.h"
#include "study/summary.h"

namespace gpuplan::study {

//! The metric paths compare reports, in this order.
inline const char* const COMPARE_PATHS[] = {"metrics.wait_s.mean",      "metrics.wait_s.p90",
                                            "metrics.jct_s.mean",       "metrics.jct_s.p90",
                                            "metrics.gpu_utilization",  "metrics.jobs_completed",
                                            "metrics.mean_queued_jobs", "cost_usd.total",
                                            "cost_usd.per_gpu_hour",    "cost_usd.per_job_mean"};

//! One metric of B against A.
struct Difference {
  std::string path;        //!< metric path, e.g. "metrics.wait_s.mean"
  double a_mean = 0;       //!< mean of A over the paired replications
  double b_mean = 0;       //!< mean of B over the paired replications
  MetricSummary paired;    //!< B - A replica by replica: mean, paired 95% CI (Student t, n - 1)
  MetricSummary unpaired;  //!< the CI had A and B been run with independent random numbers (Welch)
  bool significant = false;  //!< the paired CI excludes 0
};

//! The answer of a comparison; only the process that holds the studies (Summary::held) has one.
struct Comparison {
  Summary a, b;                         //!< each side's own study
  std::vector<std::size_t> paired;      //!< replications in both sides' statistics
  std::vector<Difference> differences;  //!< COMPARE_PATHS in order, then the TCO options'
  [[nodiscard]] bool held() const { return a.held; }
};

//! Runs `o.replications` replications of each side with the seed both share (a target CI is not
//! supported: both sides run exactly `o.replications`) and pairs replica k of A with replica k of
//! B over the replications that kept up in both (all of them when none did). `a` and `b` must
//! have the same seed (the caller refuses otherwise); MPI splits each side as study::monte_carlo.
[[nodiscard]] Comparison compare(const Scenario& a, const CompiledScenario& ca, const Scenario& b,
                                 const CompiledScenario& cb, MonteCarloOptions o);

//! The differences of the metric rows of two studies, paired over the replications `paired`
//! (COMPARE_PATHS in order), then of every TCO option's NPV and total both sides project
//! ("tco.options.<name>.npv_usd", ".total_usd", in A's order; Summary::tco_values).
[[nodiscard]] std::vector<Difference> differences(const Summary& a, const Summary& b,
                                                  const std::vector<std::size_t>& paired);

}  // namespace gpuplan::study
