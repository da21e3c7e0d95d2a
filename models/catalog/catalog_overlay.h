#pragma once
//! Catalog overlays: JSON files of instance rows (prices per term, source, as_of) that override
//! the built-in catalog's rows of the same id, as `gpuplan catalog import` writes them from a
//! provider's price file. A scenario names them in `catalog.overlays`, a quote with
//! `--catalog-overlay FILE`.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/catalog/catalog.h"
#include "models/input/diagnostic.h"

namespace gpuplan {

//! Version of the overlay format written and read (the value of "gpuplan_catalog_overlay").
inline constexpr int CATALOG_OVERLAY_VERSION = 1;

//! A price row the importer could not map to a catalog instance and term, listed as read.
struct UnmappedPriceRow {
  std::string file;    //!< the price file
  std::string sku;     //!< the provider's product or SKU id
  std::string what;    //!< the provider's instance name or description
  std::string region;  //!< the provider's region ("" = any)
  std::string reason;  //!< why it was not mapped
};

//! One overlay: instance rows in one currency, with the files they came from.
struct CatalogOverlay {
  std::string file;                     //!< where it was read from ("" = built in memory)
  std::string currency = "USD";         //!< ISO 4217 code of every price
  std::string as_of;                    //!< newest as_of of its rows, YYYY-MM-DD
  std::vector<InstanceType> instances;  //!< rows; prices [currency per node-hour]
  std::vector<nlohmann::json> sources;  //!< one object per price file imported
  std::vector<UnmappedPriceRow> unmapped;
};

//! The overlay as JSON (the file `gpuplan catalog import --out` writes).
[[nodiscard]] nlohmann::json overlay_to_json(const CatalogOverlay& overlay);

//! Reads and validates the overlay file `path`: a JSON object with "gpuplan_catalog_overlay": 1,
//! "currency" and "instances"; each row needs "id", "price_per_hour" (at least one term, each a
//! number >= 0), "source" and "as_of", and a row whose id is not in `base` also "gpu" (a known
//! GPU) and "gpus_per_node". A row may give "derived": {term: rule} for prices the provider does
//! not publish, each rule non-empty and for a term the row prices (as the built-in rows). nullopt
//! with diagnostics at `file:line: /pointer` of the overlay (an io_error at `pointer` of the naming
//! document when the file cannot be read).
[[nodiscard]] std::optional<CatalogOverlay> read_catalog_overlay(const std::string& path,
                                                                 const Catalog& base,
                                                                 const std::string& pointer,
                                                                 Diagnostics& diags);

//! Applies `overlay` to `catalog`: a row with a built-in id keeps that row's hardware and takes
//! the overlay's region, source, as_of and the prices of the terms the overlay gives, with the
//! overlay's derived rules for those terms (the other terms stay, with their built-in rules and a
//! note naming their origin); a new id is added as given.
void apply_overlay(Catalog& catalog, const CatalogOverlay& overlay);

}  // namespace gpuplan
