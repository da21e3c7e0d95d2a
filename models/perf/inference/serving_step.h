#pragma once
//! The constants of the serving simulator's step time (sim/serving/step_time.h) and KV cache
//! size, taken from the same roofline as estimate_serving (roofline.h): the same efficiencies,
//! weight and KV bytes, FLOPs per token and TP all-reduce model, so a step of one whole prompt
//! takes estimate_serving's TTFT and a decode its TPOT.
#include <cstdint>
#include <optional>
#include <string_view>

#include "models/catalog/catalog.h"
#include "models/perf/inference/roofline.h"
#include "models/perf/training/model_shape.h"
#include "sim/serving/step_time.h"

namespace gpuplan::inference {

//! A replica's step model and KV capacity.
struct ServingReplicaModel {
  serving::StepModel step;
  double weight_bytes = 0;        //!< [B] all weights at the precision
  double kv_bytes_per_token = 0;  //!< [B]
  double memory_bytes = 0;        //!< [B] the group's memory x memory_share
  uint64_t kv_blocks = 0;         //!< blocks of `block_tokens` tokens after the weights (0: none)
  bool fits = false;              //!< the weights fit with room for at least one block
};

//! What the serving simulator runs at when a scenario sets none of its own: the constants that
//! tools/serving_validation.py fitted on measured vLLM 0.15.1 runs (docs/serving-simulation.md,
//! "Validation against measured runs"). The overheads are the serving software's (API server,
//! scheduler, sampling) and hold on every GPU; the efficiencies are the fit's on Hopper, the GPU
//! the fitted runs used, and the roofline's per-generation values (serving_efficiency) elsewhere.
struct SimulatorConstants {
  ServingEfficiency efficiency;
  double step_overhead_s = 0;     //!< [s] fixed cost of every step
  double request_overhead_s = 0;  //!< [s] the API server's time before the engine sees a request
};

//! The fitted constants (inference-sim/training@ed5c1d2, runs A1, A5, A9 and A14 on H100 SXM).
inline constexpr double VLLM_STEP_OVERHEAD_S = 0.001576;
inline constexpr double VLLM_REQUEST_OVERHEAD_S = 0.008208;
inline constexpr double VLLM_HOPPER_PREFILL_COMPUTE = 0.47137;
inline constexpr double VLLM_HOPPER_DECODE_BANDWIDTH = 0.889131;

//! The simulator's defaults on a GPU of `architecture` (GpuSpec::architecture).
[[nodiscard]] SimulatorConstants simulator_constants(std::string_view architecture);

//! `r` with the efficiencies it leaves at 0 set to the simulator's defaults on `gpu`.
[[nodiscard]] ServingRequest with_simulator_efficiency(const GpuSpec& gpu, ServingRequest r);

//! One all-reduce's time as a line, latency + bytes x per_byte.
struct AllReduceLine {
  double latency_s = 0;
  double per_byte_s = 0;
};

//! vLLM's custom all-reduce (vllm-project/vllm#2192), which vLLM runs in place of NCCL for a
//! tensor-parallel group of 2, 4, 6 or 8 GPUs on NVLink: the least-squares line through its
//! latencies on H100 from 512 B to 1 MB (sgl-project/sglang#2904; 6 GPUs between 4 and 8).
//! nullopt for other group sizes.
[[nodiscard]] std::optional<AllReduceLine> vllm_custom_allreduce(uint32_t tp);

//! Adds vLLM's custom all-reduce to `step`, the step model of `m` at `precision` on `tp` GPUs
//! `gpu` linked by `fabric_name`, where vLLM runs it (NVLink, a group vllm_custom_allreduce
//! knows): each step's all-reduces then take the faster of it and NCCL's. Its time per byte
//! scales with the H100's NVLink bandwidth over the GPU's.
void add_custom_allreduce(serving::StepModel& step, const training::ModelShape& m,
                          const GpuSpec& gpu, Precision precision, uint32_t tp,
                          std::string_view fabric_name);

//! The step model of `m` on `r.tp` GPUs `gpu` linked by `fabric_name`, with KV blocks of
//! `block_tokens` tokens (r.batch and the lengths are unused).
[[nodiscard]] ServingReplicaModel serving_replica_model(const training::ModelShape& m,
                                                        const GpuSpec& gpu,
                                                        std::string_view fabric_name,
                                                        const ServingRequest& r,
                                                        uint32_t block_tokens);

}  // namespace gpuplan::inference
