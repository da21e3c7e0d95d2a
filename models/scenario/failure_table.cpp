#include "models/scenario/failure_table.h"

namespace gpuplan {

double FailureConfig::rate_per_gpu_s() const {
  double r = 0;
  for (const FailureCauseConfig& c : causes) r += c.rate_per_gpu_hour;
  return r * scale / 3600.0;
}

std::vector<FailureCauseConfig> llama3_failure_table() {
  struct Row {
    const char* name;
    double count;
    FailureScope scope;
  };
  using S = FailureScope;
  // Table 5 of arXiv 2407.21783, in the paper's order; the counts add up to 419.
  static const Row ROWS[] = {
      {"faulty_gpu", 148, S::node},
      {"gpu_hbm3_memory", 72, S::node},
      {"software_bug", 54, S::job},
      {"network_switch_cable", 35, S::switch_leaf},
      {"host_maintenance", 32, S::node},
      {"gpu_sram_memory", 19, S::node},
      {"gpu_system_processor", 17, S::node},
      {"nic", 7, S::node},
      {"nccl_watchdog_timeout", 7, S::job},
      {"silent_data_corruption", 6, S::node},
      {"gpu_thermal_sensor", 6, S::node},
      {"ssd", 3, S::node},
      {"power_supply", 3, S::node},
      {"server_chassis", 2, S::node},
      {"io_expansion_board", 2, S::node},
      {"dependency", 2, S::job},
      {"cpu", 2, S::node},
      {"system_memory", 2, S::node},
  };
  const double gpu_hours = LLAMA3_GPUS * LLAMA3_DAYS * 24.0;
  std::vector<FailureCauseConfig> out;
  for (const Row& r : ROWS) out.push_back({r.name, r.count / gpu_hours, r.scope});
  return out;
}

}  // namespace gpuplan
