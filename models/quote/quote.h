#pragma once
//! `gpuplan quote`: the request a sales engineer writes (training and/or inference), its
//! validation with JSON-pointer diagnostics, and the analytic sizing of every catalog option.
//!
//! Training: per instance and cluster size, the fastest fitting parallel plan of the step-time
//! model (models/perf/training/step_time.h: kernel efficiency by GPU generation,
//! tensor/pipeline/data communication over the instance's NVLink and NICs, pipeline bubble,
//! activation memory), so the MFU is an output; a request's `mfu` overrides it with 6·N·D FLOPs at
//! that MFU (Kaplan et al. 2020) and the ZeRO-1 layout of models/perf/speed.h. Plans below
//! `mfu_floor` are not recommended. Spot preemptions through Young/Daly checkpointing
//! (models/economics/checkpoint.h) with a Monte Carlo of Poisson interruptions for the P50/P90 time
//! to finish. Inference: by tokens, replicas with continuous batching sized to TTFT/TPOT targets
//! (models/perf/inference/serving_sizing.h), N + 1 spares. Every function here is pure; the engine
//! check of the inference sizing is study/quote_check.h.
#include <chrono>
#include <map>
#include <memory>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/quote/compute_budget.h"
#include "models/quote/spot_loss.h"
#include "models/catalog/catalog.h"
#include "models/catalog/catalog_age.h"
#include "models/input/diagnostic.h"
#include "models/scenario/failure_table.h"
#include "models/input/field_reader.h"
#include "models/perf/inference/length_distribution.h"
#include "models/perf/inference/serving_sizing.h"
#include "models/perf/inference/token_trace.h"
#include "models/input/plan_enums.h"
#include "models/quote/quote_energy.h"
#include "models/perf/speed.h"
#include "models/perf/training/model_shape.h"

