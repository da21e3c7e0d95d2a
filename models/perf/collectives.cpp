#include "models/perf/collectives.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpuplan {
namespace {

constexpr double INF = std::numeric_limits<double>::infinity();
constexpr double GB = 1e9;  // bytes per GB (nccl-tests reports decimal GB/s)

// NCCL latency constants, Simple protocol (NVIDIA/nccl src/graph/tuning.cc) [s].
constexpr double NCCL_BASE_S = 8.4e-6;
constexpr double RING_NVLINK_S = 3.4e-6;
constexpr double RING_PCIE_S = 5.7e-6;
constexpr double RING_NET_S = 14.0e-6;
constexpr double TREE_NVLINK_S = 4.0e-6;
constexpr double TREE_PCIE_S = 4.0e-6;
constexpr double TREE_NET_S = 14.0e-6;

double frac(uint32_t p) {
  return p == 0 ? 0.0 : static_cast<double>(p - 1) / p;
}
double log2_ceil(uint32_t p) {
  return p <= 1 ? 0.0 : std::ceil(std::log2(static_cast<double>(p)));
}

}  // namespace

AlphaBeta alpha_beta(double latency_s, double bandwidth_gbyte_s, double gamma_s_per_byte) {
  return {latency_s, 1.0 / (bandwidth_gbyte_s * GB), gamma_s_per_byte};
}

double ring_allreduce_s(uint32_t p, double n, const AlphaBeta& ab) {
  if (p <= 1) return 0.0;
  return 2.0 * (p - 1) * ab.alpha_s + 2.0 * frac(p) * n * ab.beta_s_per_byte +
         frac(p) * n * ab.gamma_s_per_byte;
}

double ring_reduce_scatter_s(uint32_t p, double n, const AlphaBeta& ab) {
  if (p <= 1) return 0.0;
  return (p - 1) * ab.alpha_s + frac(p) * n * (ab.beta_s_per_byte + ab.gamma_s_per_byte);
}

double ring_allgather_s(uint32_t p, double n, const AlphaBeta& ab) {
  if (p <= 1) return 0.0;
  return (p - 1) * ab.alpha_s + frac(p) * n * ab.beta_s_per_byte;
}

double recursive_doubling_allreduce_s(uint32_t p, double n, const AlphaBeta& ab) {
  return log2_ceil(p) * (ab.alpha_s + n * ab.beta_s_per_byte + n * ab.gamma_s_per_byte);
}

double rabenseifner_allreduce_s(uint32_t p, double n, const AlphaBeta& ab) {
  if (p <= 1) return 0.0;
  return 2.0 * log2_ceil(p) * ab.alpha_s + 2.0 * frac(p) * n * ab.beta_s_per_byte +
         frac(p) * n * ab.gamma_s_per_byte;
}

double binary_tree_allreduce_s(uint32_t p, double n, const AlphaBeta& ab) {
  return 2.0 * log2_ceil(p) * (ab.alpha_s + n * ab.beta_s_per_byte);
}

double double_binary_tree_allreduce_s(uint32_t p, double n, const AlphaBeta& ab) {
  if (p <= 1) return 0.0;
  return 2.0 * log2_ceil(p) * ab.alpha_s + 2.0 * n * ab.beta_s_per_byte;
}

double ring_broadcast_s(uint32_t p, double n, const AlphaBeta& ab) {
  if (p <= 1) return 0.0;
  return (p - 1) * ab.alpha_s + n * ab.beta_s_per_byte;
}

double pairwise_alltoall_s(uint32_t p, double n, const AlphaBeta& ab) {
  if (p <= 1) return 0.0;
  return (p - 1) * ab.alpha_s + frac(p) * n * ab.beta_s_per_byte;
}

double hierarchical_allreduce_s(uint32_t g, uint32_t n_nodes, double n, const AlphaBeta& intra,
                                const AlphaBeta& inter) {
  const double g_d = std::max<uint32_t>(g, 1);
  double t = 0.0;
  if (g > 1) t += 2.0 * (g - 1) * intra.alpha_s + 2.0 * frac(g) * n * intra.beta_s_per_byte;
  if (n_nodes > 1)
    t += 2.0 * (n_nodes - 1) * inter.alpha_s +
         2.0 * frac(n_nodes) * (n / g_d) * inter.beta_s_per_byte;
  return t;
}

double busbw_factor(Collective c, uint32_t n) {
  const double nd = n;
  switch (c) {
    case Collective::all_reduce:
      return n == 0 ? 0.0 : 2.0 * (nd - 1) / nd;
    case Collective::all_reduce_in_network:
      return (nd - 1) / (nd + 1);
    case Collective::reduce_scatter:
    case Collective::all_gather:
    case Collective::all_to_all:
      return n == 0 ? 0.0 : (nd - 1) / nd;
    case Collective::broadcast:
    case Collective::reduce:
      return 1.0;
  }
  return 1.0;
}

