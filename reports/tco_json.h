#pragma once
//! result.json's `tco` (docs/outputs.md, "tco"; docs/tco.md) from the typed projection.
#include <nlohmann/json.hpp>

#include "study/tco_result.h"

namespace gpuplan::reports {

//! The projection as result.json gives it: options keyed by name, break-even months keyed
//! `<option>_vs_cloud`, node counts as integers when whole.
[[nodiscard]] nlohmann::json tco_json(const study::TcoProjection& tco);

}  // namespace gpuplan::reports
