#include "models/quote/quote.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <random>
#include <utility>

#include "models/catalog/catalog_age.h"
#include "models/catalog/catalog_table.h"
#include "models/perf/collectives.h"
#include "models/economics/billing.h"
#include "models/economics/checkpoint.h"
#include "models/perf/training/published_runs.h"
#include "models/perf/training/step_time.h"

namespace gpuplan::quote {
namespace {

using economics::HOURS_PER_MONTH;
using economics::SECONDS_PER_HOUR;

constexpr double INF = std::numeric_limits<double>::infinity();
constexpr double BYTES_PER_GB = 1e9;  // GpuSpec::mem_gb and mem_bw_tbps are decimal units
// Deepest pipeline a layout may use: Llama 3 405B trained with 16 stages (arXiv:2407.21783); deeper
// pipelines lose more to bubbles than the MFU assumption covers.
constexpr uint32_t MAX_PIPELINE_STAGES = 16;
constexpr double MAX_SLOWDOWN =
    10;  // expected / failure-free time beyond which spot "never" finishes
// Random draws per Monte Carlo of one option (~10 ms). A draw is one interruption, so the
// standard error of the mean time is about 2 / sqrt(draws) of the time lost to preemptions
// (compound Poisson: variance ~ 2 x interruptions x loss^2): 0.2 % at 1e6, whatever the option.
constexpr double MC_DRAW_BUDGET = 1e6;
constexpr uint32_t MIN_REPLICAS = 50;     // fewest Monte Carlo replicas kept under that budget
constexpr uint32_t BUDGET_MC_PROBES = 4;  // Monte Carlo checks of a budget-only size search
// Monte Carlo replicas (or sampled blocks) between two checks of the compute budget: a replica
// takes at most the whole draw budget (about 10 ms), so a spent budget is noticed within that.
constexpr uint32_t BUDGET_CHECK_EVERY = 16;
// Highest MFU the step-time model reaches on any catalog GPU (its large-GEMM kernel efficiency,
// 0.8 on ampere): bounds the fewest nodes that can meet a deadline.
constexpr double MFU_UPPER_BOUND = 0.8;
// Sequence length of a training request, which gives none: GPT-3's 2,048 (Brown et al. 2020).
constexpr uint32_t TRAINING_SEQ_LEN = 2048;

// ---- sizing helpers --------------------------------------------------------------------------

uint64_t ceil_div(double a, double b) {
  return static_cast<uint64_t>(std::max(0.0, std::ceil(a / b)));
}

// Quantile of a sorted sample (linear interpolation, Hyndman-Fan type 7).
double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double h = (sorted.size() - 1) * q;
  const auto lo = static_cast<size_t>(std::floor(h));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

// An exponential variate from 53 bits of a 64-bit Mersenne Twister (bit-exact on every platform,
// unlike std::exponential_distribution).
double exponential(std::mt19937_64& rng, double rate) {
  const double u = (static_cast<double>(rng() >> 11) + 0.5) * (1.0 / 9007199254740992.0);
  return -std::log(u) / rate;
}

// Time to get through `count` blocks of `len` seconds each, where an interrupted block restarts
// after `downtime` and an (interruptible) recovery of `recovery` seconds.
// NOTE: one exponential draw per interruption, not one per block: an attempt survives with
// probability exp(-hazard len), so y ~ Exp(hazard) gives both the blocks that pass before the
// next interruption (floor(y / len), geometric) and, by memorylessness, where in the failing
// attempt it strikes (y mod len, an exponential truncated to len). The same law as drawing every
// attempt, at O(interruptions) instead of O(blocks) draws.
double simulate_blocks(std::mt19937_64& rng, double count, double len, double recovery,
                       double downtime, double hazard, double& interruptions) {
  double t = count * len;
  while (count > 0) {
    const double y = exponential(rng, hazard);
    const double passed = std::floor(y / len);
    if (passed >= count) break;
    count -= passed;
    t += (y - passed * len) + downtime;
    interruptions += 1;
    while (true) {  // recovery: read the checkpoint back, itself interruptible
      const double r = exponential(rng, hazard);
      if (r >= recovery) {
        t += recovery;
        break;
      }
      t += r + downtime;
      interruptions += 1;
    }
  }
  return t;
}

//! Mean and variance of one block's time (`len` s of work and checkpoint) from `n` samples.
std::pair<double, double> block_moments(std::mt19937_64& rng, uint32_t n, double len,
                                        double recovery, double downtime, double hazard,
                                        double& interruptions, const ComputeBudget* budget) {
  double sum = 0, sum_sq = 0;
  for (uint32_t k = 0; k < n; ++k) {
    if (k % BUDGET_CHECK_EVERY == 0) check_budget(budget);
    const double b = simulate_blocks(rng, 1, len, recovery, downtime, hazard, interruptions);
    sum += b;
    sum_sq += b * b;
  }
  const double mean = sum / n;
  return {mean, std::max(0.0, (sum_sq - n * mean * mean) / (n - 1))};
}

//! A run of `n_segments` blocks (the last of `last` s of work) too long to simulate whole: its
//! blocks are independent, so its time is their sum, normal by the central limit theorem (the
//! run has tens of thousands of them when this is used), with each block's mean and variance
//! sampled within the draw budget.
void sample_blocks(std::mt19937_64& rng, double n_segments, double last, double checkpoint_s,
                   double restart_s, double replacement_s, SpotTiming& t,
                   const ComputeBudget* budget) {
  constexpr double Z90 = 1.2815515655446004;  // standard normal quantile at 0.9
  const double h = t.hazard_per_s, len = t.interval_s + checkpoint_s;
  // NOTE: a block costs two draws plus two per interruption (h x its expected time).
  const double per_block = 2 + 2 * h * t.expected_s / n_segments;
  const auto n = static_cast<uint32_t>(std::max(2.0, MC_DRAW_BUDGET / per_block / 2));
  double cuts = 0, cuts_last = 0;
  const auto [mean, var] = block_moments(rng, n, len, restart_s, replacement_s, h, cuts, budget);
  const auto [mean_last, var_last] =
      block_moments(rng, n, last + checkpoint_s, restart_s, replacement_s, h, cuts_last, budget);
  const double m = n_segments - 1;
  t.mc_mean_s = t.p50_s = m * mean + mean_last;
  t.p90_s = t.mc_mean_s + Z90 * std::sqrt(m * var + var_last);
  t.mc_mean_se_s = std::sqrt(m * m * var / n + var_last / n);
  t.expected_interruptions = (m * cuts + cuts_last) / n;
  t.sampled_blocks = 2 * n;
}

//! A duration in words for a reason: "45 s", "12 min", "3.5 h", "2.1 days".
std::string duration_words(double s) {
  char buf[32];
  if (s < 120)
    std::snprintf(buf, sizeof buf, "%.0f s", s);
  else if (s < 2 * 3600)
    std::snprintf(buf, sizeof buf, "%.0f min", s / 60);
  else if (s < 2 * 86400)
    std::snprintf(buf, sizeof buf, "%.1f h", s / 3600);
  else
    std::snprintf(buf, sizeof buf, "%.1f days", s / 86400);
  return buf;
}

std::string today_string(std::chrono::year_month_day d) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u", static_cast<int>(d.year()),
                static_cast<unsigned>(d.month()), static_cast<unsigned>(d.day()));
  return buf;
}

