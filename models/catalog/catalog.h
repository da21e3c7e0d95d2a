#pragma once
//! Built-in GPU and instance catalog (data embedded from models/catalog/*.json), plus lookups.
//! Lookups say how they fail: find_* returns nullptr; nothing here throws on unknown names.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/input/plan_enums.h"

namespace gpuplan {

//! One GPU model. Dense tensor throughput; 0 where the part has no such unit.
struct GpuSpec {
  std::string id;            //!< e.g. "H100-SXM" (matched case-insensitively)
  std::string name;          //!< marketing name
  std::string architecture;  //!< volta | turing | ampere | ada | hopper | blackwell | cdna3
  double bf16_tflops = 0;    //!< [TFLOPS] dense BF16/FP16 tensor
  double fp8_tflops = 0;     //!< [TFLOPS] dense FP8 tensor
  double tf32_tflops = 0;    //!< [TFLOPS] dense TF32 tensor (0 = no TF32 unit)
  double fp32_tflops = 0;    //!< [TFLOPS] non-tensor FP32
  double int8_tops = 0;      //!< [TOPS] dense INT8
  double mem_gb = 0;         //!< [GB]
  double mem_bw_tbps = 0;    //!< [TB/s]
  double tdp_w = 0;          //!< [W]
  double nvlink_gbps = 0;    //!< [GB/s] GPU-to-GPU link (NVLink, Infinity Fabric), bidir total
  std::string collectives = "NCCL";  //!< collective library: NCCL, or RCCL on AMD GPUs
  std::string source;                //!< where the figures come from, with confidence tag
};

//! Prices of one instance type [USD per node-hour]; absent = not offered / unknown.
struct InstancePrices {
  std::optional<double> on_demand;
  std::optional<double> reserved_1y;
  std::optional<double> reserved_3y;
  std::optional<double> spot;
  std::optional<double> on_prem;  //!< amortised all-in cost for on-prem templates
};

//! The price per node-hour of `prices` under `pricing`; nullopt where there is none.
[[nodiscard]] inline std::optional<double> price_of(const InstancePrices& prices, Pricing pricing) {
  switch (pricing) {
    case Pricing::on_demand:
      return prices.on_demand;
    case Pricing::reserved_1y:
      return prices.reserved_1y;
    case Pricing::reserved_3y:
      return prices.reserved_3y;
    case Pricing::spot:
      return prices.spot;
    case Pricing::on_prem:
      return prices.on_prem;
  }
  return std::nullopt;
}

//! A price the provider does not publish, and the rule it was computed by.
struct DerivedPrice {
  Pricing term;      //!< which price of the row
  std::string rule;  //!< e.g. "on-demand x 0.59 (AWS P4 1-yr RI discount ~41 %, Epoch AI)"
};

//! One instance type (a cloud VM shape or an on-prem server template).
struct InstanceType {
  std::string id;        //!< provider's own name, e.g. "p4d.24xlarge"
  std::string provider;  //!< aws | gcp | azure | lambda | ... | on_prem | custom
  std::string gpu;       //!< GpuSpec id
  uint32_t gpus_per_node = 1;
  //! Share of one GPU a fractional (vGPU) type gets, "1/6"; "" for whole GPUs.
  std::string gpu_fraction;
  std::string intra_node_fabric;  //!< nvlink2..nvlink5 | infinity_fabric | pcie
  uint32_t nics = 0;              //!< scale-out NICs per node
  double nic_gbps = 0;            //!< [Gb/s] per NIC
  std::string region;
  InstancePrices price_per_hour;  //!< [USD/node-hour]
  std::string source;             //!< where the figures come from, with confidence tag
  std::string as_of;              //!< date of the prices, YYYY-MM-DD or YYYY-MM
  //! How far the list price can be trusted, by the source rule of docs/catalog.md: high
  //! (provider-generated file), medium (dated third-party capture), low (undated or
  //! unattributed); "" for a row without a price.
  std::string confidence;
  std::string notes;  //!< caveats for planners (e.g. "pre-June-2025 price"), may be ""
  std::vector<DerivedPrice> derived;  //!< derived (unpublished) prices with their rules

  //! Whether the row has any price at all (rows of providers without a public price have none).
  [[nodiscard]] bool priced() const {
    const InstancePrices& p = price_per_hour;
    return p.on_demand || p.reserved_1y || p.reserved_3y || p.spot || p.on_prem;
  }
  //! GPUs one node of this type holds: gpus_per_node, times the share of a fractional type.
  [[nodiscard]] double gpus_held() const;

  //! The rule `term`'s price was derived by, or nullptr when it is published (or absent).
  [[nodiscard]] const std::string* derived_rule(Pricing term) const {
    for (const DerivedPrice& d : derived)
      if (d.term == term) return &d.rule;
    return nullptr;
  }
};

//! Catalog key of a pricing term ("on_demand", "reserved_1y", "reserved_3y", "spot", "on_prem").
[[nodiscard]] std::string_view pricing_key(Pricing term);

//! The built-in catalog, parsed once from the embedded data.
struct Catalog {
  std::vector<GpuSpec> gpus;
  std::vector<InstanceType> instances;

  //! GPU by id (case-insensitive), or nullptr.
  [[nodiscard]] const GpuSpec* find_gpu(std::string_view id) const;
  //! Instance type by id (case-insensitive), or nullptr.
  [[nodiscard]] const InstanceType* find_instance(std::string_view id) const;
  //! Adds or replaces (same id) an instance type.
  void upsert(const InstanceType& it);
};

//! The built-in catalog (embedded JSON, parsed on first use).
const Catalog& builtin_catalog();

}  // namespace gpuplan
