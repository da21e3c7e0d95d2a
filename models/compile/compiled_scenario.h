#pragma once
//! What the compile stage produces: the core's flat arrays (ModelView) and the names beside them.
//! The compile steps (models/compile/compile_*.h) fill it; models/compile/compile.h runs them.
#include <optional>
#include <string>
#include <vector>

#include "models/compile/network_plan.h"
#include "models/compile/const_span.h"
#include "models/compile/overloaded.h"
#include "models/scenario/scenario.h"
#include "sim/core/class_run_spec.h"
#include "sim/core/failure_spec.h"
#include "sim/core/maintenance_spec.h"
#include "sim/core/pool_supply_spec.h"
#include "sim/core/model.h"

namespace gpuplan {

//! Owns the arrays behind a ModelView, plus the names the core never sees (for reports).
struct CompiledScenario {
  ModelView scalars;  //!< every scalar field of the view; spans are set by view()
  std::vector<PoolSpec> pools;
  std::vector<ClassSpec> classes;
  std::vector<uint8_t> node_pool;
  std::vector<double> dist_values, dist_cum;
  std::vector<uint32_t> gpu_values;
  std::vector<double> gpu_cum;
  std::vector<TraceJob> trace;
  std::vector<double> slowdown;
  std::vector<PoolSupplySpec> pool_supply;       //!< billing, spot, elastic per pool
  std::vector<ClassRunSpec> class_runs;          //!< checkpoints, spot tolerance per class
  std::vector<double> wave_quantiles;            //!< reclaim-wave share quantiles of all spot pools
  std::vector<PriceStep> price_steps;            //!< spot price series of all pools
  std::vector<ArrivalSegment> arrival_segments;  //!< time-varying rates of all classes
  std::vector<NodePurchase> purchases;           //!< staged purchases of all pools
  NetworkPlan network;                //!< topology tables and communication rows (ModelView::net)
  std::vector<FailureSpec> failures;  //!< one element when the scenario has failures
  std::vector<FailureCause> failure_causes;  //!< every failure cause, in scenario order
  std::vector<uint32_t> pool_spares;         //!< hot spares per pool (empty without failures)
  // Teams (models/compile/compile_teams.h; all empty without teams).
  std::vector<uint32_t> class_team, team_cohort, pool_flavor;
  std::vector<TeamQuota> team_quotas;     //!< [team * n_flavors + flavor]
  std::vector<double> team_weights;       //!< [team] fair-share weight
  std::vector<double> flavor_gpus;        //!< [flavor] GPUs of the cluster of that type
  std::vector<std::string> team_names;    //!< parallel to the teams of ModelView::teams
  std::vector<std::string> flavor_names;  //!< GPU type of each flavor
  //! Planned maintenance window batches of all pools (models/compile/compile_maintenance.h).
  std::vector<MaintenanceWindow> maintenance;
  // Shared GPUs (models/compile/compile_sharing.h; all empty without shared pools).
  std::vector<SharedPoolSpec> share_pools;    //!< [n_pools]
  std::vector<uint32_t> share_entry_units;    //!< SHARE_UNITS of every MIG layout entry
  std::vector<ShareKind> share_class_kind;    //!< [n_classes]
  std::vector<uint32_t> share_class_entries;  //!< [n_classes * n_pools]
  std::vector<double> share_class_fraction;   //!< [n_classes] compute share a job can use
  std::vector<uint32_t> share_class_milli;    //!< [n_classes] fractional: [milli-GPU]
  std::vector<uint32_t> share_class_mem_mib;  //!< [n_classes] fractional: [MiB] GPU memory
  std::vector<double> share_class_compute;    //!< [n_classes * n_pools] [GPUs] per GPU held

  std::vector<std::string> pool_names, class_names;
  std::vector<std::string> cause_names;  //!< failure causes, parallel to failure_causes
  //! Expected busy GPUs / provisioned GPUs, at least the busiest pool set's offered load
  //! (models/compile/offered_load.h); >= 1: cannot keep up.
  double offered_load = 0;
  //! The whole cluster's offered load alone (without the busiest pool set's floor): the workload's
  //! GPU demand ÷ the GPUs the pools may hold; what utilization compares with.
  double cluster_offered_load = 0;
  double expected_jobs = 0;  //!< expected jobs over the horizon (sizes the per-job sink)
  //! The busiest week's offered load of the busiest pool set (growth, schedules and purchases
  //! counted; PoolSetLoad::peak_load); equals offered_load for a flat demand on fixed pools.
  double peak_offered_load = 0;
  //! GPUs of the pool set whose load is offered_load, and of the one whose peak week is
  //! peak_offered_load (the whole cluster when no narrower set is busier): what "add capacity"
  //! sizes against.
  double load_set_gpus = 0, peak_set_gpus = 0;
  //! [s] the start of the first week in which some pool set's offered load reaches its capacity,
  //! when one does inside the horizon (PoolSetLoad::reaches_capacity_s).
  std::optional<double> reaches_capacity_s;
  //! The fewest GPUs any job asks for: whole GPUs of the smallest gang of every class (its trace's
  //! smallest row), 0 when some class shares GPUs. Above half the cluster, one job runs at a time.
  double smallest_job_gpus = 0;

  //! The one rule every study, report and recommendation applies: the demand is at or above the
  //! capacity over the window, or reaches it in some week of the horizon, so no queue reaches a
  //! steady state whether or not the engine stopped the run.
  [[nodiscard]] bool cannot_keep_up() const {
    return overloaded(offered_load) || reaches_capacity_s.has_value();
  }

  //! The core's view over the arrays above (valid while this object lives and is not modified).
  [[nodiscard]] ModelView view() const;
};

//! Compiles a distribution's parameters, appending an empirical table (values, normalised
//! cumulative weights; equal weights when `weights` is empty) to `out`'s arrays.
DistSpec compile_distribution(DistKind kind, double a, double b, const std::vector<double>& values,
                              const std::vector<double>& weights, CompiledScenario& out);

}  // namespace gpuplan
