#pragma once
//! Sizing under growth (docs/recommend.md, "Under growth"): the SLOs hold in every month of the
//! window on its own, and the answer is the node count of each month: one count for the whole
//! window, or a purchase schedule that never sells a node.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "study/count_search.h"

namespace gpuplan {

//! One month of the window, as its SLOs are measured: the jobs arriving in [start_s, end_s).
struct MonthWindow {
  uint32_t month = 0;  //!< months since t = 0 (730 h each, as demand growth counts them)
  double start_s = 0;  //!< [s] the month's start, or the warm-up's end in the first month
  double end_s = 0;    //!< [s] the month's end, or the horizon in the last
};

//! The months of [warmup_s, horizon_s), each cut to that interval. NOTE: a last piece shorter
//! than a quarter of a month is too few jobs to judge an SLO on: it joins the month before.
[[nodiscard]] std::vector<MonthWindow> month_windows(double warmup_s, double horizon_s);

//! Probes a schedule's last month: `nodes_by_month[m]` is what the pool holds in window m, and
//! the outcome is that of the window `nodes_by_month.size() - 1`, the months before it run as held.
using MonthProbe = std::function<ProbeOutcome(const std::vector<uint32_t>& nodes_by_month)>;

//! What the search found.
struct ScheduleSearch {
  std::vector<uint32_t> nodes_by_month;  //!< the answer, one count per window; empty when unmet
  //! The first window no count up to the maximum meets (then `nodes_by_month` is empty).
  std::optional<uint32_t> unmet_window;
  std::vector<ProbeOutcome> at_window;  //!< the outcome of each window at its count (or at max)
  std::map<std::vector<uint32_t>, ProbeOutcome> probes;  //!< every schedule prefix probed
  //! Least share of replicas meeting the SLOs over the windows at their counts.
  [[nodiscard]] double p_met() const;
};

//! The fewest nodes in every window such that each window meets the SLOs with `probability`.
//! `flat`: one count for every window (the smallest count whose every window meets). Otherwise
//! month by month: each window's count is the smallest, not below the window before, meeting
//! its SLOs with the earlier windows as chosen; purchases never hurt a later month, so under a
//! monotone predicate no window can take fewer nodes or take them later and still meet its SLOs.
//! Counts in [count_min, count_max]; each window's search probes its current count first.
[[nodiscard]] ScheduleSearch cheapest_schedule(uint32_t count_min, uint32_t count_max,
                                               uint32_t windows, double probability, bool flat,
                                               const MonthProbe& probe);

}  // namespace gpuplan
