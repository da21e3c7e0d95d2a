#include "models/input/field_reader.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace gpuplan {
namespace {

using json = nlohmann::json;
using fields::child;
using fields::describe;
using fields::is_comment_key;
using fields::leading_number;
using fields::trim;

constexpr double INF = std::numeric_limits<double>::infinity();

// Seconds in one `unit` (ms s m h d w y, or the word: "30 days", "2 hours"), or nullopt.
std::optional<double> unit_seconds(std::string_view unit) {
  static constexpr std::pair<std::string_view, double> UNITS[] = {{"ms", 1e-3},
                                                                  {"millisecond", 1e-3},
                                                                  {"milliseconds", 1e-3},
                                                                  {"s", 1},
                                                                  {"sec", 1},
                                                                  {"secs", 1},
                                                                  {"second", 1},
                                                                  {"seconds", 1},
                                                                  {"m", 60},
                                                                  {"min", 60},
                                                                  {"mins", 60},
                                                                  {"minute", 60},
                                                                  {"minutes", 60},
                                                                  {"h", 3600},
                                                                  {"hr", 3600},
                                                                  {"hrs", 3600},
                                                                  {"hour", 3600},
                                                                  {"hours", 3600},
                                                                  {"d", 86400},
                                                                  {"day", 86400},
                                                                  {"days", 86400},
                                                                  {"w", 604800},
                                                                  {"week", 604800},
                                                                  {"weeks", 604800},
                                                                  {"y", 365 * 86400.0},
                                                                  {"year", 365 * 86400.0},
                                                                  {"years", 365 * 86400.0}};
  for (const auto& [name, seconds] : UNITS)
    if (unit == name) return seconds;
  return std::nullopt;
}

}  // namespace

namespace fields {

std::string_view trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// Reads a leading non-negative finite number of `s` and returns it with the rest of `s`.
std::optional<std::pair<double, std::string_view>> leading_number(std::string_view s) {
  s = trim(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || !std::isfinite(v) || v < 0) return std::nullopt;
  return std::pair{v, trim(s.substr(static_cast<size_t>(end - s.data())))};
}

// Numbers in messages: integers without a decimal point, others in shortest round-trip form.
std::string num(double x) {
  if (x == std::floor(x) && std::abs(x) < 1e15) return std::to_string(static_cast<int64_t>(x));
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, res.ptr);
}

