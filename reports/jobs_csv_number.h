#pragma once
//! Numbers of the per-job CSV: the shortest round-trip text of a double, byte for byte what
//! `std::to_chars(first, last, value)` writes, computed several times faster for the magnitudes
//! a jobs.csv holds (times and durations from nanoseconds to 2^53 s).
#include <cstddef>

namespace gpuplan::reports {

//! Characters write_shortest may write at most: sign, 17 digits, point and a 3-digit exponent.
inline constexpr std::size_t SHORTEST_MAX_CHARS = 24;

//! Writes `value` exactly as `std::to_chars(out, out + SHORTEST_MAX_CHARS, value)` does (shortest
//! text that reads back to the same double; fixed notation unless scientific is shorter) and
//! returns the end of the text. Finite values in [2^-28, 2^53) (and their negatives, and +0) take
//! an exact 128-bit integer path; every other value is handed to std::to_chars.
char* write_shortest(char* out, double value);

}  // namespace gpuplan::reports
