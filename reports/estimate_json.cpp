#include "reports/estimate_json.h"

#include <string>

#include "models/input/names.h"

namespace gpuplan::reports {
namespace {

using nlohmann::json;
constexpr double GB = 1e9;

//! The model: a preset by its id; a shape derived from --params has no name and says so.
json model_json(const training::ModelShape& m) {
  json j = {{"name", nullptr},
            {"shape", "derived from the parameter count (GPT-style)"},
            {"params", m.total_params()},
            {"active_params", m.active_params()}};
  if (!m.name.empty()) {
    j["name"] = m.name;
    j["shape"] = "preset";
  }
  return j;
}

json memory_json(const training::TrainingMemory& m) {
  return {{"weights", m.weights / GB},     {"gradients", m.gradients / GB},
          {"optimizer", m.optimizer / GB}, {"activations", m.activations / GB},
          {"total", m.total() / GB},       {"usable", m.usable / GB}};
}

}  // namespace

json training_estimate_json(const study::TrainingEstimate& e) {
  const training::ModelShape& model = e.model;
  const training::ParallelPlan& plan = e.plan;
  const training::StepTime& t = e.time;
  json j;
  j["model"] = model_json(model);
  j["model"]["layers"] = model.layers;
  j["model"]["hidden"] = model.hidden;
  j["model"]["seq_len"] = model.seq_len;
  j["cluster"] = {{"instance", e.cluster.instance->id},
                  {"gpu", e.cluster.gpu->id},
                  {"nodes", e.cluster.nodes},
                  {"gpus", e.cluster.gpus()},
                  {"gpus_per_node", e.cluster.instance->gpus_per_node}};
  j["plan"] = {{"tp", plan.tp},
               {"cp", plan.cp},
               {"pp", plan.pp},
               {"dp", plan.dp},
               {"ep", plan.ep},
               {"micro_batches", plan.micro_batches},
               {"micro_batch", plan.micro_batch},
               {"interleave", plan.interleave},
               {"zero", training::zero_number(plan.zero)},
               {"recompute", std::string(training::recompute_name(plan.recompute))},
               {"recompute_blocks", plan.recompute_blocks},
               {"text", training::layout_text(plan)},
               {"extrapolated", e.extrapolated}};
  j["step_time_s"] = t.step_s;
  j["compute_s"] = t.compute_s;
  j["exposed_comm_s"] = t.exposed_comm_s;
  j["comm_s"] = {{"tensor_parallel", t.tp_comm_s},
                 {"pipeline", t.pp_comm_s},
                 {"data_parallel", t.dp_comm_s},
                 {"data_parallel_exposed", t.dp_exposed_s},
                 {"expert_parallel", t.ep_comm_s}};
  j["bubble_s"] = t.bubble_s;
  j["mfu"] = t.mfu;
  j["tokens_per_gpu_s"] = e.tokens_per_gpu_s;
  j["peak_tflops"] = e.peak_tflops;
  j["step_parts_s"] = {{"gemm", t.gemm_s},
                       {"attention", t.attention_s},
                       {"elementwise", t.elementwise_s},
                       {"optimizer", t.optimizer_s},
                       {"context_parallel", t.cp_exposed_s},
                       {"published_cap", t.cap_s}};
  const training::PublishedRun* nearest = e.published.nearest;
  j["nearest_published_run"] = nearest ? json{{"run", nearest->label},
                                              {"mfu", e.nearest_published_mfu},
                                              {"source", nearest->source}}
                                       : json();
  j["best_published_mfu"] = e.published.best_mfu;
  j["above_published"] = e.published.above;
  j["kernel_efficiency"] = t.efficiency;
  j["tokens_per_step"] = t.tokens_per_step;
  j["days"] = e.days ? json(*e.days) : json();
  j["fits"] = t.fits();
  j["memory_per_gpu_gb"] = memory_json(t.memory);
  j["recommended"] = e.not_recommended_reason.empty();
  if (!e.not_recommended_reason.empty()) j["not_recommended_reason"] = e.not_recommended_reason;
  if (model.moe())
    j["mixture_of_experts"] = {{"experts", model.experts},
                               {"active_experts", model.experts_per_token},
                               {"expert_imbalance", model.expert_imbalance},
                               {"approximation", std::string(study::MOE_APPROXIMATION)}};
  return j;
}

json inference_estimate_json(const study::InferenceEstimate& e) {
  const inference::ServingRequest& r = e.request;
  const inference::ServingEstimate& s = e.serving;
  json j;
  j["model"] = model_json(e.model);
  j["gpu"] = e.gpu->id;
  j["tp"] = r.tp;
  j["batch"] = r.batch;
  j["precision"] = std::string(enum_name(r.precision));
  j["ttft_s"] = s.ttft_s;
  j["tpot_s"] = s.tpot_s;
  j["tokens_per_s"] = s.tokens_per_s;
  j["request_s"] = s.request_s;
  j["kv_bytes_per_token"] = s.kv_bytes_per_token;
  j["weights_gb"] = s.weight_bytes / GB;
  j["max_batch_by_memory"] = s.max_batch_by_memory;
  j["bound"] = s.decode_compute_bound ? "compute" : "memory";
  j["prefill_bound"] = s.prefill_compute_bound ? "compute" : "memory";
  j["efficiency"] = {{"prefill_compute", e.efficiency.prefill_compute},
                     {"decode_bandwidth", e.efficiency.decode_bandwidth}};
  return j;
}

std::string calibration_layout_text(const training::PublishedRun& run) {
  return training::layout_text(run.plan) + ", b " + std::to_string(run.plan.micro_batch) + ", m " +
         std::to_string(run.plan.micro_batches) + ", seq " + std::to_string(run.model.seq_len);
}

json calibration_json(const std::vector<training::CalibrationRow>& rows) {
  json out = {{"rows", json::array()}};
  for (const training::CalibrationRow& r : rows)
    out["rows"].push_back({{"id", r.run->id},
                           {"run", r.run->label},
                           {"framework", r.run->framework},
                           {"layout", calibration_layout_text(*r.run)},
                           {"set", r.run->fitted ? "fitted" : "held out"},
                           {"published_mfu", r.published},
                           {"model_mfu", r.modelled},
                           {"error", r.error()},
                           {"source", r.run->source}});
  for (const bool fitted : {true, false}) {
    const training::CalibrationErrors e = training::calibration_errors(rows, fitted);
    out[fitted ? "fitted" : "held_out"] = {
        {"rows", e.rows}, {"median_abs_error", e.median_abs}, {"worst_abs_error", e.worst_abs}};
  }
  return out;
}

}  // namespace gpuplan::reports
