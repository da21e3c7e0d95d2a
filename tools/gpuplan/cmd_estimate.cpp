//! `gpuplan estimate training|inference`: the quick check behind every quote (study/estimate.h);
//! `gpuplan estimate calibration`: the training model on its calibration table.
//! Prints a short text or, with --json, one JSON object on stdout (reports/estimate_json.h);
//! writes no files. Bad input: one line per problem on stderr naming the flag, exit 2, nothing on
//! stdout.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "models/input/names.h"
#include "models/perf/training/calibration.h"
#include "models/perf/training/published_runs.h"
#include "models/quote/estimate_request.h"
#include "reports/estimate_json.h"
#include "study/estimate.h"
#include "tools/gpuplan/commands.h"

namespace gpuplan::cli {
namespace {

constexpr double GB = 1e9;

//! The flags of one subcommand and --json.
struct EstimateOptions {
  quote::EstimateFlags flags;
  bool as_json = false;
};

//! Every problem in the order the flags were read; exit status 2.
int print_problems(const Diagnostics& d) {
  for (const Diagnostic& x : d.recorded()) std::cerr << "gpuplan estimate: " << x.format() << "\n";
  return 2;
}

void print_training(const study::TrainingEstimate& e) {
  const training::ParallelPlan& plan = e.plan;
  const training::StepTime& t = e.time;
  // Volta and Turing have FP16 tensor cores and no BF16: the bf16 plan runs, and is named, in FP16.
  const std::string_view arch = e.cluster.gpu->architecture;
  const bool fp16_part = e.precision == Precision::bf16 && (arch == "volta" || arch == "turing");
  const std::string precision(fp16_part ? "fp16" : enum_name(e.precision));
  char buf[768];
  std::snprintf(buf, sizeof buf,
                "%s on %u x %s (%llu %s): %s, %u micro-batches of %u%s\n"
                "step %.3f s = compute %.3f (GEMM %.3f, attention %.3f, memory-bound %.3f) + "
                "exposed comm %.3f + bubble %.3f + optimizer %.3f\n"
                "MFU %.1f%% of the %s's %.0f TFLOPS dense %s peak; %.0f tokens/s per GPU; memory "
                "%.1f of %.1f GB per GPU\n",
                e.model.name.empty() ? "model" : e.model.name.c_str(), e.cluster.nodes,
                e.cluster.instance->id.c_str(), static_cast<unsigned long long>(e.cluster.gpus()),
                e.cluster.gpu->id.c_str(), training::layout_text(plan).c_str(), plan.micro_batches,
                plan.micro_batch,
                e.extrapolated ? " (extrapolated: no published run near this layout)" : "",
                t.step_s, t.compute_s, t.gemm_s, t.attention_s, t.elementwise_s, t.exposed_comm_s,
                t.bubble_s, t.optimizer_s, 100 * t.mfu, e.cluster.gpu->id.c_str(), e.peak_tflops,
                precision.c_str(), e.tokens_per_gpu_s, t.memory.total() / GB, t.memory.usable / GB);
  std::cout << buf;
  if (const training::PublishedRun* nearest = e.published.nearest)
    std::cout << "nearest published run: " << training::published_run_text(*nearest) << " ("
              << nearest->source << ")\n";
  if (t.cap_s > 0)
    std::cout << "capped at 1.1x the best published MFU of this GPU and precision ("
              << std::lround(100 * e.published.best_mfu) << " %)\n";
  else if (e.published.above)
    std::cout << "above the best published MFU of this GPU and precision ("
              << std::lround(100 * e.published.best_mfu) << " %)\n";
  if (e.days) std::cout << "time to train: " << *e.days << " days\n";
  if (!e.not_recommended_reason.empty())
    std::cout << "not recommended: " << e.not_recommended_reason << "\n";
  if (e.model.moe()) {
    std::snprintf(buf, sizeof buf,
                  "mixture of experts, an approximation: %u experts, %u active per token, EP %u, "
                  "load imbalance %.2f; expert all-to-alls %.3f s of the step\n%s\n",
                  e.model.experts, e.model.experts_per_token, plan.ep, e.model.expert_imbalance,
                  t.ep_comm_s, study::MOE_APPROXIMATION);
    std::cout << buf;
  }
}

void print_inference(const study::InferenceEstimate& e) {
  const inference::ServingRequest& r = e.request;
  const inference::ServingEstimate& s = e.serving;
  const std::string label = e.model.name.empty() ? "the model" : e.model.name;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "%s on %u x %s, batch %u: TTFT %.1f ms, TPOT %.2f ms, %.0f output tokens/s "
                "(decode %s-bound); KV %.0f KB/token, at most %llu sequences fit\n",
                label.c_str(), r.tp, e.gpu->id.c_str(), r.batch, 1e3 * s.ttft_s, 1e3 * s.tpot_s,
                s.tokens_per_s, s.decode_compute_bound ? "compute" : "memory",
                s.kv_bytes_per_token / 1e3, static_cast<unsigned long long>(s.max_batch_by_memory));
  std::cout << buf;
}

int run_training(const EstimateOptions& o) {
  Diagnostics d;
  const auto req = quote::read_training_estimate(o.flags, d);
  if (!req) return print_problems(d);
  const auto e = study::estimate_training(*req, d);
  if (!e) return print_problems(d);
  if (o.as_json)
    std::cout << reports::training_estimate_json(*e).dump(2) << "\n";
  else
    print_training(*e);
  return 0;
}

int run_inference(const EstimateOptions& o) {
  Diagnostics d;
  const auto req = quote::read_inference_estimate(o.flags, d);
  if (!req) return print_problems(d);
  const auto e = study::estimate_inference(*req, d);
  if (!e) return print_problems(d);
  if (o.as_json)
    std::cout << reports::inference_estimate_json(*e).dump(2) << "\n";
  else
    print_inference(*e);
  return 0;
}

//! "41.0 %" as the calibration table prints fractions; signed for errors ("-6.5 %").
std::string percent(double fraction, bool sign = false) {
  char buf[32];
  std::snprintf(buf, sizeof buf, sign ? "%+.1f %%" : "%.1f %%", 100 * fraction);
  return buf;
}

//! The calibration table as Markdown: the errors per set, then every run.
void print_calibration(const std::vector<training::CalibrationRow>& rows) {
  std::cout << "| | rows | median abs error | worst |\n|---|---|---|---|\n";
  for (const bool fitted : {true, false}) {
    const training::CalibrationErrors e = training::calibration_errors(rows, fitted);
    std::cout << "| " << (fitted ? "fitted" : "held out") << " | " << e.rows << " | "
              << percent(e.median_abs) << " | " << percent(e.worst_abs) << " |\n";
  }
  std::cout << "\n| run | framework | layout | set | published MFU | model | error | source |\n"
               "|---|---|---|---|---|---|---|---|\n";
  for (const training::CalibrationRow& r : rows)
    std::cout << "| " << r.run->label << " | " << r.run->framework << " | "
              << reports::calibration_layout_text(*r.run) << " | "
              << (r.run->fitted ? "fit" : "held out") << " | " << percent(r.published) << " | "
              << percent(r.modelled) << " | " << percent(r.error(), true) << " | " << r.run->source
              << " |\n";
}

void add_common(CLI::App* cmd, EstimateOptions& o) {
  quote::EstimateFlags& f = o.flags;
  cmd->add_option("--model", f.model, "Model preset, e.g. llama-3-8b (see docs/estimate.md)");
  cmd->add_option("--params", f.params, "Parameters of a GPT-style model instead, e.g. 13B");
  cmd->add_option("--gpu", f.gpu, "GPU model, e.g. H100-SXM (its largest catalog node)");
  cmd->add_option("--instance", f.instance, "Instance type, e.g. p5.48xlarge");
  cmd->add_option("--precision", f.precision, "fp16 | bf16 | fp8 (default bf16)");
  cmd->add_option("--tp", f.tp, "Tensor-parallel GPUs (inside one node)");
  cmd->add_flag("--json", o.as_json, "Print one JSON object");
}

}  // namespace

