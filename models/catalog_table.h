#pragma once
//! `gpuplan catalog` output: filtering the built-in catalog by GPU and provider, and rendering the
//! selection as an aligned text table or as JSON with sources. Kept here (not in tools/) so the
//! tests and the reports can call it.
#include <chrono>
#include <string>
#include <vector>

#include "models/catalog.h"

namespace gpuplan {

//! Filter of `gpuplan catalog`; an empty field matches everything.
struct CatalogQuery {
  std::string gpu;       //!< GPU id, e.g. "H100-SXM" (case-insensitive)
  std::string provider;  //!< provider, e.g. "aws" (case-insensitive)
};

//! Result of select_instances(): the matching entries, or an input error with suggestions.
struct CatalogSelection {
  std::vector<const InstanceType*> instances;  //!< in catalog order; points into the catalog
  std::string error;  //!< "" when the query is valid, else "--flag: message; did you mean ...?"
  std::vector<std::string> candidates;  //!< "did you mean" names for `error`, closest first
};

//! Instance types matching `query`; an unknown GPU or provider fills `error` (exit status 2).
[[nodiscard]] CatalogSelection select_instances(const Catalog& catalog, const CatalogQuery& query);

//! Price per GPU-hour [USD] of `price` on an instance with `gpus_per_node` GPUs, or nullopt.
[[nodiscard]] std::optional<double> per_gpu_hour(std::optional<double> price,
                                                 uint32_t gpus_per_node);

//! Aligned text table (one row per instance, a `stale` flag for prices dated more than one year
//! before `today`) followed by a legend.
[[nodiscard]] std::string format_catalog_table(const std::vector<const InstanceType*>& instances,
                                               std::chrono::year_month_day today);

//! JSON array of the instances with every price, per-GPU prices, age, stale flag and source.
[[nodiscard]] std::string format_catalog_json(const std::vector<const InstanceType*>& instances,
                                              std::chrono::year_month_day today);

}  // namespace gpuplan
