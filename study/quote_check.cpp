#include "study/quote_check.h"

#include <algorithm>

#include "models/compile/compile.h"
#include "study/run.h"
#include "study/shown_options.h"

namespace gpuplan::quote {

InferenceSimCheck simulate_inference(const InferenceRequest& req, const InferenceOption& opt,
                                     uint64_t n_requests, uint64_t seed) {
  const double lambda = req.requests_per_s;
  // 10% warmup, so about n_requests fall in the statistics window.
  const double horizon = n_requests / lambda / 0.9;
  Scenario sc;
  sc.name = "quote-inference-check";
  sc.seed = seed;
  sc.horizon_s = horizon;
  sc.warmup_s = 0.1 * horizon;
  InstanceType slots = *opt.instance;
  slots.id = "quote-slots." + opt.instance->id;
  slots.gpus_per_node = opt.sizing.batch;  // one engine node per replica, one "GPU" per batch slot
  sc.instances.push_back(slots);
  Pool pool;
  pool.name = "serving";
  pool.instance = slots.id;
  pool.count = opt.sizing.replicas;
  pool.price_per_node_hour = opt.hourly_usd / std::max<uint32_t>(opt.nodes, 1);
  sc.pools.push_back(pool);
  JobClass requests;
  requests.name = "requests";
  requests.rate_per_s = lambda;
  requests.gpus.values = {1};
  requests.gpus.probs = {1.0};
  // A request holds its slot for its prefill and its generation at the loaded step: one time
  // with fixed lengths, one per trace row with a trace.
  const inference::ReplicaHardware hw = replica_hardware(req, *opt.instance, *opt.gpu);
  double prefill_p99 = opt.sizing.prefill_s;
  if (req.lengths) {
    const inference::TokenLengths& t = *req.lengths;
    requests.duration.kind = DistKind::empirical;
    requests.duration.values.reserve(t.in.size());
    for (size_t k = 0; k < t.in.size(); ++k)
      requests.duration.values.push_back(inference::prefill_s(hw, opt.sizing.tp, t.in[k]) +
                                         t.out[k] * opt.sizing.loaded_step_s);
    prefill_p99 = inference::prefill_s(hw, opt.sizing.tp, t.p99_in);
  } else {
    requests.duration.kind = DistKind::fixed;
    requests.duration.a = opt.sizing.slot_s;
  }
  sc.workload.push_back(requests);
  // NOTE: a stable queue holds a few times c requests at most; the cap only stops a sizing
  // that cannot keep up (then the check reports saturation).
  sc.limits.max_active_jobs = std::max<uint32_t>(1u << 16, 8 * opt.servers);

  const CompiledScenario cs = compile(sc);
  const study::Summary run = study::run(sc, cs);
  const ReplicaMetrics& m = run.single->metrics;
  InferenceSimCheck out;
  out.requests = m.jobs_completed;
  out.horizon_s = horizon;
  out.mean_wait_s = m.wait_s.mean;
  out.wait_p99_s = m.wait_s.p99;
  out.ttft_p99_s = m.wait_s.p99 + prefill_p99 + opt.sizing.step_s;
  out.utilization = m.gpu_utilization;
  out.saturated = m.saturated();
  return out;
}

std::vector<std::optional<InferenceSimCheck>> check_shown_inference(const QuoteRequest& req,
                                                                    const Quote& q,
                                                                    const ComputeBudget* budget) {
  if (!req.inference || req.inference->requests_per_s <= 0)
    return std::vector<std::optional<InferenceSimCheck>>(q.inference.size());
  return check_shown_options<InferenceSimCheck>(
      req, q, budget, [&req](const InferenceOption& o) -> std::optional<InferenceSimCheck> {
        if (o.servers > MAX_CHECKED_SLOTS) return std::nullopt;
        return simulate_inference(*req.inference, o, req.options.sim_requests, req.options.seed);
      });
}

}  // namespace gpuplan::quote
