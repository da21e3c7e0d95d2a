#include "models/perf/throughputs.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

namespace gpuplan {

std::optional<GavelThroughputs> parse_gavel_throughputs(const nlohmann::json& doc,
                                                        std::string& error) {
  if (!doc.is_object() || doc.empty()) {
    error = "a Gavel throughput file is an object of worker types (\"v100\", \"k80\", ...)";
    return std::nullopt;
  }
  GavelThroughputs out;
  for (const auto& [worker, jobs] : doc.items()) {
    if (!jobs.is_object()) {
      error = "worker type \"" + worker + "\" must map job types to throughputs";
      return std::nullopt;
    }
    auto& row = out.isolated[worker];
    for (const auto& [key, entry] : jobs.items()) {
      const auto it = entry.is_object() ? entry.find("null") : entry.end();
      // NOTE: Gavel writes 0 where a job did not run on a type (e.g. out of memory): such an
      // entry is left out, so a class that needs it gets the missing-pair error.
      if (it == entry.end() || !it->is_number() || !std::isfinite(it->get<double>()) ||
          !(it->get<double>() > 0))
        continue;
      row[key] = it->get<double>();
    }
  }
  return out;
}

std::string gavel_key(const std::string& job_type, uint32_t scale) {
  return "('" + job_type + "', " + std::to_string(scale) + ")";
}

std::vector<std::string> gavel_job_types(const GavelThroughputs& t) {
  std::set<std::string> names;
  for (const auto& [worker, jobs] : t.isolated) {
    for (const auto& [key, value] : jobs) {
      // "('<job type>', <scale>)": the job type sits between the first "('" and the last "',".
      const size_t open = key.find("('"), close = key.rfind("',");
      if (open == 0 && close != std::string::npos && close > 2)
        names.insert(key.substr(2, close - 2));
    }
  }
  return {names.begin(), names.end()};
}

std::string gavel_worker_type(const GpuSpec& gpu) {
  std::string w = gpu.id.substr(0, gpu.id.find('-'));
  std::transform(w.begin(), w.end(), w.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return w;
}

}  // namespace gpuplan
