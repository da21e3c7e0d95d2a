#include "models/load/scenario_override.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

#include "models/input/field_reader.h"
#include "models/input/input_file.h"

namespace gpuplan {

namespace {

using json = nlohmann::json;
using fields::child;
using fields::describe;

// One matched place: the value and its pointer.
struct Match {
  json* node;
  std::string ptr;
};

}  // namespace

std::optional<double> override_multiplier(std::string_view value) {
  if (value.size() < 2 || value.front() != 'x') return std::nullopt;
  double f = 0;
  const char* end = value.data() + value.size();
  const auto [at, ec] = std::from_chars(value.data() + 1, end, f);
  if (ec != std::errc() || at != end || !std::isfinite(f) || f < 0) return std::nullopt;
  return f;
}

std::optional<json> scaled_value(const json& v, double factor) {
  if (v.is_number()) {
    const double x = v.get<double>() * factor;
    if (!std::isfinite(x)) return std::nullopt;
    // NOTE: a whole result stays an integer, so counts (pools.0.count=x2) remain counts.
    if (v.is_number_integer() && x == std::floor(x) && std::abs(x) < 9e15)
      return json(static_cast<int64_t>(x));
    return json(x);
  }
  if (!v.is_string()) return std::nullopt;
  std::string_view s = v.get_ref<const std::string&>();
  std::string prefix;
  if (!s.empty() && s.front() == '$') {
    prefix = "$";
    s.remove_prefix(1);
  }
  double x = 0;
  const auto [at, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  if (s.empty() || ec != std::errc() || !std::isfinite(x * factor)) return std::nullopt;
  return json(prefix + fields::num(x * factor) + std::string(at, s.data() + s.size()));
}

void apply_override(json& root, const std::string& spec, Diagnostics& d) {
  const size_t eq = spec.find('=');
  // NOTE: a message must not repeat bytes that are not UTF-8: those are quoted escaped.
  const bool utf8 = !invalid_utf8_at(spec);
  const std::string shown = utf8 ? spec : escape_for_message(spec);
  auto fail = [&](const std::string& ptr, const std::string& why) {
    d.add(Diagnostic{"",
                     0,
                     ptr,
                     DiagCode::bad_override,
                     "cannot apply --set " + in_quotes(shown) + ": " + why,
                     {}});
  };
  if (!utf8) return fail("", "it is not UTF-8 text");
  if (eq == std::string::npos || eq == 0) {
    return fail("", "expected PATH=VALUE, e.g. pools.0.count=16");
  }
  std::vector<std::string> keys;
  std::string full_ptr;
  for (size_t b = 0; b <= eq;) {
    const size_t e = std::min(spec.find('.', b), eq);
    keys.push_back(spec.substr(b, e - b));
    full_ptr = child(full_ptr, keys.back());
    b = e + 1;
  }
  if (std::any_of(keys.begin(), keys.end(), [](const std::string& k) { return k.empty(); })) {
    return fail(full_ptr, "the path has an empty part; write keys and indices joined by '.'");
  }
  const std::string text = spec.substr(eq + 1);
  const std::optional<double> factor = override_multiplier(text);
  json value = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) value = text;

  // Walk the path over every match of each level; missing keys become objects on the way (as
  // plain --set always did); a multiplier is applied only once every target can take it.
  std::vector<Match> at = {{&root, ""}};
  for (size_t k = 0; k < keys.size(); ++k) {
    const std::string& key = keys[k];
    const bool last = k + 1 == keys.size();
    std::vector<Match> next;
    for (const Match& m : at) {
      json& node = *m.node;
      if (key == "*") {
        if (!(node.is_array() || node.is_object()) || node.empty()) {
          return fail(full_ptr, (m.ptr.empty() ? std::string("the root") : m.ptr) + " is " +
                                    describe(node) +
                                    ", so '*' matches nothing; it stands for every entry of a "
                                    "non-empty array or object");
        }
        if (node.is_array()) {
          for (size_t i = 0; i < node.size(); ++i) next.push_back({&node[i], child(m.ptr, i)});
        } else {
          for (auto& [name, member] : node.items()) next.push_back({&member, child(m.ptr, name)});
        }
      } else if (node.is_object()) {
        if (factor && !node.contains(key)) {
          return fail(child(m.ptr, key),
                      child(m.ptr, key) + " is not set, so there is no value to multiply");
        }
        next.push_back({&node[key], child(m.ptr, key)});  // creates a missing key as null
        if (!last && next.back().node->is_null()) *next.back().node = json::object();
      } else if (node.is_array()) {
        size_t idx = 0;
        const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), idx);
        if (ec != std::errc() || end != key.data() + key.size() || idx >= node.size()) {
          const std::string where = m.ptr.empty() ? "the root" : m.ptr;
          return fail(full_ptr,
                      where + " is an array of " + std::to_string(node.size()) + " entries, so " +
                          in_quotes(key) + " is not an index of it" +
                          (node.empty() ? "" : " (0.." + std::to_string(node.size() - 1) + ")"));
        }
        next.push_back({&node[idx], child(m.ptr, idx)});
      } else {
        return fail(full_ptr, (m.ptr.empty() ? std::string("the root") : m.ptr) + " is " +
                                  describe(node) + ", so it has no " + in_quotes(key));
      }
    }
    at = std::move(next);
  }
  if (!factor) {
    for (const Match& m : at) *m.node = value;
    return;
  }
  std::vector<json> scaled;
  for (const Match& m : at) {
    std::optional<json> v = scaled_value(*m.node, *factor);
    if (!v) {
      return fail(m.ptr, m.ptr + " is " + describe(*m.node) +
                             ", which a multiplier cannot scale (it needs a number, or a string "
                             "that starts with one, such as \"12/h\")");
    }
    scaled.push_back(std::move(*v));
  }
  for (size_t i = 0; i < at.size(); ++i) *at[i].node = std::move(scaled[i]);
}

}  // namespace gpuplan