namespace gpuplan::quote {

//! Default per-node spot preemption hazard [per node-hour]: 0.24, the 4-node loss rate of the
//! SkyPilot spot-traces (AWS p3, 2022-23; github.com/skypilot-org/spot-traces, derived).
inline constexpr double DEFAULT_SPOT_HAZARD_PER_NODE_HOUR = 0.24;

//! Default hardware interruptions of a training job [per GPU-hour]: Llama 3 405B pre-training,
//! 419 unexpected interruptions in 54 days on 16,384 H100s (arXiv 2407.21783, Table 5), about
//! 2.0e-5; each costs a restart from the last checkpoint on a replacement node.
inline constexpr double DEFAULT_FAILURE_RATE_PER_GPU_HOUR =
    LLAMA3_INTERRUPTIONS / (LLAMA3_GPUS * LLAMA3_DAYS * 24);
//! Default time to write one checkpoint [s]: 5 min, the example of Daly (2006).
inline constexpr double DEFAULT_CHECKPOINT_S = 300;
//! Default time to read a checkpoint back after an interruption [s] (assumption).
inline constexpr double DEFAULT_RESTART_S = 600;
//! Default wait for a replacement node after a preemption [s] (assumption).
inline constexpr double DEFAULT_REPLACEMENT_S = 600;
//! Default global batch [tokens per optimizer step]: 4M, Llama 3's initial batch
//! (arXiv:2407.21783).
inline constexpr double DEFAULT_TOKENS_PER_STEP = 4e6;
//! Default largest training cluster an option may use [GPUs] (Llama 3 405B used 16,384 H100).
inline constexpr uint32_t DEFAULT_MAX_GPUS = 16384;

//! A training request: train `params` parameters on `tokens` tokens.
struct TrainingRequest {
  double params = 0;                 //!< N
  double tokens = 0;                 //!< D
  std::optional<double> deadline_s;  //!< [s] finish within (P90 for spot options)
  std::optional<double> budget_usd;  //!< [USD] total cost ceiling
  Precision precision = Precision::bf16;
  //! Fixed MFU of the dense peak at `precision`, end to end; absent = the step-time model decides.
  std::optional<double> mfu;
  //! Options whose modelled MFU is below this are "not recommended" (training::DEFAULT_MFU_FLOOR).
  double mfu_floor = 0.20;
  double tokens_per_step = DEFAULT_TOKENS_PER_STEP;  //!< global batch [tokens]
  //! Share of a step's compute time the gradient all-reduce can hide behind, [0, 1].
  double overlap = 1.0;
  double checkpoint_s = DEFAULT_CHECKPOINT_S;    //!< [s] write one checkpoint
  double restart_s = DEFAULT_RESTART_S;          //!< [s] read it back
  double replacement_s = DEFAULT_REPLACEMENT_S;  //!< [s] wait for a new spot node
  uint32_t max_gpus = DEFAULT_MAX_GPUS;          //!< largest cluster an option may use
};

//! Largest request rate a quote sizes [1/s].
inline constexpr double MAX_REQUESTS_PER_S = 1e6;

//! An inference request: serve a model's token traffic within TTFT/TPOT targets
//! (models/perf/inference/serving_sizing.h).
struct InferenceRequest {
  training::ModelShape model;  //!< a preset, an architecture, or the GPT-style shape of a count
  std::string model_label;     //!< how the request named it: preset id or "8B-parameter model"
  double params = 0;           //!< all parameters of `model`
  Precision precision = Precision::bf16;  //!< weights and KV cache in bf16/fp16 (2 B) or fp8 (1 B)
  double requests_per_s = 0;              //!< [1/s] Poisson arrivals (0 with concurrent streams)
  double concurrent_streams = 0;          //!< closed-loop streams (0 with a request rate)
  double tokens_in = 0;                   //!< prompt tokens per request (the trace's mean with one)
  double tokens_out = 0;     //!< generated tokens per request (the trace's mean with one)
  std::string tokens_trace;  //!< lengths from this trace file as written ("" = none)
  std::string lengths_text;  //!< lengths given as distributions, as the quote states them
  //! The trace's lengths once load_token_trace ran (shared: requests are copied).
  std::shared_ptr<const inference::TokenLengths> lengths;
  double ttft_p99_s = 0;            //!< [s] p99 time to first token (0 = no target)
  double tpot_p99_s = 0;            //!< [s] p99 time per output token (0 = no target)
  double p99_latency_s = 0;         //!< [s] p99 of the whole request (0 = no target)
  uint32_t batch = 0;               //!< largest batch per replica (0 = memory and TPOT decide)
  uint32_t spares = 1;              //!< replicas beyond the load for redundancy (N + 1)
  double max_utilization = 0.85;    //!< busiest share of the load replicas' slots
  double bandwidth_efficiency = 0;  //!< decode share of peak bandwidth (0 = the GPU generation's)
  double prefill_mfu = 0;           //!< prefill share of peak FLOPs (0 = the GPU generation's)
  double memory_reserve = 1 - inference::SERVING_MEMORY;  //!< GPU memory outside weights and KV
  double months = 12;  //!< service term for the total cost [months]
};

//! Which options to size and how to simulate them.
struct QuoteOptions {
  std::vector<std::string> providers;  //!< "" = every provider except on_prem
  std::vector<std::string> gpus;       //!< GPU ids ("" = all)
  std::vector<std::string> instances;  //!< instance ids ("" = all)
  //! Plans to price; Pricing::spot expands into one plan per `spot_shares` entry.
  std::vector<Pricing> pricing = {Pricing::on_demand, Pricing::reserved_1y, Pricing::reserved_3y,
                                  Pricing::spot};
  std::vector<double> spot_shares = {0.5, 1.0};  //!< share of nodes on spot, for "spot"
  double spot_hazard_per_node_hour = DEFAULT_SPOT_HAZARD_PER_NODE_HOUR;
  //! Hardware interruptions of training per GPU-hour, on every node (0 = none).
  double failure_rate_per_gpu_hour = DEFAULT_FAILURE_RATE_PER_GPU_HOUR;
  uint32_t replicas = 400;         //!< Monte Carlo replicas of a spot training run
  uint64_t sim_requests = 200000;  //!< requests the engine simulates per inference check
  uint64_t seed = 42;
  uint32_t top = 10;  //!< rows shown in the table and the HTML quote
  //! Prices dated more than this many months before the quote are flagged stale.
  unsigned stale_after_months = DEFAULT_STALE_AFTER_MONTHS;
};

//! A whole validated request.
struct QuoteRequest {
  std::string name = "quote";
  std::string customer;  //!< shown on the quote, may be ""
  std::optional<TrainingRequest> training;
  std::optional<InferenceRequest> inference;
  QuoteOptions options;
  nlohmann::json source;  //!< the request as read (echoed into quote.json)
};

//! The keys a request, its training, inference and options objects may have.
[[nodiscard]] const std::vector<std::string>& request_keys();
[[nodiscard]] const std::vector<std::string>& training_keys();
[[nodiscard]] const std::vector<std::string>& inference_keys();
//! The keys of an inference "model" given as an architecture object.
[[nodiscard]] const std::vector<std::string>& architecture_keys();
[[nodiscard]] const std::vector<std::string>& options_keys();

// Counts ("70B") and money ("$5M") are read by the one field reader (models/input/field_reader.h).
using gpuplan::parse_count;
using gpuplan::parse_money;

//! Reads the token trace an inference request names (`tokens_trace`), beside `base_dir` or on
//! `data_path`, and takes its mean lengths; false with the problem in `diags`. Without a trace
//! it does nothing.
[[nodiscard]] bool load_token_trace(QuoteRequest& req, const std::string& base_dir,
                                    const std::vector<std::string>& data_path, Diagnostics& diags);

//! The replica hardware of `req` on nodes of `it` (models/perf/inference/serving_sizing.h).
[[nodiscard]] inference::ReplicaHardware replica_hardware(const InferenceRequest& req,
                                                          const InstanceType& it,
                                                          const GpuSpec& gpu);

//! Validates a parsed request; nullopt with every problem in `diags` (JSON pointers).
[[nodiscard]] std::optional<QuoteRequest> parse_request(const nlohmann::json& j,
                                                        Diagnostics& diags);

//! Parses JSONC `text` (file name `file` labels messages with lines) and validates it.
[[nodiscard]] std::optional<QuoteRequest> parse_request_text(std::string_view text,
                                                             const std::string& file,
                                                             Diagnostics& diags);

//! How an option pays: a base price, with `spot_share` of its nodes on spot instead.
struct PricingPlan {
  Pricing base = Pricing::on_demand;  //!< how the non-spot nodes pay (never Pricing::spot)
  double spot_share = 0;              //!< [0, 1] share of nodes on spot
  //! Label for tables: "on-demand", "1-yr reserved", "spot 50%", "spot 100%".
  [[nodiscard]] std::string label() const;
  //! Years committed (1 or 3 for reservations, else 0).
  [[nodiscard]] double term_years() const;
};

//! Per-node-hour prices of an instance under a plan [USD]: nullopt when a needed price is absent.
struct PlanPrice {
  double base_usd_per_node_hour = 0;  //!< price of the non-spot nodes
  double spot_usd_per_node_hour = 0;  //!< price of the spot nodes
};
[[nodiscard]] std::optional<PlanPrice> plan_price(const InstanceType& it, const PricingPlan& plan);

//! What a cluster at `hourly_usd` [USD/h] costs for `seconds` [s] of use under `plan`.
struct PlanCost {
  double total_usd = 0;       //!< [USD] owed: a reservation's whole term, plus any time beyond it
  double commitment_usd = 0;  //!< [USD] a reservation's whole term (0 without one)
  double in_window_usd = 0;   //!< [USD] a reservation's share inside the `seconds` of use
};
//! The cost of `seconds` of use; a reservation is billed by the rule run and mc use
//! (economics::reserved_commitment): the whole commitment, with the share inside the use shown.
[[nodiscard]] PlanCost plan_cost(const PricingPlan& plan, double hourly_usd, double seconds);

//! [USD/h] A cluster of `nodes`, `spot_nodes` of them spot, at prices `p`.
[[nodiscard]] double cluster_price_per_hour(uint32_t nodes, uint32_t spot_nodes,
                                            const PlanPrice& p);

//! A quote row's risk in words ("none", "low", "medium", "high") from its spot share and the
//! slowdown [fraction] spot costs it.
[[nodiscard]] std::string risk_level(double spot_share, double slowdown);

//! Parallel layout of a training job on a cluster.
struct TrainingLayout {
  uint32_t tensor_parallel = 1;
  uint32_t pipeline_parallel = 1;
  uint32_t data_parallel = 1;
};

//! Smallest model-parallel layout (tensor inside a node, then pipeline stages dividing the node
//! count) whose ZeRO-1 model states fit on `gpu`; nullopt when none fits on `nodes` nodes.
[[nodiscard]] std::optional<TrainingLayout> fit_training_layout(const TrainingRequest& req,
                                                                const GpuSpec& gpu,
                                                                uint32_t gpus_per_node,
                                                                uint32_t nodes);

//! Failure-free training time of one layout.
struct TrainingSpeed {
  double compute_step_s = 0;    //!< [s] per optimizer step
  double allreduce_step_s = 0;  //!< [s] per step, data-parallel gradient all-reduce
  double step_s = 0;            //!< [s] compute + the part of the all-reduce not hidden
  double steps = 0;
  double work_s = 0;               //!< [s] steps x step_s
  double dp_busbw_gbyte_s = 0;     //!< [GB/s] predicted all-reduce bus bandwidth
  double mfu = 0;                  //!< model FLOPs / (GPUs x peak x step_s)
  double exposed_comm_step_s = 0;  //!< [s] per step, communication not hidden by compute
  double bubble_step_s = 0;        //!< [s] per step, pipeline fill and drain
  double cap_step_s =
      0;  //!< [s] per step, added by the search's cap at 1.1x the best published MFU
  uint32_t micro_batches = 1;      //!< per step and pipeline
  double kernel_efficiency = 0;    //!< achieved / peak FLOPs of the kernels (modelled only)
  bool modelled = false;           //!< from the step-time model (false: the request's fixed MFU)
  double tokens_per_gpu_s = 0;     //!< training tokens per second and GPU
  std::string layout_text;         //!< "TP 8 x PP 4 x DP 16, ZeRO-1, no recomputation"
  std::string nearest_run;         //!< nearest published run: "Megatron-LM ... on 64 A100: 51 %"
  std::string nearest_run_source;  //!< its public source
  double best_published_mfu = 0;   //!< best published MFU of this GPU and precision (0: none)
  bool above_published = false;    //!< mfu above best_published_mfu
  bool extrapolated = false;       //!< layout outside the calibrated region (modelled only)
};

//! Speed of `req` at its fixed MFU on `nodes` nodes of `it` laid out as `layout`: compute from 6ND
//! / (GPUs x peak x MFU); the all-reduce hides behind up to `overlap` x compute of each step.
[[nodiscard]] TrainingSpeed training_speed(const TrainingRequest& req, const InstanceType& it,
                                           const GpuSpec& gpu, uint32_t nodes,
                                           const TrainingLayout& layout);

//! Time to finish under spot preemptions: analytic mean and Monte Carlo quantiles.
struct SpotTiming {
  double hazard_per_s = 0;      //!< [1/s] job interruptions: spot preemptions + hardware failures
  double interval_s = 0;        //!< [s] Daly checkpoint interval (0 without interruptions)
  double expected_s = 0;        //!< [s] exact expectation (economics::expected_completion_time_s)
  double mc_mean_s = 0;         //!< [s] Monte Carlo mean
  double mc_mean_se_s = 0;      //!< [s] its standard error (sample deviation / sqrt(replicas))
  double p50_s = 0, p90_s = 0;  //!< [s] Monte Carlo quantiles
  double expected_interruptions = 0;  //!< per run, Monte Carlo mean (analytic without MC)
  uint32_t replicas = 0;              //!< Monte Carlo runs made (capped by a draw budget)
  //! > 0 when a run has too many interruptions to simulate whole within the draw budget: the
  //! checkpoint blocks sampled, the figures the normal law of the sum of the run's blocks.
  uint32_t sampled_blocks = 0;
};

//! Completion time of `work_s` seconds of failure-free work under Poisson interruptions at
//! `hazard_per_s`, checkpointing at the Daly interval: `replicas` Monte Carlo runs seeded by
//! `seed` (deterministic on every platform); `replicas` = 0 gives the analytic figures only (P50
//! and P90 set to the expectation). Without hazard, every figure is `work_s`. A run whose
//! interruptions would leave fewer than 50 replicas in the draw budget is not simulated whole:
//! its blocks are (`sampled_blocks`), and its time is their sum under the central limit theorem.
//! Throws Stopped when `budget` (nullptr = none) runs out between replicas.
[[nodiscard]] SpotTiming spot_timing(double work_s, double hazard_per_s, double checkpoint_s,
                                     double restart_s, double replacement_s, uint32_t replicas,
                                     uint64_t seed, const ComputeBudget* budget = nullptr);

//! One sized training option.
struct TrainingOption {
  const InstanceType* instance = nullptr;
  const GpuSpec* gpu = nullptr;
  PricingPlan plan;
  bool feasible = false;  //!< a layout and a finite time exist
  std::string infeasible_reason;
  uint32_t nodes = 0, gpus = 0, spot_nodes = 0;
  TrainingLayout layout;
  TrainingSpeed speed;
  SpotTiming timing;
  double failure_hazard_per_s = 0;  //!< [1/s] the hardware-failure part of timing.hazard_per_s
  double hourly_usd = 0;            //!< [USD/h] the whole cluster
  double monthly_usd = 0;           //!< [USD] 730 h of the cluster
  double total_usd = 0;             //!< [USD] hourly x P50 time (x the full term when reserved)
  double total_p90_usd = 0;         //!< [USD] same at the P90 time
  PlanCost cost;                    //!< at the P50 time: commitment and its share in use
  double usd_per_tflops_hour = 0;   //!< [USD per peak TFLOPS-hour] at the request's precision
  bool meets_deadline = true;
  bool within_budget = true;
  bool stale = false;       //!< price dated more than options.stale_after_months before the quote
  std::string risk;         //!< none | low | medium | high (time lost to preemption)
  OptionEnergy energy;      //!< the whole run at the P50 time (models/quote/quote_energy.h)
  bool recommended = true;  //!< modelled MFU at or above the request's floor
  std::string not_recommended_reason;  //!< why not ("" when recommended)
};

//! One sized inference option: the replica plan (models/perf/inference/serving_sizing.h) on nodes
//! of one instance type, priced under one plan.
struct InferenceOption {
  const InstanceType* instance = nullptr;
  const GpuSpec* gpu = nullptr;
  PricingPlan plan;
  bool feasible = false;
  std::string infeasible_reason;
  double miss_ratio = 0;          //!< infeasible: nearest plan's worst achieved / target
  std::string miss_key;           //!< infeasible: the request key of that target ("" = none)
  inference::ServingPlan sizing;  //!< replicas, batch, step times, TTFT/TPOT, queue (feasible)
  uint32_t spare_replicas = 0;    //!< replicas beyond the load (N + spares, rounded to nodes)
  uint32_t slots_per_node = 0;    //!< replicas per node x batch
  uint32_t servers = 0;           //!< slots of the load replicas
  uint32_t nodes = 0, gpus = 0, spot_nodes = 0;
  uint32_t serving_nodes = 0;  //!< nodes of replicas and spares; the rest covers preempted spot
  double hourly_usd = 0, monthly_usd = 0, total_usd = 0;  //!< [USD/h], [USD/730 h], [USD/term]
  PlanCost cost;                   //!< over the service months: commitment and its share in service
  double usd_per_1k_requests = 0;  //!< [USD]
  double usd_per_1m_output_tokens = 0;  //!< [USD]
  double usd_per_tflops_hour = 0;
  bool meets_target = false;
  bool stale = false;
  std::string risk;
  //! Spot nodes only: a month of reclaims (models/quote/spot_loss.h); a latency service whose
  //! reclaims interrupt more requests than its p99 allows does not meet its target.
  std::optional<SpotLoss> spot_loss;
  OptionEnergy energy;  //!< one month of serving (models/quote/quote_energy.h)
};

//! The sized options of a request, ranked (feasible, meeting targets, cheapest first).
struct Quote {
  std::vector<TrainingOption> training;
  std::vector<InferenceOption> inference;
  std::string today;  //!< YYYY-MM-DD the quote was made
};

//! Instance types the options select, in catalog order.
[[nodiscard]] std::vector<const InstanceType*> candidate_instances(const Catalog& catalog,
                                                                   const QuoteOptions& o);

//! Fastest fitting plan of the step-time model for `req` on `nodes` nodes of `it` (a GPT-style
//! shape of req.params, sequence 2,048, global batch tokens_per_step); nullopt when none fits.
struct ModelledSpeed {
  TrainingLayout layout;
  TrainingSpeed speed;
};
[[nodiscard]] std::optional<ModelledSpeed> modelled_training_speed(const TrainingRequest& req,
                                                                   const InstanceType& it,
                                                                   const GpuSpec& gpu,
                                                                   uint32_t nodes);

//! Training speed of one request on one instance type by cluster size, each size computed once:
//! the size searches of every pricing plan of the instance revisit the same sizes (the modelled
//! plan search is the quote's main cost). `req`, `it`, `gpu` and `budget` must outlive it; the
//! sizing of its options checks `budget` (nullptr = none) at every new size and Monte Carlo.
class TrainingSpeeds {
 public:
  TrainingSpeeds(const TrainingRequest& req, const InstanceType& it, const GpuSpec& gpu,
                 const ComputeBudget* budget = nullptr)
      : req_(req), it_(it), gpu_(gpu), budget_(budget) {}
  //! The speed on `nodes` nodes (fixed MFU when the request sets one, else modelled); nullopt
  //! when no layout fits. Throws Stopped when the budget has run out.
  [[nodiscard]] const std::optional<ModelledSpeed>& at(uint32_t nodes);
  //! The budget the sizing checks (nullptr = none).
  [[nodiscard]] const ComputeBudget* budget() const { return budget_; }

