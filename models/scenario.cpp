#include "models/scenario.h"

namespace gpuplan {

const InstanceType* find_instance(const Scenario& sc, std::string_view id) {
  for (const auto& it : sc.instances)
    if (it.id == id) return &it;
  return builtin_catalog().find_instance(id);
}

}  // namespace gpuplan
