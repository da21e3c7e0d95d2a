#include "models/load/length_reader.h"

#include <vector>

namespace gpuplan {

using nlohmann::json;

std::optional<inference::LengthDistribution> read_length_distribution(FieldReader& r,
                                                                      Diagnostics& d,
                                                                      const nlohmann::json& v,
                                                                      const std::string& ptr,
                                                                      double lo, double hi) {
  using Kind = inference::LengthDistribution::Kind;
  inference::LengthDistribution out;
  if (!v.is_object()) {
    const auto n = r.count(v, ptr, lo, hi);
    if (!n) return std::nullopt;
    out.a = *n;
    return out;
  }
  static const std::vector<std::string> kinds = {"fixed", "uniform", "exponential", "lognormal"};
  if (v.size() != 1) {
    r.wrong_type(v, ptr,
                 "a token count or an object with one distribution (fixed, uniform, "
                 "exponential, lognormal)");
    return std::nullopt;
  }
  const std::string& kind = v.begin().key();
  const json& body = v.begin().value();
  const std::string bp = fields::child(ptr, kind);
  const auto counts = [&](const std::vector<std::string>& keys, std::vector<double*> into) {
    if (!r.object(body, bp)) return false;
    r.check_keys(body, bp, keys);
    bool ok = true;
    for (size_t k = 0; k < keys.size(); ++k) {
      const json* x = r.need(body, bp, keys[k].c_str(), "a token count");
      const auto n = x ? r.count(*x, fields::child(bp, keys[k]), lo, hi) : std::nullopt;
      if (n) *into[k] = *n;
      ok = ok && n.has_value();
    }
    return ok;
  };
  if (kind == "fixed") {
    const auto n = r.count(body, bp, lo, hi);
    if (!n) return std::nullopt;
    out.a = *n;
    return out;
  }
  if (kind == "uniform") {
    out.kind = Kind::uniform;
    if (!counts({"low", "high"}, {&out.a, &out.b})) return std::nullopt;
    if (!(out.b > out.a)) {
      d.error(fields::child(bp, "high"), DiagCode::out_of_range, "high must be above low");
      return std::nullopt;
    }
    return out;
  }
  if (kind == "exponential") {
    out.kind = Kind::exponential;
    if (!counts({"mean"}, {&out.a})) return std::nullopt;
    return out;
  }
  if (kind == "lognormal") {
    out.kind = Kind::lognormal;
    if (!counts({"median", "p90"}, {&out.a, &out.b})) return std::nullopt;
    if (!(out.a > 0 && out.b > out.a)) {
      d.error(fields::child(bp, "p90"), DiagCode::out_of_range,
              "p90 must be above the median, and the median above 0");
      return std::nullopt;
    }
    return out;
  }
  d.unknown_name(bp, "distribution", kind, kinds);
  return std::nullopt;
}

}  // namespace gpuplan
