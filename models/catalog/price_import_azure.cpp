// Azure Retail Prices API response pages (docs/catalog-import.md): {"BillingCurrency",
// "Items": [{"armSkuName", "armRegionName", "currencyCode", "retailPrice", "unitOfMeasure",
// "type", "reservationTerm", "skuName", "productName", "serviceName", "effectiveStartDate"}],
// "NextPageLink"}; each page is one file.
#include "models/catalog/price_import.h"
#include "models/catalog/price_import_detail.h"

namespace gpuplan {
namespace {

using namespace price_import;

// The catalog term of an item, or the reason it has none.
struct AzureTerm {
  std::optional<Pricing> term;
  double hours = 1;  //!< [h] the retail price covers (a reservation: its whole term)
  std::string rule;
  std::string reason;
};

AzureTerm azure_term(const json& item) {
  const std::string type = text(item, "type");
  const std::string sku = text(item, "skuName") + " " + text(item, "meterName");
  AzureTerm t;
  if (type == "Consumption") {
    if (contains_nocase(sku, "Low Priority")) {
      t.reason = "Low Priority (Batch) is not a catalog pricing term";
    } else if (contains_nocase(sku, "Spot")) {
      t.term = Pricing::spot;
      t.rule = "Consumption Spot retailPrice per hour";
    } else {
      t.term = Pricing::on_demand;
      t.rule = "Consumption retailPrice per hour";
    }
  } else if (type == "Reservation") {
    const std::string term = text(item, "reservationTerm");
    if (term == "1 Year") {
      t.term = Pricing::reserved_1y;
      t.hours = HOURS_PER_YEAR;
      t.rule = "Reservation 1 Year retailPrice / 8,760 h";
    } else if (term == "3 Years") {
      t.term = Pricing::reserved_3y;
      t.hours = 3 * HOURS_PER_YEAR;
      t.rule = "Reservation 3 Years retailPrice / 26,280 h";
    } else {
      t.reason = "reservation term " + (term.empty() ? std::string("(none)") : "\"" + term + "\"") +
                 " is not 1 or 3 years";
    }
  } else {
    t.reason = "price type \"" + type + "\" is not a catalog pricing term";
  }
  return t;
}

}  // namespace

ImportedFile import_azure_retail_prices(const json& doc, const std::string& file,
                                        const Catalog& catalog, const ImportOptions& opts) {
  ImportedFile f;
  f.format = PriceFileFormat::azure_retail_prices;
  f.provider = "azure";
  f.label = "Azure Retail Prices API page";
  const std::set<std::string> regions = import_regions(catalog, "azure", opts);
  const json* items = member(doc, "Items");
  if (items == nullptr || !items->is_array()) return f;
  std::string newest;
  for (const json& item : *items) {
    ++f.rows_read;
    const std::string service = text(item, "serviceName");
    if (!service.empty() && service != "Virtual Machines") continue;
    const std::string sku = text(item, "armSkuName");
    const std::string region = text(item, "armRegionName");
    const std::string currency = text(item, "currencyCode");
    if (!region.empty()) f.regions.insert(region);
    if (!currency.empty()) f.currencies.insert(currency);
    // NOTE: Windows rows include a licence; a catalog row prices the bare (Linux) VM.
    if (contains_nocase(text(item, "productName"), "Windows")) continue;
    if (regions.count(region) == 0 || currency != opts.currency) continue;
    const std::string id =
        text(item, "skuId").empty() ? text(item, "meterId") : text(item, "skuId");
    const InstanceType* inst = sku.empty() ? nullptr : catalog.find_instance(sku);
    if (inst == nullptr || inst->provider != "azure") {
      f.unmapped.push_back({file, id, sku.empty() ? text(item, "skuName") : sku, region,
                            sku.empty() ? "no armSkuName" : "no catalog instance named " + sku});
      continue;
    }
    const AzureTerm t = azure_term(item);
    const auto at = item.find("retailPrice");
    const auto price = at != item.end() ? price_value(*at) : std::nullopt;
    const std::string unit = text(item, "unitOfMeasure");
    std::string reason = t.reason;
    if (reason.empty() && unit != "1 Hour")
      reason = "unit of measure \"" + unit + "\" is not \"1 Hour\"";
    if (reason.empty() && !price) reason = "no retailPrice >= 0";
    if (!reason.empty()) {
      f.unmapped.push_back({file, id, sku + " (" + text(item, "skuName") + ")", region, reason});
      continue;
    }
    f.prices.push_back({inst->id, *t.term, *price / t.hours, region, t.rule, {}});
    newest = std::max(newest, date_part(text(item, "effectiveStartDate")));
  }
  f.as_of = newest;
  return f;
}

}  // namespace gpuplan
