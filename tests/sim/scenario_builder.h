#pragma once
//! Builds small scenarios in memory for engine tests (no files, no loader).
#include <cmath>
#include <string>
#include <vector>

#include "models/compile/compile.h"
#include "models/scenario/scenario.h"

namespace gpuplan::test {

//! An inline instance type "test.gN" with N GPUs per node at $1 per node-hour.
inline InstanceType test_instance(uint32_t gpus_per_node) {
  InstanceType it;
  it.id = "test.g" + std::to_string(gpus_per_node);
  it.gpu = "A100-80GB";
  it.gpus_per_node = gpus_per_node;
  it.price_per_hour.on_demand = 1.0;
  return it;
}

//! One pool of `nodes` nodes with `gpus_per_node` GPUs each, and no workload yet.
inline Scenario one_pool(uint32_t nodes, uint32_t gpus_per_node, double horizon_s,
                         double warmup_s = 0) {
  Scenario sc;
  sc.name = "test";
  sc.seed = 42;
  sc.horizon_s = horizon_s;
  sc.warmup_s = warmup_s;
  sc.instances.push_back(test_instance(gpus_per_node));
  Pool p;
  p.name = "main";
  p.instance = sc.instances.back().id;
  p.gpu = builtin_catalog().find_gpu(sc.instances.back().gpu);
  p.count = nodes;
  p.price_per_node_hour = 1.0;
  sc.pools.push_back(p);
  return sc;
}

//! A Poisson class of 1-GPU jobs with exponential durations: the M/M/c workload.
inline JobClass mm_class(double rate_per_s, double mean_duration_s) {
  JobClass c;
  c.name = "jobs";
  c.rate_per_s = rate_per_s;
  c.gpus.values = {1};
  c.gpus.probs = {1.0};
  c.duration.kind = DistKind::exponential;
  c.duration.a = mean_duration_s;
  return c;
}

//! A trace class: jobs of `gpus` GPUs and `duration_s` seconds submitted at the given times.
inline JobClass trace_class(const std::vector<double>& submits, double duration_s, uint32_t gpus) {
  JobClass c;
  c.name = "jobs";
  c.trace = TraceFormat{};
  for (double t : submits) c.trace_rows.push_back(TraceRow{t, duration_s, gpus, 0});
  return c;
}

}  // namespace gpuplan::test
