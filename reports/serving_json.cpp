#include "reports/serving_json.h"

#include <algorithm>

#include "models/input/names.h"
#include "models/perf/inference/roofline.h"

namespace gpuplan::reports {
namespace {

using nlohmann::json;

json latency(const LatencyFigures& l) {
  return {{"mean", l.mean}, {"p50", l.p50}, {"p90", l.p90}, {"p99", l.p99}, {"count", l.n}};
}

const char* router_name(serving::Router r) {
  switch (r) {
    case serving::Router::round_robin:
      return "round_robin";
    case serving::Router::least_outstanding_tokens:
      return "least_outstanding_tokens";
    case serving::Router::cache_aware:
      return "cache_aware";
  }
  return "";
}

}  // namespace

json interval_json(const Estimate& e) {
  return {{"mean", e.mean}, {"ci95_low", e.ci95_low}, {"ci95_high", e.ci95_high}};
}

json serving_json(const ServingScenario& sc, const ServingStudy& s) {
  const serving::ServingView& v = sc.view;
  const ServingFigures& f = s.pooled;
  json out;
  out["scenario"] = sc.name;
  out["gpuplan_version"] = GPUPLAN_VERSION;
  out["seed"] = sc.seed;
  out["replications"] = sc.replications;
  out["replica"] = {{"model", sc.model_id},
                    {"gpu", sc.gpu_id},
                    {"tp", sc.tp},
                    {"fabric", sc.fabric},
                    {"replicas", v.n_replicas},
                    {"gpus", static_cast<uint64_t>(serving::cluster_gpus(v))},
                    {"weights_gb", sc.replica.weight_bytes / 1e9},
                    {"kv_blocks", v.sched.kv_blocks},
                    {"kv_tokens", double(v.sched.kv_blocks) * v.sched.block_tokens},
                    {"router", router_name(v.router)},

                    {"scheduler",
                     {{"max_num_batched_tokens", v.sched.max_num_batched_tokens},
                      {"max_num_seqs", v.sched.max_num_seqs},
                      {"block_size", v.sched.block_tokens},
                      {"chunked_prefill", v.sched.chunked_prefill},
                      {"prefix_caching", v.sched.prefix_caching},
                      {"async_scheduling", v.sched.async_scheduling}}}};
  const inference::ServingEfficiency e = inference::effective_efficiency(sc.gpu, sc.request);
  out["replica"]["efficiency"] = {{"prefill_compute", e.prefill_compute},
                                  {"decode_bandwidth", e.decode_bandwidth},
                                  {"step_overhead_s", v.step.overhead_s},
                                  {"sequence_overhead_s", v.step.sequence_s},
                                  {"request_overhead_s", v.request_overhead_s}};
  // The kernel a step's tensor-parallel all-reduces may take beside NCCL's ring.
  out["replica"]["tp_all_reduce"] = sc.tp < 2                       ? "none"
                                    : v.step.comm_small_fixed_s > 0 ? "nccl_or_vllm_custom"
                                                                    : "nccl";
  if (v.n_prefill > 0) {
    const uint32_t links = kv_transfer_links(sc);
    out["replica"]["disaggregated"] = {
        {"prefill_replicas", v.n_prefill},
        {"decode_replicas", v.n_replicas - v.n_prefill},
        {"kv_transfer",
         {{"bandwidth_gbps_per_gpu", v.kv_transfer_bandwidth * 8 / 1e9 / links},
          {"links", links},
          {"latency_s", v.kv_transfer_latency_s},
          {"mean_prompt_s", serving::kv_transfer_s(v, s.mean_prompt)}}}};
    if (sc.decode) {
      const inference::ServingEfficiency de =
          inference::effective_efficiency(sc.decode->gpu, sc.decode->request);
      out["replica"]["disaggregated"]["decode"] = {
          {"gpu", sc.decode->gpu_id},
          {"tp", sc.decode->tp},
          {"fabric", sc.decode->fabric},
          {"weights_gb", sc.decode->replica.weight_bytes / 1e9},
          {"kv_blocks", v.decode_kv_blocks},
          {"kv_tokens", double(v.decode_kv_blocks) * v.sched.block_tokens},
          {"efficiency",
           {{"prefill_compute", de.prefill_compute}, {"decode_bandwidth", de.decode_bandwidth}}}};
    }
  }
  if (v.autoscale.max_replicas > 0) {
    const serving::Autoscale& a = v.autoscale;
    const double runs = double(std::max<uint32_t>(sc.replications, 1));
    // NOTE: replica.replicas and replica.gpus are the most the cluster may hold.
    out["autoscaling"] = {{"min_replicas", a.min_replicas},
                          {"max_replicas", a.max_replicas},
                          {"target_requests", a.target_requests},
                          {"interval_s", a.interval_s},
                          {"provisioning_s", a.provision_s},
                          {"scale_down_delay_s", a.scale_down_delay_s},
                          {"replicas_mean", f.replicas_mean},
                          {"replicas_peak", f.replicas_peak},
                          {"gpu_hours_per_run", billed_gpus(v, f) * f.simulated_s / 3600},
                          {"scale_ups_per_run", f.scale_ups / runs},
                          {"scale_downs_per_run", f.scale_downs / runs}};
  }
  if (v.router == serving::Router::cache_aware)
    out["replica"]["cache_aware"] = {{"cache_threshold", v.cache_aware.cache_threshold},
                                     {"balance_abs_threshold", v.cache_aware.balance_abs},
                                     {"balance_rel_threshold", v.cache_aware.balance_rel}};
  // NOTE: a closed loop's rate is what its streams made: the counted completions per second.
  out["workload"] = {{"rate_per_s", v.load.streams > 0 ? f.throughput_rps : v.load.rate_per_s},
                     {"requests", v.load.n_requests},
                     {"warmup_requests", v.load.warmup_requests},
                     {"lengths", sc.lengths_source},
                     {"mean_prompt_tokens", s.mean_prompt},
                     {"mean_output_tokens", s.mean_output},
                     {"ttft_slo_s", v.load.ttft_slo_s},
                     {"tpot_slo_s", v.load.tpot_slo_s},
                     {"arrivals", !sc.arrival_times.empty() ? "trace"
                                  : !sc.stages.empty()      ? "stages"
                                  : v.load.streams > 0      ? "streams"
                                                            : "poisson"}};
  if (v.load.streams > 0) {
    out["workload"]["streams"] = v.load.streams;
    out["workload"]["think_s"] = v.load.think_s;
    out["workload"]["ramp_s"] = v.load.ramp_s;
  }
  if (serving::conversations(v.load))
    out["workload"]["conversation"] = {
        {"turns_mean", v.load.turns_a},
        {"turns", v.load.turns_kind == serving::LengthKind::geometric ? "geometric" : "fixed"},
        {"max_context", v.load.max_context}};
  if (!sc.stages.empty()) {  // rate_per_s is their mean over the cycle
    json stages = json::array();
    double from = 0;
    for (const serving::RateStage& st : sc.stages) {
      stages.push_back({{"rate_per_s", st.rate_per_s}, {"duration_s", st.end_s - from}});
      from = st.end_s;
    }
    out["workload"]["stages"] = std::move(stages);
    out["workload"]["cycle_s"] = from;
    out["workload"]["rate_scale"] = sc.rate_scale;  // the stages above are scaled
  }
  if (!sc.arrival_times.empty()) {
    out["workload"]["rate_scale"] = sc.rate_scale;
    out["workload"]["replayed_s"] = sc.arrival_times.back();
  }
  out["metrics"] = {{"requests_completed", f.completed},
                    {"requests_counted", f.counted},
                    {"ttft_s", latency(f.ttft)},
                    {"itl_s", latency(f.itl)},
                    {"tpot_s", latency(f.tpot)},
                    {"e2e_s", latency(f.e2e)},
                    {"wait_s", latency(f.wait)},
                    {"slo_attainment", f.slo_attainment},
                    {"goodput_rps", f.goodput_rps},
                    {"goodput_rps_per_gpu", f.goodput_rps_per_gpu},
                    {"throughput_rps", f.throughput_rps},
                    {"output_tokens_per_s", f.output_tokens_per_s},
                    {"kv_occupancy_mean", f.kv_occupancy_mean},
                    {"kv_occupancy_peak", f.kv_occupancy_peak},
                    {"preemptions", f.preemptions},
                    {"preemptions_per_1k_requests", f.preemptions_per_1k},
                    {"prefix_hit_rate", f.prefix_hit_rate},
                    {"busy_share", f.busy_share},
                    {"steps", f.steps},
                    {"simulated_s", f.simulated_s},
                    {"saturated", f.saturated},
                    {"queue_overflow", f.queue_overflow},
                    {"wait_growth", f.wait_growth}};
  if (v.n_prefill > 0) out["metrics"]["decode_wait_growth"] = f.decode_wait_growth;
  if (sc.price) {
    out["price"] = {{"instance", sc.price->instance},
                    {"pricing", enum_name(sc.price->pricing)},
                    {"usd_per_gpu_hour", sc.price->usd_per_gpu_hour},
                    {"derived", sc.price->derived},
                    {"gpus", billed_gpus(v, f)},
                    {"as_of", sc.price->as_of},
                    {"source", sc.price->source}};
    out["metrics"]["usd_per_hour"] = f.usd_per_hour;
    out["metrics"]["usd_per_million_output_tokens"] = f.usd_per_million_output_tokens;
  }
  out["summary"] = {{"metrics.ttft_s.mean", interval_json(s.ttft_mean)},
                    {"metrics.ttft_s.p99", interval_json(s.ttft_p99)},
                    {"metrics.itl_s.mean", interval_json(s.itl_mean)},
                    {"metrics.itl_s.p99", interval_json(s.itl_p99)},
                    {"metrics.e2e_s.mean", interval_json(s.e2e_mean)},
                    {"metrics.e2e_s.p99", interval_json(s.e2e_p99)},
                    {"metrics.goodput_rps", interval_json(s.goodput_rps)},
                    {"metrics.slo_attainment", interval_json(s.slo_attainment)}};
  if (sc.price)
    out["summary"]["metrics.usd_per_million_output_tokens"] =
        interval_json(s.usd_per_million_output_tokens);
  if (v.autoscale.max_replicas > 0)
    out["summary"]["autoscaling.replicas_mean"] = interval_json(s.replicas_mean);
  out["timeseries"] = {
      {"bin_s", s.series_bin_s}, {"kv_occupancy", s.kv_occupancy}, {"preemptions", s.preemptions}};
  if (!s.replicas_billed.empty()) out["timeseries"]["replicas"] = s.replicas_billed;
  out["roofline"] = {{"note", "one request alone at the mean lengths (models/perf/inference/)"},
                     {"ttft_s", s.roofline_ttft_s},
                     {"tpot_s", s.roofline_tpot_s}};
  return out;
}

}  // namespace gpuplan::reports
