#pragma once
//! Counter-based random numbers: Philox4x32-10 keyed by (seed, replica), one counter space per
//! (stream, class, draw index). A draw depends only on those, never on thread count or order.
#include <cmath>

#include <Random123/philox.h>

#include "sim/core/portable.h"
#include "sim/core/types.h"

namespace gpuplan {

//! Named random streams: one Philox counter space per purpose, so purposes never share draws.
enum class Stream : uint32_t {
  arrivals = 1,
  job_size = 2,
  job_duration = 3,
  preemptions = 4,      //!< per-node spot interruption times (sub = node)
  reclaim_waves = 5,    //!< correlated reclaim waves: times, sizes, victims (sub = pool)
  spot_returns = 6,     //!< delay until reclaimed capacity returns (sub = node)
  provisioning = 7,     //!< elastic provisioning delays (sub = node)
  failures = 8,         //!< hardware failures of a pool: times, node, cause (sub = pool)
  switch_failures = 9,  //!< failures of a leaf switch: times, cause (sub = group)
  repairs = 10,         //!< repair times of failed nodes and switches (sub = node or group)
  estimate_error = 16,  //!< a job's duration-estimate error factor (sub = class, counter = job)
  // Packing replays (sim/sharing/, study/pack_replay.h): their own studies, never a replica.
  packing = 32,    //!< random packing choices of shared-GPU pods (counter = pod)
  pod_order = 33,  //!< shuffled or resampled pod order (sub 0 = shuffle, 1 = resampling)
  // LLM serving studies (sim/serving/): their own studies, never a replica of the engine.
  serving_arrivals = 48,  //!< a request's arrival gap (counter = request)
  serving_lengths = 49,   //!< a request's prompt and output lengths (counter = request)
};

//! Four independent 32-bit words for draw `idx` of `stream` for class `sub` in one replica.
struct Draw {
  uint32_t w[4];
};

//! One Philox4x32-10 block: the four words of counter (c0, c1, c2, c3) under key (k0, k1).
[[nodiscard]] GPUPLAN_HD inline Draw philox_block(uint32_t c0, uint32_t c1, uint32_t c2,
                                                  uint32_t c3, uint32_t k0, uint32_t k1) {
  r123::Philox4x32 gen;
  const r123::Philox4x32::ctr_type ctr = {{c0, c1, c2, c3}};
  const r123::Philox4x32::key_type key = {{k0, k1}};
  const auto r = gen(ctr, key);
  return Draw{{r[0], r[1], r[2], r[3]}};
}

//! Draw `idx` of `stream` for class (or node, pool) `sub` of replica `replica` under `seed`.
[[nodiscard]] GPUPLAN_HD inline Draw philox_draw(uint64_t seed, uint32_t replica, Stream stream,
                                                 uint32_t sub, uint32_t idx) {
  return philox_block(idx, sub, static_cast<uint32_t>(stream), static_cast<uint32_t>(seed >> 32),
                      static_cast<uint32_t>(seed), replica);
}

//! A uniform double in the open interval (0, 1) from 64 random bits (53 used).
[[nodiscard]] GPUPLAN_HD inline double open_u01(uint32_t hi, uint32_t lo) {
  const uint64_t bits = ((static_cast<uint64_t>(hi) << 32) | lo) >> 11;
  return (static_cast<double>(bits) + 0.5) * (1.0 / 9007199254740992.0);  // 2^-53
}

//! First uniform of a draw (words 0, 1).
[[nodiscard]] GPUPLAN_HD inline double u01_first(const Draw& d) {
  return open_u01(d.w[0], d.w[1]);
}
//! Second uniform of a draw (words 2, 3).
[[nodiscard]] GPUPLAN_HD inline double u01_second(const Draw& d) {
  return open_u01(d.w[2], d.w[3]);
}

}  // namespace gpuplan
