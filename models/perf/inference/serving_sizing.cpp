#include "models/perf/inference/serving_sizing.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <tuple>

#include "models/perf/queueing.h"

namespace gpuplan::inference {
namespace {

// Standard normal quantile at 0.99, for the Poisson tail of a large mean.
constexpr double Z99 = 2.3263478740408408;
// Above this mean the Poisson quantiles use the normal approximation (exp(-mean) underflows).
constexpr double POISSON_EXACT_MAX_MEAN = 500;

//! q-quantile of a Poisson count with `mean` (q = 0.5 or 0.99 above the exact range).
double poisson_quantile(double mean, double q) {
  if (mean <= 0) return 0;
  if (mean > POISSON_EXACT_MAX_MEAN)
    return std::ceil(mean + (q >= 0.99 ? Z99 : 0.0) * std::sqrt(mean) - 0.5);
  double pmf = std::exp(-mean), cdf = pmf, k = 0;
  while (cdf < q) {
    ++k;
    pmf *= mean / k;
    cdf += pmf;
  }
  return k;
}

//! The roofline of one replica of `tp` GPUs at `batch` sequences.
ServingEstimate roofline_at(const ReplicaHardware& hw, uint32_t tp, uint32_t batch,
                            double tokens_in, double tokens_out) {
  ServingRequest r = hw.roofline;
  r.tp = tp;
  r.batch = std::max<uint32_t>(batch, 1);
  r.tokens_in = tokens_in;
  r.tokens_out = tokens_out;
  return estimate_serving(*hw.model, *hw.gpu, hw.fabric, r);
}

//! One prompt's prefill inside the decode steps: its compute and its all-reduces, no weight read.
double chunked_prefill_s(const ServingEstimate& one) {
  const double tp_comm = one.ttft_s - std::max(one.prefill_compute_s, one.prefill_memory_s);
  return one.prefill_compute_s + std::max(tp_comm, 0.0);
}

uint32_t usable_batch(const ServingEstimate& one, const SizingLimits& limits) {
  return static_cast<uint32_t>(
      std::min<uint64_t>(one.max_batch_by_memory, std::max<uint32_t>(limits.max_batch, 1)));
}

std::string seconds_text(double s) {
  char buf[32];
  if (s < 1)
    std::snprintf(buf, sizeof buf, "%.0f ms", s * 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}

}  // namespace

ServingPlan evaluate_plan(const ReplicaHardware& hw, uint32_t tp, uint32_t batch, uint32_t replicas,
                          const TokenLoad& load, const TokenSlo& slo, const SizingLimits& limits) {
  ServingPlan p;
  p.tp = tp;
  p.batch = batch;
  p.replicas = replicas;
  const uint32_t per_node = std::max<uint32_t>(hw.gpus_per_node / std::max<uint32_t>(tp, 1), 1);
  p.nodes = (replicas + limits.spares + per_node - 1) / per_node;
  const ServingEstimate one = roofline_at(hw, tp, 1, load.tokens_in, load.tokens_out);
  p.weight_bytes = one.weight_bytes;
  p.kv_bytes_per_token = one.kv_bytes_per_token;
  p.max_batch_by_memory = one.max_batch_by_memory;
  const auto fail = [&](std::string why) {
    p.miss = std::move(why);
    p.miss_ratio = std::numeric_limits<double>::infinity();
    return p;
  };
  if (!one.fits || batch < 1 || batch > one.max_batch_by_memory || replicas < 1)
    return fail("the KV cache of " + std::to_string(batch) + " sequences does not fit");
  const double P = chunked_prefill_s(one);
  p.prefill_s = P;
  const double O = load.tokens_out;
  double lambda_r = 0;  // requests/s per replica
  if (load.concurrent_streams > 0) {
    const double n = load.concurrent_streams / replicas;  // streams per replica
    const auto in_use = static_cast<uint32_t>(std::ceil(n - 1e-9));
    if (in_use > batch) return fail("more streams than slots");
    p.step_s = roofline_at(hw, tp, in_use, load.tokens_in, O).tpot_s;
    // S = P + O·T / (1 − n·P / S), with λ_r = n / S (Little): S² − (P (1 + n) + O T) S + n P² = 0.
    const double b = P * (1 + n) + O * p.step_s;
    p.slot_s = 0.5 * (b + std::sqrt(std::max(b * b - 4 * n * P * P, 0.0)));
    lambda_r = n / p.slot_s;
    p.requests_per_s = load.concurrent_streams / p.slot_s;
    p.loaded_step_s = p.step_s / (1 - lambda_r * P);
    p.utilization = n / batch;
  } else {
    p.requests_per_s = load.requests_per_s;
    lambda_r = p.requests_per_s / replicas;
    p.step_s = roofline_at(hw, tp, batch, load.tokens_in, O).tpot_s;
    if (lambda_r * P >= 1) return fail("prefills alone exceed the replicas' time");
    p.loaded_step_s = p.step_s / (1 - lambda_r * P);
    p.slot_s = P + O * p.loaded_step_s;
    const double slots = static_cast<double>(replicas) * batch;
    const double a = p.requests_per_s * p.slot_s;  // offered load [slots]
    if (a >= slots || slots > UINT32_MAX) return fail("the slots cannot keep up");
    const auto c = static_cast<uint32_t>(slots);
    const queueing::MmcWait wait = queueing::mmc_wait(c, p.requests_per_s, 1 / p.slot_s);
    p.p_wait = wait.p_wait;
    p.wait_mean_s = wait.mean_s();
    p.wait_p99_s = wait.quantile_s(0.99);
    p.utilization = a / slots;
    p.ttft_p50_s = wait.quantile_s(0.5);
  }
  p.stable = true;
  const auto prompt_prefill = [&](double tokens) {
    return tokens > 0 && tokens != load.tokens_in ? prefill_s(hw, tp, tokens) : P;
  };
  p.ttft_p50_s += prompt_prefill(load.tokens_in_p50) + p.step_s;
  p.ttft_p99_s = p.wait_p99_s + prompt_prefill(load.tokens_in_p99) + p.step_s;
  const double prefills = lambda_r * O * p.loaded_step_s;  // mean prefills during one generation
  p.tpot_p50_s = p.step_s + poisson_quantile(prefills, 0.5) * P / O;
  p.tpot_p99_s = p.step_s + poisson_quantile(prefills, 0.99) * P / O;
  p.e2e_p99_s = p.ttft_p99_s + O * p.tpot_p99_s;
  p.capacity_tokens_per_s =
      replicas * saturated_tokens_per_s(hw, tp, batch, load.tokens_in, O, limits);
  p.demand_tokens_per_s = p.requests_per_s * O;

  p.meets = true;
  const auto check = [&](const char* what, const char* key, double achieved, double target) {
    if (target <= 0) return;
    const double ratio = achieved / target;
    if (ratio > 1) p.meets = false;
    if (ratio > p.miss_ratio) {
      p.miss_ratio = ratio;
      p.miss = std::string(what) + " " + seconds_text(achieved) + (ratio > 1 ? " > " : " ≤ ") +
               seconds_text(target);
      p.miss_key = key;
    }
  };
  check("TTFT p99", "ttft_p99", p.ttft_p99_s, slo.ttft_p99_s);
  check("TPOT p99", "tpot_p99", p.tpot_p99_s, slo.tpot_p99_s);
  check("end-to-end p99", "p99_latency", p.e2e_p99_s, slo.e2e_p99_s);
  if (p.utilization > limits.max_utilization) {
    p.meets = false;
    const double ratio = p.utilization / limits.max_utilization;
    if (ratio > p.miss_ratio) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "slots %.0f%% busy > %.0f%%", 100 * p.utilization,
                    100 * limits.max_utilization);
      p.miss_ratio = ratio;
      p.miss = buf;
      p.miss_key = "max_utilization";
    }
  }
  return p;
}

