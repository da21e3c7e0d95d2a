#include <stdexcept>

#include "topologies/builders.h"

namespace gpuplan::topologies {

Topology two_level_tree(uint32_t n_leaves, uint32_t hosts_per_leaf, LinkSpec host_link,
                        LinkSpec uplink) {
  if (n_leaves == 0 || hosts_per_leaf == 0)
    throw std::invalid_argument("two_level_tree: needs at least one leaf and one host per leaf");
  Topology t;
  t.name = indexed_name("two_level_tree(", n_leaves) + "x" + std::to_string(hosts_per_leaf) + ")";
  const Vertex root = t.add_switch("root", 2);
  for (uint32_t l = 0; l < n_leaves; ++l) {
    const Vertex leaf = t.add_switch(indexed_name("leaf", l), 1);
    t.add_link(leaf, root, uplink);
    for (uint32_t h = 0; h < hosts_per_leaf; ++h)
      t.add_link(t.add_host(indexed_name("h", l * hosts_per_leaf + h)), leaf, host_link);
  }
  return t;
}

}  // namespace gpuplan::topologies