double busbw_from_algbw(Collective c, uint32_t n, double algbw) {
  return algbw * busbw_factor(c, n);
}

double algbw_from_busbw(Collective c, uint32_t n, double busbw) {
  const double f = busbw_factor(c, n);
  return f == 0.0 ? INF : busbw / f;
}

std::optional<Fabric> parse_fabric(std::string_view name) {
  if (name == "pcie") return Fabric::pcie;
  if (name == "nvlink2") return Fabric::nvlink2;
  if (name == "nvlink3") return Fabric::nvlink3;
  if (name == "nvlink4") return Fabric::nvlink4;
  if (name == "nvlink5") return Fabric::nvlink5;
  if (name == "infinity_fabric") return Fabric::infinity_fabric;
  return std::nullopt;
}

double nvlink_allreduce_efficiency(std::string_view architecture) {
  // Azure AI-benchmarking-guide nccl-tests results (derived): 479 GB/s measured / 450 GB/s
  // unidirectional NVLink4 (H100, NVLS); 231 GB/s / 300 GB/s NVLink3 (A100).
  if (architecture == "hopper") return 479.0 / 450.0;
  // Azure AI-benchmarking-guide Azure_Results/ND_MI300X_v5_results.md: RCCL all-reduce busbw
  // 316.82 GB/s at 8 GB on 8 MI300X; Infinity Fabric 7 links x 64 GB/s each way = 448 GB/s.
  if (architecture == "cdna3") return 316.82 / 448.0;
  return 231.0 / 300.0;
}

CommPlacement make_comm_placement(const InstanceType& it, const GpuSpec& gpu,
                                  uint32_t ranks_per_node, uint32_t n_nodes,
                                  double network_fraction) {
  CommPlacement pl;
  pl.ranks_per_node = ranks_per_node;
  pl.n_nodes = n_nodes;
  pl.fabric = parse_fabric(it.intra_node_fabric).value_or(Fabric::pcie);
  pl.architecture = gpu.architecture;
  pl.nvlink_gbyte_s = gpu.nvlink_gbps;
  pl.node_net_gbps = it.nics * it.nic_gbps * std::clamp(network_fraction, 0.0, 1.0);
  return pl;
}

double network_fraction(const topologies::TopologyTables& tables, std::span<const uint32_t> hosts) {
  const double gang = topologies::gang_bottleneck_gbps(tables, hosts);
  if (std::isinf(gang)) return 1.0;
  const double line = tables.n_levels > 1 ? tables.level_bw_gbps[1] : INF;
  if (std::isinf(line) || line <= 0) return gang > 0 ? 1.0 : 0.0;
  return std::min(1.0, gang / line);
}

AllReducePrediction predict_allreduce(const CommPlacement& pl) {
  AllReducePrediction out;
  const uint32_t p = pl.n_ranks();
  const bool nvlink = pl.fabric != Fabric::pcie && pl.nvlink_gbyte_s > 0;
  out.intra_busbw_gbyte_s =
      pl.ranks_per_node <= 1 ? INF
      : nvlink ? nvlink_allreduce_efficiency(pl.architecture) * pl.nvlink_gbyte_s / 2.0
               : PCIE_BUSBW_GBYTE_S;
  out.inter_busbw_gbyte_s = pl.n_nodes <= 1 ? INF : pl.node_net_gbps / 8.0 * pl.net_efficiency;
  out.busbw_gbyte_s = std::min(out.intra_busbw_gbyte_s, out.inter_busbw_gbyte_s);
  if (p <= 1) return out;
  const double ring_intra = nvlink ? RING_NVLINK_S : RING_PCIE_S;
  const double tree_intra = nvlink ? TREE_NVLINK_S : TREE_PCIE_S;
  const double inter_steps = 2.0 * (pl.n_nodes - 1);
  const double steps = 2.0 * (p - 1);
  const double net_step = RING_NET_S + pl.extra_hop_latency_s;
  const double ring = NCCL_BASE_S + (steps - inter_steps) * ring_intra + inter_steps * net_step;
  const double tree =
      NCCL_BASE_S + 2.0 * ((pl.ranks_per_node - 1) * tree_intra +
                           log2_ceil(pl.n_nodes) * (TREE_NET_S + pl.extra_hop_latency_s));
  out.latency_s = pl.n_nodes > 1 ? std::min(ring, tree) : ring;
  return out;
}

double allreduce_time_s(const CommPlacement& pl, double n_bytes) {
  const uint32_t p = pl.n_ranks();
  if (p <= 1) return 0.0;
  const AllReducePrediction pred = predict_allreduce(pl);
  if (pred.busbw_gbyte_s <= 0) return INF;
  return pred.latency_s +
         n_bytes * busbw_factor(Collective::all_reduce, p) / (pred.busbw_gbyte_s * GB);
}

}  // namespace gpuplan
