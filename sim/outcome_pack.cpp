#include "sim/outcome_pack.h"

#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace gpuplan {
namespace {

// NOTE: these structs are copied as raw bytes, so a field that owns memory must be listed below.
static_assert(std::is_trivially_copyable_v<DurationStats>);
static_assert(std::is_trivially_copyable_v<ClassMetrics>,
              "ClassMetrics gained a non-trivial field: pack it in sim/outcome_pack.cpp");
static_assert(std::is_trivially_copyable_v<PoolMetrics>,
              "PoolMetrics gained a non-trivial field: pack it in sim/outcome_pack.cpp");
static_assert(std::is_trivially_copyable_v<TeamMetrics>,
              "TeamMetrics gained a non-trivial field: pack it in sim/outcome_pack.cpp");

//! Calls f on every field of a ReplicaMetrics, in one order for packing and unpacking alike.
template <class Metrics, class F>
void for_each_field(Metrics& m, F& f) {
  // NOTE: binding every member makes this fail to compile when ReplicaMetrics
  // (sim/replica_metrics.h) gains or loses a field: add the new field here, in declaration order.
  auto& [jobs_submitted, jobs_completed, jobs_unfinished, wait_s, jct_s, jct_mean_lower_bound_s,
         gpu_utilization, mean_queued_jobs, mean_jobs_in_system, cost_usd, saturation,
         saturated_at_s, events, gpu_hours, preemption, network, failures, failures_by_cause,
         maintenance, jobs_waited_for_room, pools, classes, teams] = m;
  f(jobs_submitted), f(jobs_completed), f(jobs_unfinished), f(wait_s), f(jct_s);
  f(jct_mean_lower_bound_s);
  f(gpu_utilization), f(mean_queued_jobs), f(mean_jobs_in_system), f(cost_usd);
  f(saturation), f(saturated_at_s), f(events);
  f(gpu_hours), f(preemption), f(network), f(failures), f(failures_by_cause), f(maintenance);
  f(jobs_waited_for_room), f(pools), f(classes), f(teams);
}

//! Calls f on every field of a ReplicaOutcome (sim/mc_batch.h), metrics first.
template <class Outcome, class F>
void for_each_outcome_field(Outcome& o, F& f) {
  // NOTE: fails to compile when ReplicaOutcome gains or loses a field; add it here too.
  auto& [metrics, busy_gpus, queued_jobs, spend_usd, provisioned_gpus, wait_hist, jct_hist,
         uplink_crossing_nodes, uplink_congested_share, team_gpus] = o;
  for_each_field(metrics, f);
  f(busy_gpus), f(queued_jobs), f(spend_usd), f(provisioned_gpus), f(wait_hist), f(jct_hist);
  f(uplink_crossing_nodes), f(uplink_congested_share), f(team_gpus);
}

struct Writer {
  std::vector<std::byte>& out;
  void bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    out.insert(out.end(), b, b + n);
  }
  template <class T>
  void operator()(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes(&v, sizeof v);
  }
  template <class T>
  void operator()(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const uint64_t n = v.size();
    bytes(&n, sizeof n);
    bytes(v.data(), n * sizeof(T));
  }
};

struct Reader {
  const std::byte* p;
  const std::byte* end;
  void bytes(void* dst, std::size_t n) {
    if (n > std::size_t(end - p)) throw std::runtime_error("packed replica outcomes are truncated");
    if (n > 0) std::memcpy(dst, p, n);
    p += n;
  }
  template <class T>
  void operator()(T& v) {
    bytes(&v, sizeof v);
  }
  template <class T>
  void operator()(std::vector<T>& v) {
    uint64_t n = 0;
    bytes(&n, sizeof n);
    if (n > std::size_t(end - p) / sizeof(T))
      throw std::runtime_error("packed replica outcomes are truncated");
    v.resize(n);
    bytes(v.data(), n * sizeof(T));
  }
};

}  // namespace

void pack_outcomes(const ReplicaOutcome* outcomes, std::size_t n, std::vector<std::byte>& out) {
  Writer w{out};
  for (std::size_t i = 0; i < n; ++i) for_each_outcome_field(outcomes[i], w);
}

void unpack_outcomes(const std::byte* bytes, std::size_t size, ReplicaOutcome* out, std::size_t n) {
  Reader r{bytes, bytes + size};
  for (std::size_t i = 0; i < n; ++i) for_each_outcome_field(out[i], r);
  if (r.p != r.end) throw std::runtime_error("packed replica outcomes have trailing bytes");
}

}  // namespace gpuplan
