#pragma once
//! Numbers inside the sentences of study warnings: thousands separators and no trailing zeros
//! (the console's figures are reports/quantity.h, which the study stage cannot depend on).
#include <string>

namespace gpuplan::study {

//! `v` rounded to at most `max_decimals` decimals, trailing zeros dropped, with thousands
//! separators: (1080, 2) -> "1,080", (0.3, 6) -> "0.3", (172200.44, 1) -> "172,200.4".
[[nodiscard]] std::string grouped_number(double v, int max_decimals);

}  // namespace gpuplan::study