std::vector<PricingPlan> plans_for(const InstanceType& it, const QuoteOptions& o) {
  std::vector<PricingPlan> out;
  if (it.provider == "on_prem") return {PricingPlan{Pricing::on_prem, 0}};
  for (const Pricing p : o.pricing) {
    if (p == Pricing::spot)
      for (double s : o.spot_shares) out.push_back(PricingPlan{Pricing::on_demand, s});
    else
      out.push_back(PricingPlan{p, 0});
  }
  return out;
}

}  // namespace

// ---- training --------------------------------------------------------------------------------

std::optional<TrainingLayout> fit_training_layout(const TrainingRequest& req, const GpuSpec& gpu,
                                                  uint32_t gpus_per_node, uint32_t nodes) {
  TrainingJob job;
  job.params = req.params;
  job.zero = ZeroStage::optimizer;
  const uint32_t n = gpus_per_node * nodes;
  const auto fits = [&](uint32_t tp, uint32_t pp) {
    job.tensor_parallel = tp;
    job.pipeline_parallel = pp;
    job.data_parallel = n / (tp * pp);
    return memory_per_gpu(job, gpu).fits();
  };
  // Tensor parallelism first (powers of two dividing the node), then pipeline stages that divide
  // the node count, so every GPU of the cluster works.
  for (uint32_t tp = 1; tp <= gpus_per_node; tp *= 2)
    if (gpus_per_node % tp == 0 && fits(tp, 1)) return TrainingLayout{tp, 1, n / tp};
  for (uint32_t pp = 2; pp <= std::min(nodes, MAX_PIPELINE_STAGES); ++pp)
    if (nodes % pp == 0 && fits(gpus_per_node, pp))
      return TrainingLayout{gpus_per_node, pp, n / (gpus_per_node * pp)};
  return std::nullopt;
}

