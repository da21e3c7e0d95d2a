#include "reports/format.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

namespace gpuplan::reports {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 when the bytes there are not one.
std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    n = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    n = 3;
    if (lead == 0xE0) lo = 0xA0;  // overlong
    if (lead == 0xED) hi = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    n = 4;
    if (lead == 0xF0) lo = 0x90;  // overlong
    if (lead == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return n;
}

// Inserts a comma every three digits into a string of decimal digits.
std::string group_thousands(const std::string& digits) {
  std::string out;
  const std::size_t n = digits.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// Fixed-point text of `value` (finite) with `decimals` decimals and thousands separators.
std::string fixed_grouped(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, std::fabs(value));
  std::string text = buf;
  const std::size_t dot = text.find('.');
  std::string int_part = text.substr(0, dot);
  std::string frac_part = dot == std::string::npos ? "" : text.substr(dot);
  const bool negative = value < 0 && text.find_first_not_of("0.") != std::string::npos;
  std::string out = negative ? "-" : "";
  out += group_thousands(int_part);
  out += frac_part;
  return out;
}

}  // namespace

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    switch (c) {
      case '&':
        out += "&amp;";
        ++i;
        continue;
      case '<':
        out += "&lt;";
        ++i;
        continue;
      case '>':
        out += "&gt;";
        ++i;
        continue;
      case '"':
        out += "&quot;";
        ++i;
        continue;
      case '\'':
        out += "&#39;";
        ++i;
        continue;
      default:
        break;
    }
    const std::size_t n = utf8_sequence_length(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string json_for_script(const nlohmann::json& value) {
  const std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else if (c == '\xE2' && i + 2 < text.size() && text[i + 1] == '\x80' &&
               (text[i + 2] == '\xA8' || text[i + 2] == '\xA9')) {
      // NOTE: U+2028/2029 end a line in older JavaScript parsers; escape them like the rest.
      out += text[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

std::string format_money(double usd) {
  if (!std::isfinite(usd)) return "n/a";
  const double cents = std::round(usd * 100.0);
  const std::string body = fixed_grouped(std::fabs(cents) / 100.0, 2);
  return (cents < 0 ? "-$" : "$") + body;
}

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds)) return "n/a";
  if (seconds < 0) {
    std::string out = "-";
    out += format_duration(-seconds);
    return out;
  }
  if (seconds == 0) return "0 s";
  struct Unit {
    double scale;  // [s] per unit
    double limit;  // the next unit takes over at this many of this unit
    const char* name;
  };
  static constexpr std::array<Unit, 5> UNITS{
      {{1e-3, 1000, "ms"},
       {1, 60, "s"},
       {60, 60, "min"},
       {3600, 24, "h"},
       {86400, std::numeric_limits<double>::infinity(), "d"}}};
  // About three significant digits: one decimal below 10, none above.
  const auto shown = [](double v) { return v < 9.95 ? std::round(v * 10) / 10 : std::round(v); };
  std::size_t k = 0;
  while (k + 1 < UNITS.size() && shown(seconds / UNITS[k].scale) >= UNITS[k].limit) ++k;
  const double v = shown(seconds / UNITS[k].scale);
  std::string text = fixed_grouped(v, v < 10 ? 1 : 0);
  if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0) text.resize(text.size() - 2);
  return text + " " + UNITS[k].name;
}

std::string format_percent(double fraction, int decimals) {
  if (!std::isfinite(fraction)) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f%%", decimals, fraction * 100.0);
  return buf;
}

std::string format_count(double count) {
  if (!std::isfinite(count)) return "n/a";
  return fixed_grouped(std::round(count), 0);
}

std::string format_number(double value, int decimals) {
  if (!std::isfinite(value)) return "n/a";
  return fixed_grouped(value, decimals);
}

std::string format_raw(double value) {
  if (!std::isfinite(value)) return "";
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, res.ptr);
}

}  // namespace gpuplan::reports
