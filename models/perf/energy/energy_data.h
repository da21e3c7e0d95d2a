#pragma once
//! The built-in energy data (models/catalog/energy.json): power-model defaults and grid carbon
//! intensity per region, each with its public source, parsed once from the embedded file.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::energy {

//! Grid carbon intensity (and, where published, the PUE) of one cloud or grid region.
struct GridRegion {
  std::string id;             //!< provider's region id ("us-east-1", "eastus") or "us-serc"
  std::string provider;       //!< aws | gcp | azure | grid
  double g_co2e_per_kwh = 0;  //!< [gCO2e/kWh] location-based
  std::optional<double> pue;  //!< [-] the provider's published PUE for the region
  std::string source;         //!< where the figures come from
};

//! Defaults of the power model, each documented in docs/energy.md with its source.
struct PowerDefaults {
  double gpu_idle_fraction = 0;             //!< [-] idle GPU power ÷ TDP
  double node_overhead_busy_w_per_gpu = 0;  //!< [W] CPUs, memory, fans, NICs per GPU slot, busy
  double node_overhead_idle_fraction = 0;   //!< [-] idle overhead ÷ busy overhead
  double gpu_activity = 0;                  //!< [0, 1] power-curve point a busy GPU runs at
  double usd_per_kwh = 0;                   //!< [USD/kWh] electricity price
  double pue_cloud = 0;                     //!< [-] PUE of a cloud region without its own figure
  double embodied_kgco2e_per_node = 0;      //!< [kgCO2e] manufacturing carbon of one node
  double embodied_life_years = 0;           //!< [years] life the embodied carbon is spread over
  double default_g_co2e_per_kwh = 0;        //!< [gCO2e/kWh] grid factor of an unlisted region
  std::string default_grid_source;          //!< source of default_g_co2e_per_kwh
  std::string embodied_source;              //!< source of the embodied-carbon default
};

//! The parsed energy data.
struct EnergyData {
  PowerDefaults defaults;
  std::vector<GridRegion> regions;

  //! The region `id` (case-insensitive), or nullptr.
  [[nodiscard]] const GridRegion* find_region(std::string_view id) const;
  //! Every region id, in file order (for "did you mean").
  [[nodiscard]] std::vector<std::string> region_ids() const;
};

//! The built-in energy data (embedded JSON, parsed on first use; a parse failure is a bug that
//! tests/models/perf/energy/energy_test.cpp catches).
const EnergyData& builtin_energy_data();

}  // namespace gpuplan::energy
