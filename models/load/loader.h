#pragma once
//! The scenario loader, one section per file: load.cpp (top level, scheduler, --set),
//! load_statistics.cpp (which jobs the statistics count), load_limits.cpp (the limits section and
//! the limits derived from the scenario), load_catalog.cpp (catalog overlays), load_cluster.cpp
//! (instances, pools), load_purchases.cpp (a pool's staged purchases), load_maintenance.cpp (a
//! pool's planned maintenance windows), load_workload.cpp (classes, distributions, traces,
//! training), load_demand.cpp (load scale, rate profiles), load_economics.cpp (billing, reserved,
//! on-prem, spot, elastic, checkpoints), load_tco.cpp (the TCO projection), load_energy.cpp (power,
//! PUE, grid carbon), load_network.cpp (topology), load_recommend.cpp. Internal to models/; users
//! call models/load/load.h.
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/catalog/catalog.h"
#include "models/input/field_reader.h"
#include "models/load/load_options.h"
#include "models/scenario/scenario.h"

namespace gpuplan::loading {

using json = nlohmann::json;
using fields::child;
using fields::describe;
using fields::list_names;
using fields::num;

inline constexpr double INF = std::numeric_limits<double>::infinity();
//! Pools a class may use are a 64-bit mask in the compiled core (ClassSpec::pool_mask).
inline constexpr size_t MAX_POOLS = 64;

//! Pricing names in enumerator order (models/input/names.h), also the keys of an instance's prices.
inline const std::vector<std::string>& PRICINGS = enum_names<Pricing>();
inline const std::vector<std::string> FABRICS = {"nvlink2", "nvlink3",         "nvlink4",
                                                 "nvlink5", "infinity_fabric", "pcie"};

//! What the loader knows about a pool, for class references and the feasibility check.
struct PoolInfo {
  std::string name;
  uint64_t gpus = 0;  //!< count × gpus_per_node
  uint32_t gpus_per_node = 0;
  uint32_t count = 0;
  bool known = false;  //!< instance and count valid, so the capacity is trustworthy
};

//! Validates one parsed scenario document and builds the typed Scenario, recording every error.
class Loader : public FieldReader {
 public:
  Loader(Diagnostics& d, std::string base_dir, const LoadOptions& opts)
      : FieldReader(d), base_dir_(std::move(base_dir)), opts_(opts) {}

  //! The typed scenario of `root` (diagnostics recorded for every bad value).
  Scenario load(const json& root, const std::string& default_name);

