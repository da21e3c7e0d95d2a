#pragma once
//! `gpuplan catalog` output: filtering the built-in catalog by GPU and provider, and rendering the
//! selection as an aligned text table or as JSON with sources. Kept here (not in tools/) so the
//! tests and the reports can call it.
#include <chrono>
#include <string>
#include <vector>

#include "models/catalog/catalog.h"
#include "models/catalog/catalog_age.h"

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

//! Price per GPU-hour [USD] of `price` on a node holding `gpus` GPUs (a fraction for a vGPU
//! type, so the figure is per whole GPU), or nullopt.
[[nodiscard]] std::optional<double> per_gpu_hour(std::optional<double> price, double gpus);

//! Whether the prices of catalog row `it` are stale: dated more than `months` months before
//! `today`, or undated. Cloud rows and on-prem templates age alike; a row without any price has
//! nothing to age and never is.
[[nodiscard]] bool row_stale(const InstanceType& it, std::chrono::year_month_day today,
                             unsigned months = DEFAULT_STALE_AFTER_MONTHS);

//! Aligned text table, one row per instance: its hardware (GPUs, memory, dense BF16/FP8 TFLOPS
//! and memory bandwidth per GPU from `catalog`, node fabric, network) next to its prices, date,
//! confidence and a flag (`stale` per row_stale, `price required` for a row without a price),
//! then a summary line with the stale count and a legend.
[[nodiscard]] std::string format_catalog_table(
    const Catalog& catalog, const std::vector<const InstanceType*>& instances,
    std::chrono::year_month_day today, unsigned stale_after_months = DEFAULT_STALE_AFTER_MONTHS);

//! JSON array of the instances with every price, per-GPU prices, age, stale flag, confidence,
//! source and the GPU's hardware figures.
[[nodiscard]] std::string format_catalog_json(
    const Catalog& catalog, const std::vector<const InstanceType*>& instances,
    std::chrono::year_month_day today, unsigned stale_after_months = DEFAULT_STALE_AFTER_MONTHS);

//! Aligned text table of GPU specs (`gpuplan catalog --gpus`): dense BF16 and FP8 TFLOPS,
//! memory [GB], memory bandwidth [TB/s], TDP [W], GPU-to-GPU link [GB/s] and collective library,
//! one row per GPU, then a legend.
[[nodiscard]] std::string format_gpu_table(const std::vector<GpuSpec>& gpus);

//! JSON array of the GPU specs with every figure and its source (`--gpus --json`).
[[nodiscard]] std::string format_gpu_json(const std::vector<GpuSpec>& gpus);

}  // namespace gpuplan