CLI::App* add_estimate_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("estimate", "Quick training step-time or serving estimate");
  cmd->require_subcommand(1);
  auto train_opts = std::make_shared<EstimateOptions>();
  quote::EstimateFlags& tf = train_opts->flags;
  auto* train = cmd->add_subcommand("training", "Fastest fitting parallel plan and its step time");
  add_common(train, *train_opts);
  train->add_option("--tokens", tf.tokens, "Training tokens, e.g. 1T (gives days)");
  train->add_option("--tokens-per-step", tf.tokens_per_step,
                    "Global batch in tokens (default 4M, or 1 sequence per 8 GPUs if more)");
  train->add_option("--seq", tf.seq, "Sequence length (default: the preset's, or 2048)");
  train->add_option("--nodes", tf.nodes, "Nodes of the instance type (default 1)");
  train->add_option("--gpus", tf.gpus, "GPUs in all (a whole number of nodes)");
  train->add_option("--pp", tf.pp, "Pipeline stages (default: searched)");
  train->add_option("--experts", tf.experts,
                    "Mixture of experts: experts per layer (a dense shape's MLP each)");
  train->add_option("--active-experts", tf.active_experts,
                    "Experts each token is routed to (top-k; default the preset's, else 1)");
  train->add_option("--expert-imbalance", tf.expert_imbalance,
                    "Busiest expert rank's tokens over the mean (default 1, balanced)");
  train->callback([train_opts, &exit_code] { exit_code = run_training(*train_opts); });

  auto infer_opts = std::make_shared<EstimateOptions>();
  quote::EstimateFlags& inf = infer_opts->flags;
  inf.precision = "fp16";
  auto* infer = cmd->add_subcommand("inference", "Serving roofline of one model replica");
  add_common(infer, *infer_opts);
  infer->add_option("--batch", inf.batch, "Sequences decoded together (default 1)");
  infer->add_option("--tokens-in", inf.tokens_in, "Prompt tokens per sequence");
  infer->add_option("--tokens-out", inf.tokens_out, "Generated tokens per sequence");
  infer->callback([infer_opts, &exit_code] { exit_code = run_inference(*infer_opts); });

  auto calib_json = std::make_shared<bool>(false);
  auto* calib = cmd->add_subcommand(
      "calibration", "The training model against every published run it is calibrated on");
  calib->add_flag("--json", *calib_json, "Print one JSON object");
  calib->callback([calib_json, &exit_code] {
    const auto& rows = training::calibration_rows();
    if (*calib_json)
      std::cout << reports::calibration_json(rows).dump(2) << "\n";
    else
      print_calibration(rows);
    exit_code = 0;
  });
  return cmd;
}

}  // namespace gpuplan::cli
