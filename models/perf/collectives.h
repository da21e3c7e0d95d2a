#pragma once
//! Collective communication cost: the alpha-beta (Hockney) formulas of Thakur, Rabenseifner
//! and Gropp (IJHPCA 2005), the nccl-tests algbw/busbw conversions (nccl-tests doc/PERFORMANCE.md),
//! and a predictor of the all-reduce bus bandwidth and time a job's placement achieves (published
//! nccl-tests results and NCCL's tuning model, src/graph/tuning.cc).
//!
//! Units: message sizes in bytes, times in seconds, bus/algorithm bandwidths in GB/s (1e9 B/s)
//! as nccl-tests prints them, network line rates in Gb/s as NICs are sold.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "models/catalog/catalog.h"
#include "topologies/tables.h"

namespace gpuplan {

//! Hockney link parameters of one algorithm step.
struct AlphaBeta {
  double alpha_s = 0;           //!< [s] per-message latency
  double beta_s_per_byte = 0;   //!< [s/B] inverse bandwidth
  double gamma_s_per_byte = 0;  //!< [s/B] reduction arithmetic (0 = free)
};

//! AlphaBeta from a latency [s] and a bandwidth [GB/s].
[[nodiscard]] AlphaBeta alpha_beta(double latency_s, double bandwidth_gbyte_s,
                                   double gamma_s_per_byte = 0);

//! Ring all-reduce of `n_bytes` per rank on `p` ranks [s]:
//! 2(p-1)a + 2((p-1)/p) n b + ((p-1)/p) n g. 0 for p <= 1.
[[nodiscard]] double ring_allreduce_s(uint32_t p, double n_bytes, const AlphaBeta& ab);
//! Ring reduce-scatter of an `n_bytes` input vector [s]: (p-1)a + ((p-1)/p) n (b + g).
[[nodiscard]] double ring_reduce_scatter_s(uint32_t p, double n_bytes, const AlphaBeta& ab);
//! Ring all-gather of an `n_bytes` output vector [s]: (p-1)a + ((p-1)/p) n b.
[[nodiscard]] double ring_allgather_s(uint32_t p, double n_bytes, const AlphaBeta& ab);
//! Recursive-doubling all-reduce [s]: ceil(log2 p) (a + n b + n g); best for small messages.
[[nodiscard]] double recursive_doubling_allreduce_s(uint32_t p, double n_bytes,
                                                    const AlphaBeta& ab);
//! Rabenseifner all-reduce (recursive halving + doubling, p a power of two) [s]:
//! 2 log2(p) a + 2((p-1)/p) n b + ((p-1)/p) n g.
[[nodiscard]] double rabenseifner_allreduce_s(uint32_t p, double n_bytes, const AlphaBeta& ab);
//! Unpipelined binary-tree reduce + broadcast all-reduce [s]: 2 ceil(log2 p) (a + n b).
[[nodiscard]] double binary_tree_allreduce_s(uint32_t p, double n_bytes, const AlphaBeta& ab);
//! Pipelined double binary tree all-reduce (NCCL >= 2.4), large-message form [s]:
//! 2 ceil(log2 p) a + 2 n b.
[[nodiscard]] double double_binary_tree_allreduce_s(uint32_t p, double n_bytes,
                                                    const AlphaBeta& ab);
//! Pipelined ring/chain broadcast, large-message form [s]: (p-1)a + n b.
[[nodiscard]] double ring_broadcast_s(uint32_t p, double n_bytes, const AlphaBeta& ab);
//! Pairwise all-to-all, `n_bytes` sent per rank in total [s]: (p-1)a + ((p-1)/p) n b.
[[nodiscard]] double pairwise_alltoall_s(uint32_t p, double n_bytes, const AlphaBeta& ab);
//! Hierarchical two-level all-reduce over `n_nodes` nodes of `g` GPUs [s]: intra-node
//! reduce-scatter, inter-node ring all-reduce on n/g, intra-node all-gather:
//! 2(g-1)a_i + 2((g-1)/g) n b_i + 2(N-1)a_o + 2((N-1)/N)(n/g) b_o.
[[nodiscard]] double hierarchical_allreduce_s(uint32_t g, uint32_t n_nodes, double n_bytes,
                                              const AlphaBeta& intra, const AlphaBeta& inter);

//! Collectives as nccl-tests names them.
enum class Collective : uint8_t {
  all_reduce,             //!< busbw = algbw x 2(n-1)/n
  all_reduce_in_network,  //!< SHARP / CollNet: busbw = algbw x (n-1)/(n+1)
  reduce_scatter,         //!< busbw = algbw x (n-1)/n (S = total size)
  all_gather,             //!< busbw = algbw x (n-1)/n (S = total size)
  all_to_all,             //!< busbw = algbw x (n-1)/n
  broadcast,              //!< busbw = algbw
  reduce,                 //!< busbw = algbw
};

//! busbw / algbw for `c` on `n_ranks` ranks (nccl-tests doc/PERFORMANCE.md); 0 for an all-reduce on
//! 1 rank.
[[nodiscard]] double busbw_factor(Collective c, uint32_t n_ranks);
//! Bus bandwidth [GB/s] from algorithm bandwidth S/t [GB/s].
[[nodiscard]] double busbw_from_algbw(Collective c, uint32_t n_ranks, double algbw_gbyte_s);
//! Algorithm bandwidth S/t [GB/s] from bus bandwidth [GB/s]; +inf where the factor is 0.
[[nodiscard]] double algbw_from_busbw(Collective c, uint32_t n_ranks, double busbw_gbyte_s);

//! Intra-node GPU interconnect; infinity_fabric is AMD's fully connected GPU mesh (MI300X).
enum class Fabric : uint8_t { pcie, nvlink2, nvlink3, nvlink4, nvlink5, infinity_fabric };

//! Fabric from its catalog name ("nvlink4", case-sensitive), or nullopt.
[[nodiscard]] std::optional<Fabric> parse_fabric(std::string_view name);

//! Measured all-reduce busbw over unidirectional GPU-link bandwidth, by architecture (derived from
//! the Azure AI-benchmarking-guide nccl-tests and rccl-tests results): hopper 1.06 (479/450, NVLS
//! in-switch reduction), ampere 0.77 (231/300), cdna3 0.71 (RCCL on MI300X Infinity Fabric,
//! 316.8/448); volta and blackwell, not measured there, take ampere's ring value. RCCL keeps
//! NCCL's algorithms and cost forms (ring/tree), so the rest of the model applies to it unchanged.
[[nodiscard]] double nvlink_allreduce_efficiency(std::string_view architecture);

//! Default fraction of NIC line rate that inter-node all-reduce busbw reaches: 0.94, the middle
//! of the 0.92-0.96 seen in NVIDIA/nccl#812 and NVIDIA/nccl-tests#290 (matches ~192 GB/s on 8x200G
//! and ~370-385 GB/s on 8x400G).
inline constexpr double NET_EFFICIENCY = 0.94;
//! Intra-node busbw over PCIe [GB/s]: NCCL's PCI_BW of 12 GB/s (NVIDIA/nccl src/graph/topo.h).
inline constexpr double PCIE_BUSBW_GBYTE_S = 12.0;

//! Where the ranks of one collective sit, and what links they have.
struct CommPlacement {
  uint32_t ranks_per_node = 1;  //!< ranks of this collective on each node (same on every node)
  uint32_t n_nodes = 1;         //!< nodes the collective spans
  Fabric fabric = Fabric::pcie;
  std::string architecture;   //!< GpuSpec::architecture, e.g. "hopper"
  double nvlink_gbyte_s = 0;  //!< [GB/s] NVLink bidirectional total per GPU (GpuSpec::nvlink_gbps)
  //! [Gb/s] network bandwidth per node available to this collective: NICs x line rate, scaled
  //! by the topology's oversubscription and divided among collectives sharing the node.
  double node_net_gbps = 0;
  double net_efficiency = NET_EFFICIENCY;  //!< busbw / line rate across nodes
  //! [s] latency added to each inter-node step beyond the one switch hop NCCL's constants were
  //! calibrated on (e.g. TopologyTables::level_latency_s[L] - level_latency_s[1]).
  double extra_hop_latency_s = 0;