namespace {

// Tokens per GPU-second, the nearest published run and the best published MFU of the GPU:
// what a quote shows next to its MFU. `flops_per_token` turns the MFU into tokens.
void describe_efficiency(TrainingSpeed& s, const TrainingRequest& req, const GpuSpec& gpu,
                         const training::ParallelPlan& plan, double flops_per_token) {
  s.tokens_per_gpu_s = s.mfu * peak_tflops(gpu, req.precision) * 1e12 / flops_per_token;
  auto shape = training::shape_for_params(req.params);
  if (shape) shape->seq_len = TRAINING_SEQ_LEN;
  const training::PublishedComparison c = training::compare_with_published(
      shape ? &*shape : nullptr, plan, gpu.architecture, req.precision, s.mfu);
  if (c.nearest) {
    s.nearest_run = training::published_run_text(*c.nearest);
    s.nearest_run_source = c.nearest->source;
  }
  s.best_published_mfu = c.best_mfu;
  s.above_published = c.above;
}

}  // namespace

TrainingSpeed training_speed(const TrainingRequest& req, const InstanceType& it, const GpuSpec& gpu,
                             uint32_t nodes, const TrainingLayout& layout) {
  TrainingJob job;
  job.params = req.params;
  job.tokens = req.tokens;
  job.tokens_per_step = req.tokens_per_step;
  job.precision = req.precision;
  job.mfu = req.mfu.value_or(0.4);
  job.tensor_parallel = layout.tensor_parallel;
  job.pipeline_parallel = layout.pipeline_parallel;
  job.data_parallel = layout.data_parallel;
  job.zero = ZeroStage::optimizer;
  job.overlap = 0;  // the overlap is applied below, against the compute time
  const CommPlacement pl = make_comm_placement(it, gpu, it.gpus_per_node, nodes);
  const SpeedEstimate e = estimate_training(job, gpu, pl);
  TrainingSpeed s;
  s.steps = e.steps;
  s.compute_step_s = e.compute_s;
  s.allreduce_step_s = e.allreduce_s;
  s.dp_busbw_gbyte_s = e.dp_busbw_gbyte_s;
  // NOTE: published MFUs are end to end, with the gradient all-reduce bucketed behind the
  // backward pass; only the part longer than overlap x compute shows.
  const double exposed =
      std::isinf(e.allreduce_s) ? INF : std::max(0.0, e.allreduce_s - req.overlap * e.compute_s);
  s.step_s = e.compute_s + exposed;
  s.work_s = s.steps * s.step_s;
  s.exposed_comm_step_s = exposed;
  s.mfu = std::isfinite(s.step_s) ? job.mfu * e.compute_s / s.step_s : 0;
  training::ParallelPlan plan;
  plan.tp = layout.tensor_parallel;
  plan.pp = layout.pipeline_parallel;
  plan.dp = layout.data_parallel;
  plan.recompute = training::Recompute::none;  // 6·N·D: no recomputation
  describe_efficiency(s, req, gpu, plan, 6 * req.params);
  s.layout_text = training::layout_text(plan) + ", MFU set by the request";
  return s;
}

std::optional<ModelledSpeed> modelled_training_speed(const TrainingRequest& req,
                                                     const InstanceType& it, const GpuSpec& gpu,
                                                     uint32_t nodes) {
  auto shape = training::shape_for_params(req.params);
  if (!shape) return std::nullopt;
  shape->seq_len = TRAINING_SEQ_LEN;
  training::SearchLimits limits;
  limits.sequences_per_step = req.tokens_per_step / TRAINING_SEQ_LEN;
  limits.max_pipeline = MAX_PIPELINE_STAGES;
  limits.quick = true;
  const training::Cluster cluster{&it, &gpu, nodes};
  const auto best = training::fastest_plan(*shape, cluster, req.precision, limits);
  if (!best) return std::nullopt;
  const training::StepTime& t = best->time;
  ModelledSpeed out;
  out.layout = {best->plan.tp, best->plan.pp, best->plan.dp};
  TrainingSpeed& s = out.speed;
  s.modelled = true;
  s.steps = req.tokens / t.tokens_per_step;
  s.compute_step_s = t.compute_s + t.optimizer_s;  // the optimizer step runs on the GPUs too
  s.allreduce_step_s = t.dp_comm_s;
  s.exposed_comm_step_s = t.exposed_comm_s;
  s.bubble_step_s = t.bubble_s;
  s.cap_step_s = t.cap_s;
  s.step_s = t.step_s;
  s.work_s = s.steps * s.step_s;
  s.mfu = t.mfu;
  s.micro_batches = best->plan.micro_batches;
  s.dp_busbw_gbyte_s = t.dp_busbw_gbyte_s;
  s.kernel_efficiency = t.efficiency;
  s.extrapolated = best->extrapolated;
  describe_efficiency(s, req, gpu, best->plan, t.model_flops_per_step / t.tokens_per_step);
  s.layout_text = training::layout_text(best->plan);
  return out;
}

