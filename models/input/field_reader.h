#pragma once
//! One reader for every JSON input (scenarios, quote requests, trace configurations): typed values
//! at a JSON pointer, units (durations, rates, bandwidths, counts, ratios), unknown keys and names
//! with "did you mean", and every bad value recorded as a Diagnostic (file:line comes from the
//! Diagnostics' line table, see LinesAttached). Readers return nullopt on a bad value; they never
//! throw.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/input/diagnostic.h"
#include "models/input/jsonc.h"
#include "models/input/names.h"

namespace gpuplan {

//! Reads a duration: number of seconds, or "<number><unit>" with unit ms s m h d w y. nullopt if
//! bad.
std::optional<double> parse_duration(std::string_view text);
//! Reads a rate: number per second, or "<number>/<unit>" (e.g. "12/h"). nullopt if bad.
std::optional<double> parse_rate(std::string_view text);
//! Reads a count: a number with an optional K, M, B (or G), T suffix, any case ("70B"). nullopt if
//! bad.
std::optional<double> parse_count(std::string_view text);
//! Reads money [USD]: a count with an optional "$" and "USD", commas allowed ("$5M"). nullopt if
//! bad.
std::optional<double> parse_money(std::string_view text);

//! Longest name (pool, class, instance id, vertex, column) the readers accept [bytes].
inline constexpr size_t MAX_NAME_BYTES = 128;

namespace fields {

//! `s` without leading and trailing blanks (spaces, tabs).
std::string_view trim(std::string_view s);
//! A leading non-negative finite number of `s` and the trimmed rest of `s`, or nullopt.
std::optional<std::pair<double, std::string_view>> leading_number(std::string_view s);
//! A number as messages show it: integers without a decimal point, others shortest round-trip.
std::string num(double x);
//! A JSON value as messages show it: strings quoted, containers by kind, long text cut.
std::string describe(const nlohmann::json& v);
//! True for keys every object may carry as comments: "$schema", "_*" and "x-*".
bool is_comment_key(const std::string& k);
//! The pointer of member `key` of the value at `ptr` (the key escaped per RFC 6901).
std::string child(const std::string& ptr, std::string_view key);
//! The pointer of element `idx` of the array at `ptr`.
std::string child(const std::string& ptr, size_t idx);
//! Names joined by ", ".
std::string list_names(const std::vector<std::string>& names);

}  // namespace fields

//! Attaches a document's line table to `diags` for the lifetime of this object, so diagnostics
//! added meanwhile carry `file:line`; detaches it on every way out.
class LinesAttached {
 public:
  LinesAttached(Diagnostics& d, const LineTable& lines) : d_(d) { d_.set_lines(&lines); }
  ~LinesAttached() { d_.set_lines(nullptr); }
  LinesAttached(const LinesAttached&) = delete;
  LinesAttached& operator=(const LinesAttached&) = delete;

 private:
  Diagnostics& d_;
};

//! Typed reads of JSON values at pointers; each records one diagnostic and returns nullopt on a
//! bad value (wrong type, out of range, unreadable unit, unknown name).
class FieldReader {
 public:
  using json = nlohmann::json;

  explicit FieldReader(Diagnostics& d) : d_(d) {}

  //! Records "expected <expected>, got <value>" at `ptr`.
  void wrong_type(const json& v, const std::string& ptr, std::string_view expected);
  //! Records unknown_key (with the closest allowed key) for each member of `obj` not in `allowed`
  //! and not a comment key.
  void check_keys(const json& obj, const std::string& ptr, const std::vector<std::string>& allowed);
  //! Member `key` of object `obj`, or nullptr when absent.
  static const json* get(const json& obj, const char* key);
  //! Member `key` of `obj`; records missing_key with `hint` when absent.
  const json* need(const json& obj, const std::string& ptr, const char* key, std::string_view hint);
  //! True when `v` is an object; else records wrong_type naming `what`.
  bool object(const json& v, const std::string& ptr, std::string_view what = "an object");
  //! A string.
  std::optional<std::string> string(const json& v, const std::string& ptr);
  //! A non-empty string of at most MAX_NAME_BYTES bytes (limit_exceeded beyond).
  std::optional<std::string> name(const json& v, const std::string& ptr);
  //! true or false.
  std::optional<bool> boolean(const json& v, const std::string& ptr);
  //! A number in [lo, hi].
  std::optional<double> number(const json& v, const std::string& ptr, double lo, double hi);
  //! A whole number in [lo, hi] (a whole float such as 8.0 counts).
  std::optional<uint64_t> integer(const json& v, const std::string& ptr, uint64_t lo, uint64_t hi);
  //! A duration [s]: seconds as a number or "<number><unit>"; `positive` also rejects 0.
  std::optional<double> duration(const json& v, const std::string& ptr, bool positive);
  //! A rate [1/s] > 0: per second as a number or "<number>/<unit>" (e.g. "12/h").
  std::optional<double> rate(const json& v, const std::string& ptr);
  //! The index of `v` in `names` (exact match); else unknown_name naming `what`, with a suggestion.
  std::optional<size_t> choice(const json& v, const std::string& ptr, std::string_view what,
                               const std::vector<std::string>& names);
  //! A member of the closed set E (its name table, models/input/names.h); else unknown_name with a
  //! suggestion.
  template <class E>
  std::optional<E> enumerator(const json& v, const std::string& ptr) {
    const std::vector<std::string>& names = enum_names<E>();
    auto k = choice(v, ptr, EnumTraits<E>::what, names);
    if (!k) return std::nullopt;
    return static_cast<E>(*k);
  }
  //! A number in [lo, hi] under member `key` of `o`, nullopt when absent or bad.
  std::optional<double> opt_number(const json& o, const std::string& p, const char* key, double lo,
                                   double hi);
  //! A bandwidth [Gb/s] > 0: Gb/s as a number or "<number><unit>" with unit Mbps, Gbps, Tbps.
  std::optional<double> bandwidth(const json& v, const std::string& ptr);
  //! A count > 0, with an optional suffix K, M, B (or G), T (e.g. "70B").
  std::optional<double> count_si(const json& v, const std::string& ptr);
  //! A ratio >= 1: a number or "<down>:<up>" (e.g. "3:1").
  std::optional<double> ratio(const json& v, const std::string& ptr);
  //! A count in [lo, hi], with an optional suffix K, M, B (or G), T (e.g. "70B").
  std::optional<double> count(const json& v, const std::string& ptr, double lo, double hi);
  //! Money [USD] >= lo: a number or a string like "$5M".
  std::optional<double> money(const json& v, const std::string& ptr, double lo);
  //! `x` when it is at least `lo` (and finite); else records out_of_range in `unit`.
  std::optional<double> at_least(std::optional<double> x, const std::string& ptr, double lo,
                                 std::string_view unit);
  //! A non-empty array of numbers in [lo, hi].
  std::optional<std::vector<double>> numbers(const json& v, const std::string& ptr, double lo,
                                             double hi);
  //! An array of names, each one of `known` (any case; returned in `known`'s spelling); else
  //! unknown_name naming `what`, with a suggestion.
  std::optional<std::vector<std::string>> names(const json& v, const std::string& ptr,
                                                std::string_view what,
                                                const std::vector<std::string>& known);

 protected:
  Diagnostics& d_;

 private:
  // The value of a count (number or suffixed string); records bad_unit or wrong_type.
  std::optional<double> read_count(const json& v, const std::string& ptr);
};

}  // namespace gpuplan
