#pragma once
//! replicas.csv of a Monte Carlo study (docs/outputs.md): one row per replication.
#include <ostream>

#include "study/summary.h"

namespace gpuplan::reports {

//! Writes `replica`, then every metric path, then `saturation_cause`, one row per replication.
void write_replicas_csv(const study::Summary& s, std::ostream& out);

}  // namespace gpuplan::reports
