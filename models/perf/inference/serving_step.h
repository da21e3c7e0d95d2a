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

//! The step model of `m` on `r.tp` GPUs `gpu` linked by `fabric_name`, with KV blocks of
//! `block_tokens` tokens (r.batch and the lengths are unused).
[[nodiscard]] ServingReplicaModel serving_replica_model(const training::ModelShape& m,
                                                        const GpuSpec& gpu,
                                                        std::string_view fabric_name,
                                                        const ServingRequest& r,
                                                        uint32_t block_tokens);

}  // namespace gpuplan::inference