double prefill_s(const ReplicaHardware& hw, uint32_t tp, double tokens_in) {
  return tokens_in > 0 ? chunked_prefill_s(roofline_at(hw, tp, 1, tokens_in, 1)) : 0.0;
}

double saturated_tokens_per_s(const ReplicaHardware& hw, uint32_t tp, uint32_t batch,
                              double tokens_in, double tokens_out, const SizingLimits& limits) {
  const ServingEstimate one = roofline_at(hw, tp, 1, tokens_in, tokens_out);
  if (!one.fits) return 0;
  const uint32_t b = batch > 0 ? batch : usable_batch(one, limits);
  if (b < 1) return 0;
  const double step = roofline_at(hw, tp, b, tokens_in, tokens_out).tpot_s;
  const double round = b * chunked_prefill_s(one) + tokens_out * step;
  return round > 0 ? b * tokens_out / round : 0;
}

SizingResult size_serving(const ReplicaHardware& hw, const TokenLoad& load, const TokenSlo& slo,
                          const SizingLimits& limits) {
  SizingResult out;
  const uint32_t gpn = std::max<uint32_t>(hw.gpus_per_node, 1);
  const auto better = [](const ServingPlan& a, const ServingPlan& b) {
    return std::make_tuple(a.nodes, a.utilization, a.tp) <
           std::make_tuple(b.nodes, b.utilization, b.tp);
  };
  for (uint32_t tp = 1; tp <= gpn; tp *= 2) {
    if (gpn % tp != 0) continue;
    const ServingEstimate one = roofline_at(hw, tp, 1, load.tokens_in, load.tokens_out);
    if (!one.fits) continue;
    const uint32_t b_max = usable_batch(one, limits);
    // Largest batch whose bare decode step meets the TPOT target (the step grows with the batch).
    uint32_t b_top = b_max;
    if (slo.tpot_p99_s > 0 &&
        roofline_at(hw, tp, b_max, load.tokens_in, load.tokens_out).tpot_s > slo.tpot_p99_s) {
      uint32_t lo = 0, hi = b_max;  // step(lo) meets (or lo = 0), step(hi) does not
      while (hi - lo > 1) {
        const uint32_t mid = lo + (hi - lo) / 2;
        (roofline_at(hw, tp, mid, load.tokens_in, load.tokens_out).tpot_s <= slo.tpot_p99_s ? lo
                                                                                            : hi) =
            mid;
      }
      b_top = std::max<uint32_t>(lo, 1);
    }
    // NOTE: smaller batches trade slots for shorter steps; the batch and three halvings of it
    // cover the TPOT tails that prefill interference adds.
    for (uint32_t batch = b_top, n = 0; batch >= 1 && n < 4; batch /= 2, ++n) {
      const uint32_t max_r = limits.max_replicas;
      const ServingPlan widest = evaluate_plan(hw, tp, batch, max_r, load, slo, limits);
      if (!widest.meets) {
        if (!out.nearest_miss || widest.miss_ratio < out.nearest_miss->miss_ratio)
          out.nearest_miss = widest;
        continue;
      }
      // Meeting the targets is monotone in the replica count: bisect for the fewest.
      uint32_t lo = 0, hi = max_r;  // lo misses (or is 0), hi meets
      while (hi - lo > 1) {
        const uint32_t mid = lo + (hi - lo) / 2;
        (evaluate_plan(hw, tp, batch, mid, load, slo, limits).meets ? hi : lo) = mid;
      }
      const ServingPlan plan = evaluate_plan(hw, tp, batch, hi, load, slo, limits);
      if (!out.best || better(plan, *out.best)) out.best = plan;
    }
  }
  if (out.best) return out;
  if (out.nearest_miss) {
    const ServingPlan& m = *out.nearest_miss;
    out.reason = "no replica size meets the targets: nearest is " + std::to_string(m.tp) +
                 " GPU(s) per replica at batch " + std::to_string(m.batch) + ", " + m.miss;
  } else {
    out.reason = "the weights do not fit one node with room for a sequence's KV cache";
  }
  return out;
}

}  // namespace gpuplan::inference
