// The AWS Price List bulk offer file for EC2 (docs/catalog-import.md): "products" keyed by SKU
// with their attributes, "terms" -> "OnDemand" / "Reserved" -> SKU -> offer -> "priceDimensions"
// (pricePerUnit per currency, unit "Hrs" or "Quantity" for an upfront fee) and "termAttributes"
// (LeaseContractLength, PurchaseOption, OfferingClass).
#include <map>

#include "models/catalog/price_import.h"
#include "models/catalog/price_import_detail.h"

namespace gpuplan {
namespace {

using namespace price_import;

// Region codes of the location names older offer files give instead of "regionCode".
const std::map<std::string, std::string>& location_regions() {
  static const std::map<std::string, std::string> m = {
      {"US East (N. Virginia)", "us-east-1"},
      {"US East (Ohio)", "us-east-2"},
      {"US West (N. California)", "us-west-1"},
      {"US West (Oregon)", "us-west-2"},
      {"Canada (Central)", "ca-central-1"},
      {"EU (Ireland)", "eu-west-1"},
      {"EU (London)", "eu-west-2"},
      {"EU (Paris)", "eu-west-3"},
      {"EU (Frankfurt)", "eu-central-1"},
      {"EU (Stockholm)", "eu-north-1"},
      {"Asia Pacific (Tokyo)", "ap-northeast-1"},
      {"Asia Pacific (Seoul)", "ap-northeast-2"},
      {"Asia Pacific (Singapore)", "ap-southeast-1"},
      {"Asia Pacific (Sydney)", "ap-southeast-2"},
      {"Asia Pacific (Mumbai)", "ap-south-1"},
      {"South America (Sao Paulo)", "sa-east-1"},
  };
  return m;
}

// The product's region code: "regionCode", else its "location" mapped, else the location itself.
std::string region_of(const json& attrs) {
  if (std::string code = text(attrs, "regionCode"); !code.empty()) return code;
  const std::string loc = text(attrs, "location");
  const auto it = location_regions().find(loc);
  return it == location_regions().end() ? loc : it->second;
}

// Whether the product is a plain Linux VM as a catalog row prices it. Attributes a file does not
// give are not held against it.
bool plain_linux(const json& attrs) {
  const auto is = [&](const char* key, const char* want) {
    const std::string v = text(attrs, key);
    return v.empty() || v == want;
  };
  return text(attrs, "operatingSystem") == "Linux" && is("tenancy", "Shared") &&
         is("preInstalledSw", "NA") && is("capacitystatus", "Used") &&
         is("licenseModel", "No License required");
}

// The hourly rate and the upfront fee of one offer in `currency`; nullopt when a dimension has
// another unit or no price in that currency.
struct OfferPrice {
  double hourly = 0;
  double upfront = 0;
};
std::optional<OfferPrice> offer_price(const json& offer, const std::string& currency,
                                      std::set<std::string>& currencies) {
  const json* dims = member(offer, "priceDimensions");
  if (dims == nullptr || !dims->is_object() || dims->empty()) return std::nullopt;
  for (const auto& [_, dim] : dims->items())
    if (const json* per_unit = member(dim, "pricePerUnit"); per_unit && per_unit->is_object())
      for (const auto& [cur, __] : per_unit->items()) currencies.insert(cur);
  OfferPrice out;
  for (const auto& [_, dim] : dims->items()) {
    const json* per_unit = member(dim, "pricePerUnit");
    if (per_unit == nullptr || !per_unit->contains(currency)) return std::nullopt;
    const auto value = price_value((*per_unit)[currency]);
    if (!value) return std::nullopt;
    const std::string unit = text(dim, "unit");
    if (unit == "Hrs") {
      out.hourly += *value;
    } else if (unit == "Quantity") {
      out.upfront += *value;
    } else {
      return std::nullopt;
    }
  }
  return out;
}

// Rank of a reserved offer (lower is preferred): standard before convertible, then No, Partial,
// All Upfront.
int reserved_rank(const json& attrs) {
  const std::string cls = text(attrs, "OfferingClass");
  const std::string opt = text(attrs, "PurchaseOption");
  const int c = cls.empty() || cls == "standard" ? 0 : 3;
  const int o = opt == "No Upfront" ? 0 : opt == "Partial Upfront" ? 1 : 2;
  return c + o;
}

}  // namespace

ImportedFile import_aws_price_list(const json& doc, const std::string& file, const Catalog& catalog,
                                   const ImportOptions& opts) {
  ImportedFile f;
  f.format = PriceFileFormat::aws_price_list;
  f.provider = "aws";
  f.as_of = date_part(text(doc, "publicationDate"));
  f.label = "AWS Price List bulk offer file (" + text(doc, "offerCode") + ", version " +
            text(doc, "version") + ")";
  const std::set<std::string> regions = import_regions(catalog, "aws", opts);
  const json* products = member(doc, "products");
  const json* terms = member(doc, "terms");
  const json* on_demand = terms ? member(*terms, "OnDemand") : nullptr;
  const json* reserved = terms ? member(*terms, "Reserved") : nullptr;
  if (products == nullptr || !products->is_object()) return f;
  for (const auto& [sku, product] : products->items()) {
    const json* attrs = member(product, "attributes");
    if (attrs == nullptr) continue;
    const std::string type = text(*attrs, "instanceType");
    if (type.empty()) continue;  // not an instance (data transfer, EBS, ...)
    ++f.rows_read;
    const std::string region = region_of(*attrs);
    f.regions.insert(region);
    if (!plain_linux(*attrs)) continue;  // another OS, tenancy or pre-installed software
    // NOTE: currencies are collected from every row, so a wrong --currency is named even when
    // no row is in the selected region.
    const json* od_offers = on_demand ? member(*on_demand, sku.c_str()) : nullptr;
    const json* ri_offers = reserved ? member(*reserved, sku.c_str()) : nullptr;
    std::optional<OfferPrice> od;
    if (od_offers != nullptr)
      for (const auto& [_, offer] : od_offers->items())
        if (!od) od = offer_price(offer, opts.currency, f.currencies);
    // Best reserved offer per lease length: (rank, effective hourly, description).
    std::map<std::string, std::tuple<int, double, std::string>> best;
    if (ri_offers != nullptr) {
      for (const auto& [_, offer] : ri_offers->items()) {
        const json* ta = member(offer, "termAttributes");
        const std::string lease = ta ? text(*ta, "LeaseContractLength") : "";
        const auto price = offer_price(offer, opts.currency, f.currencies);
        if (!price || (lease != "1yr" && lease != "3yr")) continue;
        const double years = lease == "1yr" ? 1.0 : 3.0;
        const double hourly = price->hourly + price->upfront / (years * HOURS_PER_YEAR);
        const int rank = reserved_rank(*ta);
        auto it = best.find(lease);
        if (it == best.end() || rank < std::get<0>(it->second))
          best[lease] = {
              rank, hourly,
              text(*ta, "OfferingClass") + " " + text(*ta, "PurchaseOption") + " " + lease};
      }
    }
    if (regions.count(region) == 0) continue;
    const InstanceType* inst = catalog.find_instance(type);
    if (inst == nullptr || inst->provider != "aws") {
      f.unmapped.push_back({file, sku, type, region, "no catalog instance named " + type});
      continue;
    }
    if (!od && best.empty()) {
      f.unmapped.push_back({file, sku, type, region,
                            "no hourly price in " + opts.currency +
                                " under terms.OnDemand or "
                                "terms.Reserved"});
      continue;
    }
    if (od)
      f.prices.push_back(
          {inst->id, Pricing::on_demand, od->hourly, region, "terms.OnDemand hourly rate", {}});
    for (const auto& [lease, b] : best)
      f.prices.push_back(
          {inst->id,
           lease == "1yr" ? Pricing::reserved_1y : Pricing::reserved_3y,
           std::get<1>(b),
           region,
           "terms.Reserved " + std::get<2>(b) + " (hourly + upfront / 8,760 h per year)",
           {}});
  }
  return f;
}

}  // namespace gpuplan