 private:
  const TrainingRequest& req_;
  const InstanceType& it_;
  const GpuSpec& gpu_;
  const ComputeBudget* budget_;
  std::map<uint32_t, std::optional<ModelledSpeed>> by_nodes_;
};

//! Sizes one training option with the speeds of its instance type; infeasible options say why.
[[nodiscard]] TrainingOption size_training(const TrainingRequest& req, const QuoteOptions& o,
                                           const InstanceType& it, const GpuSpec& gpu,
                                           const PricingPlan& plan, TrainingSpeeds& speeds);
//! The same with speeds of its own.
[[nodiscard]] TrainingOption size_training(const TrainingRequest& req, const QuoteOptions& o,
                                           const InstanceType& it, const GpuSpec& gpu,
                                           const PricingPlan& plan);

//! The replica sizing of `req` on nodes of `it` (independent of the pricing plan).
[[nodiscard]] inference::SizingResult size_replicas(const InferenceRequest& req,
                                                    const InstanceType& it, const GpuSpec& gpu);

//! Prices the sizing `s` of `it` under `plan`; infeasible options say why.
[[nodiscard]] InferenceOption price_inference(const InferenceRequest& req, const QuoteOptions& o,
                                              const InstanceType& it, const GpuSpec& gpu,
                                              const PricingPlan& plan,
                                              const inference::SizingResult& s);

//! Sizes and prices one inference option: size_replicas, then price_inference.
[[nodiscard]] InferenceOption size_inference(const InferenceRequest& req, const QuoteOptions& o,
                                             const InstanceType& it, const GpuSpec& gpu,
                                             const PricingPlan& plan);

//! False with one error in `diags` when the filters of `req.options` leave no priced instance
//! type: at the narrowest filter given (/options/instances, /gpus or /providers), naming the
//! types it selects when they only lack a price. The CLI exits 2 and `gpuplan serve` answers 422.
[[nodiscard]] bool options_available(const QuoteRequest& req, const Catalog& catalog,
                                     Diagnostics& diags);

//! False with one error in `diags` when `req` asks for inference and no option of `q` can serve
//! it: at the missed target's key with the nearest miss, or at /inference/model when the model
//! fits no node. The CLI exits 2 and `gpuplan serve` answers 400 on it, writing nothing.
[[nodiscard]] bool inference_servable(const QuoteRequest& req, const Quote& q, Diagnostics& diags);

//! Sizes every candidate instance under every plan of `req.options` and ranks the options;
//! throws Stopped when `budget` (nullptr = none) runs out or is cancelled.
[[nodiscard]] Quote make_quote(const QuoteRequest& req, const Catalog& catalog,
                               std::chrono::year_month_day today,
                               const ComputeBudget* budget = nullptr);

}  // namespace gpuplan::quote
