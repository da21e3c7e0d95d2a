#include "models/perf/inference/serving_step.h"

#include <algorithm>
#include <cmath>

#include "models/perf/collectives.h"

namespace gpuplan::inference {

SimulatorConstants simulator_constants(std::string_view architecture) {
  SimulatorConstants c;
  c.efficiency = serving_efficiency(architecture);
  if (architecture == "hopper")
    c.efficiency = {VLLM_HOPPER_PREFILL_COMPUTE, VLLM_HOPPER_DECODE_BANDWIDTH,
                    "fitted on measured vLLM 0.15.1 runs on H100 SXM"};
  c.step_overhead_s = VLLM_STEP_OVERHEAD_S;
  c.request_overhead_s = VLLM_REQUEST_OVERHEAD_S;
  return c;
}

ServingRequest with_simulator_efficiency(const GpuSpec& gpu, ServingRequest r) {
  const ServingEfficiency e = simulator_constants(gpu.architecture).efficiency;
  if (!(r.prefill_compute > 0)) r.prefill_compute = e.prefill_compute;
  if (!(r.decode_bandwidth > 0)) r.decode_bandwidth = e.decode_bandwidth;
  return r;
}

std::optional<AllReduceLine> vllm_custom_allreduce(uint32_t tp) {
  // vLLM's custom all-reduce on H100, latency [ms] at each message size [B], 2, 4 and 8 GPUs
  // (the "vllm" table of sgl-project/sglang#2904, measured without CUDA graphs).
  constexpr int N = 6;
  constexpr double SIZES[N] = {512, 4096, 32768, 262144, 524288, 1048576};
  constexpr double MS[3][N] = {{0.0095, 0.0088, 0.0087, 0.0129, 0.0177, 0.0266},
                               {0.0091, 0.0085, 0.0092, 0.0206, 0.0269, 0.0402},
                               {0.0101, 0.0093, 0.0118, 0.0241, 0.0304, 0.0450}};
  const auto line = [&](int row) {
    double mx = 0, my = 0;
    for (int i = 0; i < N; ++i) {
      mx += SIZES[i] / N;
      my += MS[row][i] * 1e-3 / N;
    }
    double sxy = 0, sxx = 0;
    for (int i = 0; i < N; ++i) {
      sxy += (SIZES[i] - mx) * (MS[row][i] * 1e-3 - my);
      sxx += (SIZES[i] - mx) * (SIZES[i] - mx);
    }
    return AllReduceLine{my - sxy / sxx * mx, sxy / sxx};
  };
  switch (tp) {
    case 2:
      return line(0);
    case 4:
      return line(1);
    case 6: {
      const AllReduceLine a = line(1), b = line(2);
      return AllReduceLine{(a.latency_s + b.latency_s) / 2, (a.per_byte_s + b.per_byte_s) / 2};
    }
    case 8:
      return line(2);
    default:
      return std::nullopt;
  }
}

void add_custom_allreduce(serving::StepModel& step, const training::ModelShape& m,
                          const GpuSpec& gpu, Precision precision, uint32_t tp,
                          std::string_view fabric_name) {
  constexpr double H100_NVLINK_GBYTE_S = 900;  // the GPU the latencies were measured on
  const std::optional<Fabric> fabric = parse_fabric(fabric_name);
  const std::optional<AllReduceLine> ar = vllm_custom_allreduce(tp);
  if (!ar || !fabric || *fabric == Fabric::pcie || *fabric == Fabric::infinity_fabric ||
      !(gpu.nvlink_gbps > 0))
    return;
  const double per_layer = 2.0 * m.layers;  // as serving_replica_model counts them
  step.comm_small_fixed_s = per_layer * ar->latency_s;
  step.comm_small_per_token_s = per_layer * ar->per_byte_s * H100_NVLINK_GBYTE_S /
                                gpu.nvlink_gbps * double(m.hidden) * bytes_per_value(precision);
}

ServingReplicaModel serving_replica_model(const training::ModelShape& m, const GpuSpec& gpu,
                                          std::string_view fabric_name, const ServingRequest& r,
                                          uint32_t block_tokens) {
  ServingReplicaModel out;
  const double bpv = bytes_per_value(r.precision);
  const double tp = std::max<uint32_t>(r.tp, 1);
  serving::StepModel& s = out.step;
  const GroupRates rates = group_rates(gpu, r);
  s.peak_flops = rates.flops;
  s.bandwidth = rates.bandwidth;
  s.flops_per_token = m.forward_flops_per_token(0);
  s.attention_flops = m.forward_flops_per_token(1) - m.forward_flops_per_token(0);
  out.weight_bytes = m.total_params() * bpv;
  const double expert_bytes = m.mlp_params() * m.layers * bpv;
  // NOTE: as the roofline splits them, a dense model being one expert of one.
  s.expert_weight_bytes = expert_bytes;
  s.shared_weight_bytes = out.weight_bytes - expert_bytes * m.experts;
  s.experts = m.experts;
  s.experts_per_token = m.experts_per_token;
  out.kv_bytes_per_token = s.kv_bytes_per_token = m.kv_bytes_per_token(bpv);
  // The TP all-reduces: 2 per layer of the step's hidden states, latency + bytes / bus bandwidth
  // (models/perf/collectives.h), split into their fixed and per-token parts.
  if (r.tp > 1) {
    CommPlacement pl;
    pl.ranks_per_node = r.tp;
    pl.fabric = parse_fabric(fabric_name).value_or(Fabric::pcie);
    pl.architecture = gpu.architecture;
    pl.nvlink_gbyte_s = gpu.nvlink_gbps;
    const double per_layer = 2.0 * m.layers;
    const double token_bytes = double(m.hidden) * bpv;
    const double lat = allreduce_time_s(pl, 0);
    s.comm_fixed_s = per_layer * lat;
    s.comm_per_token_s = per_layer * (allreduce_time_s(pl, token_bytes) - lat);
  }
  out.memory_bytes = tp * gpu.mem_gb * 1e9 * r.memory_share;
  const double block_bytes = out.kv_bytes_per_token * std::max<uint32_t>(block_tokens, 1);
  const double free_bytes = out.memory_bytes - out.weight_bytes;
  out.kv_blocks = free_bytes > 0 && block_bytes > 0
                      ? static_cast<uint64_t>(std::min(4e9, std::floor(free_bytes / block_bytes)))
                      : 0;
  out.fits = out.kv_blocks >= 1;
  return out;
}

}  // namespace gpuplan::inference
