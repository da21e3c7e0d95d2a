#include <stdexcept>
#include <vector>

#include "topologies/builders.h"

namespace gpuplan::topologies {

Topology rail_optimized(const RailSpec& spec) {
  if (spec.n_su == 0 || spec.nodes_per_su == 0 || spec.gpus_per_node == 0 || spec.n_spines == 0)
    throw std::invalid_argument("rail_optimized: SUs, nodes, GPUs and spines must be > 0");
  if (spec.uplinks_per_leaf % spec.n_spines != 0)
    throw std::invalid_argument(
        indexed_name("rail_optimized: uplinks per leaf (", spec.uplinks_per_leaf) +
        ") must spread evenly over " + std::to_string(spec.n_spines) + " spines");
  Topology t;
  t.name = indexed_name("rail_optimized(", spec.n_su) + " SU x " +
           std::to_string(spec.nodes_per_su) + " nodes x " + std::to_string(spec.gpus_per_node) +
           " rails)";
  std::vector<Vertex> spines;
  for (uint32_t s = 0; s < spec.n_spines; ++s)
    spines.push_back(t.add_switch(indexed_name("spine", s), 2));
  const LinkSpec bundle{spec.spine_link.bandwidth_gbps * (spec.uplinks_per_leaf / spec.n_spines),
                        spec.spine_link.latency_s};
  for (uint32_t su = 0; su < spec.n_su; ++su) {
    std::vector<Vertex> rails;
    for (uint32_t r = 0; r < spec.gpus_per_node; ++r) {
      rails.push_back(t.add_switch(indexed_name("su", su) + ".rail" + std::to_string(r), 1));
      for (const Vertex s : spines) t.add_link(rails.back(), s, bundle);
    }
    for (uint32_t n = 0; n < spec.nodes_per_su; ++n) {
      const std::string node = indexed_name("node", su * spec.nodes_per_su + n);
      const Vertex nvswitch = t.add_switch(node + ".nvswitch", 0, VertexKind::node_switch);
      for (uint32_t g = 0; g < spec.gpus_per_node; ++g) {
        const Vertex gpu = t.add_host(node + ".gpu" + std::to_string(g));
        t.add_link(gpu, nvswitch, spec.nvlink);
        t.add_link(gpu, rails[g], spec.rail_link);  // GPU g of every node -> rail leaf g
      }
    }
  }
  return t;
}

RailSpec dgx_h100_superpod(uint32_t n_su) {
  // NVIDIA DGX SuperPOD H100 reference architecture, network fabrics: 1 SU 8 leaf / 4 spine, 2 SU
  // 16 / 8, 3 SU 24 / 16, 4 SU 32 / 16.
  static constexpr uint32_t SPINES[] = {4, 8, 16, 16};
  if (n_su < 1 || n_su > 4)
    throw std::invalid_argument("dgx_h100_superpod: the scale table covers 1-4 SUs, got " +
                                std::to_string(n_su));
  RailSpec spec;
  spec.n_su = n_su;
  spec.n_spines = SPINES[n_su - 1];
  return spec;
}

}  // namespace gpuplan::topologies
