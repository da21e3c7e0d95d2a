#include "reports/openmetrics.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "reports/format.h"

namespace gpuplan::reports {
namespace {

using nlohmann::json;

constexpr double MISSING = std::numeric_limits<double>::quiet_NaN();

// One series of a family: its `statistic` label ("" = none) and one value per bin.
struct Series {
  std::string statistic;
  std::vector<double> values;
};

struct Family {
  std::string_view name;
  std::string_view type;  // gauge | counter
  std::string_view unit;  // "" = none; otherwise the name's suffix, as OpenMetrics requires
  std::string_view help;
  std::vector<Series> series;
};

// The numeric array `j[key]` as `n` values (MISSING where absent or not a number).
std::vector<double> values_at(const json& j, std::string_view key, std::size_t n) {
  std::vector<double> v(n, MISSING);
  if (!j.is_object()) return v;
  const auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return v;
  for (std::size_t i = 0; i < n && i < it->size(); ++i)
    if ((*it)[i].is_number()) v[i] = (*it)[i].get<double>();
  return v;
}

std::vector<double> running_total(const std::vector<double>& v) {
  std::vector<double> total(v.size(), MISSING);
  double sum = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (std::isnan(v[i])) continue;
    sum += v[i];
    total[i] = sum;
  }
  return total;
}

std::vector<double> ratio(const std::vector<double>& num, const std::vector<double>& den) {
  std::vector<double> r(num.size(), MISSING);
  for (std::size_t i = 0; i < num.size(); ++i)
    if (den[i] > 0) r[i] = num[i] / den[i];
  return r;
}

// Label values and HELP text escape backslash and newline; label values also the double quote.
std::string escaped(std::string_view text, bool quote) {
  std::string out;
  for (const char c : text) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else if (quote && c == '"')
      out += "\\\"";
    else
      out += c;
  }
  return out;
}

// Seconds as OpenMetrics writes timestamps: a whole number where the bin edges are whole.
std::string timestamp(int64_t start_unix_s, double offset_s) {
  const double t = double(start_unix_s) + offset_s;
  if (t == std::floor(t) && std::abs(t) < 9e15) return std::to_string(int64_t(t));
  return format_raw(t);
}

}  // namespace

void write_openmetrics(const json& result, int64_t start_unix_s, std::ostream& out) {
  const json empty;
  const json& ts = result.contains("timeseries") ? result["timeseries"] : empty;
  const json& bands = result.contains("bands") ? result["bands"] : empty;
  const std::size_t n =
      ts.is_object() && ts.contains("t_s") && ts["t_s"].is_array() ? ts["t_s"].size() : 0;
  const double bin_s = ts.is_object() && ts.contains("bin_s") && ts["bin_s"].is_number()
                           ? ts["bin_s"].get<double>()
                           : 0;
  const std::vector<double> t = values_at(ts, "t_s", n);
  const std::vector<double> busy = values_at(ts, "busy_gpus", n);
  const std::vector<double> provisioned = values_at(ts, "provisioned_gpus", n);
  const std::vector<double> queued = values_at(ts, "queued_jobs", n);
  const std::vector<double> spend = running_total(values_at(ts, "spend_usd", n));
  std::vector<double> watts = values_at(ts, "power_kw", n);
  for (double& w : watts) w *= 1000.0;
  const bool mc = bands.is_object();
  const std::string main = mc ? "mean" : "";

  std::vector<Family> families{{OPENMETRICS_FAMILIES[0],
                                "gauge",
                                "",
                                "GPUs running jobs, averaged over the bin",
                                {{main, busy}}},
                               {OPENMETRICS_FAMILIES[1],
                                "gauge",
                                "",
                                "GPUs provisioned, averaged over the bin",
                                {{main, provisioned}}},
                               {OPENMETRICS_FAMILIES[2],
                                "gauge",
                                "ratio",
                                "Busy GPUs over provisioned GPUs in the bin (0 to 1)",
                                {{main, ratio(busy, provisioned)}}},
                               {OPENMETRICS_FAMILIES[3],
                                "gauge",
                                "",
                                "Jobs waiting to start, averaged over the bin",
                                {{main, queued}}},
                               {OPENMETRICS_FAMILIES[4],
                                "counter",
                                "usd",
                                "Spend since the start of the simulation [USD]",
                                {{main, spend}}},
                               {OPENMETRICS_FAMILIES[5],
                                "gauge",
                                "watts",
                                "Facility power of the cluster (GPUs, node overhead, PUE) averaged "
                                "over the bin [W]",
                                {{main, watts}}}};
  if (mc) {
    // NOTE: the bands are percentiles across replications bin by bin, so the band of a running
    // total never decreases either: each replication's total does not.
    const std::pair<std::size_t, std::string_view> BAND_OF[] = {
        {0, "busy_gpus"}, {3, "queued_jobs"}, {4, "cumulative_spend_usd"}, {5, "power_kw"}};
    for (const auto& [family, band] : BAND_OF) {
      const json& b = bands.contains(band) ? bands[std::string(band)] : empty;
      const double scale = band == "power_kw" ? 1000.0 : 1.0;
      for (const char* level : {"p10", "p50", "p90"}) {
        std::vector<double> v = values_at(b, level, n);
        for (double& x : v) x *= scale;
        families[family].series.push_back({level, std::move(v)});
      }
    }
  }

  const std::string scenario = escaped(result.contains("scenario") && result["scenario"].is_string()
                                           ? result["scenario"].get<std::string>()
                                           : "",
                                       true);
  for (const Family& f : families) {
    out << "# TYPE " << f.name << ' ' << f.type << '\n';
    if (!f.unit.empty()) out << "# UNIT " << f.name << ' ' << f.unit << '\n';
    out << "# HELP " << f.name << ' ' << escaped(f.help, false) << '\n';
    const std::string sample = std::string(f.name) + (f.type == "counter" ? "_total" : "");
    for (const Series& s : f.series) {
      std::string labels = "{scenario=\"" + scenario + "\"";
      if (!s.statistic.empty()) labels += ",statistic=\"" + s.statistic + "\"";
      labels += "}";
      for (std::size_t i = 0; i < n; ++i) {
        if (!std::isfinite(s.values[i]) || !std::isfinite(t[i])) continue;
        out << sample << labels << ' ' << format_raw(s.values[i]) << ' '
            << timestamp(start_unix_s, t[i] + bin_s) << '\n';
      }
    }
  }
  out << "# EOF\n";
}

}  // namespace gpuplan::reports