SpotTiming spot_timing(double work_s, double hazard_per_s, double checkpoint_s, double restart_s,
                       double replacement_s, uint32_t replicas, uint64_t seed,
                       const ComputeBudget* budget) {
  SpotTiming t;
  t.hazard_per_s = hazard_per_s;
  if (hazard_per_s <= 0 || work_s <= 0) {
    t.expected_s = t.mc_mean_s = t.p50_s = t.p90_s = work_s;
    return t;
  }
  t.interval_s = economics::daly_interval_s(checkpoint_s, 1.0 / hazard_per_s).value_or(work_s);
  t.interval_s = std::min(t.interval_s, work_s);
  const economics::CheckpointedJob job{work_s, checkpoint_s, restart_s, replacement_s};
  t.expected_s =
      economics::expected_completion_time_s(job, t.interval_s, hazard_per_s).value_or(INF);
  // NOTE: a run expected to take 10x its failure-free time is useless to a customer and would
  // need millions of draws per replica; report it as not finishing.
  if (!(t.expected_s < MAX_SLOWDOWN * work_s)) {
    t.mc_mean_s = t.p50_s = t.p90_s = t.expected_s = INF;
    return t;
  }
  if (replicas == 0) {
    t.mc_mean_s = t.p50_s = t.p90_s = t.expected_s;
    t.expected_interruptions = hazard_per_s * t.expected_s;
    return t;
  }
  std::mt19937_64 rng(seed);
  const double n_segments = std::ceil(work_s / t.interval_s);
  const double last = work_s - (n_segments - 1) * t.interval_s;
  // Two draws end each replica's blocks, each interruption takes about two: fewer replicas past
  // the budget.
  const double draws_per_replica = 2 + 2 * hazard_per_s * t.expected_s;
  if (MC_DRAW_BUDGET / draws_per_replica < std::min(replicas, MIN_REPLICAS)) {
    sample_blocks(rng, n_segments, last, checkpoint_s, restart_s, replacement_s, t, budget);
    return t;
  }
  replicas = static_cast<uint32_t>(std::min(MC_DRAW_BUDGET / draws_per_replica, double(replicas)));
  t.replicas = replicas;
  std::vector<double> times(replicas);
  double interruptions = 0, sum = 0, sum_sq = 0;
  for (uint32_t r = 0; r < replicas; ++r) {
    if (r % BUDGET_CHECK_EVERY == 0) check_budget(budget);
    const double total = simulate_blocks(rng, n_segments - 1, t.interval_s + checkpoint_s,
                                         restart_s, replacement_s, hazard_per_s, interruptions) +
                         simulate_blocks(rng, 1, last + checkpoint_s, restart_s, replacement_s,
                                         hazard_per_s, interruptions);
    times[r] = total;
    sum += total;
    sum_sq += total * total;
  }
  std::sort(times.begin(), times.end());
  t.mc_mean_s = sum / replicas;
  const double var = std::max(0.0, sum_sq / replicas - t.mc_mean_s * t.mc_mean_s);
  t.mc_mean_se_s = replicas > 1 ? std::sqrt(var * replicas / (replicas - 1) / replicas) : 0;
  t.p50_s = quantile(times, 0.5);
  t.p90_s = quantile(times, 0.9);
  t.expected_interruptions = interruptions / replicas;
  return t;
}

const std::optional<ModelledSpeed>& TrainingSpeeds::at(uint32_t nodes) {
  // NOTE: the plan search at a new size is the quote's main cost outside the Monte Carlo; the
  // budget is checked before the size is entered, so a stopped search leaves no empty entry.
  if (!by_nodes_.contains(nodes)) check_budget(budget_);
  auto [pos, fresh] = by_nodes_.try_emplace(nodes);
  if (fresh) {
    if (req_.mfu) {
      const uint32_t gpn = std::max<uint32_t>(it_.gpus_per_node, 1);
      if (const auto layout = fit_training_layout(req_, gpu_, gpn, nodes))
        pos->second = ModelledSpeed{*layout, training_speed(req_, it_, gpu_, nodes, *layout)};
    } else {
      pos->second = modelled_training_speed(req_, it_, gpu_, nodes);
    }
  }
  return pos->second;
}

