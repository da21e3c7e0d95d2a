#pragma once
//! What the commands print about a result beyond its figures (those are reports/quantity.h).
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "models/scenario/scenario.h"

namespace gpuplan::cli {

//! The console's notice that a result cannot keep up, from the verdict its assessment carries
//! (so the console and report.html agree): "" when it keeps up, else "SATURATED: this
//! configuration cannot keep up (offered load 566% of capacity; 3 of 8 replications stopped
//! early), so its waits are not meaningful". Reads `result` defensively; never throws.
[[nodiscard]] std::string saturation_notice(const nlohmann::json& result);

//! Prints the load check's warnings of `sc` (study/load_check.h) to stderr, one
//! "NAME: warning: ..." line each, before anything is simulated; returns how many.
std::size_t print_load_warnings(const Scenario& sc);

//! The console's TCO line, the assessment's cheapest-option sentence as plain text ("TCO: hybrid
//! has the lowest net present value, ...; Left out as it does not serve the demand: on_prem stops
//! keeping up in month 7 ..."), so an option that falls short is named as on report.html; ""
//! without a TCO projection. Reads `result` defensively; never throws.
[[nodiscard]] std::string tco_notice(const nlohmann::json& result);

//! The console's lines for the report's Failures and Shared GPUs sections: "failures: <the
//! assessment's failures sentences>" and "shared GPUs: <its sharing sentences>", each present
//! only when the result has that assessment. Reads `result` defensively; never throws.
[[nodiscard]] std::vector<std::string> section_notices(const nlohmann::json& result);

}  // namespace gpuplan::cli
