#pragma once
//! How a replica stops when it breaks down: the first cause is kept with its time, and every
//! later event is refused (the engine's step checks it).
#include "sim/core/state.h"

namespace gpuplan {

//! Flags the replica as saturated by `cause` now, unless it already is.
GPUPLAN_HD inline void saturate(ReplicaState& s, SaturationCause cause) {
  if (s.totals.saturation == SaturationCause::none) {
    s.totals.saturation = cause;
    s.totals.saturated_at = s.now;
  }
}

//! Schedules an event, saturating the replica on calendar overflow instead of failing silently.
GPUPLAN_HD inline void schedule_or_saturate(ReplicaState& s, SimTime t, EventKind kind,
                                            uint32_t target, uint32_t gen) {
  if (!schedule_event(s.events, t, kind, target, gen)) saturate(s, SaturationCause::event_overflow);
}

}  // namespace gpuplan
