#include <stdexcept>

#include "topologies/builders.h"

namespace gpuplan::topologies {

Topology tree_ring_hybrid(const TreeRingSpec& spec) {
  if (spec.groups_per_switch == 0 || spec.workers_per_group < 2)
    throw std::invalid_argument("tree_ring_hybrid: needs >= 1 group per switch of >= 2 workers");
  Topology t;
  const uint32_t per_switch = spec.groups_per_switch * spec.workers_per_group;
  t.name = indexed_name("tree_ring_hybrid(", 2 * per_switch) + " workers)";
  const Vertex master = t.add_switch("master", 2, VertexKind::controller);
  uint32_t worker = 0;
  for (const char* sw_name : {"A", "B"}) {
    const Vertex sw = t.add_switch(sw_name, 1);
    t.add_link(sw, master, spec.master_link);
    for (uint32_t g = 0; g < spec.groups_per_switch; ++g) {
      const uint32_t first = worker;
      for (uint32_t j = 0; j < spec.workers_per_group; ++j, ++worker)
        t.add_link(t.add_host(indexed_name("w", worker)), sw, spec.worker_link);
      // The ring closes on itself; a 2-worker group gets a single link, not a doubled one.
      const uint32_t n_ring = spec.workers_per_group == 2 ? 1 : spec.workers_per_group;
      for (uint32_t j = 0; j < n_ring; ++j)
        t.add_link(t.hosts[first + j], t.hosts[first + (j + 1) % spec.workers_per_group],
                   spec.ring_link);
    }
  }
  return t;
}

}  // namespace gpuplan::topologies
