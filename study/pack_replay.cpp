#include "study/pack_replay.h"

#include <algorithm>
#include <numeric>

#include "sim/core/rng.h"
#include "sim/sharing/packer.h"
#include "sim/sharing/typical_shapes.h"

namespace gpuplan {
namespace {

using sharing::Packer;
using sharing::PackPolicy;
using sharing::PodShape;

constexpr uint32_t DEPARTURE_CURVE_POINTS = 200;
// NOTE: a cap on resampled pods, so a load no workload can reach (all pods CPU-only) still ends.
constexpr uint64_t MAX_RESAMPLED_FACTOR = 64;

PodShape shape_of(const OpenbPod& p) {
  PodShape s;
  s.cpu_milli = p.cpu_milli;
  s.mem_mib = p.mem_mib;
  s.n_gpus = p.n_gpus;
  s.gpu_milli = p.gpu_milli;
  s.gpu_types = p.gpu_types;
  return s;
}

//! A uniform index in [0, n) from draw `idx` of the pod-order stream, sub-stream `sub`.
uint64_t draw_index(uint64_t seed, uint32_t sub, uint32_t idx, uint64_t n) {
  const double u = u01_first(philox_draw(seed, 0, Stream::pod_order, sub, idx));
  return std::min<uint64_t>(static_cast<uint64_t>(u * static_cast<double>(n)), n - 1);
}

PackCurvePoint point(double x, const Packer& packer, uint32_t unplaceable) {
  return {x, packer.allocation_ratio(), packer.fragmentation_milli() / 1000.0, unplaceable};
}

void replay_arrivals(const std::vector<PodShape>& pods, const PackReplayOptions& opt,
                     Packer& packer, PackReplayResult& r) {
  const uint64_t n = pods.size();
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  if (opt.order == PodOrder::shuffled)
    for (uint64_t i = n; i > 1; --i)
      std::swap(order[i - 1], order[draw_index(opt.seed, 0, static_cast<uint32_t>(i), i)]);
  const double total = static_cast<double>(packer.total_gpu_milli());
  const double target = opt.load * total;
  uint64_t arrived = 0;
  uint32_t next_pct = 1;
  r.curve.push_back(point(0, packer, 0));
  for (uint64_t k = 0; k < n * MAX_RESAMPLED_FACTOR; ++k) {
    const PodShape& pod =
        k < n ? pods[order[k]] : pods[draw_index(opt.seed, 1, static_cast<uint32_t>(k - n), n)];
    const uint32_t need = sharing::pod_gpu_milli(pod);
    if (static_cast<double>(arrived + need) > target) break;
    arrived += need;
    ++r.pods_arrived;
    if (packer.place(pod)) {
      ++r.pods_placed;
    } else {
      ++r.pods_unplaceable;
      r.gpu_milli_unplaceable += need;
    }
    while (next_pct * total / 100.0 <= static_cast<double>(arrived)) {
      r.curve.push_back(point(next_pct / 100.0, packer, r.pods_unplaceable));
      ++next_pct;
    }
  }
  r.arrived_load = total > 0 ? static_cast<double>(arrived) / total : 0;
  r.allocation_ratio = packer.allocation_ratio();
  r.fragmented_gpus = packer.fragmentation_milli() / 1000.0;
  if (r.curve.back().x < r.arrived_load)
    r.curve.push_back(point(r.arrived_load, packer, r.pods_unplaceable));
}

void replay_departures(const std::vector<PodShape>& pods, const OpenbTrace& trace, Packer& packer,
                       PackReplayResult& r) {
  // Events: (time, kind, pod); at one instant departures (kind 0) come before arrivals (kind 1),
  // arrivals in file order (ARCHITECTURE.md §4).
  struct Event {
    double t;
    uint32_t kind, pod;
  };
  std::vector<Event> events;
  events.reserve(2 * pods.size());
  for (uint32_t i = 0; i < pods.size(); ++i) {
    events.push_back({trace.pods[i].creation_s, 1, i});
    events.push_back({trace.pods[i].deletion_s, 0, i});
  }
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    if (a.t != b.t) return a.t < b.t;
    if (a.kind != b.kind) return a.kind < b.kind;
    return a.pod < b.pod;
  });
  std::vector<std::optional<sharing::Placement>> where(pods.size());
  double t_first = events.empty() ? 0 : events.front().t, t_last_arrival = t_first;
  for (const Event& e : events)
    if (e.kind == 1) t_last_arrival = std::max(t_last_arrival, e.t);
  const double span_s = std::max(t_last_arrival - t_first, 1.0);
  uint32_t next_sample = 0;
  double t_prev = t_first, weighted = 0, peak = -1;
  for (const Event& e : events) {
    if (e.t > t_last_arrival) break;
    while (next_sample < DEPARTURE_CURVE_POINTS &&
           t_first + span_s * next_sample / (DEPARTURE_CURVE_POINTS - 1) < e.t) {
      r.curve.push_back(point(t_first + span_s * next_sample / (DEPARTURE_CURVE_POINTS - 1), packer,
                              r.pods_unplaceable));
      ++next_sample;
    }
    weighted += packer.allocation_ratio() * (e.t - t_prev);
    t_prev = e.t;
    const PodShape& pod = pods[e.pod];
    if (e.kind == 0) {
      if (where[e.pod]) packer.remove(pod, *where[e.pod]);
      where[e.pod].reset();
      continue;
    }
    ++r.pods_arrived;
    where[e.pod] = packer.place(pod);
    if (where[e.pod]) {
      ++r.pods_placed;
    } else {
      ++r.pods_unplaceable;
      r.gpu_milli_unplaceable += sharing::pod_gpu_milli(pod);
    }
    if (packer.allocation_ratio() > peak) {
      peak = packer.allocation_ratio();
      r.fragmented_gpus = packer.fragmentation_milli() / 1000.0;
    }
  }
  while (next_sample < DEPARTURE_CURVE_POINTS) {
    r.curve.push_back(point(t_first + span_s * next_sample / (DEPARTURE_CURVE_POINTS - 1), packer,
                            r.pods_unplaceable));
    ++next_sample;
  }
  r.allocation_ratio = weighted / span_s;
}

}  // namespace