TrainingOption size_training(const TrainingRequest& req, const QuoteOptions& o,
                             const InstanceType& it, const GpuSpec& gpu, const PricingPlan& plan) {
  TrainingSpeeds speeds(req, it, gpu);
  return size_training(req, o, it, gpu, plan, speeds);
}

TrainingOption size_training(const TrainingRequest& req, const QuoteOptions& o,
                             const InstanceType& it, const GpuSpec& gpu, const PricingPlan& plan,
                             TrainingSpeeds& speeds) {
  TrainingOption opt;
  opt.instance = &it;
  opt.gpu = &gpu;
  opt.plan = plan;
  const auto price = plan_price(it, plan);
  const double peak = peak_tflops(gpu, req.precision);
  const uint32_t gpn = std::max<uint32_t>(it.gpus_per_node, 1);
  const auto max_nodes = static_cast<uint32_t>(std::max<uint64_t>(1, req.max_gpus / gpn));
  if (!price) {
    opt.infeasible_reason = "no " + plan.label() + " price in the catalog";
    return opt;
  }
  if (peak <= 0) {
    opt.infeasible_reason = "no tensor throughput figure for this precision";
    return opt;
  }
  const double hazard_per_node_s = o.spot_hazard_per_node_hour / SECONDS_PER_HOUR;
  const double failures_per_node_s = o.failure_rate_per_gpu_hour * gpn / SECONDS_PER_HOUR;
  // NOTE: gradient all-reduce and pipeline transfers between nodes need a scale-out network;
  // an instance without NICs in the catalog is a single-node option only.
  const uint32_t max_nodes_here = it.nics * it.nic_gbps > 0 ? max_nodes : 1;

  // Evaluates one cluster size; returns false when it has no layout or cannot run.
  struct Eval {
    uint32_t nodes = 0, spot_nodes = 0;
    TrainingLayout layout;
    TrainingSpeed speed;
    SpotTiming timing;
    double hourly = 0;
  };
  const auto speed_at = [&](uint32_t nodes) -> const std::optional<ModelledSpeed>& {
    return speeds.at(nodes);
  };
  const auto evaluate = [&](uint32_t nodes, bool with_mc, Eval& e) {
    const auto& sp = speed_at(nodes);
    if (!sp) return false;
    e.nodes = nodes;
    e.layout = sp->layout;
    e.speed = sp->speed;
    if (!std::isfinite(e.speed.work_s)) return false;
    e.spot_nodes = static_cast<uint32_t>(std::ceil(plan.spot_share * nodes - 1e-9));
    e.hourly = cluster_price_per_hour(nodes, e.spot_nodes, *price);
    // Any node's failure stops the synchronous job, as a preemption does: one Poisson process.
    const double hazard = e.spot_nodes * hazard_per_node_s + nodes * failures_per_node_s;
    e.timing = spot_timing(e.speed.work_s, hazard, req.checkpoint_s, req.restart_s,
                           req.replacement_s, with_mc ? o.replicas : 0, o.seed, speeds.budget());
    return true;
  };
  const auto cost_of = [&](const Eval& e, double seconds) {
    return plan_cost(plan, e.hourly, seconds).total_usd;
  };

  // Fewest nodes whose memory fits, searched up from a bound: the replicated 4 bytes per
  // parameter of ZeRO-1 must be split over at most every GPU of the cluster.
  const double usable = gpu.mem_gb * BYTES_PER_GB * (1 - TrainingJob{}.activation_reserve);
  uint32_t min_nodes = static_cast<uint32_t>(
      std::clamp<uint64_t>(ceil_div(req.params * (WEIGHT_BYTES + GRADIENT_BYTES), usable * gpn), 1,
                           max_nodes_here + 1ull));
  // Smallest size with a fitting plan, by bisection (more nodes shard more, so fitting is
  // monotone in the size).
  if (!speed_at(min_nodes)) {
    uint32_t lo = min_nodes, hi = max_nodes_here + 1;  // lo does not fit; hi = none tried fits
    while (hi - lo > 1) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if (speed_at(mid))
        hi = mid;
      else
        lo = mid;
    }
    min_nodes = hi;
  }
  if (min_nodes > max_nodes_here) {
    opt.infeasible_reason =
        max_nodes_here == 1
            ? "model states do not fit in one node (no scale-out network in "
              "the catalog)"
            : "model states do not fit in " + std::to_string(req.max_gpus) + " GPUs";
    return opt;
  }

  Eval best;
  bool found = false;
  if (req.deadline_s) {
    // Compute-only lower bound on the nodes: no cluster below it meets the deadline.
    const double gpu_s =
        req.tokens * 6 * req.params / (peak * 1e12 * req.mfu.value_or(MFU_UPPER_BOUND));
    uint32_t nodes =
        std::max<uint32_t>(min_nodes, static_cast<uint32_t>(std::min<uint64_t>(
                                          ceil_div(gpu_s / *req.deadline_s, gpn), max_nodes_here)));
    // The expected time falls with more nodes until communication or preemptions dominate, then
    // rises: find the fastest cluster by a ternary search on the analytic expectation.
    const auto expected_at = [&](uint32_t n) {
      Eval e;
      return evaluate(n, false, e) ? e.timing.expected_s : INF;
    };
    uint32_t lo = min_nodes, hi = max_nodes_here;
    while (hi - lo > 2) {
      const uint32_t m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
      const double f1 = expected_at(m1), f2 = expected_at(m2);
      if (std::isinf(f1) && std::isinf(f2))
        hi = m1;  // past the point where preemptions win
      else if (f1 <= f2)
        hi = m2;
      else
        lo = m1;
    }
    uint32_t fastest = lo;
    for (uint32_t n = lo + 1; n <= hi; ++n)
      if (expected_at(n) < expected_at(fastest)) fastest = n;
    // The smallest cluster up to the fastest whose time to finish (P90 with spot) fits: bisection
    // for the first expectation within the deadline (the time falls with size up to the
    // fastest), then upwards while the P90 misses.
    if (nodes < fastest && expected_at(nodes) > *req.deadline_s) {
      uint32_t lo = nodes, hi = fastest;  // lo misses the deadline
      while (hi - lo > 1) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (expected_at(mid) > *req.deadline_s)
          lo = mid;
        else
          hi = mid;
      }
      nodes = hi;
    }
    for (; nodes <= fastest; ++nodes) {
      Eval e;
      if (!evaluate(nodes, false, e) || e.timing.expected_s > *req.deadline_s) continue;
      if (plan.spot_share > 0) {
        evaluate(nodes, true, e);
        if (e.timing.p90_s > *req.deadline_s) continue;
      }
      best = e;
      found = true;
      break;
    }
    if (!found) {
      // Report the fastest cluster, marked as missing the deadline.
      Eval e;
      if (evaluate(fastest, plan.spot_share > 0 && expected_at(fastest) <= 2 * *req.deadline_s,
                   e) &&
          std::isfinite(e.timing.expected_s)) {
        best = e;
        found = true;
        opt.meets_deadline = false;
      }
    }
  } else {
    // Budget only: the most nodes (up to max_gpus) whose P50 cost stays within the budget.
    // NOTE: as with a deadline, the search runs on the analytic expectation (microseconds a
    // size) and the Monte Carlo only checks its answer, bisecting down at most
    // BUDGET_MC_PROBES times where the P50 costs more: a Monte Carlo at every step of the
    // search took minutes over the catalog.
    Eval e;
    uint32_t lo = min_nodes, hi = max_nodes_here;
    if (evaluate(lo, true, e)) {
      best = e;
      found = true;
      if (cost_of(e, e.timing.p50_s) <= *req.budget_usd) {
        while (lo < hi) {
          const uint32_t mid = lo + (hi - lo + 1) / 2;
          Eval m;
          if (evaluate(mid, false, m) && cost_of(m, m.timing.expected_s) <= *req.budget_usd) {
            lo = mid;
          } else {
            hi = mid - 1;
          }
        }
        // good: its P50 fits (min_nodes did); bad: it does not, or it is past the search.
        uint32_t good = min_nodes, bad = lo + 1, probe = lo;
        for (uint32_t k = 0; k < BUDGET_MC_PROBES && bad - good > 1; ++k) {
          Eval m;
          if (evaluate(probe, true, m) && cost_of(m, m.timing.p50_s) <= *req.budget_usd) {
            good = probe;
            best = m;
          } else {
            bad = probe;
          }
          probe = good + (bad - good) / 2;
        }
      }
    }
  }
  if (!found || !std::isfinite(best.timing.p90_s)) {
    Eval smallest;
    if (plan.spot_share > 0 && evaluate(min_nodes, false, smallest) &&
        smallest.timing.hazard_per_s > 0) {
      // NOTE: the reason states the figures that decide it, so a customer sees why and what
      // checkpoint interval was assumed (TrainingOption::timing keeps them).
      char rate[24];
      std::snprintf(rate, sizeof rate, "%.3g", o.spot_hazard_per_node_hour);
      opt.spot_nodes = smallest.spot_nodes;
      opt.timing = smallest.timing;
      opt.infeasible_reason =
          "spot preemptions too frequent to finish: even the smallest cluster that fits has " +
          std::to_string(smallest.spot_nodes) + " spot nodes, interrupted every " +
          duration_words(1 / smallest.timing.hazard_per_s) + " on average (" + std::string(rate) +
          " per node-hour each), against a checkpoint every " +
          duration_words(smallest.timing.interval_s) + " (Daly) that takes " +
          duration_words(req.checkpoint_s) + " to write and " +
          duration_words(req.restart_s + req.replacement_s) + " to restart on a new node";
      return opt;
    }
    opt.infeasible_reason =
        plan.spot_share > 0   ? "spot preemptions too frequent to finish (cluster MTBF below the "
                                "checkpoint cost)"
        : max_nodes_here == 1 ? "no scale-out network in the catalog, and one "
                                "node is too small or too slow"
                              : "no cluster up to " + std::to_string(req.max_gpus) +
                                    " GPUs can run it (network or memory)";
    return opt;
  }
  opt.feasible = true;
  opt.nodes = best.nodes;
  opt.gpus = best.nodes * gpn;
  opt.spot_nodes = best.spot_nodes;
  opt.layout = best.layout;
  opt.speed = best.speed;
  opt.timing = best.timing;
  opt.failure_hazard_per_s = best.nodes * failures_per_node_s;
  opt.hourly_usd = best.hourly;
  opt.monthly_usd = best.hourly * HOURS_PER_MONTH;
  opt.cost = plan_cost(plan, best.hourly, best.timing.p50_s);
  opt.total_usd = opt.cost.total_usd;
  opt.total_p90_usd = cost_of(best, best.timing.p90_s);
  opt.usd_per_tflops_hour = best.hourly / (opt.gpus * peak);
  if (req.deadline_s)
    opt.meets_deadline = opt.meets_deadline && best.timing.p90_s <= *req.deadline_s;
  if (req.budget_usd) opt.within_budget = opt.total_usd <= *req.budget_usd;
  opt.risk = risk_level(plan.spot_share, best.timing.p50_s / best.speed.work_s - 1);
  if (best.speed.modelled && best.speed.mfu < req.mfu_floor) {
    training::StepTime t;
    t.mfu = best.speed.mfu;
    t.step_s = best.speed.step_s;
    t.exposed_comm_s = best.speed.exposed_comm_step_s;
    t.bubble_s = best.speed.bubble_step_s;
    t.efficiency = best.speed.kernel_efficiency;
    opt.recommended = false;
    opt.not_recommended_reason = training::not_recommended_reason(t, req.mfu_floor);
  }
  return opt;
}

