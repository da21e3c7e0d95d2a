// A pool's planned maintenance windows (`pools[].maintenance`, docs/failures.md "Planned
// maintenance").
#include <algorithm>
#include <cmath>

#include "models/load/loader.h"

namespace gpuplan::loading {

namespace {

const char* const WINDOW_HINT =
    "a maintenance window, e.g. {\"start\": \"7d\", \"duration\": \"8h\", \"every\": \"4w\", "
    "\"nodes\": 4, \"drain\": \"checkpoint\"}";

//! Most repetitions of one window before the horizon (each is a few calendar events).
constexpr double MAX_REPETITIONS = 1e6;

//! The first instant [s] before `horizon_s` when the out-of-service intervals (drain-ahead
//! included) of two windows meet; nullopt when they never do. Both must be valid.
std::optional<double> first_overlap(const MaintenanceConfig& a, const MaintenanceConfig& b,
                                    double horizon_s) {
  const double la = a.out_of_service_s(), lb = b.out_of_service_s();
  const double a0 = a.start_s - a.drain_ahead_s, b0 = b.start_s - b.drain_ahead_s;
  for (uint64_t i = 0;; ++i) {
    if (i > 0 && !a.every_s) break;
    const double ai = i == 0 ? a0 : a0 + double(i) * *a.every_s;
    if (ai >= horizon_s) break;
    // NOTE: start at b's last repetition that ends at or before ai: earlier ones cannot meet it.
    uint64_t j = 0;
    if (b.every_s && ai - lb - b0 > 0) j = static_cast<uint64_t>((ai - lb - b0) / *b.every_s);
    for (;; ++j) {
      if (j > 0 && !b.every_s) break;
      const double bj = j == 0 ? b0 : b0 + double(j) * *b.every_s;
      if (bj >= ai + la || bj >= horizon_s) break;
      if (bj + lb > ai) return std::max(std::max(ai, bj), 0.0);
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<MaintenanceConfig> Loader::maintenance_window(const json& o, const std::string& p,
                                                            std::optional<uint64_t> count,
                                                            double horizon_s) {
  if (!object(o, p, WINDOW_HINT)) return std::nullopt;
  check_keys(o, p,
             {"start", "duration", "every", "nodes", "first", "batch", "drain", "drain_ahead"});
  MaintenanceConfig w;
  bool ok = true;
  if (const json* v = need(o, p, "start", "when the window first starts, e.g. \"7d\"")) {
    const auto x = duration(*v, p + "/start", false);
    ok = ok && x.has_value();
    w.start_s = x.value_or(0);
  } else {
    ok = false;
  }
  if (const json* v = need(o, p, "duration", "how long each node is out, e.g. \"8h\"")) {
    const auto x = duration(*v, p + "/duration", true);
    ok = ok && x.has_value();
    w.duration_s = x.value_or(0);
  } else {
    ok = false;
  }
  if (const json* v = get(o, "every")) {
    const auto x = duration(*v, p + "/every", true);
    ok = ok && x.has_value();
    w.every_s = x;
  }
  if (const json* v = get(o, "first")) {
    const auto x = integer(*v, p + "/first", 0, 1000000);
    ok = ok && x.has_value();
    w.first = static_cast<uint32_t>(x.value_or(0));
  }
  if (const json* v = get(o, "nodes")) {
    std::optional<double> n;
    if (v->is_string() && !v->get_ref<const std::string&>().empty() &&
        v->get_ref<const std::string&>().back() == '%') {
      const std::string& text = v->get_ref<const std::string&>();
      const auto lead = fields::leading_number(std::string_view(text).substr(0, text.size() - 1));
      if (!lead || !lead->second.empty() || !(lead->first > 0) || lead->first > 100) {
        d_.error(
            p + "/nodes", DiagCode::out_of_range,
            "a share of the pool's nodes must be above 0 % and at most 100 %, got " + describe(*v));
      } else if (count) {
        // NOTE: rounded to the nearest node, at least one.
        n = std::max(1.0, std::floor(lead->first / 100.0 * double(*count) + 0.5));
      } else {
        n = 1;  // the pool's count is invalid (reported there); nothing to check against
      }
    } else if (v->is_string()) {
      d_.error(p + "/nodes", DiagCode::bad_unit,
               "cannot read nodes " + describe(*v) +
                   "; write a count of nodes (e.g. 4) or a share of the pool's (e.g. \"25%\")");
    } else if (auto x = integer(*v, p + "/nodes", 1, 1000000)) {
      n = double(*x);
    }
    ok = ok && n.has_value();
    w.nodes = static_cast<uint32_t>(n.value_or(1));
  } else if (count) {
    w.nodes = *count > w.first ? static_cast<uint32_t>(*count - w.first) : 1;
  } else {
    ok = false;
  }
  w.batch = w.nodes;
  if (const json* v = get(o, "batch")) {
    const auto x = integer(*v, p + "/batch", 1, 1000000);
    ok = ok && x.has_value();
    if (x && *x > w.nodes) {
      d_.error(p + "/batch", DiagCode::out_of_range,
               "batch (" + std::to_string(*x) + ") is more than the window's nodes (" +
                   std::to_string(w.nodes) + "); a batch is how many of them are out at a time");
      ok = false;
    }
    if (x) w.batch = static_cast<uint32_t>(std::min<uint64_t>(*x, w.nodes));
  }
  if (const json* v = get(o, "drain")) {
    const auto k = enumerator<DrainPolicy>(*v, p + "/drain");
    ok = ok && k.has_value();
    w.drain = k.value_or(DrainPolicy::checkpoint);
  }
  const json* ahead = get(o, "drain_ahead");
  if (w.drain == DrainPolicy::wait) {
    if (ahead == nullptr) {
      need(o, p, "drain_ahead",
           "with \"drain\": \"wait\", how long before the start no new job is placed on the "
           "nodes, e.g. \"12h\"");
      ok = false;
    } else {
      const auto x = duration(*ahead, p + "/drain_ahead", true);
      ok = ok && x.has_value();
      w.drain_ahead_s = x.value_or(0);
    }
  } else if (ahead != nullptr) {
    d_.error(p + "/drain_ahead", DiagCode::out_of_range,
             "drain_ahead applies to \"drain\": \"wait\" only; set \"drain\": \"wait\" or remove "
             "\"drain_ahead\"");
    ok = false;
  }
  if (!ok) return std::nullopt;
  if (count && uint64_t{w.first} + w.nodes > *count) {
    d_.error(p + "/nodes", DiagCode::out_of_range,
             "the window takes nodes " + std::to_string(w.first) + " to " +
                 std::to_string(uint64_t{w.first} + w.nodes - 1) + " of the pool, but it has " +
                 std::to_string(*count) + " (0 to " + std::to_string(*count - 1) +
                 "); lower \"nodes\" or \"first\"");
    return std::nullopt;
  }
  if (w.every_s && !(w.out_of_service_s() < *w.every_s)) {
    d_.error(p + "/every", DiagCode::out_of_range,
             "the window (" + num(w.out_of_service_s()) + " s: " + std::to_string(w.batches()) +
                 " batch(es) of " + num(w.duration_s) + " s" +
                 (w.drain_ahead_s > 0 ? " after a drain of " + num(w.drain_ahead_s) + " s" : "") +
                 ") must end before it repeats, every " + num(*w.every_s) +
                 " s; lengthen \"every\" or shorten the window");
    return std::nullopt;
  }
  if (w.every_s && (horizon_s - w.start_s) / *w.every_s > MAX_REPETITIONS) {
    d_.error(p + "/every", DiagCode::out_of_range,
             "the window repeats more than 1,000,000 times before the horizon; lengthen \"every\"");
    return std::nullopt;
  }
  return w;
}

void Loader::load_maintenance(const json& v, const std::string& p, const json& pool_obj,
                              std::optional<uint64_t> count, double horizon_s, Pool& pool) {
  if (pool_obj.contains("elastic")) {
    d_.error(p, DiagCode::out_of_range,
             "planned maintenance takes fixed nodes out; an elastic pool replaces its nodes by "
             "provisioning others, so remove \"maintenance\" or \"elastic\"");
    return;
  }
  if (!v.is_array()) {
    wrong_type(v, p, std::string("an array of windows, each ") + WINDOW_HINT);
    return;
  }
  std::vector<std::string> ptrs;
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string wp = child(p, i);
    auto w = maintenance_window(v[i], wp, count, horizon_s);
    if (!w) continue;
    bool clash = false;
    for (size_t k = 0; k < pool.maintenance.size() && !clash; ++k) {
      const MaintenanceConfig& o = pool.maintenance[k];
      const uint32_t lo = std::max(o.first, w->first);
      const uint32_t hi = std::min(o.first + o.nodes, w->first + w->nodes);
      if (lo >= hi) continue;
      const auto at = first_overlap(o, *w, horizon_s);
      if (!at) continue;
      d_.error(wp, DiagCode::out_of_range,
               "overlaps window " + ptrs[k] + " on nodes " + std::to_string(lo) + " to " +
                   std::to_string(hi - 1) + " from " + num(*at) + " s (" + num(*at / 86400.0) +
                   " d); windows on the same nodes must not overlap (drain_ahead counts): move "
                   "\"start\" or take other nodes with \"first\"");
      clash = true;
    }
    if (clash) continue;
    ptrs.push_back(wp);
    pool.maintenance.push_back(*w);
  }
}

}  // namespace gpuplan::loading
