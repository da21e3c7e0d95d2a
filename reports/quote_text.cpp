#include "reports/quote_text.h"

#include <cmath>
#include <cstdio>

#include "models/input/names.h"
#include "reports/format.h"

namespace gpuplan::quote {

std::string precision_name(Precision p) {
  return std::string(enum_name(p));
}

std::string count_text(double x) {
  static const struct {
    double scale;
    const char* suffix;
  } units[] = {{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "K"}};
  for (const auto& u : units) {
    if (x >= u.scale) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%g%s", std::round(x / u.scale * 100) / 100, u.suffix);
      return buf;
    }
  }
  return reports::format_number(x, 0);
}

std::string sci(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  std::string s = buf;
  const size_t e = s.find("e+");
  if (e != std::string::npos) s.erase(e + 1, 1);
  return s;
}

}  // namespace gpuplan::quote
