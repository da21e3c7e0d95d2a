#include "study/number_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpuplan::study {

std::string grouped_number(double v, int max_decimals) {
  if (!std::isfinite(v)) return "n/a";
  char buf[400];
  std::snprintf(buf, sizeof buf, "%.*f", std::clamp(max_decimals, 0, 17), v);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  const std::size_t start = s[0] == '-' ? 1 : 0, end = std::min(s.find('.'), s.size());
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i > start && i < end && (end - i) % 3 == 0) out += ',';
    out += s[i];
  }
  return out;
}

}  // namespace gpuplan::study
