#include <stdexcept>

#include "topologies/builders.h"

namespace gpuplan::topologies {

Topology single_switch(uint32_t n_hosts, LinkSpec host_link) {
  if (n_hosts == 0) throw std::invalid_argument("single_switch: needs at least one host");
  Topology t;
  t.name = indexed_name("single_switch(", n_hosts) + " hosts)";
  const Vertex sw = t.add_switch("switch", 1);
  for (uint32_t h = 0; h < n_hosts; ++h)
    t.add_link(t.add_host(indexed_name("h", h)), sw, host_link);
  return t;
}

}  // namespace gpuplan::topologies