// ---- the whole quote -------------------------------------------------------------------------

namespace {

//! Instance types the filters of `o` select, in catalog order; with `priced`, only those with a
//! price (a row without one, until an overlay gives it, has nothing to quote).
std::vector<const InstanceType*> filtered_instances(const Catalog& catalog, const QuoteOptions& o,
                                                    bool priced) {
  const auto listed = [](const std::vector<std::string>& list, const std::string& v) {
    return list.empty() || std::any_of(list.begin(), list.end(), [&](const std::string& x) {
             return std::equal(x.begin(), x.end(), v.begin(), v.end(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) ==
                      std::tolower(static_cast<unsigned char>(b));
             });
           });
  };
  std::vector<const InstanceType*> out;
  for (const auto& it : catalog.instances) {
    const bool provider_ok =
        o.providers.empty() ? it.provider != "on_prem" : listed(o.providers, it.provider);
    // NOTE: a fractional vGPU type cannot hold a whole-GPU replica or training rank.
    if (provider_ok && it.gpu_fraction.empty() && (!priced || it.priced()) &&
        listed(o.gpus, it.gpu) && listed(o.instances, it.id) && catalog.find_gpu(it.gpu) != nullptr)
      out.push_back(&it);
  }
  return out;
}

}  // namespace

std::vector<const InstanceType*> candidate_instances(const Catalog& catalog,
                                                     const QuoteOptions& o) {
  return filtered_instances(catalog, o, true);
}

