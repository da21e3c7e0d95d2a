// The GCP Cloud Billing Catalog SKU list (docs/catalog-import.md): {"skus": [{"skuId",
// "description", "category": {"resourceGroup", "usageType"}, "serviceRegions": [...],
// "pricingInfo": [{"effectiveTime", "pricingExpression": {"usageUnit", "tieredRates":
// [{"startUsageAmount", "unitPrice": {"currencyCode", "units", "nanos"}}]}}]}]}. Compute Engine
// bills a GPU machine type as its parts: GPUs, vCPUs and memory, each its own SKU.
#include <array>
#include <map>

#include "models/input/field_reader.h"
#include "models/input/names.h"
#include "models/catalog/price_import.h"
#include "models/catalog/price_import_detail.h"

namespace gpuplan {
namespace {

using namespace price_import;

// A GPU machine type as Compute Engine bills it (cloud.google.com/compute/docs/gpus and
// /accelerator-optimized-machines).
struct MachineShape {
  const char* id;       // machine type = catalog instance id
  const char* family;   // the core and RAM SKUs' family, "A2" in "A2 Instance Core ..."
  const char* gpu_sku;  // the GPU SKU's description, "Nvidia Tesla A100 GPU"
  uint32_t gpus;
  uint32_t vcpus;
  double mem_gib;  // [GiB]
};

constexpr std::array<MachineShape, 3> SHAPES = {{
    {"a2-highgpu-8g", "A2", "Nvidia Tesla A100 GPU", 8, 96, 680},
    {"a2-ultragpu-8g", "A2", "Nvidia A100 80GB GPU", 8, 96, 1360},
    {"a3-highgpu-8g", "A3", "Nvidia H100 80GB GPU", 8, 208, 1872},
}};

enum class Part : uint8_t { gpu, core, ram };
constexpr std::array<const char*, 3> PART_NAMES = {"GPU", "vCPU", "memory"};

// The catalog term of a usage type, or nullopt.
std::optional<Pricing> term_of(const std::string& usage) {
  if (usage == "OnDemand") return Pricing::on_demand;
  if (usage == "Preemptible") return Pricing::spot;
  if (usage == "Commit1Yr") return Pricing::reserved_1y;
  if (usage == "Commit3Yr") return Pricing::reserved_3y;
  return std::nullopt;
}

// Which part of `shape` the SKU `description` of resource group `group` bills, if any.
std::optional<Part> part_of(const MachineShape& shape, const std::string& group,
                            const std::string& description) {
  const std::string fam = shape.family;
  if (group == "GPU") {
    // NOTE: "Nvidia Tesla A100 GPU" must not match "Nvidia Tesla A100 80GB GPU": the phrase is
    // followed by a space or ends the description.
    const size_t at = description.find(shape.gpu_sku);
    const size_t end = at + std::string_view(shape.gpu_sku).size();
    if (at != std::string::npos && (end == description.size() || description[end] == ' '))
      return Part::gpu;
    return std::nullopt;
  }
  if (description.find(fam + " Instance Core") != std::string::npos ||
      description.find(fam + " Cpu") != std::string::npos)
    return Part::core;
  if (description.find(fam + " Instance Ram") != std::string::npos ||
      description.find(fam + " Ram") != std::string::npos)
    return Part::ram;
  return std::nullopt;
}

// The newest pricing entry's first-tier unit price, its unit and date; nullopt with a reason.
struct SkuPrice {
  double price = 0;
  std::string currency, unit, date;
};
std::optional<SkuPrice> sku_price(const json& sku, std::string& reason) {
  const json* infos = member(sku, "pricingInfo");
  const json* newest = nullptr;
  if (infos != nullptr && infos->is_array())
    for (const json& info : *infos)
      if (newest == nullptr || text(info, "effectiveTime") > text(*newest, "effectiveTime"))
        newest = &info;
  const json* expr = newest ? member(*newest, "pricingExpression") : nullptr;
  const json* tiers = expr ? member(*expr, "tieredRates") : nullptr;
  if (tiers == nullptr || !tiers->is_array()) {
    reason = "no pricingInfo[].pricingExpression.tieredRates";
    return std::nullopt;
  }
  for (const json& tier : *tiers) {
    const auto start = tier.is_object() && tier.contains("startUsageAmount")
                           ? price_value(tier["startUsageAmount"])
                           : std::optional<double>(0.0);
    const json* unit_price = member(tier, "unitPrice");
    if (!start || *start != 0 || unit_price == nullptr) continue;
    const auto units = unit_price->contains("units") ? price_value((*unit_price)["units"])
                                                     : std::optional<double>(0.0);
    const auto nanos = unit_price->contains("nanos") ? price_value((*unit_price)["nanos"])
                                                     : std::optional<double>(0.0);
    if (!units || !nanos) break;
    return SkuPrice{*units + *nanos * 1e-9, text(*unit_price, "currencyCode"),
                    text(*expr, "usageUnit"), date_part(text(*newest, "effectiveTime"))};
  }
  reason = "no first tier (startUsageAmount 0) with a unitPrice {units, nanos} >= 0";
  return std::nullopt;
}

}  // namespace

ImportedFile import_gcp_billing_catalog(const json& doc, const std::string& file,
                                        const Catalog& catalog, const ImportOptions& opts) {
  ImportedFile f;
  f.format = PriceFileFormat::gcp_billing_catalog;
  f.provider = "gcp";
  f.label = "GCP Cloud Billing Catalog SKU list";
  const std::set<std::string> regions = import_regions(catalog, "gcp", opts);
  const json* skus = member(doc, "skus");
  if (skus == nullptr || !skus->is_array()) return f;
  // (shape index, region, term, part) -> price per unit and the SKU's date.
  std::map<std::tuple<size_t, std::string, Pricing, Part>, std::pair<double, std::string>> parts;
  for (const json& sku : *skus) {
    ++f.rows_read;
    const json* category = member(sku, "category");
    const std::string group = category ? text(*category, "resourceGroup") : "";
    const std::string usage = category ? text(*category, "usageType") : "";
    const std::string description = text(sku, "description");
    const std::string id = text(sku, "skuId");
    std::set<std::string> sku_regions;
    if (const json* r = member(sku, "serviceRegions"); r != nullptr && r->is_array())
      for (const json& x : *r)
        if (x.is_string()) sku_regions.insert(x.get<std::string>());
    f.regions.insert(sku_regions.begin(), sku_regions.end());
    std::string reason;
    const auto price = sku_price(sku, reason);
    if (price && !price->currency.empty()) f.currencies.insert(price->currency);
    std::vector<std::string> wanted;
    for (const std::string& r : sku_regions)
      if (regions.count(r) != 0) wanted.push_back(r);
    if (wanted.empty()) continue;
    bool used = false;
    for (size_t s = 0; s < SHAPES.size(); ++s) {
      const auto part = part_of(SHAPES[s], group, description);
      const InstanceType* inst = catalog.find_instance(SHAPES[s].id);
      if (!part || inst == nullptr || inst->provider != "gcp") continue;
      used = true;
      const auto term = term_of(usage);
      const char* unit = *part == Part::ram ? "GiBy.h" : "h";
      if (!term) {
        reason = "usage type \"" + usage + "\" is not a catalog pricing term";
      } else if (price && price->unit != unit) {
        reason = "usage unit \"" + price->unit + "\" is not \"" + unit + "\"";
      } else if (price && price->currency != opts.currency) {
        continue;  // another currency's copy of the price
      }
      if (!term || !price || price->unit != unit) {
        f.unmapped.push_back({file, id, description, wanted.front(), reason});
        continue;
      }
      for (const std::string& r : wanted)
        parts.try_emplace({s, r, *term, *part}, price->price, price->date);
    }
    if (!used && group == "GPU")
      f.unmapped.push_back({file, id, description, wanted.front(),
                            "no catalog machine type gpuplan knows the shape of uses this GPU"});
  }
  // A machine type's price per term: all three parts, or the missing part is listed.
  std::string newest;
  for (size_t s = 0; s < SHAPES.size(); ++s) {
    const MachineShape& m = SHAPES[s];
    for (const std::string& r : regions) {
      for (const Pricing term :
           {Pricing::on_demand, Pricing::reserved_1y, Pricing::reserved_3y, Pricing::spot}) {
        std::array<const std::pair<double, std::string>*, 3> got{};
        size_t n = 0;
        for (size_t p = 0; p < 3; ++p) {
          const auto it = parts.find({s, r, term, static_cast<Part>(p)});
          if (it != parts.end()) {
            got[p] = &it->second;
            ++n;
          }
        }
        if (n == 0) continue;
        if (n < 3) {
          std::string missing;
          for (size_t p = 0; p < 3; ++p)
            if (got[p] == nullptr)
              missing += std::string(missing.empty() ? "" : ", ") + PART_NAMES[p];
          f.unmapped.push_back({file, "", m.id, r,
                                std::string(enum_name(term)) + ": no " + missing +
                                    " SKU in the file, so the machine type cannot be priced"});
          continue;
        }
        const double price =
            m.gpus * got[0]->first + m.vcpus * got[1]->first + m.mem_gib * got[2]->first;
        for (const auto* g : got) newest = std::max(newest, g->second);
        f.prices.push_back({m.id,
                            term,
                            price,
                            r,
                            std::to_string(m.gpus) + " x GPU + " + std::to_string(m.vcpus) + " x " +
                                m.family + " vCPU + " + fields::num(m.mem_gib) + " GiB x " +
                                m.family + " RAM SKUs",
                            {}});
      }
    }
  }
  f.as_of = newest;
  return f;
}

}  // namespace gpuplan
