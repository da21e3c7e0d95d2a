#include "reports/pack_json.h"

namespace gpuplan::reports {

nlohmann::json pack_json(const std::string& workload, const std::vector<PackReplayResult>& runs) {
  using nlohmann::json;
  json out = {{"gpuplan_version", GPUPLAN_VERSION},
              {"study", "pack"},
              {"workload", workload},
              {"source",
               "Alibaba cluster-trace-gpu-v2023 openb (Weng et al., \"Beware of Fragmentation: "
               "Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX "
               "ATC'23)"}};
  json list = json::array();
  for (const PackReplayResult& r : runs) {
    const bool dep = r.options.departures;
    json curve = json::array();
    for (const PackCurvePoint& p : r.curve)
      curve.push_back({{dep ? "time_s" : "arrived_load", p.x},
                       {"allocation_ratio", p.allocation_ratio},
                       {"fragmented_gpus", p.fragmented_gpus},
                       {"pods_unplaceable", p.pods_unplaceable}});
    list.push_back({
        {"policy", pack_policy_name(r.options.policy)},
        {"seed", r.options.seed},
        {"mode", dep ? "departures" : "arrivals"},
        {"order", r.options.order == PodOrder::shuffled ? "shuffled" : "trace"},
        {"target_load", r.options.load},
        {"nodes", r.n_nodes},
        {"gpus", r.n_gpus},
        {"typical_shapes", r.n_typical_shapes},
        {"pods_arrived", r.pods_arrived},
        {"pods_placed", r.pods_placed},
        {"pods_unplaceable", r.pods_unplaceable},
        {"gpus_unplaceable", static_cast<double>(r.gpu_milli_unplaceable) / 1000.0},
        {"arrived_load", r.arrived_load},
        {dep ? "mean_allocation_ratio" : "allocation_ratio", r.allocation_ratio},
        {dep ? "fragmented_gpus_at_peak" : "fragmented_gpus", r.fragmented_gpus},
        {"curve", std::move(curve)},
    });
  }
  out["runs"] = std::move(list);
  out["units"] = {{"allocation_ratio", "allocated GPU-milli / total GPU-milli"},
                  {"arrived_load", "arrived GPU-milli / total GPU-milli"},
                  {"fragmented_gpus", "GPUs: sum over nodes of FGD fragmentation / 1000"},
                  {"gpus_unplaceable", "GPUs asked by pods that found no node"},
                  {"time_s", "seconds from the start of the trace"}};
  return out;
}

}  // namespace gpuplan::reports
