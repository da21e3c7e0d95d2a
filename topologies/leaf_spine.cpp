#include <stdexcept>
#include <vector>

#include "topologies/builders.h"

namespace gpuplan::topologies {

double LeafSpineSpec::oversubscription() const {
  const double down = hosts_per_leaf * host_link.bandwidth_gbps;
  const double up = static_cast<double>(n_spines) * links_per_spine * spine_link.bandwidth_gbps;
  return down / up;
}

Topology leaf_spine(const LeafSpineSpec& spec) {
  if (spec.n_leaves == 0 || spec.hosts_per_leaf == 0 || spec.n_spines == 0 ||
      spec.links_per_spine == 0)
    throw std::invalid_argument("leaf_spine: leaves, hosts per leaf, spines and links must be > 0");
  Topology t;
  t.name = indexed_name("leaf_spine(", spec.n_leaves) + "x" + std::to_string(spec.hosts_per_leaf) +
           ", " + std::to_string(spec.n_spines) + " spines)";
  std::vector<Vertex> spines;
  for (uint32_t s = 0; s < spec.n_spines; ++s)
    spines.push_back(t.add_switch(indexed_name("spine", s), 2));
  // NOTE: parallel cables to one spine become one edge carrying their summed bandwidth.
  const LinkSpec bundle{spec.spine_link.bandwidth_gbps * spec.links_per_spine,
                        spec.spine_link.latency_s};
  for (uint32_t l = 0; l < spec.n_leaves; ++l) {
    const Vertex leaf = t.add_switch(indexed_name("leaf", l), 1);
    for (const Vertex s : spines) t.add_link(leaf, s, bundle);
    for (uint32_t h = 0; h < spec.hosts_per_leaf; ++h)
      t.add_link(t.add_host(indexed_name("h", l * spec.hosts_per_leaf + h)), leaf, spec.host_link);
  }
  return t;
}

LeafSpineSpec leaf_spine_from_radix(uint32_t radix, uint32_t oversubscription, LinkSpec link) {
  if (radix < 2 || oversubscription == 0 || radix % (oversubscription + 1) != 0)
    throw std::invalid_argument("leaf_spine_from_radix: radix must split into down:up = " +
                                std::to_string(oversubscription) + ":1 whole ports");
  LeafSpineSpec spec;
  const uint32_t up = radix / (oversubscription + 1);
  spec.n_spines = up;
  spec.hosts_per_leaf = radix - up;
  spec.n_leaves = radix;
  spec.links_per_spine = 1;
  spec.host_link = {link.bandwidth_gbps, NIC_LATENCY_S};
  spec.spine_link = {link.bandwidth_gbps, link.latency_s};
  return spec;
}

Topology fat_tree(uint32_t k, LinkSpec link) {
  if (k < 2 || k % 2 != 0) throw std::invalid_argument("fat_tree: k must be even and >= 2");
  const uint32_t half = k / 2;
  Topology t;
  t.name = indexed_name("fat_tree(k=", k) + ")";
  std::vector<Vertex> core;
  for (uint32_t c = 0; c < half * half; ++c)
    core.push_back(t.add_switch(indexed_name("core", c), 3));
  const LinkSpec host_link{link.bandwidth_gbps, NIC_LATENCY_S};
  for (uint32_t p = 0; p < k; ++p) {
    const std::string pod = indexed_name("pod", p);
    std::vector<Vertex> agg;
    for (uint32_t a = 0; a < half; ++a) {
      agg.push_back(t.add_switch(pod + ".agg" + std::to_string(a), 2));
      // Aggregation switch a of every pod reaches core switches [a * k/2, (a + 1) * k/2).
      for (uint32_t c = 0; c < half; ++c) t.add_link(agg.back(), core[a * half + c], link);
    }
    for (uint32_t e = 0; e < half; ++e) {
      const Vertex edge = t.add_switch(pod + ".edge" + std::to_string(e), 1);
      for (const Vertex a : agg) t.add_link(edge, a, link);
      for (uint32_t h = 0; h < half; ++h)
        t.add_link(t.add_host(indexed_name("h", (p * half + e) * half + h)), edge, host_link);
    }
  }
  return t;
}

}  // namespace gpuplan::topologies
