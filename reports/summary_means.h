#pragma once
//! Reading means out of a study's Summary as result.json and the assessment's facts write them.
#include <cmath>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "study/summary.h"

namespace gpuplan::reports {

//! Means of metric paths; counts of a single run stay integers, as it counted them.
struct Means {
  const study::Summary& s;
  [[nodiscard]] double operator()(const std::string& path) const { return s.mean(path); }
  //! A count: rounded to the integer a single run counted, the mean across replications.
  [[nodiscard]] double count_value(const std::string& path) const {
    const double v = s.mean(path);
    return s.info.replications == 1 ? static_cast<double>(std::llround(v)) : v;
  }
  [[nodiscard]] nlohmann::json count(const std::string& path) const {
    const double v = count_value(path);
    return s.info.replications == 1 ? nlohmann::json(static_cast<uint64_t>(v)) : nlohmann::json(v);
  }
  [[nodiscard]] nlohmann::json duration(const std::string& prefix) const {
    return {{"mean", s.mean(prefix + ".mean")},
            {"p50", s.mean(prefix + ".p50")},
            {"p90", s.mean(prefix + ".p90")},
            {"p99", s.mean(prefix + ".p99")}};
  }
};

}  // namespace gpuplan::reports
