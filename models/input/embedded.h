#pragma once
//! Files embedded into the binary at build time (cmake/embed.cmake).
#include <string_view>

extern const char gpuplan_embed_chartjs[];
extern const unsigned long gpuplan_embed_chartjs_size;
extern const char gpuplan_embed_catalog_gpus[];
extern const unsigned long gpuplan_embed_catalog_gpus_size;
extern const char gpuplan_embed_catalog_instances[];
extern const unsigned long gpuplan_embed_catalog_instances_size;
extern const char gpuplan_embed_catalog_energy[];
extern const unsigned long gpuplan_embed_catalog_energy_size;
extern const char gpuplan_embed_scenario_schema[];
extern const unsigned long gpuplan_embed_scenario_schema_size;

namespace gpuplan::embedded {
inline std::string_view chartjs() {
  return {gpuplan_embed_chartjs, gpuplan_embed_chartjs_size};
}
inline std::string_view catalog_gpus() {
  return {gpuplan_embed_catalog_gpus, gpuplan_embed_catalog_gpus_size};
}
inline std::string_view catalog_instances() {
  return {gpuplan_embed_catalog_instances, gpuplan_embed_catalog_instances_size};
}
inline std::string_view catalog_energy() {
  return {gpuplan_embed_catalog_energy, gpuplan_embed_catalog_energy_size};
}
inline std::string_view scenario_schema() {
  return {gpuplan_embed_scenario_schema, gpuplan_embed_scenario_schema_size};
}
}  // namespace gpuplan::embedded
