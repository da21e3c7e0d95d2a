// The failures and shared-GPU verdicts of a result (reports/assessment.h): what the report's
// Failures and Shared GPUs sections and the console say about them.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reports/assessment.h"
#include "reports/assessment_text.h"
#include "reports/format.h"

namespace gpuplan::reports {
namespace {

using nlohmann::json;

//! "595,000 GPU-h" (GPU-hours as the report writes them).
std::string gpu_hours(double h) {
  return format_number(h, h < 10 ? 1 : 0) + " GPU-h";
}

}  // namespace

json assess_failures(const ResultFacts& facts) {
  if (!facts.failures) return nullptr;
  const FailureFacts& f = *facts.failures;
  const auto& expected = f.expected_failures;
  const auto& lost = f.lost_gpu_hours;
  const auto& down = f.down_gpu_hours;
  const auto& effective = f.effective_training_time;
  const auto& spare_use = f.spare_utilization;
  const auto& window = facts.window_s;
  json items = json::array();

  RichText struck;
  struck << plural(f.failures, "hardware failure", "hardware failures") << " struck";
  if (window) struck << " in the " << format_duration(*window) << " window";
  if (expected) struck << " (" << format_number(*expected, 1) << " expected at the model's rates)";
  const auto& causes = f.by_cause;
  if (!causes.empty()) {
    struck << "; the most common cause" << (causes.size() > 1 ? "s: " : ": ");
    for (std::size_t i = 0; i < causes.size() && i < 3; ++i) {
      if (i > 0) struck << ", ";
      struck.code(causes[i].first) << " " << format_count(causes[i].second);
    }
  }
  items.push_back((struck << ".").json());

  RichText cost;
  cost << plural(f.interruptions, "job run was", "job runs were") << " interrupted by a failure";
  if (lost) cost << ", losing " << gpu_hours(*lost) << " of work done since their last checkpoint";
  if (down) cost << "; failed nodes no spare replaced were out for " << gpu_hours(*down);
  items.push_back((cost << ".").json());

  std::string tone = "info";
  if (effective) {
    const bool good = *effective >= EFFECTIVE_TRAINING_GOOD;
    tone = good ? "ok" : "warn";
    RichText t;
    t.strong("Effective training time " + pct(effective))
        << ": the share of the training jobs' "
        << "GPU time that produced kept work (useful ÷ (busy + waiting to restart) GPU-hours); "
        << (good ? "at or above " : "below ") << pct(EFFECTIVE_TRAINING_GOOD)
        << ", the share Llama 3's 54-day run kept on 16,384 H100s (Dubey et al. 2024, §3.3.4).";
    items.push_back(t.json());
  }

  RichText s;
  if (f.spares > 0) {
    s << plural(f.spares, "hot spare node", "hot spare nodes") << " stood in for "
      << plural(f.spare_swaps, "failed node", "failed nodes");
    if (spare_use) s << "; on average " << pct(spare_use) << " of them were in service";
  } else {
    s << "No hot spares: every failed node stayed out until repaired";
  }
  items.push_back((s << ".").json());
  return {{"tone", tone}, {"items", items}};
}

json assess_sharing(const ResultFacts& facts) {
  if (facts.shared_pools.empty()) return nullptr;
  json items = json::array();
  RichText intro;
  intro << "For a shared pool, ";
  intro.strong("allocation");
  intro << " (the pool's ";
  intro.code("gpu_utilization");
  intro << ") counts the GPUs and slices jobs hold, while ";
  intro.strong("compute used");
  intro << " counts the compute those jobs actually use (their ";
  intro.code("gpu_fraction");
  intro << ", the time-sliced GPU's capacity after interference, the MIG instance's SMs).";
  items.push_back(intro.json());
  bool idle_allocation = false;
  for (const SharedPoolFacts& p : facts.shared_pools) {
    const auto& alloc = p.allocation;
    const auto& used = p.compute_used;
    if (!alloc || !used) continue;
    const std::string& name = p.name;
    const std::string& kind = p.sharing;
    RichText t;
    t << "Pool ";
    t.code(name);
    t << " ("
      << (kind == "time_sliced"  ? std::string("time-sliced")
          : kind == "mig"        ? std::string("MIG")
          : kind == "fractional" ? std::string("milli-GPU shares")
                                 : std::string("whole GPUs"))
      << "): " << pct(alloc) << " allocated, " << pct(used) << " compute used";
    if (*alloc - *used >= ALLOCATION_GAP) {
      idle_allocation = true;
      t << "; " << format_number(100 * (*alloc - *used), 1)
        << " pp of its GPU time is allocated but not used";
    }
    items.push_back((t << ".").json());
  }
  return {{"tone", idle_allocation ? "warn" : "ok"}, {"items", items}};
}

}  // namespace gpuplan::reports
