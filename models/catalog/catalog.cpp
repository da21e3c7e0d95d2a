#include "models/catalog/catalog.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "models/input/closest_names.h"
#include "models/input/embedded.h"

namespace gpuplan {
namespace {

std::optional<double> opt_number(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

GpuSpec gpu_from_json(const nlohmann::json& j) {
  GpuSpec g;
  g.id = j.at("id");
  g.name = j.value("name", g.id);
  g.architecture = j.value("architecture", "");
  g.bf16_tflops = j.value("bf16_tflops", 0.0);
  g.fp8_tflops = j.value("fp8_tflops", 0.0);
  g.tf32_tflops = j.value("tf32_tflops", 0.0);
  g.fp32_tflops = j.value("fp32_tflops", 0.0);
  g.int8_tops = j.value("int8_tops", 0.0);
  g.mem_gb = j.value("mem_gb", 0.0);
  g.mem_bw_tbps = j.value("mem_bw_tbps", 0.0);
  g.tdp_w = j.value("tdp_w", 0.0);
  g.nvlink_gbps = j.value("nvlink_gbps", 0.0);
  g.collectives = j.value("collectives", "NCCL");
  g.source = j.value("source", "");
  return g;
}

InstanceType instance_from_json(const nlohmann::json& j) {
  InstanceType it;
  it.id = j.at("id");
  it.provider = j.value("provider", "custom");
  it.gpu = j.at("gpu");
  it.gpus_per_node = j.value("gpus_per_node", 1u);
  it.gpu_fraction = j.value("gpu_fraction", "");
  it.intra_node_fabric = j.value("intra_node_fabric", "pcie");
  it.nics = j.value("nics", 0u);
  it.nic_gbps = j.value("nic_gbps", 0.0);
  it.region = j.value("region", "");
  if (auto p = j.find("price_per_hour"); p != j.end()) {
    it.price_per_hour.on_demand = opt_number(*p, "on_demand");
    it.price_per_hour.reserved_1y = opt_number(*p, "reserved_1y");
    it.price_per_hour.reserved_3y = opt_number(*p, "reserved_3y");
    it.price_per_hour.spot = opt_number(*p, "spot");
    it.price_per_hour.on_prem = opt_number(*p, "on_prem");
  }
  it.source = j.value("source", "");
  it.as_of = j.value("as_of", "");
  it.confidence = j.value("confidence", "");
  it.notes = j.value("notes", "");
  if (auto d = j.find("derived"); d != j.end()) {
    for (const Pricing term : {Pricing::on_demand, Pricing::reserved_1y, Pricing::reserved_3y,
                               Pricing::spot, Pricing::on_prem}) {
      if (auto r = d->find(std::string(pricing_key(term))); r != d->end())
        it.derived.push_back(DerivedPrice{term, r->get<std::string>()});
    }
  }
  return it;
}

Catalog parse_builtin() {
  Catalog c;
  // NOTE: embedded data is validated by tests/models/catalog/catalog_test.cpp; a parse failure is a
  // bug.
  for (const auto& j : nlohmann::json::parse(embedded::catalog_gpus()))
    c.gpus.push_back(gpu_from_json(j));
  for (const auto& j : nlohmann::json::parse(embedded::catalog_instances()))
    c.instances.push_back(instance_from_json(j));
  return c;
}

}  // namespace

std::string_view pricing_key(Pricing term) {
  switch (term) {
    case Pricing::on_demand:
      return "on_demand";
    case Pricing::reserved_1y:
      return "reserved_1y";
    case Pricing::reserved_3y:
      return "reserved_3y";
    case Pricing::spot:
      return "spot";
    case Pricing::on_prem:
      return "on_prem";
  }
  return "on_demand";
}

double InstanceType::gpus_held() const {
  // "1/6": numerator over denominator; anything else (checked by the catalog test) counts whole.
  const auto slash = gpu_fraction.find('/');
  if (slash == std::string::npos) return gpus_per_node;
  const double num = std::atof(gpu_fraction.substr(0, slash).c_str());
  const double den = std::atof(gpu_fraction.substr(slash + 1).c_str());
  return num > 0 && den > 0 ? gpus_per_node * num / den : gpus_per_node;
}

const GpuSpec* Catalog::find_gpu(std::string_view id) const {
  for (const auto& g : gpus)
    if (iequals(g.id, id)) return &g;
  return nullptr;
}

const InstanceType* Catalog::find_instance(std::string_view id) const {
  for (const auto& it : instances)
    if (iequals(it.id, id)) return &it;
  return nullptr;
}

void Catalog::upsert(const InstanceType& it) {
  for (auto& existing : instances) {
    if (iequals(existing.id, it.id)) {
      existing = it;
      return;
    }
  }
  instances.push_back(it);
}

const Catalog& builtin_catalog() {
  static const Catalog catalog = parse_builtin();
  return catalog;
}

}  // namespace gpuplan
