#pragma once
//! Planned maintenance windows as the core reads them (read-only, docs/failures.md "Planned
//! maintenance"): each entry is one batch of consecutive nodes of one pool, out of service for
//! `duration` from `start` on, repeated every `period`. models/compile/compile_maintenance.cpp
//! fills them (a rolling window becomes one entry per batch); a scenario without maintenance has an
//! empty ModelView::maintenance span and the engine never reads further.
#include "sim/core/types.h"

namespace gpuplan {

//! What happens to the jobs on a node when its maintenance window starts.
enum class DrainPolicy : uint8_t {
  checkpoint,  //!< they write a final checkpoint that ends at the start, then stop and requeue
  kill,        //!< they stop without notice and lose the compute since their last checkpoint
  wait,        //!< no new job from `drain_ahead` before; the rest stop as with checkpoint
};

//! One batch of a planned maintenance window.
struct MaintenanceWindow {
  SimTime start;        //!< [s] first start
  SimTime duration;     //!< [s] out of service per repetition, > 0
  SimTime period;       //!< [s] between starts of repetitions; NEVER: once
  SimTime drain_ahead;  //!< [s] placement stops this long before each start (wait); else 0
  uint32_t first_node;  //!< cluster index of its first node
  uint32_t n_nodes;     //!< consecutive nodes [first_node, first_node + n_nodes), one pool
  DrainPolicy drain;
};

}  // namespace gpuplan
