#include "models/perf/speed.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "models/input/names.h"

namespace gpuplan {
namespace {

constexpr double BYTES_PER_GB = 1e9;  // GpuSpec::mem_gb is decimal GB
constexpr double ZERO3_COMM_FACTOR = 1.5;

// Bytes per parameter that data parallelism shards under `zero`, and those it replicates.
struct StateSplit {
  double sharded = 0;
  double replicated = 0;
};

StateSplit split_states(ZeroStage zero) {
  switch (zero) {
    case ZeroStage::none:
      return {0, WEIGHT_BYTES + GRADIENT_BYTES + OPTIMIZER_BYTES};
    case ZeroStage::optimizer:
      return {OPTIMIZER_BYTES, WEIGHT_BYTES + GRADIENT_BYTES};
    case ZeroStage::gradients:
      return {OPTIMIZER_BYTES + GRADIENT_BYTES, WEIGHT_BYTES};
    case ZeroStage::parameters:
      return {OPTIMIZER_BYTES + GRADIENT_BYTES + WEIGHT_BYTES, 0};
  }
  return {0, WEIGHT_BYTES + GRADIENT_BYTES + OPTIMIZER_BYTES};
}

double usable_bytes(const TrainingJob& job, const GpuSpec& gpu) {
  return gpu.mem_gb * BYTES_PER_GB * (1.0 - job.activation_reserve);
}

}  // namespace

std::optional<Precision> parse_precision(std::string_view name) {
  return parse_enum<Precision>(name);
}

double peak_tflops(const GpuSpec& gpu, Precision p) {
  switch (p) {
    case Precision::fp32:
      return gpu.fp32_tflops;
    case Precision::tf32:
      return gpu.tf32_tflops > 0 ? gpu.tf32_tflops : gpu.fp32_tflops;
    case Precision::bf16:
    case Precision::fp16:
      return gpu.bf16_tflops;
    case Precision::fp8:
      return gpu.fp8_tflops > 0 ? gpu.fp8_tflops : gpu.bf16_tflops;
  }
  return gpu.bf16_tflops;
}

double TrainingJob::total_flops() const {
  const double per_token = flops_per_token > 0 ? flops_per_token : 6.0 * params;
  return per_token * tokens;
}

MemoryFit memory_per_gpu(const TrainingJob& job, const GpuSpec& gpu) {
  const StateSplit s = split_states(job.zero);
  const double m = static_cast<double>(job.tensor_parallel) * job.pipeline_parallel;
  const double d = std::max<uint32_t>(job.data_parallel, 1);
  return {job.params * (s.replicated + s.sharded / d) / m, usable_bytes(job, gpu)};
}

uint32_t min_gpus(const TrainingJob& job, const GpuSpec& gpu) {
  const StateSplit s = split_states(job.zero);
  const double usable = usable_bytes(job, gpu);
  // With m = ceil(all states / usable) model-parallel ranks everything fits at d = 1, so no
  // larger m can do better; below it, each m needs the d that makes the shards fit.
  const double all = job.params * (s.replicated + s.sharded);
  const auto m_max = static_cast<uint64_t>(std::max(1.0, std::ceil(all / usable)));
  uint64_t best = m_max;
  for (uint64_t m = 1; m < m_max && m < best; ++m) {
    const double fixed = job.params * s.replicated / m;
    if (fixed >= usable) continue;
    const double shard = job.params * s.sharded / m;
    const auto d = static_cast<uint64_t>(std::max(1.0, std::ceil(shard / (usable - fixed))));
    best = std::min(best, m * d);
  }
  return static_cast<uint32_t>(std::min<uint64_t>(best, std::numeric_limits<uint32_t>::max()));
}

double compute_time_s(const TrainingJob& job, const GpuSpec& gpu, uint32_t n_gpus) {
  const double rate = n_gpus * peak_tflops(gpu, job.precision) * 1e12 * job.mfu;
  return rate > 0 ? job.total_flops() / rate : std::numeric_limits<double>::infinity();
}

SpeedEstimate estimate_training(const TrainingJob& job, const GpuSpec& gpu,
                                const CommPlacement& job_gpus) {
  SpeedEstimate e;
  const uint32_t n = job.n_gpus();
  e.steps = job.tokens_per_step > 0 ? job.tokens / job.tokens_per_step : 1.0;
  e.compute_s = compute_time_s(job, gpu, n) / e.steps;
  if (job.data_parallel > 1) {
    // One data-parallel group: every m-th GPU, where m = tensor x pipeline.
    const uint32_t m = job.tensor_parallel * job.pipeline_parallel;
    const uint32_t per_node = std::max<uint32_t>(job_gpus.ranks_per_node, 1);
    const uint32_t groups_per_node = std::min(m, per_node);
    CommPlacement dp = job_gpus;
    dp.ranks_per_node = std::max<uint32_t>(per_node / m, 1);
    dp.n_nodes = std::max<uint32_t>(job.data_parallel / dp.ranks_per_node, 1);
    dp.node_net_gbps = job_gpus.node_net_gbps / groups_per_node;
    const double bytes = job.grad_bytes_per_param * job.params / m *
                         (job.zero == ZeroStage::parameters ? ZERO3_COMM_FACTOR : 1.0);
    e.allreduce_s = allreduce_time_s(dp, bytes);
    e.dp_busbw_gbyte_s = predict_allreduce(dp).busbw_gbyte_s;
  }
  // NOTE: an unreachable all-reduce (+inf) stays exposed whatever the overlap.
  e.exposed_comm_s = std::isinf(e.allreduce_s)
                         ? e.allreduce_s
                         : (1.0 - std::clamp(job.overlap, 0.0, 1.0)) * e.allreduce_s;
  e.step_s = e.compute_s + e.exposed_comm_s;
  e.duration_s = e.steps * e.step_s;
  return e;
}

double relative_speed(const GpuSpec& gpu, const GpuSpec& reference, Precision p) {
  const double ref = peak_tflops(reference, p);
  return ref > 0 ? peak_tflops(gpu, p) / ref : 0.0;
}

}  // namespace gpuplan
