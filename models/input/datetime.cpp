#include "models/input/datetime.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>

namespace gpuplan {
namespace {

std::string_view strip_blanks(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// Reads `n` digits at `s[pos]` into `out`; false if any is not a digit.
bool digits(std::string_view s, size_t pos, size_t n, int& out) {
  if (pos + n > s.size()) return false;
  out = 0;
  for (size_t k = pos; k < pos + n; ++k) {
    if (s[k] < '0' || s[k] > '9') return false;
    out = out * 10 + (s[k] - '0');
  }
  return true;
}

// Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar (H. Hinnant's algorithm).
int64_t days_from_civil(int y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

int days_in_month(int y, int m) {
  static constexpr int DAYS[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : DAYS[m - 1];
}

}  // namespace

std::optional<double> parse_datetime(std::string_view s) {
  s = strip_blanks(s);
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0;
  if (s.size() < 19 || !digits(s, 0, 4, y) || s[4] != '-' || !digits(s, 5, 2, mo) || s[7] != '-' ||
      !digits(s, 8, 2, d) || (s[10] != ' ' && s[10] != 'T') || !digits(s, 11, 2, h) ||
      s[13] != ':' || !digits(s, 14, 2, mi) || s[16] != ':' || !digits(s, 17, 2, sec)) {
    return std::nullopt;
  }
  if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 || sec > 59) {
    return std::nullopt;
  }
  std::string_view rest = s.substr(19);
  if (!rest.empty() && rest.back() == 'Z') rest.remove_suffix(1);
  double frac = 0;
  if (!rest.empty()) {
    if (rest.front() != '.' || rest.size() < 2) return std::nullopt;
    if (rest.find_first_not_of("0123456789", 1) != std::string_view::npos) return std::nullopt;
    const std::string text = "0" + std::string(rest);
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), frac);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  }
  return static_cast<double>(days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec) + frac;
}

}  // namespace gpuplan
