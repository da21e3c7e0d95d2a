#pragma once
//! The one saturation rule, shared by the offered-load check, the reports, sweeps and
//! recommendations.

namespace gpuplan {

//! Demand at or above capacity (offered load >= 1): no queue reaches a steady state, so the
//! configuration cannot keep up even where the engine never stopped a run for saturating. The one
//! rule the reports, sweeps and recommendations apply.
[[nodiscard]] inline bool overloaded(double offered_load) {
  return offered_load >= 1.0;
}

}  // namespace gpuplan
