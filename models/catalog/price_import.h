#pragma once
//! Provider price files read offline, as the providers publish them, into a catalog overlay
//! (models/catalog/catalog_overlay.h): the AWS Price List bulk offer file for EC2, Azure Retail
//! Prices API response pages, the GCP Cloud Billing Catalog SKU list, the on-demand price tables
//! that AWS's and Azure's Karpenter providers generate, and a plain CSV (instance, term, price,
//! date) for any other source. Rows are mapped to the catalog's instance names; rows that cannot
//! be mapped are listed, never guessed.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/catalog/catalog.h"
#include "models/catalog/catalog_overlay.h"
#include "models/input/diagnostic.h"
#include "models/input/plan_enums.h"

namespace gpuplan {

//! The price-file formats gpuplan reads.
enum class PriceFileFormat : uint8_t {
  aws_price_list,
  azure_retail_prices,
  gcp_billing_catalog,
  karpenter_price_table,
  price_csv
};

//! Stable name of a format ("aws_price_list"), as overlays record it.
[[nodiscard]] std::string price_format_name(PriceFileFormat f);

//! What an import selects.
struct ImportOptions {
  std::string region;            //!< provider region code; "" = each catalog row's own region
  std::string currency = "USD";  //!< ISO 4217 code of the prices taken
};

//! The format of a parsed price file: an object with "products" and "terms" (AWS), "Items"
//! (Azure) or "skus" (GCP); nullopt when it is none of these.
[[nodiscard]] std::optional<PriceFileFormat> detect_price_format(const nlohmann::json& doc);

//! One price found for a catalog instance and term.
struct ImportedPrice {
  std::string id;  //!< catalog instance id
  Pricing term = Pricing::on_demand;
  double price = 0;    //!< [currency per node-hour], effective (upfront fees amortised)
  std::string region;  //!< provider region code
  std::string how;     //!< the rule that made the price, for the row's source
  std::string as_of;   //!< date of this price, YYYY-MM-DD ("" = the file's as_of)
};

//! What one price file holds for the catalog.
struct ImportedFile {
  PriceFileFormat format = PriceFileFormat::aws_price_list;
  std::string provider;  //!< aws | azure | gcp
  std::string as_of;     //!< publication or newest effective date of the prices used, YYYY-MM-DD
  std::string label;     //!< e.g. "AWS Price List bulk offer file (AmazonEC2, version 2025...)"
  uint64_t rows_read = 0;
  std::vector<ImportedPrice> prices;
  std::vector<UnmappedPriceRow> unmapped;
  std::set<std::string> regions;     //!< every region the file has prices for
  std::set<std::string> currencies;  //!< every currency it has prices in
};

//! The regions to read for `provider`: {opts.region}, or the regions of the catalog's rows of
//! that provider.
[[nodiscard]] std::set<std::string> import_regions(const Catalog& catalog,
                                                   const std::string& provider,
                                                   const ImportOptions& opts);

//! Reads an AWS Price List bulk offer file (offerCode AmazonEC2): Linux, shared-tenancy, no
//! pre-installed software, capacity status "Used" compute instances; on_demand from
//! terms.OnDemand's hourly dimension, reserved_1y/3y from terms.Reserved (standard class first,
//! then No, Partial, All Upfront), upfront fees amortised over 8,760 h per year.
[[nodiscard]] ImportedFile import_aws_price_list(const nlohmann::json& doc, const std::string& file,
                                                 const Catalog& catalog, const ImportOptions& opts);

//! Reads Azure Retail Prices API response pages (Items[]): Linux virtual machines by
//! armSkuName; Consumption = on_demand ("Spot" sku names = spot), Reservation "1 Year" /
//! "3 Years" = reserved_1y / reserved_3y (retailPrice is the whole term's price, divided by its
//! hours); Low Priority, DevTestConsumption and other units are listed, not mapped.
[[nodiscard]] ImportedFile import_azure_retail_prices(const nlohmann::json& doc,
                                                      const std::string& file,
                                                      const Catalog& catalog,
                                                      const ImportOptions& opts);

//! Reads a GCP Cloud Billing Catalog SKU list (skus[]): a machine type's price is its GPUs x
//! the GPU SKU + vCPUs x the family's core SKU + GiB x its RAM SKU, per usage type (OnDemand,
//! Preemptible = spot, Commit1Yr, Commit3Yr), for the machine types gpuplan knows the shape
//! of; GPU SKUs no catalog machine uses are listed.
[[nodiscard]] ImportedFile import_gcp_billing_catalog(const nlohmann::json& doc,
                                                      const std::string& file,
                                                      const Catalog& catalog,
                                                      const ImportOptions& opts);

//! Reads a plain price CSV: one price per line, `instance,term,price,date` (a catalog instance id,
//! on_demand | reserved_1y | reserved_3y | spot | on_prem, a number >= 0 in opts.currency per
//! node-hour, YYYY-MM-DD), an optional header line naming those columns, blank lines ignored.
//! nullopt with one diagnostic per bad line at `file:line` naming the column.
[[nodiscard]] std::optional<ImportedFile> import_price_csv(std::string_view text,
                                                           const std::string& file,
                                                           const Catalog& catalog,
                                                           const ImportOptions& opts,
                                                           Diagnostics& diags);

//! Whether `text` is one of the Go price tables Karpenter's providers generate: it has a
//! `package pricing` line or a `// generated at` line.
[[nodiscard]] bool is_karpenter_price_table(std::string_view text);

//! Reads a Karpenter generated price table: aws/karpenter-provider-aws
//! pkg/providers/pricing/zz_generated.pricing_aws.go (`"region": {` map literals, several
//! `"type": price` entries a line) or Azure/karpenter-provider-azure
//! pkg/providers/pricing/zz_generated.pricing.go (`initialOnDemandPrices["region"] =
//! map[string]float64{` blocks), the provider told by the layout. Every price is Linux on_demand
//! in USD per node-hour, dated by the `// generated at` line; a catalog row takes the price of its
//! own region (or of opts.region). nullopt with one diagnostic per malformed line at `file:line`
//! (an entry that is not `"type": price`, a price that is not a number >= 0, a map literal left
//! open, an unreadable or missing generation date).
[[nodiscard]] std::optional<ImportedFile> import_karpenter_price_table(std::string_view text,
                                                                       const std::string& file,
                                                                       const Catalog& catalog,
                                                                       const ImportOptions& opts,
                                                                       Diagnostics& diags);

//! Reads every file (format detected per file: JSON by its keys, a Karpenter price table by its
//! Go lines, anything else as the CSV) and builds one overlay of the catalog's instances priced in
//! opts.currency; nullopt with diagnostics naming the file (and the field) for an unreadable file,
//! an unknown format, a region or currency the file does not have, or a file with no price for any
//! catalog instance.
[[nodiscard]] std::optional<CatalogOverlay> import_price_files(
    const std::vector<std::string>& files, const Catalog& catalog, const ImportOptions& opts,
    Diagnostics& diags);

}  // namespace gpuplan
