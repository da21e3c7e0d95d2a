#include "models/catalog.h"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "models/embedded.h"

namespace gpuplan {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

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
  g.source = j.value("source", "");
  return g;
}

InstanceType instance_from_json(const nlohmann::json& j) {
  InstanceType it;
  it.id = j.at("id");
  it.provider = j.value("provider", "custom");
  it.gpu = j.at("gpu");
  it.gpus_per_node = j.value("gpus_per_node", 1u);
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
  // NOTE: embedded data is validated by tests/models/catalog_test.cpp; a parse failure is a bug.
  for (const auto& j : nlohmann::json::parse(embedded::catalog_gpus()))
    c.gpus.push_back(gpu_from_json(j));
  for (const auto& j : nlohmann::json::parse(embedded::catalog_instances()))
    c.instances.push_back(instance_from_json(j));
  return c;
}

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (same ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
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

std::vector<std::string> closest_names(std::string_view got, const std::vector<std::string>& known,
                                       size_t n) {
  std::vector<std::pair<size_t, std::string>> scored;
  for (const auto& k : known) {
    // A prefix match ("p5.48xl" -> "p5.48xlarge") counts as close whatever its length.
    const bool prefix = k.size() > got.size() && iequals(k.substr(0, got.size()), got);
    const size_t limit = std::max<size_t>(2, std::max(got.size(), k.size()) / 3);
    // NOTE: the distance is at least the length difference, so a name far longer than every
    // candidate (a 2 MB id) is rejected here without the quadratic distance.
    const size_t gap = got.size() > k.size() ? got.size() - k.size() : k.size() - got.size();
    if (prefix) {
      scored.emplace_back(0, k);
    } else if (gap <= limit) {
      const size_t d = edit_distance(got, k);
      if (d <= limit) scored.emplace_back(d, k);
    }
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && i < n; ++i) out.push_back(scored[i].second);
  return out;
}

}  // namespace gpuplan
