#include "models/perf/training/calibration.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "models/perf/training/step_time.h"

namespace gpuplan::training {

namespace {

std::vector<CalibrationRow> compute_rows() {
  std::vector<CalibrationRow> out;
  for (const PublishedRun& r : published_runs()) {
    const GpuSpec* gpu = builtin_catalog().find_gpu(r.gpu);
    if (!gpu) throw std::logic_error("calibration row " + r.id + ": no GPU " + r.gpu);
    const Cluster c{&r.node, gpu, static_cast<uint32_t>(r.plan.gpus() / r.node.gpus_per_node)};
    if (const std::string why = plan_problem(r.model, r.plan, c); !why.empty())
      throw std::logic_error("calibration row " + r.id + ": " + why);
    out.push_back({&r, published_mfu(r, *gpu), step_time(r.model, r.plan, c, r.precision).mfu});
  }
  return out;
}

}  // namespace

const std::vector<CalibrationRow>& calibration_rows() {
  static const std::vector<CalibrationRow> rows = compute_rows();
  return rows;
}

CalibrationErrors calibration_errors(const std::vector<CalibrationRow>& rows, bool fitted) {
  std::vector<double> e;
  for (const CalibrationRow& r : rows)
    if (r.run->fitted == fitted) e.push_back(std::abs(r.error()));
  CalibrationErrors out;
  out.rows = e.size();
  if (e.empty()) return out;
  std::sort(e.begin(), e.end());
  const std::size_t n = e.size();
  out.median_abs = n % 2 ? e[n / 2] : (e[n / 2 - 1] + e[n / 2]) / 2;
  out.worst_abs = e.back();
  return out;
}

}  // namespace gpuplan::training
