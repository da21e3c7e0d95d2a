#pragma once
//! The scenario's closed sets that have no home in an engine or economics header; their names
//! (one table, both directions) are in models/input/names.h.
#include <cstdint>

namespace gpuplan {

//! How a pool is paid for.
enum class Pricing : uint8_t { on_demand, reserved_1y, reserved_3y, spot, on_prem };

//! How much of a reservation is paid at the start of its term.
enum class Upfront : uint8_t { none, partial, all };

//! How a trace writes its submit times.
enum class TimeFormat : uint8_t {
  seconds,   //!< numbers, scaled by the trace's time unit
  datetime,  //!< "YYYY-MM-DD HH:MM:SS"
};

//! Network topology kinds (topologies/builders.h).
enum class TopologyKind : uint8_t {
  none,  //!< one non-blocking switch (no key): every placement is ideal
  single_switch,
  two_level_tree,
  leaf_spine,
  fat_tree,
  rail_optimized,
  tree_ring_hybrid,
  custom,
};

//! What one vertex of a custom topology is.
enum class CustomVertexKind : uint8_t { host, network_switch, node_switch, controller };

//! Arithmetic a job trains in.
enum class Precision : uint8_t {
  fp32,  //!< non-tensor FP32
  tf32,  //!< TF32 tensor cores (FP32 where the GPU has none)
  bf16,  //!< BF16/FP16 tensor cores (V100/T4: FP16)
  fp8,   //!< FP8 tensor cores (BF16/FP16 where the GPU has none)
  fp16,  //!< FP16 tensor cores: the BF16 rate (as written, so echoes and reports show it)
};

//! The fleets a TCO projection compares (docs/tco.md): the three fleet shapes (cloud, on_prem,
//! hybrid) and the planner's options around the servers already owned (keep them, buy more now,
//! buy in stages, reserve cloud nodes for 1 or 3 years, burst to the elastic pools).
enum class TcoOption : uint8_t {
  cloud,
  on_prem,
  hybrid,
  keep,
  buy,
  staged,
  reserve_1y,
  reserve_3y,
  burst
};

//! Where a recommendation's SLOs must hold (docs/recommend.md, "Under growth"): over the whole
//! window at once, or in every month of it on its own (the last month of a growing demand being
//! the one a whole-year figure hides).
enum class SloPeriod : uint8_t { over_window, every_month };

//! The one fallback target of a spot-tolerant class.
enum class FallbackTarget : uint8_t { on_demand };

}  // namespace gpuplan