PackReplayResult replay_openb(const OpenbTrace& trace, const PackReplayOptions& opt) {
  PackReplayResult r;
  r.options = opt;
  std::vector<sharing::SharedNode> nodes;
  nodes.reserve(trace.nodes.size());
  for (const OpenbNode& n : trace.nodes) {
    nodes.push_back(sharing::make_node(n.cpu_milli, n.mem_mib, n.n_gpus, n.model_idx));
    r.n_gpus += n.n_gpus;
  }
  r.n_nodes = static_cast<uint32_t>(nodes.size());
  std::vector<PodShape> pods;
  pods.reserve(trace.pods.size());
  for (const OpenbPod& p : trace.pods) pods.push_back(shape_of(p));
  std::vector<sharing::TypicalShape> shapes = sharing::typical_shapes(pods, opt.popularity);
  r.n_typical_shapes = static_cast<uint32_t>(shapes.size());
  Packer packer(std::move(nodes), std::move(shapes), opt.policy, opt.seed);
  if (opt.departures)
    replay_departures(pods, trace, packer, r);
  else
    replay_arrivals(pods, opt, packer, r);
  return r;
}

const char* pack_policy_name(sharing::PackPolicy p) {
  switch (p) {
    case PackPolicy::best_fit:
      return "best-fit";
    case PackPolicy::worst_fit:
      return "worst-fit";
    case PackPolicy::random:
      return "random";
    case PackPolicy::fgd:
      return "fgd";
  }
  return "?";
}

std::optional<sharing::PackPolicy> find_pack_policy(std::string_view name) {
  for (uint32_t i = 0; i < sharing::N_PACK_POLICIES; ++i) {
    const auto p = static_cast<PackPolicy>(i);
    if (name == pack_policy_name(p)) return p;
  }
  return std::nullopt;
}

}  // namespace gpuplan
