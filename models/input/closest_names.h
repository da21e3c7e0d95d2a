#pragma once
//! Names compared as people type them: case-insensitive equality, and the nearest names by edit
//! distance for "did you mean".
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan {

//! `a` equals `b`, ignoring ASCII case.
[[nodiscard]] bool iequals(std::string_view a, std::string_view b);

//! Up to `n` names from `known` closest to `got` by edit distance (for "did you mean").
std::vector<std::string> closest_names(std::string_view got, const std::vector<std::string>& known,
                                       size_t n = 3);

}  // namespace gpuplan