// A JSON value as a message shows it: strings quoted, containers by kind, long text cut.
std::string describe(const json& v) {
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array";
  std::string s = v.dump();
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

bool is_comment_key(const std::string& k) {
  return k == "$schema" || k.starts_with("_") || k.starts_with("x-");
}

std::string child(const std::string& ptr, std::string_view key) {
  return ptr + '/' + pointer_token(key);
}

std::string child(const std::string& ptr, size_t idx) {
  return ptr + '/' + std::to_string(idx);
}

std::string list_names(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace fields

std::optional<double> parse_duration(std::string_view text) {
  auto q = leading_number(text);
  if (!q) return std::nullopt;
  if (q->second.empty()) return q->first;
  auto unit = unit_seconds(q->second);
  if (!unit) return std::nullopt;
  return q->first * *unit;
}

std::optional<double> parse_rate(std::string_view text) {
  const size_t slash = text.find('/');
  auto q = leading_number(text.substr(0, slash));
  if (!q || !q->second.empty()) return std::nullopt;
  if (slash == std::string_view::npos) return q->first;
  // "12/h" per one unit, or "5/10m" per a duration.
  const std::string_view per = trim(text.substr(slash + 1));
  std::optional<double> seconds = unit_seconds(per);
  if (!seconds) seconds = parse_duration(per);
  if (!seconds || *seconds <= 0) return std::nullopt;
  return q->first / *seconds;
}

std::optional<double> parse_count(std::string_view text) {
  std::string t(fields::trim(text));
  if (!t.empty() && t.front() == '+') t.erase(0, 1);
  if (t.empty()) return std::nullopt;
  double scale = 1;
  switch (std::toupper(static_cast<unsigned char>(t.back()))) {
    case 'K':
      scale = 1e3;
      break;
    case 'M':
      scale = 1e6;
      break;
    case 'B':
    case 'G':
      scale = 1e9;
      break;
    case 'T':
      scale = 1e12;
      break;
    default:
      break;
  }
  if (scale != 1) t.pop_back();
  t = std::string(fields::trim(t));
  double v = 0;
  const char* end = t.data() + t.size();
  const auto res = std::from_chars(t.data(), end, v);
  if (t.empty() || res.ec != std::errc() || res.ptr != end || !std::isfinite(v))
    return std::nullopt;
  return v * scale;
}

std::optional<double> parse_money(std::string_view text) {
  std::string s(fields::trim(text));
  if (!s.empty() && s.front() == '$') s.erase(0, 1);
  if (s.size() >= 3 && (s.ends_with("USD") || s.ends_with("usd"))) s.resize(s.size() - 3);
  s.erase(std::remove(s.begin(), s.end(), ','), s.end());
  return parse_count(s);
}

void FieldReader::wrong_type(const json& v, const std::string& ptr, std::string_view expected) {
  d_.error(ptr, DiagCode::wrong_type, "expected " + std::string(expected) + ", got " + describe(v));
}

void FieldReader::check_keys(const json& obj, const std::string& ptr,
                             const std::vector<std::string>& allowed) {
  for (const auto& [k, v] : obj.items()) {
    if (!is_comment_key(k) && std::find(allowed.begin(), allowed.end(), k) == allowed.end()) {
      d_.unknown_key(child(ptr, k), k, allowed);
    }
  }
}

const json* FieldReader::get(const json& obj, const char* key) {
  const auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

const json* FieldReader::need(const json& obj, const std::string& ptr, const char* key,
                              std::string_view hint) {
  const json* v = get(obj, key);
  if (v == nullptr) {
    d_.error(child(ptr, key), DiagCode::missing_key,
             "missing required key " + in_quotes(key) + " (" + std::string(hint) + ")");
  }
  return v;
}

bool FieldReader::object(const json& v, const std::string& ptr, std::string_view what) {
  if (v.is_object()) return true;
  wrong_type(v, ptr, what);
  return false;
}

std::optional<std::string> FieldReader::string(const json& v, const std::string& ptr) {
  if (v.is_string()) return v.get<std::string>();
  wrong_type(v, ptr, "a string");
  return std::nullopt;
}

std::optional<std::string> FieldReader::name(const json& v, const std::string& ptr) {
  auto s = string(v, ptr);
  if (s && s->empty()) {
    d_.error(ptr, DiagCode::out_of_range, "a name must not be empty");
    return std::nullopt;
  }
  if (s && s->size() > MAX_NAME_BYTES) {
    // NOTE: names are repeated in every CSV row and chart label, so a 100 KB name would cost
    // gigabytes of output; a fixed limit, as no planner needs a longer one.
    d_.error(ptr, DiagCode::limit_exceeded,
             "a name is at most " + std::to_string(MAX_NAME_BYTES) +
                 " bytes (a fixed limit), got " + std::to_string(s->size()) +
                 "; shorten it or move the text to \"description\"");
    return std::nullopt;
  }
  return s;
}

std::optional<bool> FieldReader::boolean(const json& v, const std::string& ptr) {
  if (v.is_boolean()) return v.get<bool>();
  wrong_type(v, ptr, "true or false");
  return std::nullopt;
}

std::optional<double> FieldReader::number(const json& v, const std::string& ptr, double lo,
                                          double hi) {
  if (!v.is_number()) {
    wrong_type(v, ptr, "a number");
    return std::nullopt;
  }
  const double x = v.get<double>();
  if (!(x >= lo && x <= hi)) {
    d_.out_of_range(ptr, x, lo, hi);
    return std::nullopt;
  }
  return x;
}

std::optional<uint64_t> FieldReader::integer(const json& v, const std::string& ptr, uint64_t lo,
                                             uint64_t hi) {
  const bool whole_float = v.is_number_float() && std::isfinite(v.get<double>()) &&
                           v.get<double>() == std::floor(v.get<double>());
  if (!v.is_number_integer() && !whole_float) {
    wrong_type(v, ptr, "a whole number");
    return std::nullopt;
  }
  const bool negative =
      v.is_number_float() ? v.get<double>() < 0 : !v.is_number_unsigned() && v.get<int64_t>() < 0;
  const bool too_big = v.is_number_float() && v.get<double>() >= 18446744073709551615.0;
  const uint64_t x = negative || too_big   ? 0
                     : v.is_number_float() ? static_cast<uint64_t>(v.get<double>())
                                           : v.get<uint64_t>();
  if (negative || too_big || x < lo || x > hi) {
    const bool high = too_big || (!negative && x > hi);
    if (high && hi == std::numeric_limits<uint64_t>::max()) {
      // NOTE: the bound is printed as an integer; as a double 2^64 - 1 would round up.
      d_.error(ptr, DiagCode::out_of_range,
               "too large: must be a whole number from " + std::to_string(lo) + " to " +
                   std::to_string(hi) + ", got " + describe(v));
      return std::nullopt;
    }
    d_.out_of_range(ptr, v.get<double>(), static_cast<double>(lo),
                    hi == std::numeric_limits<uint64_t>::max() ? INF : static_cast<double>(hi));
    return std::nullopt;
  }
  return x;
}

// A duration [s]: a number of seconds or "<number><unit>"; `positive` also rejects 0.
std::optional<double> FieldReader::duration(const json& v, const std::string& ptr, bool positive) {
  std::optional<double> s;
  if (v.is_number()) {
    s = v.get<double>();
    if (*s < 0) {
      d_.error(ptr, DiagCode::out_of_range, "a duration cannot be negative, got " + describe(v));
      return std::nullopt;
    }
  } else if (v.is_string()) {
    s = parse_duration(v.get<std::string>());
    if (!s) {
      const bool neg = trim(v.get<std::string>()).starts_with("-");
      d_.error(ptr, neg ? DiagCode::out_of_range : DiagCode::bad_unit,
               neg ? "a duration cannot be negative, got " + describe(v)
                   : "cannot read duration " + describe(v) +
                         "; write seconds as a number or \"<number><unit>\" with unit ms, s, "
                         "m, h, d, w or y, or the word (e.g. \"36h\", \"30 days\")");
      return std::nullopt;
    }
  } else {
    wrong_type(v, ptr, "a duration (seconds, or a string like \"36h\")");
    return std::nullopt;
  }
  if (positive && *s == 0) {
    d_.error(ptr, DiagCode::out_of_range, "duration must be greater than 0, got " + describe(v));
    return std::nullopt;
  }
  return s;
}

// A rate [1/s] > 0: a number per second or "<number>/<unit>".
std::optional<double> FieldReader::rate(const json& v, const std::string& ptr) {
  std::optional<double> r;
  if (v.is_number()) {
    r = v.get<double>();
  } else if (v.is_string()) {
    r = parse_rate(v.get<std::string>());
    if (!r) {
      d_.error(ptr, DiagCode::bad_unit,
               "cannot read rate " + describe(v) +
                   "; write a number per second or \"<number>/<unit>\" with unit ms, s, m, h, "
                   "d, w or y (e.g. \"12/h\")");
      return std::nullopt;
    }
  } else {
    wrong_type(v, ptr, "a rate (per second, or a string like \"12/h\")");
    return std::nullopt;
  }
  if (!(*r > 0) || !std::isfinite(*r)) {
    d_.error(ptr, DiagCode::out_of_range, "a rate must be greater than 0, got " + describe(v));
    return std::nullopt;
  }
  return r;
}

// One of `names` (exact); anything else is unknown_name with a suggestion.
std::optional<size_t> FieldReader::choice(const json& v, const std::string& ptr,
                                          std::string_view what,
                                          const std::vector<std::string>& names) {
  auto s = string(v, ptr);
  if (!s) return std::nullopt;
  const auto it = std::find(names.begin(), names.end(), *s);
  if (it == names.end()) {
    d_.unknown_name(ptr, what, *s, names);
    return std::nullopt;
  }
  return static_cast<size_t>(it - names.begin());
}

// A number in [lo, hi] under key `key` of `o`, if present.
std::optional<double> FieldReader::opt_number(const json& o, const std::string& p, const char* key,
                                              double lo, double hi) {
  const json* v = get(o, key);
  return v ? number(*v, child(p, key), lo, hi) : std::nullopt;
}

// A bandwidth [Gb/s] > 0: a number of Gb/s, or "<number><unit>" with unit Mbps, Gbps, Tbps
// (also Mb/s, Gb/s, Tb/s).
std::optional<double> FieldReader::bandwidth(const json& v, const std::string& ptr) {
  std::optional<double> gbps;
  if (v.is_number()) {
    gbps = v.get<double>();
  } else if (v.is_string()) {
    static constexpr std::pair<std::string_view, double> UNITS[] = {
        {"Mbps", 1e-3}, {"Mb/s", 1e-3}, {"Gbps", 1}, {"Gb/s", 1}, {"Tbps", 1e3}, {"Tb/s", 1e3}};
    // NOTE: a reference, not a copy: `q->second` views this string, which must outlive it.
    const std::string& text = v.get_ref<const std::string&>();
    if (auto q = leading_number(text)) {
      for (const auto& [unit, scale] : UNITS)
        if (q->second == unit) gbps = q->first * scale;
    }
    if (!gbps) {
      d_.error(ptr, DiagCode::bad_unit,
               "cannot read bandwidth " + describe(v) +
                   "; write Gb/s as a number or \"<number><unit>\" with unit Mbps, Gbps or "
                   "Tbps (e.g. \"400Gbps\")");
      return std::nullopt;
    }
  } else {
    wrong_type(v, ptr, "a bandwidth (Gb/s, or a string like \"400Gbps\")");
    return std::nullopt;
  }
  if (!(*gbps > 0) || !std::isfinite(*gbps)) {
    d_.error(ptr, DiagCode::out_of_range, "a bandwidth must be greater than 0, got " + describe(v));
    return std::nullopt;
  }
  return gbps;
}

std::optional<double> FieldReader::read_count(const json& v, const std::string& ptr) {
  if (v.is_number()) return v.get<double>();
  if (!v.is_string()) {
    wrong_type(v, ptr, "a count (a number, or a string like \"70B\")");
    return std::nullopt;
  }
  auto x = parse_count(v.get<std::string>());
  if (!x) {
    d_.error(ptr, DiagCode::bad_unit,
             "cannot read count " + describe(v) +
                 "; write a number, optionally with K, M, B or T (e.g. \"70B\")");
  }
  return x;
}

std::optional<double> FieldReader::count_si(const json& v, const std::string& ptr) {
  auto x = read_count(v, ptr);
  if (x && (!(*x > 0) || !std::isfinite(*x))) {
    d_.error(ptr, DiagCode::out_of_range, "a count must be greater than 0, got " + describe(v));
    return std::nullopt;
  }
  return x;
}

std::optional<double> FieldReader::count(const json& v, const std::string& ptr, double lo,
                                         double hi) {
  auto x = read_count(v, ptr);
  if (x && !(*x >= lo && *x <= hi)) {
    d_.out_of_range(ptr, *x, lo, hi);
    return std::nullopt;
  }
  return x;
}

std::optional<double> FieldReader::money(const json& v, const std::string& ptr, double lo) {
  std::optional<double> x;
  if (v.is_number()) {
    x = v.get<double>();
  } else if (v.is_string()) {
    x = parse_money(v.get<std::string>());
    if (!x) {
      d_.error(ptr, DiagCode::bad_unit,
               "cannot read money " + describe(v) +
                   "; write US dollars as a number or a string like \"$5M\" or \"$250K\"");
      return std::nullopt;
    }
  } else {
    wrong_type(v, ptr, "an amount of money (USD, or a string like \"$5M\")");
    return std::nullopt;
  }
  return at_least(x, ptr, lo, "USD");
}

std::optional<double> FieldReader::at_least(std::optional<double> x, const std::string& ptr,
                                            double lo, std::string_view unit) {
  if (x && (!(*x >= lo) || !std::isfinite(*x))) {
    d_.out_of_range(ptr, *x, lo, INF, unit);
    return std::nullopt;
  }
  return x;
}

std::optional<std::vector<double>> FieldReader::numbers(const json& v, const std::string& ptr,
                                                        double lo, double hi) {
  if (!v.is_array() || v.empty()) {
    wrong_type(v, ptr, "a non-empty array of numbers");
    return std::nullopt;
  }
  std::vector<double> out;
  bool ok = true;
  for (size_t i = 0; i < v.size(); ++i) {
    auto x = number(v[i], child(ptr, i), lo, hi);
    ok = ok && x.has_value();
    if (x) out.push_back(*x);
  }
  if (!ok) return std::nullopt;
  return out;
}

std::optional<std::vector<std::string>> FieldReader::names(const json& v, const std::string& ptr,
                                                           std::string_view what,
                                                           const std::vector<std::string>& known) {
  if (!v.is_array()) {
    wrong_type(v, ptr, "an array of strings");
    return std::nullopt;
  }
  const auto same = [](const std::string& a, const std::string& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
      return std::tolower(static_cast<unsigned char>(x)) ==
             std::tolower(static_cast<unsigned char>(y));
    });
  };
  std::vector<std::string> out;
  bool ok = true;
  for (size_t i = 0; i < v.size(); ++i) {
    auto s = string(v[i], child(ptr, i));
    if (!s) {
      ok = false;
      continue;
    }
    const auto hit =
        std::find_if(known.begin(), known.end(), [&](const std::string& k) { return same(k, *s); });
    if (hit == known.end()) {
      d_.unknown_name(child(ptr, i), what, *s, known);
      ok = false;
    } else {
      out.push_back(*hit);
    }
  }
  if (!ok) return std::nullopt;
  return out;
}

// A ratio >= 1: a number, or "<down>:<up>" (e.g. "3:1").
std::optional<double> FieldReader::ratio(const json& v, const std::string& ptr) {
  std::optional<double> r;
  if (v.is_number()) {
    r = v.get<double>();
  } else if (v.is_string()) {
    const std::string text = v.get<std::string>();
    const size_t colon = text.find(':');
    auto a = leading_number(std::string_view(text).substr(0, colon));
    auto b = colon == std::string::npos ? std::nullopt
                                        : leading_number(std::string_view(text).substr(colon + 1));
    if (a && a->second.empty() && b && b->second.empty() && b->first > 0) r = a->first / b->first;
    if (!r) {
      d_.error(ptr, DiagCode::bad_unit,
               "cannot read ratio " + describe(v) + "; write \"<down>:<up>\" (e.g. \"3:1\")");
      return std::nullopt;
    }
  } else {
    wrong_type(v, ptr, "a ratio such as \"3:1\"");
    return std::nullopt;
  }
  if (!(*r >= 1) || !std::isfinite(*r)) {
    d_.error(
        ptr, DiagCode::out_of_range,
        "oversubscription is downlink over uplink bandwidth, at least 1:1, got " + describe(v));
    return std::nullopt;
  }
  return r;
}

}  // namespace gpuplan
