#include "study/serving_study.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include <omp.h>

#include "models/perf/inference/roofline.h"
#include "sim/backends/mc_cuda.h"
#include "sim/core/sketch.h"
#include "sim/serving/serving_buffers.h"

namespace gpuplan {
namespace {

LatencyFigures figures_of(const serving::Latency& l) {
  LatencyFigures f;
  f.n = l.moments.n;
  f.mean = l.moments.mean();
  f.p50 = sketch_quantile(l.sketch, 0.5);
  f.p90 = sketch_quantile(l.sketch, 0.9);
  f.p99 = sketch_quantile(l.sketch, 0.99);
  return f;
}

ServingFigures figures_of(const serving::ServingView& v, const serving::ServingStats& st) {
  ServingFigures f;
  f.ttft = figures_of(st.ttft);
  f.itl = figures_of(st.itl);
  f.tpot = figures_of(st.tpot);
  f.e2e = figures_of(st.e2e);
  f.wait = figures_of(st.wait);
  f.completed = st.completed;
  f.counted = st.counted;
  f.met_slo = st.met_slo;
  f.preemptions = st.preemptions;
  f.steps = st.steps;
  f.wait_growth = st.wait_trend.slope();
  f.queue_overflow = st.saturated;
  f.decode_wait_growth = st.decode_wait_trend.slope();
  f.saturated =
      st.saturated || f.wait_growth > WAIT_GROWTH_LIMIT || f.decode_wait_growth > WAIT_GROWTH_LIMIT;
  f.simulated_s = st.end_s;
  const double window = st.end_s - std::max(0.0, st.first_counted_arrival_s);
  const bool scaling = v.autoscale.max_replicas > 0;
  f.replicas_mean = scaling && st.end_s > 0 ? st.replica_s / st.end_s : double(v.n_replicas);
  f.replicas_peak = scaling ? st.peak_replicas : v.n_replicas;
  f.scale_ups = st.scale_ups;
  f.scale_downs = st.scale_downs;
  const double gpus = billed_gpus(v, f);
  f.slo_attainment = st.counted > 0 ? double(st.met_slo) / double(st.counted) : 0;
  f.goodput_rps = window > 0 ? double(st.met_slo) / window : 0;
  f.goodput_rps_per_gpu = f.goodput_rps / gpus;
  f.throughput_rps = window > 0 ? double(st.counted) / window : 0;
  f.output_tokens_per_s = st.end_s > 0 ? double(st.sampled_tokens) / st.end_s : 0;
  // NOTE: with autoscaling, the blocks of the replicas billed (one pool: no disaggregation).
  const double block_time =
      scaling ? double(v.sched.kv_blocks) * st.replica_s : cluster_kv_blocks(v) * st.end_s;
  f.kv_occupancy_mean = block_time > 0 ? st.kv_block_s / block_time : 0;
  f.kv_occupancy_peak = st.kv_peak_share;
  f.prefix_hit_rate =
      st.prompt_tokens > 0 ? double(st.prefix_hit_tokens) / double(st.prompt_tokens) : 0;
  f.preemptions_per_1k = st.completed > 0 ? 1e3 * double(st.preemptions) / st.completed : 0;
  f.busy_share = st.end_s > 0 ? st.busy_s / (st.end_s * v.n_replicas) : 0;
  return f;
}

//! Mean and 95% interval of `xs` (Student t; the interval is the mean with one value).
template <class Get>
Estimate estimate(const std::vector<ServingFigures>& rs, Get get) {
  Estimate e;
  const size_t n = rs.size();
  double sum = 0;
  for (const auto& r : rs) sum += get(r);
  e.mean = sum / double(n);
  e.ci95_low = e.ci95_high = e.mean;
  if (n < 2) return e;
  double ss = 0;
  for (const auto& r : rs) ss += (get(r) - e.mean) * (get(r) - e.mean);
  // t(0.975, n - 1): exact for small n, 1.96 beyond 30
  static const double T[] = {0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
                             2.306, 2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
                             2.120, 2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
                             2.064, 2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
  const double t = n - 1 <= 30 ? T[n - 1] : 1.96;
  const double half = t * std::sqrt(ss / double(n - 1) / double(n));
  e.ci95_low = e.mean - half;
  e.ci95_high = e.mean + half;
  return e;
}

//! Adds `from`'s bins to `into`'s, the finer of the two widened to the other's width (widths
//! are the same first width doubled, so the bins line up).
void merge_series(serving::ServingSeries& into, serving::ServingSeries from) {
  while (into.width_s < from.width_s) serving::series_widen(into);
  while (from.width_s < into.width_s) serving::series_widen(from);
  for (uint32_t b = 0; b < serving::SERIES_BINS; ++b) {
    into.kv_block_s[b] += from.kv_block_s[b];
    into.preemptions[b] += from.preemptions[b];
    into.replica_s[b] += from.replica_s[b];
  }
}

//! Fills the study's time series from the replicas' series merged, up to the last completion.
void series_of(const serving::ServingView& v, const std::vector<serving::ServingStats*>& stats,
               ServingStudy& out) {
  if (stats.empty()) return;
  serving::ServingSeries all = stats[0]->series;
  double end = stats[0]->end_s;
  for (size_t k = 1; k < stats.size(); ++k) {
    merge_series(all, stats[k]->series);
    end = std::max(end, stats[k]->end_s);
  }
  const double w = all.width_s, n = double(stats.size()), blocks = serving::cluster_kv_blocks(v);
  const auto bins = std::min<uint32_t>(serving::SERIES_BINS, uint32_t(std::ceil(end / w)));
  out.series_bin_s = w;
  for (uint32_t b = 0; b < bins; ++b) {
    // NOTE: the last bin is cut at the last completion.
    const double span = std::min(w, end - b * w);
    // NOTE: with autoscaling, a share of the blocks of the replicas billed in the bin.
    const double block_s = v.autoscale.max_replicas > 0
                               ? double(v.sched.kv_blocks) * all.replica_s[b]
                               : span * blocks * n;
    out.kv_occupancy.push_back(span > 0 && block_s > 0 ? all.kv_block_s[b] / block_s : 0.0);
    out.preemptions.push_back(double(all.preemptions[b]) / n);
    if (v.autoscale.max_replicas > 0)
      out.replicas_billed.push_back(span > 0 ? all.replica_s[b] / (span * n) : 0.0);
  }
}

//! Sets f's cost figures for GPUs costing `usd_per_gpu_hour`: the cluster's, or with autoscaling
//! those billed on average.
void price_figures(const serving::ServingView& v, double usd_per_gpu_hour, ServingFigures& f) {
  f.usd_per_hour = billed_gpus(v, f) * usd_per_gpu_hour;
  const double tokens_per_hour = f.output_tokens_per_s * 3600.0;
  f.usd_per_million_output_tokens =
      tokens_per_hour > 0 ? f.usd_per_hour / tokens_per_hour * 1e6 : 0;
}

}  // namespace

double billed_gpus(const serving::ServingView& v, const ServingFigures& f) {
  // NOTE: autoscaling runs one pool (no disaggregation).
  return v.autoscale.max_replicas > 0 ? f.replicas_mean * v.gpus_per_replica
                                      : serving::cluster_gpus(v);
}

ServingStudy run_serving_study(const ServingScenario& sc, uint32_t threads, McBackend backend) {
  const int nt = threads > 0 ? int(threads) : omp_get_max_threads();
  ServingStudy out;
  const serving::ServingView base = serving_view(sc);
  auto pooled = std::make_unique<serving::ServingStats>();
  serving::ServingStats& p = *pooled;
  p.first_counted_arrival_s = 0;
  out.replicas.resize(sc.replications);
  std::vector<std::unique_ptr<serving::ServingStats>> stats(sc.replications);
  if (backend == McBackend::cuda) {
    std::vector<serving::ServingStats> device;
    cuda_module().run_serving(base, sc.queue_capacity, 0, sc.replications, device);
    for (uint32_t k = 0; k < sc.replications; ++k)
      stats[k] = std::make_unique<serving::ServingStats>(device[k]);
  } else {
    // NOTE: replicas are independent (their own Philox key), so they run in parallel and give
    // the same numbers on any thread count.
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt)
    for (uint32_t k = 0; k < sc.replications; ++k) {
      serving::ServingView v = base;
      v.mc_replica = k;
      serving::ClusterBuffers b(v, sc.queue_capacity);
      serving::run_cluster(v, b.state);
      stats[k] = std::make_unique<serving::ServingStats>(*b.state.stats);
    }
  }
  for (uint32_t k = 0; k < sc.replications; ++k) out.replicas[k] = figures_of(base, *stats[k]);
  double window = 0;
  for (const auto& s : stats) {
    const auto merge = [](serving::Latency& into, const serving::Latency& from) {
      sketch_merge(into.sketch, from.sketch);
      into.moments.n += from.moments.n;
      into.moments.sum += from.moments.sum;
      into.moments.max = std::max(into.moments.max, from.moments.max);
    };
    merge(p.ttft, s->ttft);
    merge(p.itl, s->itl);
    merge(p.tpot, s->tpot);
    merge(p.e2e, s->e2e);
    merge(p.wait, s->wait);
    p.arrived += s->arrived;
    p.completed += s->completed;
    p.counted += s->counted;
    p.met_slo += s->met_slo;
    p.preemptions += s->preemptions;
    p.prompt_tokens += s->prompt_tokens;
    p.prefix_hit_tokens += s->prefix_hit_tokens;
    p.prefill_tokens += s->prefill_tokens;
    p.decode_tokens += s->decode_tokens;
    p.sampled_tokens += s->sampled_tokens;
    p.steps += s->steps;
    p.kv_block_s += s->kv_block_s;
    p.busy_s += s->busy_s;
    p.replica_s += s->replica_s;
    p.peak_replicas = std::max(p.peak_replicas, s->peak_replicas);
    p.scale_ups += s->scale_ups;
    p.scale_downs += s->scale_downs;
    p.end_s += s->end_s;
    p.kv_peak_blocks = std::max(p.kv_peak_blocks, s->kv_peak_blocks);
    p.kv_peak_share = std::max(p.kv_peak_share, s->kv_peak_share);
    p.max_step_tokens = std::max(p.max_step_tokens, s->max_step_tokens);
    p.saturated = p.saturated || s->saturated;
    serving::merge(p.wait_trend, s->wait_trend);
    serving::merge(p.decode_wait_trend, s->decode_wait_trend);
    window += s->end_s - std::max(0.0, s->first_counted_arrival_s);
  }
  // NOTE: the pooled rates are over the replicas' windows summed, as if run one after another.
  p.first_counted_arrival_s = p.end_s - window;
  out.pooled = figures_of(base, p);
  out.pooled.simulated_s = p.end_s / std::max<uint32_t>(sc.replications, 1);
  {
    std::vector<serving::ServingStats*> all;
    for (const auto& st : stats) all.push_back(st.get());
    series_of(base, all, out);
  }
  if (sc.price) {
    price_figures(base, sc.price->usd_per_gpu_hour, out.pooled);
    for (ServingFigures& f : out.replicas) price_figures(base, sc.price->usd_per_gpu_hour, f);
  }
  const auto& rs = out.replicas;
  out.ttft_mean = estimate(rs, [](const ServingFigures& f) { return f.ttft.mean; });
  out.ttft_p99 = estimate(rs, [](const ServingFigures& f) { return f.ttft.p99; });
  out.itl_mean = estimate(rs, [](const ServingFigures& f) { return f.itl.mean; });
  out.itl_p99 = estimate(rs, [](const ServingFigures& f) { return f.itl.p99; });
  out.tpot_p99 = estimate(rs, [](const ServingFigures& f) { return f.tpot.p99; });
  out.e2e_mean = estimate(rs, [](const ServingFigures& f) { return f.e2e.mean; });
  out.e2e_p99 = estimate(rs, [](const ServingFigures& f) { return f.e2e.p99; });
  out.goodput_rps = estimate(rs, [](const ServingFigures& f) { return f.goodput_rps; });
  out.slo_attainment = estimate(rs, [](const ServingFigures& f) { return f.slo_attainment; });
  out.usd_per_million_output_tokens =
      estimate(rs, [](const ServingFigures& f) { return f.usd_per_million_output_tokens; });
  out.replicas_mean = estimate(rs, [](const ServingFigures& f) { return f.replicas_mean; });
  // NOTE: the t interval is symmetric; a figure near its bound would reach past it (a share above
  // 1, a latency below 0), so each is clipped to what the figure can be.
  for (Estimate* e :
       {&out.ttft_mean, &out.ttft_p99, &out.itl_mean, &out.itl_p99, &out.tpot_p99, &out.e2e_mean,
        &out.e2e_p99, &out.goodput_rps, &out.slo_attainment, &out.usd_per_million_output_tokens})
    e->ci95_low = std::max(0.0, e->ci95_low);
  out.slo_attainment.ci95_high = std::min(1.0, out.slo_attainment.ci95_high);

  // The roofline of one request alone at the workload's mean lengths.
  double in = base.load.prompt_a, outn = base.load.output_a;
  if (!sc.lengths.empty()) {
    // NOTE: a replay takes the first n_requests rows in order; Poisson arrivals draw any row.
    const size_t rows = sc.arrival_times.empty()
                            ? sc.lengths.size()
                            : std::min<size_t>(sc.lengths.size(), base.load.n_requests);
    double si = 0, so = 0;
    for (size_t k = 0; k < rows; ++k) {
      si += sc.lengths[k].prompt;
      so += sc.lengths[k].output;
    }
    in = si / double(rows);
    outn = so / double(rows);
  }
  in += base.load.prefix_share * base.load.prefix_tokens;
  out.mean_prompt = in;
  out.mean_output = outn;
  inference::ServingRequest rq = sc.request;
  rq.tokens_in = in;
  rq.tokens_out = outn;
  const auto e = inference::estimate_serving(sc.model, sc.gpu, sc.fabric, rq);
  out.roofline_ttft_s = e.ttft_s;
  out.roofline_tpot_s = e.tpot_s;
  return out;
}

}  // namespace gpuplan
