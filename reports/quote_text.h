#pragma once
//! Words and numbers the quote's pages share (reports/quote_render.cpp, quote_assumptions.cpp).
#include <string>

#include "models/input/plan_enums.h"

namespace gpuplan::quote {

//! "bf16", "fp8": a precision's name.
[[nodiscard]] std::string precision_name(Precision p);

//! 7.0e10 -> "70B", 2e12 -> "2T", 1.5e9 -> "1.5B".
[[nodiscard]] std::string count_text(double x);

//! Scientific notation with three significant digits: 8.4e23 -> "8.4e23".
[[nodiscard]] std::string sci(double x);

}  // namespace gpuplan::quote