  //! Ranks in the collective.
  [[nodiscard]] uint32_t n_ranks() const { return ranks_per_node * n_nodes; }
};

//! Placement of `ranks_per_node` GPUs on each of `n_nodes` nodes of instance type `it`
//! carrying GPU `gpu`, with `network_fraction` (<= 1) of the NICs' line rate available.
[[nodiscard]] CommPlacement make_comm_placement(const InstanceType& it, const GpuSpec& gpu,
                                                uint32_t ranks_per_node, uint32_t n_nodes,
                                                double network_fraction = 1.0);

//! Share of the host line rate a gang on `hosts` keeps in `tables` (1 = non-blocking or inside
//! one host; 1/3 across 3:1 oversubscribed leaves; 0 when disconnected).
[[nodiscard]] double network_fraction(const topologies::TopologyTables& tables,
                                      std::span<const uint32_t> hosts);

//! Predicted all-reduce of one placement.
struct AllReducePrediction {
  double intra_busbw_gbyte_s = 0;  //!< [GB/s] intra-node links (+inf with one rank per node)
  double inter_busbw_gbyte_s = 0;  //!< [GB/s] network (+inf on one node)
  double busbw_gbyte_s = 0;        //!< [GB/s] achieved: the slower of the two
  double latency_s = 0;            //!< [s] NCCL latency model: min(ring, tree), Simple protocol
};

//! Predicted large-message all-reduce bus bandwidth and latency for `pl` (nccl-tests results,
//! NCCL's tuning model): NVLink busbw = efficiency x NVLink/2, PCIe busbw = 12 GB/s, network busbw
//! = node line rate / 8 x net_efficiency (a ring channel per NIC carries the node's share, so
//! nccl-tests busbw equals the node's NIC bandwidth); latency 8.4 us base + 3.4 us (NVLink) or 5.7
//! us (PCIe) per intra-node ring step + 14 us per inter-node step, or the tree form when it is
//! lower.
[[nodiscard]] AllReducePrediction predict_allreduce(const CommPlacement& pl);

//! Time of an all-reduce of `n_bytes` per rank on `pl` [s]:
//! latency + n x 2(p-1)/p / busbw; 0 for a single rank, +inf when the ranks have no link.
[[nodiscard]] double allreduce_time_s(const CommPlacement& pl, double n_bytes);

}  // namespace gpuplan
