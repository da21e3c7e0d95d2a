#include "study/purchase_schedule.h"

#include <algorithm>

#include "models/scenario/demand_profile.h"

namespace gpuplan {

std::vector<MonthWindow> month_windows(double warmup_s, double horizon_s) {
  std::vector<MonthWindow> out;
  if (horizon_s <= warmup_s) return out;
  for (auto m = uint32_t(warmup_s / PROFILE_MONTH_S); m * PROFILE_MONTH_S < horizon_s; ++m) {
    const double start = std::max(m * PROFILE_MONTH_S, warmup_s);
    const double end = std::min((m + 1) * PROFILE_MONTH_S, horizon_s);
    if (end > start) out.push_back({m, start, end});
  }
  const auto is_short = [](const MonthWindow& w) {
    return w.end_s - w.start_s < PROFILE_MONTH_S / 4;
  };
  if (out.size() > 1 && is_short(out.front())) {
    out[1].start_s = out[0].start_s;
    out.erase(out.begin());
  }
  if (out.size() > 1 && is_short(out.back())) {
    out[out.size() - 2].end_s = out.back().end_s;
    out.pop_back();
  }
  return out;
}

double ScheduleSearch::p_met() const {
  if (at_window.empty()) return 0;
  double p = 1;
  for (const ProbeOutcome& o : at_window) p = std::min(p, o.p_met);
  return p;
}

ScheduleSearch cheapest_schedule(uint32_t count_min, uint32_t count_max, uint32_t windows,
                                 double probability, bool flat, const MonthProbe& probe) {
  ScheduleSearch s;
  if (windows == 0) return s;
  const auto at = [&](const std::vector<uint32_t>& nodes) -> ProbeOutcome {
    auto it = s.probes.find(nodes);
    if (it == s.probes.end()) it = s.probes.emplace(nodes, probe(nodes)).first;
    return it->second;
  };
  if (flat) {
    // NOTE: the last window first: under growth it is the busiest, so a short count fails in
    // one probe.
    uint32_t failed = windows - 1;
    const auto every_window = [&](uint32_t n) {
      ProbeOutcome worst = at(std::vector<uint32_t>(windows, n));
      for (uint32_t w = windows; w-- > 0 && worst.p_met >= probability;) {
        const ProbeOutcome o = at(std::vector<uint32_t>(w + 1, n));
        if (o.p_met < worst.p_met) worst = o;
        if (o.p_met < probability) failed = w;
      }
      return worst;
    };
    const CountSearch c = smallest_count(count_min, count_max, probability, every_window);
    const uint32_t n = c.count.value_or(count_max);
    for (uint32_t w = 0; w < windows; ++w) {
      if (!c.count && w > failed) break;
      s.at_window.push_back(at(std::vector<uint32_t>(w + 1, n)));
    }
    if (c.count)
      s.nodes_by_month.assign(windows, n);
    else
      s.unmet_window = failed;
    return s;
  }
  std::vector<uint32_t> nodes;
  for (uint32_t w = 0; w < windows; ++w) {
    const auto with = [&](uint32_t n) {
      std::vector<uint32_t> v = nodes;
      v.push_back(n);
      return at(v);
    };
    const uint32_t lo = w == 0 ? count_min : nodes.back();
    std::optional<uint32_t> n;
    if (with(lo).p_met >= probability)
      n = lo;
    else if (lo < count_max)
      n = smallest_count(lo + 1, count_max, probability, with).count;
    s.at_window.push_back(with(n.value_or(count_max)));
    if (!n) {
      s.unmet_window = w;
      return s;
    }
    nodes.push_back(*n);
  }
  s.nodes_by_month = std::move(nodes);
  return s;
}

}  // namespace gpuplan
