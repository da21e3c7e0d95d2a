#include "reports/html_parts.h"

#include <cmath>

#include "reports/format.h"

namespace gpuplan::reports {

std::string dur(const std::optional<double>& s) {
  return s ? format_duration(*s) : "n/a";
}

std::string pct(const std::optional<double>& f, int decimals) {
  return f ? format_percent(*f, decimals) : "n/a";
}

std::string money(const std::optional<double>& usd) {
  return usd ? format_money(*usd) : "n/a";
}

std::string plural(double n, std::string_view one, std::string_view many) {
  return format_count(n) + " " + std::string(std::llround(n) == 1 ? one : many);
}

}  // namespace gpuplan::reports