 private:
  // load.cpp
  void load_scheduler(const json& o, Scenario& sc);
  void load_statistics(const json& o, Scenario& sc);
  void load_las(const json& o, SchedulerConfig& s);
  // load_limits.cpp
  void load_limits(const json& o, Scenario& sc);
  void check_samples(const std::string& p, DistKind kind, double a, double b,
                     const std::vector<double>& values, const Limits& limits);
  void check_limits(const Scenario& sc);
  // load_catalog.cpp
  void load_catalog(const json& o);
  // load_cluster.cpp
  std::optional<std::string> gpu_id(const json& v, const std::string& ptr);
  void load_instances(const json& arr, Scenario& sc);
  void load_prices(const json& o, const std::string& p, InstancePrices& prices);
  uint32_t resolve_instance(const InstanceType& inst, Scenario& sc);
  void load_pools(const json& arr, Scenario& sc);
  // load_purchases.cpp
  void load_purchases(const json& v, const std::string& p, double horizon_s, bool elastic,
                      std::optional<uint64_t>& count, Pool& pool);
  std::pair<uint64_t, size_t> capacity(const JobClass& jc) const;
  std::string pool_text(uint64_t gpus, size_t idx) const;
  void check_fits(const JobClass& jc, uint32_t max_gpus, const std::string& p);
  // load_workload.cpp
  void load_workload(const json& arr, Scenario& sc);
  bool load_class_pools(const json& v, const std::string& p, JobClass& jc);
  void load_synthetic(const json& o, const std::string& p, JobClass& jc, bool pools_ok);
  void load_arrival(const json& v, const std::string& p, JobClass& jc);
  bool load_gpus(const json& v, const std::string& p, GpuChoice& out);
  bool durations(const json& o, const std::string& p, std::initializer_list<const char*> keys,
                 std::initializer_list<double*> out, bool positive);
  bool load_distribution(const json& v, const std::string& p, Distribution& dist);
  bool load_empirical(const json& o, const std::string& p, Distribution& dist);
  void load_trace(const json& v, const std::string& p, JobClass& jc, bool pools_ok);
  void load_class_network(const json& o, const std::string& p, JobClass& jc);
  // load_throughputs.cpp
  void load_class_speed(const json& o, const std::string& p, JobClass& jc);
  void load_throughputs(const json* v, Scenario& sc);
  void check_trained_class(const json& o, const std::string& p, const JobClass& jc);
  // load_economics.cpp
  static bool priced_by_keys(const json& o, Pricing pricing);
  bool delay(const json& v, const std::string& p, DelaySpec& out);
  void load_pool_economics(const json& o, const std::string& p, Pricing pricing,
                           const InstanceType* inst, std::optional<uint64_t>& count, Pool& pool);
  void load_billing(const json& o, const std::string& p, PoolEconomics& e);
  void load_on_prem(const json& o, const std::string& p, const InstanceType* inst, Pool& pool);
  void load_spot(const json& o, const std::string& p, Pool& pool);
  void load_elastic(const json& o, const std::string& p, std::optional<uint64_t>& count,
                    Pool& pool);
  // load_off_peak.cpp
  void load_off_peak(const json& o, const std::string& p, double horizon_s, Pool& pool);
  std::optional<economics::OffPeakWindow> off_peak_window(const json& v, const std::string& p);
  void load_class_economics(const json& o, const std::string& p, JobClass& jc);
  void check_spot_eligibility(const Scenario& sc);
  // load_tco.cpp
  void load_tco(const json& o, Scenario& sc);
  void load_tco_cloud(const json& o, const std::string& p, TcoConfig& t);
  void check_tco_options(const json& o, const Scenario& sc, TcoConfig& t,
                         const std::vector<std::string>& option_ptrs);
  void check_tco_prices(const Scenario& sc, const TcoConfig& t,
                        const std::vector<std::string>& option_ptrs);
  // load_demand.cpp
  void load_demand(const json& o, Scenario& sc);
  void load_profile(const json& o, const std::string& p, RateProfile& out);
  void load_schedule(const json& v, const std::string& p, RateProfile& out);
  // load_network.cpp
  void load_topology(const json& o, Scenario& sc);
  bool load_custom_topology(const json& o, const std::string& p, TopologyConfig& t);
  // load_failures.cpp
  void load_failures(const json* v, Scenario& sc);
  std::optional<double> failure_rate(const json& v, const std::string& p);
  void load_spares(const json& v, const std::string& p, const json& pool_obj,
                   std::optional<uint64_t> count, Pool& pool);
  // load_maintenance.cpp
  void load_maintenance(const json& v, const std::string& p, const json& pool_obj,
                        std::optional<uint64_t> count, double horizon_s, Pool& pool);
  std::optional<MaintenanceConfig> maintenance_window(const json& o, const std::string& p,
                                                      std::optional<uint64_t> count,
                                                      double horizon_s);
  // load_sharing.cpp
  void load_pool_sharing(const json& o, const std::string& p, Pool& pool);
  void load_class_sharing(const json& o, const std::string& p, JobClass& jc);
  void check_sharing(const Scenario& sc);
  // load_teams.cpp
  void load_teams(const json* v, Scenario& sc);
  //! `teams[].weight`: a number above 0 (fair_share), else a diagnostic at `p`.
  void load_team_weight(const json& v, const std::string& p, Team& team);
  void load_team_quota(const json& o, const std::string& p, const std::vector<std::string>& flavors,
                       Team& team);
  // load_energy.cpp
  void load_energy(const json& o, Scenario& sc);
  bool load_energy_level(const json& o, const std::string& p, EnergyInput& in);
  void load_power_curve(const json& v, const std::string& p, EnergyInput& in);
  // load_recommend.cpp
  //! The metrics an SLO may name: the Monte Carlo summary's metric paths for this scenario's
  //! pools, classes, failure causes and teams (sim/mc_metrics.h), and which of them are durations.
  struct SloMetrics {
    std::vector<std::string> paths;
    std::vector<bool> duration;  //!< [paths] the value is in seconds ("2h" reads as a duration)
  };
  static SloMetrics slo_metrics(const Scenario& sc);
  void load_recommend(const json& o, Scenario& sc);
  void load_slo(const json& o, const std::string& p, const SloMetrics& metrics, RecommendConfig& r);
  void load_candidate(const json& o, const std::string& p, Scenario& sc, RecommendConfig& r);
  //! `slos_hold` and `purchases` of `recommend`, with their defaults under growth.
  void load_recommend_period(const json& o, const std::string& p, const Scenario& sc,
                             RecommendConfig& r);
  void load_recommend_pool(const json& o, const std::string& p, Scenario& sc, RecommendPool& c);

  std::string base_dir_;
  const LoadOptions& opts_;
  Catalog catalog_;                  // built-in plus inline instance types
  std::vector<std::string> broken_;  // inline instance ids with an invalid gpu or gpus_per_node
  std::vector<PoolInfo> pool_infos_;
  uint32_t stale_after_months_ = 12;  // /catalog/stale_after_months
};

}  // namespace gpuplan::loading
