#pragma once
//! Static style sheet and scripts inlined into every HTML report (no external files).
#include <string_view>

namespace gpuplan::reports {

//! The report's style sheet for screen and print (A4).
[[nodiscard]] std::string_view report_css();

//! Runs first: records script errors, console errors and blocked requests for the self-test.
[[nodiscard]] std::string_view report_error_capture_js();

//! Builds the charts from the `gp-data` JSON block, makes tables sortable, resizes charts for
//! printing and, when the URL ends in `#selftest`, writes a verdict into `document.title`.
[[nodiscard]] std::string_view report_js();

}  // namespace gpuplan::reports
