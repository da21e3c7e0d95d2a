#pragma once
//! The options of one scenario load (models/load/load.h), shared by the section loaders.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "models/input/data_files.h"
#include "models/input/plan_enums.h"

namespace gpuplan {

//! A pool's instance type, pricing and node count set by a study instead of the file (recommend's
//! variants); every rule of the pool section then applies to them as to the file's values.
struct PoolPin {
  std::size_t pool_idx = 0;
  std::string instance;  //!< an instance type id of the scenario or the catalog
  Pricing pricing = Pricing::on_demand;
  uint32_t count = 0;
};

//! Options of one load.
struct LoadOptions {
  std::vector<std::string> overrides;  //!< "a.b.0.c=VALUE" (VALUE as JSON, else as a string)
  std::vector<PoolPin> pool_pins;      //!< applied after the overrides
  //! Accept a pool "count" of 0 (a pool left out: recommend's "add nothing" variants).
  bool empty_pools = false;
  //! Folders searched for the data files a scenario names (traces, schedules), after the
  //! scenario's own folder (models/input/data_files.h).
  std::vector<std::string> data_path = default_data_path();
  bool read_traces = true;  //!< parse trace CSVs (validate can skip the big ones? no: always true)
};

}  // namespace gpuplan
