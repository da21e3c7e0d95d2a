#pragma once
//! The load check before simulating (docs/outputs.md, "Load check"): the offered load of every
//! set of pools a class may use, from the scenario alone, and the warnings `validate`, `run`, `mc`
//! and `sweep` give when a set's demand is at or above its capacity.
#include <cstdint>
#include <string>
#include <vector>

#include "models/scenario.h"

namespace gpuplan::study {

//! The offered load of one set of pools: the work of the classes confined to it against its
//! capacity.
struct PoolSetLoad {
  std::vector<uint32_t> pools;  //!< indices into Scenario::pools, ascending (one class's pools)
  double gpus = 0;              //!< GPUs of those pools together (an elastic pool at its maximum)
  //! Offered load (>= 1: cannot keep up): the sum over the classes whose pools all lie in the set
  //! of rate x mean GPUs x mean duration [GPU-s/s] over the set's capacity for that class, the
  //! sum of each pool's GPUs divided by the class's slowdown there.
  double load = 0;
  uint32_t driver = 0;     //!< index into Scenario::workload of the class with the largest share
  double driver_load = 0;  //!< that class's share of `load`
};

//! The offered load of every distinct pool set of a class (every pool when it names none), plus
//! the whole cluster, in order of set size then first pool. Sets with no GPUs are left out.
[[nodiscard]] std::vector<PoolSetLoad> pool_set_loads(const Scenario& sc);

//! One warning per pool set whose offered load is >= 1 (a set that contains an already flagged one
//! is not repeated), naming the class that drives it; a rate written as a bare number (per second)
//! is spelled out: "0.3 per second = 1,080 per hour".
[[nodiscard]] std::vector<std::string> load_warnings(const Scenario& sc);

}  // namespace gpuplan::study
