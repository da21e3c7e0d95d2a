#pragma once
//! Numbers of the per-job CSV: integers, and the shortest round-trip text of a double, byte for
//! byte what `std::to_chars(first, last, value)` writes, computed faster for the magnitudes a
//! jobs.csv holds (times and durations from nanoseconds to 2^53 s).
#include <cstddef>
#include <cstdint>

namespace gpuplan::reports {

//! Characters write_shortest may write at most: sign, 17 digits, point and a 3-digit exponent.
inline constexpr std::size_t SHORTEST_MAX_CHARS = 24;

//! Writes `value` exactly as `std::to_chars(out, out + SHORTEST_MAX_CHARS, value)` does (shortest
//! text that reads back to the same double; fixed notation unless scientific is shorter) and
//! returns the end of the text. Finite values in [2^-28, 2^53) (and their negatives, and +0) take
//! an exact 128-bit integer path; every other value is handed to std::to_chars.
char* write_shortest(char* out, double value);

//! Characters write_integer may write at most (2^64 - 1 has 20 digits).
inline constexpr std::size_t INTEGER_MAX_CHARS = 20;

//! Writes the decimal digits of `value` exactly as std::to_chars does and returns their end.
char* write_integer(char* out, uint64_t value);

}  // namespace gpuplan::reports