bool options_available(const QuoteRequest& req, const Catalog& catalog, Diagnostics& diags) {
  const QuoteOptions& o = req.options;
  if (!candidate_instances(catalog, o).empty()) return true;
  // NOTE: named at the narrowest filter given, the one a user changes first.
  const std::string at = !o.instances.empty() ? "/options/instances"
                         : !o.gpus.empty()    ? "/options/gpus"
                                              : "/options/providers";
  const std::vector<const InstanceType*> unpriced = filtered_instances(catalog, o, false);
  if (unpriced.empty()) {
    diags.error(at, DiagCode::infeasible,
                "no whole-GPU instance type of the catalog matches these filters together; "
                "`gpuplan catalog` lists the types by provider and GPU");
    return false;
  }
  std::string names;
  for (std::size_t i = 0; i < unpriced.size() && i < 3; ++i)
    names += (i == 0 ? "" : ", ") + unpriced[i]->id;
  if (unpriced.size() > 3) names += " and " + std::to_string(unpriced.size() - 3) + " more";
  diags.error(at, DiagCode::infeasible,
              std::string(unpriced.size() == 1 ? "the instance type" : "every instance type") +
                  " these filters select (" + names + ") " +
                  (unpriced.size() == 1 ? "has" : "have") +
                  " no public price, so there is nothing to quote; give the price you are "
                  "quoted as a catalog overlay (docs/catalog-import.md: a CSV of instance, term, "
                  "price and date through `gpuplan catalog import`, then --catalog-overlay FILE)");
  return false;
}

