#pragma once
//! The constants of the serving simulator's step time (sim/serving/step_time.h) and KV cache
//! size, taken from the same roofline as estimate_serving (roofline.h): the same efficiencies,
//! weight and KV bytes, FLOPs per token and TP all-reduce model, so a step of one whole prompt
//! takes estimate_serving's TTFT and a decode its TPOT.
#include <cstdint>
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
inline constexpr double VLLM_STEP_OVERHEAD_S = 0.00167;
inline constexpr double VLLM_REQUEST_OVERHEAD_S = 0.007632;
inline constexpr double VLLM_HOPPER_PREFILL_COMPUTE = 0.451839;
inline constexpr double VLLM_HOPPER_DECODE_BANDWIDTH = 0.901716;

//! The simulator's defaults on a GPU of `architecture` (GpuSpec::architecture).
[[nodiscard]] SimulatorConstants simulator_constants(std::string_view architecture);

//! `r` with the efficiencies it leaves at 0 set to the simulator's defaults on `gpu`.
[[nodiscard]] ServingRequest with_simulator_efficiency(const GpuSpec& gpu, ServingRequest r);

//! The step model of `m` on `r.tp` GPUs `gpu` linked by `fabric_name`, with KV blocks of
//! `block_tokens` tokens (r.batch and the lengths are unused).
[[nodiscard]] ServingReplicaModel serving_replica_model(const training::ModelShape& m,
                                                        const GpuSpec& gpu,
                                                        std::string_view fabric_name,
                                                        const ServingRequest& r,
                                                        uint32_t block_tokens);

}  // namespace gpuplan::inference
