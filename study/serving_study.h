#pragma once
//! A serving scenario simulated iteration by iteration (sim/serving/), repeated over Monte Carlo
//! replicas (independent Philox keys), and summarized: latency means and quantiles pooled over
//! the replicas' sketches, goodput, KV occupancy, preemptions and prefix hits, each headline with
//! a 95% confidence interval across replicas.
#include <cstdint>
#include <string>
#include <vector>

#include "models/load/serving_scenario.h"
#include "sim/mc_run.h"

namespace gpuplan {

//! One latency's figures [s].
struct LatencyFigures {
  double mean = 0, p50 = 0, p90 = 0, p99 = 0;
  uint64_t n = 0;
};

//! A mean across replicas with its 95% confidence interval (Student t).
struct Estimate {
  double mean = 0, ci95_low = 0, ci95_high = 0;
};

//! The figures of one replica or of the pooled study.
//! [s/s] The admission wait's growth per second of arrivals above which a cluster cannot keep up
//! (ServingFigures::wait_growth): offered about 1.005 times what it serves or more. Runs that
//! keep up stay within ±0.001 (tests/sim/serving/serving_test.cpp, "serving::wait_trend"; the
//! bundled scenarios); the chat scenario at 70 requests/s, about 13 % over, is saturated.
inline constexpr double WAIT_GROWTH_LIMIT = 0.005;

struct ServingFigures {
  LatencyFigures ttft, itl, tpot, e2e, wait;
  uint64_t completed = 0, counted = 0, met_slo = 0, preemptions = 0, steps = 0;
  double slo_attainment = 0;       //!< share of counted requests meeting both SLOs
  double goodput_rps = 0;          //!< [1/s] requests meeting both SLOs per second
  double goodput_rps_per_gpu = 0;  //!< [1/s] the same per GPU
  double throughput_rps = 0;       //!< [1/s] counted completions per second
  double output_tokens_per_s = 0;  //!< [tokens/s] of the cluster, all requests
  double kv_occupancy_mean = 0;    //!< blocks in use / blocks, time-weighted over the run
  double kv_occupancy_peak = 0;    //!< most blocks in use in one replica / its blocks
  double prefix_hit_rate = 0;      //!< prompt tokens served from the prefix cache / admitted
  double preemptions_per_1k = 0;   //!< preemptions per 1,000 completed requests
  double busy_share = 0;           //!< replica time in steps / replica time
  double simulated_s = 0;          //!< [s] last completion
  //! [s/s] growth of the admission wait per second of arrivals (WaitTrend): about 1 - 1/rho for
  //! a cluster offered rho > 1 times what it serves, about 0 for one that keeps up
  double wait_growth = 0;
  //! [s/s] disaggregated: the same for a decode replica's wait to admit a request whose KV
  //! cache has arrived (a decode pool too small for its prefill pool)
  double decode_wait_growth = 0;
  //! [replicas] billed on average over the run (time-weighted; the cluster's replicas without
  //! autoscaling), and the most billed at once
  double replicas_mean = 0;
  uint32_t replicas_peak = 0;
  uint32_t scale_ups = 0, scale_downs = 0;  //!< autoscaling evaluations that changed the count
  //! [USD/h] the cluster's GPUs at the scenario's price (0 without one): with autoscaling, the
  //! replicas billed on average
  double usd_per_hour = 0;
  //! [USD] per million output tokens: usd_per_hour over the output tokens the cluster generated
  //! per hour in the run (0 without a price)
  double usd_per_million_output_tokens = 0;
  bool queue_overflow = false;  //!< a waiting queue overflowed and the run stopped there
  //! queue_overflow, or wait_growth or decode_wait_growth above WAIT_GROWTH_LIMIT
  bool saturated = false;
};

//! The study's answer.
struct ServingStudy {
  ServingFigures pooled;                 //!< latencies from the merged sketches, others summed
  std::vector<ServingFigures> replicas;  //!< one per Monte Carlo replica
  Estimate ttft_mean, ttft_p99, itl_mean, itl_p99, tpot_p99, e2e_mean, e2e_p99, goodput_rps,
      slo_attainment;
  Estimate usd_per_million_output_tokens;  //!< zero without a price
  Estimate replicas_mean;                  //!< replicas billed on average (autoscaling)
  // The roofline beside it: one request alone with the mean lengths.
  double roofline_ttft_s = 0, roofline_tpot_s = 0;
  double mean_prompt = 0, mean_output = 0;  //!< [tokens] of the workload
  //! Over time, per bin of series_bin_s from 0 to the last completion, means over the replicas:
  //! the share of the cluster's KV blocks in use (time-weighted) and the preemptions; with
  //! autoscaling, the replicas billed (time-weighted; empty without).
  double series_bin_s = 0;
  std::vector<double> kv_occupancy, preemptions, replicas_billed;
};

//! [GPUs] billed on average in figures `f` of a run of `v`: the cluster's, or with autoscaling
//! the replicas billed on average times their GPUs.
[[nodiscard]] double billed_gpus(const serving::ServingView& v, const ServingFigures& f);

//! Simulates `sc` over its replications, on CPU threads (0 = all cores) or with McBackend::cuda
//! one replication per GPU thread (the same numbers but for the last bits of the device's math).
[[nodiscard]] ServingStudy run_serving_study(const ServingScenario& sc, uint32_t threads = 0,
                                             McBackend backend = McBackend::cpu);

}  // namespace gpuplan