bool inference_servable(const QuoteRequest& req, const Quote& q, Diagnostics& diags) {
  if (!req.inference) return true;
  const InferenceOption* nearest = nullptr;
  bool sized = false;  // some option got past the price check to the sizing
  for (const InferenceOption& o : q.inference) {
    if (o.feasible) return true;
    if (o.miss_ratio != 0) sized = true;
    if (!o.miss_key.empty() && std::isfinite(o.miss_ratio) &&
        (!nearest || o.miss_ratio < nearest->miss_ratio))
      nearest = &o;
  }
  if (!sized) return true;  // the filters left no priced option: the table says so
  if (!nearest) {
    char params[32];
    std::snprintf(params, sizeof params, "%.1fB", req.inference->params / 1e9);
    diags.error("/inference/model", DiagCode::infeasible,
                "the model's weights fit no catalog node with room for one sequence's KV cache (" +
                    std::string(params) +
                    " parameters); try fp8, a larger GPU, or fewer tokens per request");
    return false;
  }
  const std::string& r = nearest->infeasible_reason;
  const auto at = r.find("nearest is ");
  diags.error("/inference/" + nearest->miss_key, DiagCode::infeasible,
              "no catalog option meets the targets; the nearest miss is " + nearest->instance->id +
                  " with " + (at == std::string::npos ? r : r.substr(at + 11)));
  return false;
}

Quote make_quote(const QuoteRequest& req, const Catalog& catalog, std::chrono::year_month_day today,
                 const ComputeBudget* budget) {
  Quote q;
  q.today = today_string(today);
  for (const InstanceType* it : candidate_instances(catalog, req.options)) {
    check_budget(budget);
    const GpuSpec& gpu = *catalog.find_gpu(it->gpu);
    const bool stale = row_stale(*it, today, req.options.stale_after_months);
    // NOTE: the replica sizing does not depend on the pricing plan; size once per instance.
    const auto sizing =
        req.inference ? std::optional(size_replicas(*req.inference, *it, gpu)) : std::nullopt;
    std::optional<TrainingSpeeds> speeds;
    if (req.training) speeds.emplace(*req.training, *it, gpu, budget);
    for (const PricingPlan& plan : plans_for(*it, req.options)) {
      if (req.training) {
        TrainingOption& o = q.training.emplace_back(
            size_training(*req.training, req.options, *it, gpu, plan, *speeds));
        o.stale = stale;
        if (o.feasible) o.energy = training_energy(*it, gpu, o.nodes, o.timing.p50_s);
      }
      if (req.inference) {
        InferenceOption& o = q.inference.emplace_back(
            price_inference(*req.inference, req.options, *it, gpu, plan, *sizing));
        o.stale = stale;
        if (o.feasible)
          o.energy = inference_energy(*it, gpu, o.nodes, o.serving_nodes, o.sizing.utilization);
      }
    }
  }
  // Feasible first, then those meeting every target, then the cheapest total; ties by time.
  std::stable_sort(q.training.begin(), q.training.end(),
                   [](const TrainingOption& a, const TrainingOption& b) {
                     const auto key = [](const TrainingOption& o) {
                       return std::make_tuple(!o.feasible, !(o.meets_deadline && o.within_budget),
                                              !o.recommended, o.feasible ? o.total_usd : INF,
                                              o.feasible ? o.timing.p90_s : INF);
                     };
                     return key(a) < key(b);
                   });
  std::stable_sort(q.inference.begin(), q.inference.end(),
                   [](const InferenceOption& a, const InferenceOption& b) {
                     const auto key = [](const InferenceOption& o) {
                       return std::make_tuple(!o.feasible, !o.meets_target,
                                              o.feasible ? o.total_usd : INF,
                                              o.feasible ? o.sizing.ttft_p99_s : o.miss_ratio);
                     };
                     return key(a) < key(b);
                   });
  return q;
}

}  // namespace gpuplan::quote
