#include "reports/metrics_export.h"

#include <cctype>
#include <ctime>
#include <sstream>

#include "reports/openmetrics.h"

extern const char gpuplan_embed_grafana_dashboard[];
extern const unsigned long gpuplan_embed_grafana_dashboard_size;
extern const char gpuplan_embed_prometheus_rules[];
extern const unsigned long gpuplan_embed_prometheus_rules_size;

namespace gpuplan::reports {
namespace {

using nlohmann::json;

// The end of the last bin [s since the start of the simulation].
double series_end_s(const json& result) {
  const auto ts = result.find("timeseries");
  if (ts == result.end() || !ts->is_object()) return 0;
  const auto t = ts->find("t_s");
  const auto bin = ts->find("bin_s");
  if (t == ts->end() || !t->is_array() || t->empty() || !t->back().is_number()) return 0;
  return t->back().get<double>() + (bin != ts->end() && bin->is_number() ? bin->get<double>() : 0);
}

// A Grafana uid (at most 40 of [A-Za-z0-9-_]) from the scenario name.
std::string dashboard_uid(const std::string& scenario) {
  std::string uid = "gpuplan-";
  for (const char c : scenario) {
    if (uid.size() == 40) break;
    uid += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '-';
  }
  return uid;
}

std::string grafana_dashboard(const json& result, int64_t start_unix_s) {
  json d = json::parse(
      std::string_view(gpuplan_embed_grafana_dashboard, gpuplan_embed_grafana_dashboard_size));
  const std::string scenario = result.value("scenario", std::string());
  d["title"] = "gpuplan: " + scenario;
  d["uid"] = dashboard_uid(scenario);
  d["time"] = {{"from", format_utc_time(start_unix_s)},
               {"to", format_utc_time(start_unix_s + int64_t(series_end_s(result) + 0.5))}};
  d["templating"]["list"][0]["current"] = {{"text", scenario}, {"value", scenario}};
  return d.dump(2) + "\n";
}

}  // namespace

std::vector<std::pair<std::string, std::string>> metrics_export(const json& result,
                                                                int64_t start_unix_s) {
  std::ostringstream om;
  write_openmetrics(result, start_unix_s, om);
  return {{"metrics.om", om.str()},
          {"grafana_dashboard.json", grafana_dashboard(result, start_unix_s)},
          {"prometheus_rules.yml",
           std::string(gpuplan_embed_prometheus_rules, gpuplan_embed_prometheus_rules_size)}};
}

std::optional<int64_t> parse_utc_time(std::string_view text) {
  std::tm tm{};
  const std::string s(text);
  const char* end = strptime(s.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm);
  if (end == nullptr || *end != '\0') {
    tm = {};
    end = strptime(s.c_str(), "%Y-%m-%d", &tm);
    if (end == nullptr || *end != '\0') return std::nullopt;
  }
  const std::tm asked = tm;
  const time_t t = timegm(&tm);
  // NOTE: timegm normalises 2026-02-30 to March 2; a date that moved was not a real one.
  if (tm.tm_mday != asked.tm_mday || tm.tm_mon != asked.tm_mon || tm.tm_year != asked.tm_year)
    return std::nullopt;
  return int64_t(t);
}

std::string format_utc_time(int64_t unix_s) {
  const time_t t = time_t(unix_s);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace gpuplan::reports
