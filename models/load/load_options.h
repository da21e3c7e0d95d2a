#pragma once
//! The options of one scenario load (models/load/load.h), shared by the section loaders.
#include <string>
#include <vector>

#include "models/input/data_files.h"

namespace gpuplan {

//! Options of one load.
struct LoadOptions {
  std::vector<std::string> overrides;  //!< "a.b.0.c=VALUE" (VALUE as JSON, else as a string)
  //! Accept a pool "count" of 0 (a pool left out: recommend's "add nothing" variants).
  bool empty_pools = false;
  //! Folders searched for the data files a scenario names (traces, schedules), after the
  //! scenario's own folder (models/input/data_files.h).
  std::vector<std::string> data_path = default_data_path();
  bool read_traces = true;  //!< parse trace CSVs (validate can skip the big ones? no: always true)
};

}  // namespace gpuplan
