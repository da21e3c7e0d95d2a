#include "models/input/closest_names.h"
#include "models/input/diagnostic.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <tuple>

#include <nlohmann/json.hpp>

namespace gpuplan {

std::string in_quotes(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  out += s;
  out += '"';
  return out;
}
namespace {

// Numbers in messages: integers without a decimal point, others in shortest round-trip form.
std::string format_number(double x) {
  if (std::isinf(x)) return x > 0 ? "infinity" : "-infinity";
  if (x == std::floor(x) && std::abs(x) < 1e15) return std::to_string(static_cast<int64_t>(x));
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, res.ptr);
}

// A name as a message shows it: at most 60 bytes, so a megabyte-long id cannot flood the terminal.
std::string shown(std::string_view s) {
  if (s.size() <= 60) return std::string(s);
  return std::string(s.substr(0, 57)) + "... (" + std::to_string(s.size()) + " bytes)";
}

// "a, b or c" with each name quoted.
std::string quoted_list(const std::vector<std::string>& names, size_t max_shown) {
  std::string out;
  const size_t n = std::min(names.size(), max_shown);
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) out += (i + 1 == n && n == names.size()) ? " or " : ", ";
    out += '"' + names[i] + '"';
  }
  if (names.size() > n) out += ", ... (" + std::to_string(names.size() - n) + " more)";
  return out;
}

}  // namespace

std::string_view diag_code_name(DiagCode c) {
  switch (c) {
    case DiagCode::parse_error:
      return "parse_error";
    case DiagCode::unknown_key:
      return "unknown_key";
    case DiagCode::missing_key:
      return "missing_key";
    case DiagCode::wrong_type:
      return "wrong_type";
    case DiagCode::out_of_range:
      return "out_of_range";
    case DiagCode::unknown_name:
      return "unknown_name";
    case DiagCode::bad_unit:
      return "bad_unit";
    case DiagCode::infeasible:
      return "infeasible";
    case DiagCode::bad_override:
      return "bad_override";
    case DiagCode::io_error:
      return "io_error";
    case DiagCode::bad_flag:
      return "bad_flag";
    case DiagCode::limit_exceeded:
      return "limit_exceeded";
  }
  return "unknown";
}

std::string did_you_mean(const std::vector<std::string>& candidates) {
  if (candidates.empty()) return "";
  return "; did you mean \"" + candidates.front() + "\"?";
}

std::string Diagnostic::format() const {
  std::string out;
  if (!file.empty()) {
    out += file;
    if (line > 0) out += ':' + std::to_string(line);
    out += ": ";
  }
  if (!pointer.empty()) out += pointer + ": ";
  out += message;
  return out;
}

void Diagnostics::add(Diagnostic d) {
  if (items_.size() >= MAX) {
    ++dropped_;
    return;
  }
  items_.push_back(std::move(d));
}

void Diagnostics::error(const std::string& pointer, DiagCode code, std::string message) {
  error(pointer, code, std::move(message), {});
}

void Diagnostics::error(const std::string& pointer, DiagCode code, std::string message,
                        std::vector<std::string> candidates) {
  Diagnostic d;
  d.file = file_;
  d.line = line_of(pointer);
  d.pointer = pointer;
  d.code = code;
  d.message = std::move(message);
  d.candidates = std::move(candidates);
  add(std::move(d));
}

void Diagnostics::unknown_name(const std::string& pointer, std::string_view what,
                               std::string_view got, const std::vector<std::string>& known) {
  auto candidates = closest_names(got, known);
  std::string msg = "unknown " + std::string(what) + " " + in_quotes(shown(got));
  if (!candidates.empty()) {
    msg += did_you_mean(candidates);
  } else if (!known.empty()) {
    // NOTE: nothing is close, so list what exists (up to a screenful) instead of guessing.
    msg += "; expected one of " + quoted_list(known, 12);
  }
  error(pointer, DiagCode::unknown_name, std::move(msg), std::move(candidates));
}

void Diagnostics::unknown_key(const std::string& pointer, std::string_view key,
                              const std::vector<std::string>& allowed) {
  auto candidates = closest_names(key, allowed);
  std::string msg = "unknown key " + in_quotes(shown(key));
  if (!candidates.empty()) {
    msg += did_you_mean(candidates);
  } else {
    msg += "; allowed keys are " + quoted_list(allowed, 20) +
           " (prefix a key with \"_\" or \"x-\" to keep it as a comment)";
  }
  error(pointer, DiagCode::unknown_key, std::move(msg), std::move(candidates));
}

void Diagnostics::out_of_range(const std::string& pointer, double got, double lo, double hi,
                               std::string_view unit) {
  const std::string u = unit.empty() ? "" : " " + std::string(unit);
  std::string rule;
  if (hi == std::numeric_limits<double>::infinity()) {
    rule = "must be at least " + format_number(lo) + u;
  } else if (lo == -std::numeric_limits<double>::infinity()) {
    rule = "must be at most " + format_number(hi) + u;
  } else {
    rule = "must be between " + format_number(lo) + " and " + format_number(hi) + u;
  }
  error(pointer, DiagCode::out_of_range, rule + ", got " + format_number(got) + u);
}

int Diagnostics::line_of(const std::string& pointer) const {
  if (lines_ == nullptr) return 0;
  // A value that is absent (missing key, --set addition) is reported at its closest ancestor.
  std::string p = pointer;
  while (true) {
    for (const auto& [ptr, line] : *lines_)
      if (ptr == p) return line;
    if (p.empty()) return 0;
    const size_t slash = p.rfind('/');
    p.resize(slash == std::string::npos ? 0 : slash);
  }
}

std::vector<Diagnostic> Diagnostics::sorted() const {
  auto out = items_;
  std::stable_sort(out.begin(), out.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.file, a.pointer, a.line) < std::tie(b.file, b.pointer, b.line);
  });
  return out;
}

std::string Diagnostics::to_text() const {
  std::string out;
  for (const auto& d : sorted()) out += d.format() + '\n';
  if (dropped_ > 0) {
    out += "... and " + std::to_string(dropped_) + " more error" + (dropped_ == 1 ? "" : "s") +
           " not shown (only the first " + std::to_string(MAX) + " are kept)\n";
  }
  return out;
}

std::string Diagnostics::to_json() const {
  auto arr = nlohmann::json::array();
  for (const auto& d : sorted()) {
    arr.push_back({{"file", d.file},
                   {"line", d.line},
                   {"pointer", d.pointer},
                   {"code", diag_code_name(d.code)},
                   {"message", d.message},
                   {"candidates", d.candidates}});
  }
  // NOTE: a message may quote bytes of a file name; replace invalid UTF-8 instead of throwing.
  return arr.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace gpuplan
