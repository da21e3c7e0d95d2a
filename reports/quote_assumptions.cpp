//! The quote's assumptions: what each figure rests on, with its public source
//! (quote_assumptions, reports/quote_render.h).
#include <algorithm>
#include <string>

#include "models/economics/billing.h"
#include "models/perf/energy/energy_data.h"
#include "models/perf/energy/power_model.h"
#include "models/perf/training/calibration.h"
#include "models/perf/training/published_runs.h"
#include "reports/format.h"
#include "reports/quote_render.h"
#include "reports/quote_text.h"

namespace gpuplan::quote {
namespace {

using reports::format_count;
using reports::format_duration;
using reports::format_money;
using reports::format_number;
using reports::format_percent;

//! "median error 5.1% fitted (22 runs), 3.2% held out (21); worst 18.2%": the step-time model on
//! its calibration table now, so the quote never states an accuracy the model no longer has.
std::string calibration_accuracy_text() {
  const auto& rows = training::calibration_rows();
  const training::CalibrationErrors fit = training::calibration_errors(rows, true);
  const training::CalibrationErrors held = training::calibration_errors(rows, false);
  return "median error " + format_percent(fit.median_abs, 1) + " fitted (" +
         std::to_string(fit.rows) + " runs), " + format_percent(held.median_abs, 1) +
         " held out (" + std::to_string(held.rows) + "); worst " +
         format_percent(std::max(fit.worst_abs, held.worst_abs), 1);
}

//! A staleness threshold in words: "one year", "2 years", "18 months".
std::string months_text(unsigned m) {
  if (m == 12) return "one year";
  if (m % 12 == 0) return std::to_string(m / 12) + " years";
  return m == 1 ? "one month" : std::to_string(m) + " months";
}

}  // namespace

std::vector<Assumption> quote_assumptions(const QuoteRequest& req) {
  std::vector<Assumption> a;
  const QuoteOptions& o = req.options;
  if (req.training) {
    const TrainingRequest& t = *req.training;
    a.push_back({"Training compute",
                 "C = 6·N·D = 6 × " + count_text(t.params) + " × " + count_text(t.tokens) + " = " +
                     sci(6 * t.params * t.tokens) +
                     " FLOPs (2ND forward + 4ND backward; no activation recomputation).",
                 "Kaplan et al. 2020, arXiv:2001.08361"});
    if (t.mfu)
      a.push_back({"MFU",
                   format_percent(*t.mfu, 0) + " of the dense " + precision_name(t.precision) +
                       " tensor peak, end to end, as the request states; the same on every GPU "
                       "type.",
                   "the request"});
    else
      a.push_back(
          {"MFU",
           "An output of the step-time model per instance and cluster size: the fastest fitting "
           "plan (tensor parallel inside a node, pipeline, data parallel, ZeRO, the least "
           "recomputation that fits) from achieved GEMM throughput, FlashAttention and the "
           "memory-bound rest of each layer, plus exposed tensor/pipeline/data-parallel "
           "communication and the pipeline bubble; calibrated on " +
               std::to_string(training::published_runs().size()) + " published training runs (" +
               calibration_accuracy_text() +
               ") and never above 1.1 times the best published MFU of the GPU. Each option names "
               "its "
               "layout and nearest published run. Options below " +
               format_percent(t.mfu_floor, 0) + " MFU are not recommended.",
           "Calibration table of Megatron-LM (Narayanan et al. 2021, Korthikanti et al. 2022), "
           "Llama 3 405B (arXiv:2407.21783 Table 4), BLOOM, llm-foundry, torchtitan, NeMo and "
           "Megatron-LM v1.0 on V100 (nv-adlr.github.io/MegatronLMV1); docs/estimate.md"});
    a.push_back({"Memory fit",
                 t.mfu ? "Mixed-precision Adam, 16 bytes per parameter; ZeRO-1 shards the 12 bytes "
                         "of optimizer state over data-parallel ranks; 20% of GPU memory kept for "
                         "activations. Tensor parallel inside a node, pipeline stages across nodes "
                         "only when needed."
                       : "Mixed-precision Adam, 16 bytes per parameter, sharded by the plan's ZeRO "
                         "stage (1 or 3); activations of the micro-batches in flight "
                         "(FlashAttention stores no score matrix), recomputing only the blocks "
                         "the memory needs; 90% of GPU memory usable.",
                 "Rajbhandari et al. 2020 (ZeRO, SC20); Korthikanti et al. 2022 (activations)"});
    a.push_back(
        {"Gradient all-reduce",
         "2 bytes per parameter per step over each data-parallel group, global batch " +
             count_text(t.tokens_per_step) +
             " tokens; bus bandwidth from the instance's NVLink and NICs (network at 94% "
             "of line rate); " +
             (t.mfu ? "it hides behind up to " + format_percent(t.overlap, 0) +
                          " of each step's compute."
                    : std::string("it hides behind one micro-batch's compute (the last backward "
                                  "and first forward pass); tensor-parallel and pipeline "
                                  "transfers are exposed.")),
         "nccl-tests busbw (NVIDIA/nccl-tests doc/PERFORMANCE.md; Azure AI-benchmarking-guide "
         "results), NCCL tuning model (src/graph/tuning.cc)"});
    a.push_back(
        {"Spot preemption",
         "Each spot node is reclaimed at " + format_number(o.spot_hazard_per_node_hour, 2) +
             " per node-hour (Poisson); losing any node stops the synchronous job. "
             "Checkpoint every Daly-optimal interval; write " +
             format_duration(t.checkpoint_s) + ", restart " + format_duration(t.restart_s) +
             ", wait " + format_duration(t.replacement_s) +
             " for a replacement node. P50/P90 from " + format_count(o.replicas) +
             " Monte Carlo runs of the interruptions (seed " + std::to_string(o.seed) +
             "), checked against the exact expectation.",
         "SkyPilot spot-traces, 4-node p3 (github.com/skypilot-org/spot-traces); Young 1974 / "
         "Daly 2006"});
    a.push_back(
        {"Hardware failures",
         o.failure_rate_per_gpu_hour > 0
             ? "Every option, spot or not, loses time to hardware and software faults: " +
                   sci(o.failure_rate_per_gpu_hour) +
                   " interruptions per GPU-hour (about one a day for every " +
                   format_count(std::round(1 / (24 * o.failure_rate_per_gpu_hour))) +
                   " GPUs), each a restart from the last checkpoint on a replacement node, "
                   "with the same checkpoint, restart and replacement times as a preemption. "
                   "The times to finish include them."
             : std::string("Not modelled in this quote (failure rate set to 0)."),
         "Llama 3 405B pre-training: 419 unexpected interruptions in 54 days on 16,384 "
         "H100 GPUs (Dubey et al. 2024, arXiv:2407.21783, Table 5)"});
    a.push_back({"Training cost",
                 "Cluster price per hour × time to finish (per-second billing; total at the "
                 "P50 time). Reservations bill their whole 1- or 3-year term even when the job "
                 "ends sooner. A month is 730 h. The GPU count is the smallest whole number of "
                 "nodes meeting the deadline (P90 with spot).",
                 "AWS per-second billing; AWS/Azure/GCP reservation terms"});
  }
  if (req.inference) {
    const InferenceRequest& q = *req.inference;
    a.push_back({"Inference memory",
                 "Weights and KV cache at " +
                     std::string(q.precision == Precision::fp8 ? "1 byte" : "2 bytes") +
                     " per value; a replica is a power-of-two group of one node's GPUs (tensor "
                     "parallel) that holds the weights, and its batch is at most the sequences "
                     "whose whole KV cache (prompt + output) fits in " +
                     format_percent(1 - q.memory_reserve, 0) +
                     " of the group's memory after the weights.",
                 "GPU memory from NVIDIA datasheets; KV bytes = 2 x layers x KV heads x head dim "
                 "per token; vLLM's default gpu_memory_utilization 0.9"});
    a.push_back({"Token speed",
                 "Roofline per replica and operator: in a decode step the weight matrices take "
                 "the longer of reading them at the GPU generation's share of peak memory "
                 "bandwidth and computing the batch's tokens at its share of peak FLOPs; the "
                 "attention then takes the longer of reading every slot's KV cache and its own "
                 "FLOPs; plus two all-reduces per layer across the tensor-parallel group. "
                 "Prompts are prefilled inside the decode steps (continuous batching with "
                 "chunked prefill) at the compute share, stretching the steps while they run. "
                 "Checked against TensorRT-LLM's published Llama 3 throughput on H100 and H200.",
                 "Williams et al. 2009 (roofline); Yuan et al. 2024 (arXiv:2402.16363, "
                 "per-operator roofline); NVIDIA TensorRT-LLM performance overview"});
    a.push_back({"Queueing and SLOs",
                 "Requests wait for a batch slot across the replicas: M/M/c with c = replicas x "
                 "batch (Erlang C; conservative for fixed token counts). TTFT = wait + prefill + "
                 "one decode step; TPOT = decode step + the prefills of other requests during "
                 "the generation (Poisson). The fewest nodes meeting every p99 target with the "
                 "load replicas' slots at most " +
                     format_percent(q.max_utilization, 0) + " busy win; " +
                     std::to_string(q.spares) + " spare replica" + (q.spares == 1 ? "" : "s") +
                     " on top (N + " + std::to_string(q.spares) +
                     ") so a failed node's replicas are covered and the targets hold. The rate "
                     "case is checked by the "
                     "discrete-event engine (" +
                     format_count(static_cast<double>(o.sim_requests)) +
                     " simulated requests, fixed slot time). Each option shown is then "
                     "simulated step by step: its load replicas under continuous batching "
                     "(vLLM's scheduler with the sized batch, its default token budget, "
                     "chunked prefill, asynchronous scheduling, a KV cache in blocks that preempts "
                     "when full), the same "
                     "requests, " +
                     std::to_string(SERVING_CHECK_REPLICATIONS) +
                     " independent runs; it gives the p99s and the share of requests within the "
                     "targets with 95 % intervals, and an option whose simulated p99 misses a "
                     "target is flagged and not recommended.",
                 "Erlang C; Orca (OSDI 2022) and Sarathi-Serve (OSDI 2024) batching; gpuplan "
                 "engine (tests/sim/queueing_validation_test.cpp)"});
    a.push_back({"Inference cost",
                 "Cluster price per hour × 730 h per month; total over " +
                     format_number(q.months, q.months == std::floor(q.months) ? 0 : 1) +
                     " months or the reservation term if longer. Spot options add spare spot "
                     "nodes so expected capacity survives replacements; requests lost in a "
                     "preemption are retried (not modelled).",
                 "catalog prices"});
  }
  const energy::PowerDefaults& pd = energy::builtin_energy_data().defaults;
  a.push_back(
      {"Energy and carbon",
       "Facility energy of the cluster: each GPU draws from " +
           format_percent(pd.gpu_idle_fraction, 0) + " of its TDP idle to " +
           format_percent(energy::gpu_power_w(energy::linear_curve(pd.gpu_idle_fraction), 1.0,
                                              pd.gpu_activity),
                          0) +
           " of it busy, plus " + format_number(pd.node_overhead_busy_w_per_gpu, 0) +
           " W per GPU of node overhead (CPUs, memory, fans, NICs) when busy and " +
           format_percent(pd.node_overhead_idle_fraction, 0) +
           " of that idle, times the region's published PUE (" + format_number(pd.pue_cloud, 2) +
           " where none is published). Carbon is location-based, at the grid factor of "
           "the instance's region. " +
           (req.training ? "Training: the whole run at busy power for the P50 time. " : "") +
           (req.inference ? "Inference: one month of 730 h at the queue's utilization, "
                            "spare spot nodes idle. "
                          : "") +
           "Embodied (manufacturing) carbon is not included.",
       "gpuplan energy model (docs/energy.md, models/catalog/energy.json): node power from "
       "Latif et al. 2024 (8-GPU H100 measurements), grid factors from Cloud Carbon "
       "Footprint, PUE from provider reports"});
  a.push_back({"Prices",
               "Public list prices per node-hour from the built-in catalog, each with its source "
               "and date; a price dated more than " +
                   months_text(o.stale_after_months) +
                   " before the quote is flagged stale. Re-check current prices before signing.",
               "provider price pages, dated per row in the catalog (gpuplan catalog)"});
  return a;
}

}  // namespace gpuplan::quote
