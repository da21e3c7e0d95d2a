#pragma once
//! The offered load of every set of pools a class may use, from the scenario alone
//! (docs/outputs.md, "Load check"): the load check's figures (study/load_check.h) and the bound
//! compile() puts into CompiledScenario::offered_load.
#include <cstdint>
#include <vector>

#include "models/scenario.h"

namespace gpuplan {

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

}  // namespace gpuplan
