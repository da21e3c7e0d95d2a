#include <stdexcept>
#include <unordered_map>

#include "topologies/builders.h"

namespace gpuplan::topologies {

Topology custom(const std::vector<CustomVertex>& vertices, const std::vector<CustomLink>& links,
                std::string name) {
  Topology t;
  t.name = std::move(name);
  std::unordered_map<std::string, Vertex> by_name;
  for (const CustomVertex& cv : vertices) {
    if (by_name.count(cv.name))
      throw std::invalid_argument("custom: duplicate vertex \"" + cv.name + "\"");
    if (cv.kind == VertexKind::host && cv.level != 0)
      throw std::invalid_argument("custom: host \"" + cv.name + "\" must be at level 0");
    if (cv.kind == VertexKind::network_switch && cv.level == 0)
      throw std::invalid_argument("custom: network switch \"" + cv.name + "\" needs level >= 1");
    by_name[cv.name] = cv.kind == VertexKind::host ? t.add_host(cv.name)
                                                   : t.add_switch(cv.name, cv.level, cv.kind);
  }
  for (const CustomLink& l : links) {
    const auto a = by_name.find(l.a);
    const auto b = by_name.find(l.b);
    if (a == by_name.end() || b == by_name.end())
      throw std::invalid_argument("custom: link " + l.a + " -- " + l.b +
                                  " names an unknown vertex");
    t.add_link(a->second, b->second, l.link);
  }
  return t;
}

}  // namespace gpuplan::topologies
