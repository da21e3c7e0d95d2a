#pragma once
//! The load check before simulating (docs/outputs.md, "Load check"): the warnings `validate`,
//! `run` and `mc` print, and every study's result.json carries, when a set of pools a class may
//! use is offered a load at or above its capacity (models/compile/offered_load.h).
#include <string>
#include <vector>

#include "models/compile/offered_load.h"
#include "models/scenario/scenario.h"

namespace gpuplan::study {

//! One warning per pool set whose offered load is >= 1 (a set that contains an already flagged one
//! is not repeated), naming the class that drives it; a rate written as a bare number (per second)
//! is spelled out: "0.3 per second = 1,080 per hour". A set that keeps up on average over the
//! window but whose busiest week (growth, schedules, purchases; PoolSetLoad::peak_load) is at or
//! above capacity gets a warning naming the month it reaches capacity and its peak load.
[[nodiscard]] std::vector<std::string> load_warnings(const Scenario& sc);

}  // namespace gpuplan::study
