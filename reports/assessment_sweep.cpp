// The sweep's verdicts (reports/assessment.h assess_sweep).
#include "reports/assessment.h"

#include "models/compile/compile.h"
#include "reports/assessment_text.h"
#include "reports/format.h"
#include "reports/json_read.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>
#include <vector>

namespace gpuplan::reports {
namespace {

using nlohmann::json;

std::optional<double> number_of(const json& j, std::string_view key) {
  return finite_number(member(j, key));
}

bool bool_of(const json& j, std::string_view key) {
  const json* v = member(j, key);
  return v != nullptr && v->is_boolean() && v->get<bool>();
}

// A JSON value as the user wrote it on the command line: strings as they are, others compactly.
std::string value_text(const json& v) {
  return v.is_string() ? v.get<std::string>()
                       : v.dump(-1, ' ', false, json::error_handler_t::replace);
}

//! Mean and 95% confidence interval of one figure of a point.
struct Figure {
  std::optional<double> mean, lo, hi;
  [[nodiscard]] bool has_ci() const { return lo && hi; }
};

Figure figure_of(const json& point, std::string_view path) {
  const json* summary = member(point, "summary");
  const json* f = summary != nullptr ? member(*summary, path) : nullptr;
  if (f == nullptr) return {};
  return {number_of(*f, "mean"), number_of(*f, "ci95_low"), number_of(*f, "ci95_high")};
}

struct Point {
  std::size_t idx = 0;
  std::vector<std::string> values;  // per axis, as written
  std::optional<double> replications, gpus, offered_load;
  double saturated_share = 0;  // share of replications that saturated (0-1)
  Figure cost, wait_p90, util, useful;
  bool front_wait = false, front_useful = false;

  [[nodiscard]] bool overloaded() const {
    return offered_load && gpuplan::overloaded(*offered_load);
  }
  //! Cannot keep up: a replication saturated, or the offered load is at least 100%.
  [[nodiscard]] bool saturated() const { return saturated_share > 0 || overloaded(); }
  [[nodiscard]] bool plotted() const { return cost.mean && wait_p90.mean; }
};

struct Sweep {
  std::string seed;
  std::optional<double> replications, wait_target_s;
  std::vector<std::string> axes;  // --vary paths
  std::vector<Point> points;
  [[nodiscard]] bool seed_varied() const {
    return std::find(axes.begin(), axes.end(), "seed") != axes.end();
  }
};

Sweep gather_sweep(const json& doc) {
  Sweep s;
  if (const json* seed = member(doc, "seed"); seed != nullptr && seed->is_number_integer())
    s.seed = seed->dump();
  s.replications = number_of(doc, "replications");
  if (const json* target = member(doc, "target"); target != nullptr)
    s.wait_target_s = number_of(*target, "wait_p90_s");
  for (const json& a : array_value(member(doc, "vary")))
    s.axes.push_back(string_value(member(a, "path")));
  const json& points = array_value(member(doc, "points"));
  for (std::size_t i = 0; i < points.size(); ++i) {
    const json& j = points[i];
    if (!j.is_object()) continue;
    Point p;
    const auto idx = number_of(j, "point");
    p.idx = idx && *idx >= 0 ? static_cast<std::size_t>(*idx) : i;
    const json* values = member(j, "values");
    for (const std::string& a : s.axes) {
      const json* v = values != nullptr ? member(*values, a) : nullptr;
      p.values.push_back(v != nullptr ? value_text(*v) : std::string{});
    }
    p.replications = number_of(j, "replications");
    p.gpus = number_of(j, "gpus");
    p.offered_load = number_of(j, "offered_load");
    p.saturated_share = std::clamp(number_of(j, "saturated_share").value_or(0.0), 0.0, 1.0);
    p.cost = figure_of(j, "cost_usd.total");
    p.wait_p90 = figure_of(j, "metrics.wait_s.p90");
    p.util = figure_of(j, "metrics.gpu_utilization");
    p.useful = figure_of(j, "metrics.useful_utilization");
    if (const json* pareto = member(j, "pareto"); pareto != nullptr) {
      // NOTE: a saturated point is on no front whatever the file says.
      p.front_wait = bool_of(*pareto, "cost_vs_wait_p90") && !p.saturated();
      p.front_useful = bool_of(*pareto, "cost_vs_useful_work") && !p.saturated();
    }
    s.points.push_back(std::move(p));
  }
  return s;
}

// The point for a sentence: "pools.0.count = 8 (64 GPUs)" with the path in monospace.
RichText label(const Sweep& s, const Point& p) {
  RichText t;
  if (s.axes.empty()) t << "point " + std::to_string(p.idx);
  for (std::size_t a = 0; a < s.axes.size(); ++a) {
    if (a) t << ", ";
    t.code(s.axes[a]);
    t << " = " + p.values[a];
  }
  if (p.gpus) t << " (" + plural(*p.gpus, "GPU", "GPUs") + ")";
  return t;
}

RichText list_labels(const Sweep& s, const std::vector<const Point*>& pts) {
  RichText t;
  for (std::size_t k = 0; k < pts.size(); ++k) {
    if (k) t << (k + 1 == pts.size() ? " and " : ", ");
    t << label(s, *pts[k]);
  }
  return t;
}

const Point* cheapest(const std::vector<const Point*>& pts) {
  const Point* best = nullptr;
  for (const Point* p : pts)
    if (best == nullptr || *p->cost.mean < *best->cost.mean) best = p;
  return best;
}

const Point* quickest(const std::vector<const Point*>& pts) {
  const Point* best = nullptr;
  for (const Point* p : pts)
    if (best == nullptr || *p->wait_p90.mean < *best->wait_p90.mean ||
        (*p->wait_p90.mean == *best->wait_p90.mean && *p->cost.mean < *best->cost.mean))
      best = p;
  return best;
}

// "$12,000.00 more (+8.5%)"
std::string extra_cost(const Point& from, const Point& to) {
  const double d = *to.cost.mean - *from.cost.mean;
  std::string text = format_money(std::abs(d)) + (d >= 0 ? " more" : " less");
  if (*from.cost.mean > 0)
    text += " (" + std::string(d >= 0 ? "+" : "−") + format_percent(std::abs(d) / *from.cost.mean) +
            ")";
  return text;
}

std::string saturated_count(const Point& p) {
  if (p.saturated_share == 0 && p.overloaded()) return "every replication (demand ≥ capacity)";
  if (!p.replications) return format_percent(p.saturated_share, 0) + " of replications";
  const double k = std::round(p.saturated_share * *p.replications);
  return format_count(k) + " of " + plural(*p.replications, "replication", "replications");
}

json verdict(const char* id, const char* label, const char* tone, json paragraphs) {
  return {{"verdict", id}, {"label", label}, {"tone", tone}, {"text", std::move(paragraphs)}};
}

json takeaway(const Sweep& s, const std::vector<const Point*>& kept,
              const std::vector<const Point*>& front, json& a) {
  if (kept.empty()) {
    return verdict("no_point_keeps_up", "No point keeps up", "bad",
                   json::array({(RichText() << "Every configuration in this sweep saturated: "
                                               "jobs arrive faster than it can finish them, so "
                                               "none of them is a usable plan. Extend the sweep "
                                               "toward more capacity and run it again.")
                                    .json()}));
  }
  const Point* low = cheapest(kept);
  const Point* fast = quickest(kept);
  if (s.wait_target_s) {
    const double t = *s.wait_target_s;
    std::vector<const Point*> meets, sure;
    for (const Point* p : kept) {
      if (*p->wait_p90.mean <= t) meets.push_back(p);
      if (p->wait_p90.hi && *p->wait_p90.hi <= t) sure.push_back(p);
    }
    const Point* pick = cheapest(meets);
    if (pick == nullptr) {
      RichText r;
      r << "No configuration keeps the p90 wait within the target of " + format_duration(t) +
               ". The shortest p90 wait, " + dur(fast->wait_p90.mean) + ", comes from ";
      r << label(s, *fast)
        << " at " + money(fast->cost.mean) +
               ". Extend the sweep toward more capacity to find one that "
               "meets it.";
      return verdict("target_not_met", "Target not met", "warn", json::array({r.json()}));
    }
    a["cheapest_meeting_target"] = pick->idx;
    RichText r;
    r << "The cheapest configuration whose p90 wait stays within the target of " +
             format_duration(t) + " is ";
    r << label(s, *pick) << ": ";
    r.strong(money(pick->cost.mean));
    r << " with a p90 wait of " + dur(pick->wait_p90.mean) + ".";
    const Point* safe = cheapest(sure);
    if (safe != nullptr) a["cheapest_meeting_target_95"] = safe->idx;
    if (safe == pick) {
      r << " It meets the target with 95% confidence (the interval of its p90 wait ends at " +
               dur(pick->wait_p90.hi) + ").";
    } else if (safe != nullptr) {
      r << " Its 95% interval reaches " + dur(pick->wait_p90.hi) +
               ", above the target; the cheapest point that meets it with 95% confidence is ";
      r << label(s, *safe)
        << " at " + money(safe->cost.mean) + ", " + extra_cost(*pick, *safe) + ".";
    } else {
      r << " Its 95% interval reaches " + dur(pick->wait_p90.hi) +
               ", above the target, and no point meets it with 95% confidence: run more "
               "replications before committing.";
    }
    return verdict("meets_target", "Meets the target", "ok", json::array({r.json()}));
  }
  if (front.size() <= 1 || low == fast) {
    RichText r;
    r << label(s, *low) << " is both the cheapest configuration that keeps up (";
    r.strong(money(low->cost.mean));
    r << ") and the one with the shortest p90 wait (" + dur(low->wait_p90.mean) +
             "); every other point is worse on both.";
    return verdict("one_clear_choice", "One clear choice", "ok", json::array({r.json()}));
  }
  RichText r;
  r << "Only the " + format_count(static_cast<double>(front.size())) +
           " configurations on the Pareto front are worth buying: for every other point, a front "
           "point costs no more and keeps the p90 wait no longer. Choose among them by how long "
           "your users can wait. The cheapest, ";
  r << label(s, *low) << ", costs ";
  r.strong(money(low->cost.mean));
  r << " with a p90 wait of " + dur(low->wait_p90.mean) + "; the quickest, ";
  r << label(s, *fast)
    << ", costs " + money(fast->cost.mean) + ", " + extra_cost(*low, *fast) +
           ", with a p90 wait of " + dur(fast->wait_p90.mean) + ".";
  RichText hint;
  hint << "Give a service target with ";
  hint.code("--p90-wait-target");
  hint << " (e.g. ";
  hint.code("--p90-wait-target 2h");
  hint << ") and this page names the cheapest point that meets it.";
  return verdict("choose_on_front", "Choose on the front", "info",
                 json::array({r.json(), hint.json()}));
}

json front_text(const Sweep& s, const std::vector<const Point*>& front) {
  json items = json::array();
  if (front.empty())
    return {
        {"intro", (RichText() << "No point that keeps up has both a cost and a p90 wait.").json()},
        {"items", items}};
  for (std::size_t k = 0; k < front.size(); ++k) {
    const Point& p = *front[k];
    RichText t;
    t << label(s, p) << ": ";
    t.strong(money(p.cost.mean));
    t << ", p90 wait " + dur(p.wait_p90.mean);
    json item = {{"text", t.json()}};
    if (k > 0) {
      item["step"] = extra_cost(*front[k - 1], p) + " than the previous point buys a p90 wait of " +
                     dur(p.wait_p90.mean) + " instead of " + dur(front[k - 1]->wait_p90.mean);
    }
    items.push_back(std::move(item));
  }
  return {
      {"intro", (RichText() << format_count(static_cast<double>(front.size())) + " of " +
                                   plural(static_cast<double>(s.points.size()), "point", "points") +
                                   ", from cheapest to quickest:")
                    .json()},
      {"items", items}};
}

json saturated_text(const Sweep& s) {
  std::vector<const Point*> sat;
  for (const Point& p : s.points)
    if (p.saturated()) sat.push_back(&p);
  if (sat.empty()) {
    return {{"label", "None"},
            {"tone", "ok"},
            {"text", (RichText() << "Every point kept up in every replication.").json()},
            {"items", json::array()},
            {"after", nullptr}};
  }
  const bool one = sat.size() == 1;
  json items = json::array();
  for (const Point* p : sat) {
    RichText t;
    t << label(s, *p) << ": saturated in " + saturated_count(*p);
    if (p->offered_load)
      t << "; offered load " + format_percent(*p->offered_load, 0) + " of capacity";
    items.push_back(t.json());
  }
  RichText after;
  after << std::string(one ? "Its" : "Their") +
               " wait figures only reflect how long the "
               "simulation ran, so they are ";
  after.strong("not meaningful");
  after << ". Saturated points are on no front; the charts stack them, as red crosses, in a "
           "shaded band.";
  return {{"label", plural(static_cast<double>(sat.size()), "point", "points") + " saturated"},
          {"tone", "bad"},
          {"text", (RichText() << std::string(one ? "This configuration cannot"
                                                  : "These configurations cannot") +
                                      " keep up with the workload: in some or all of " +
                                      (one ? "its" : "their") +
                                      " replications the queue of waiting jobs grew without bound.")
                       .json()},
          {"items", items},
          {"after", after.json()}};
}

json utilization_text(const Sweep& s, const std::vector<const Point*>& kept) {
  std::vector<const Point*> front, wasted;
  const Point* busiest = nullptr;
  for (const Point* p : kept) {
    if (p->front_useful) front.push_back(p);
    if (p->util.mean && (busiest == nullptr || *p->util.mean > *busiest->util.mean)) busiest = p;
    if (p->util.mean && p->useful.mean && *p->util.mean - *p->useful.mean >= LOST_WORK_GAP)
      wasted.push_back(p);
  }
  RichText t;
  if (busiest == nullptr) return (t << "The sweep reports no GPU utilization.").json();
  t << "The busiest configuration that keeps up, ";
  t << label(s, *busiest) << ", keeps its GPUs busy " + pct(busiest->util.mean) + " of the time";
  if (busiest->useful.mean) t << ", " << pct(busiest->useful.mean) << " of it useful work";
  t << ".";
  t << " The second front weighs cost against ";
  t.strong("useful work");
  t << " (useful ÷ provisioned GPU-hours: busy time whose work was lost to preemption or "
       "failures, or spent writing checkpoints and restarting, counts for nothing), so a policy "
       "is not praised for keeping GPUs busy with work it throws away.";
  for (const Point* p : wasted)
    t << " " << label(s, *p) << " is busy " << pct(p->util.mean) << " but does useful work only "
      << pct(p->useful.mean) << " of the time.";
  if (!front.empty()) {
    std::sort(front.begin(), front.end(),
              [](const Point* a, const Point* b) { return *a->cost.mean < *b->cost.mean; });
    t << " On the front of cost against useful work: " << list_labels(s, front) << ".";
  }
  return (t << " More useful work for the money usually comes with longer waits, so read the "
               "two charts together.")
      .json();
}

json confidence_text(const Sweep& s, const std::vector<const Point*>& front) {
  RichText t;
  t << "Each point is a Monte Carlo study";
  if (s.replications) t << " of " + plural(*s.replications, "replication", "replications");
  t << "; the ± ranges and the whiskers in the charts are 95% confidence intervals of the mean.";
  if (s.seed_varied()) {
    t << " The seed is one of the varied values, so points with different seeds see different "
         "jobs: their differences include that noise.";
  } else {
    t << " All points use the same seed";
    if (!s.seed.empty()) t << " (" + s.seed + ")";
    t << ", so they see the same jobs (common random numbers) and the differences between them "
         "are measured more tightly than the separate intervals suggest.";
  }
  for (std::size_t k = 1; k < front.size(); ++k) {
    const Figure& a = front[k - 1]->wait_p90;
    const Figure& b = front[k]->wait_p90;
    if (a.has_ci() && b.has_ci() && *b.hi >= *a.lo && *a.hi >= *b.lo) {
      t << " The p90 wait intervals of " << label(s, *front[k - 1]) << " and "
        << label(s, *front[k])
        << " overlap, so this sweep does not yet separate them on wait: rerun with more ";
      t.code("--replications");
      t << " before choosing between them.";
      break;
    }
  }
  return t.json();
}

json indices(const std::vector<const Point*>& pts) {
  json out = json::array();
  for (const Point* p : pts) out.push_back(p->idx);
  return out;
}

}  // namespace

json assess_sweep(const json& sweep) {
  const Sweep s = gather_sweep(sweep);
  std::vector<const Point*> kept, front, front_useful, sat;
  for (const Point& p : s.points) {
    if (p.saturated()) sat.push_back(&p);
    if (p.saturated() || !p.plotted()) continue;
    kept.push_back(&p);
    if (p.front_wait) front.push_back(&p);
    if (p.front_useful) front_useful.push_back(&p);
  }
  std::sort(front.begin(), front.end(), [](const Point* a, const Point* b) {
    return *a->cost.mean < *b->cost.mean ||
           (*a->cost.mean == *b->cost.mean && *a->wait_p90.mean > *b->wait_p90.mean);
  });
  json a = {{"front_wait", indices(front)},
            {"front_useful", indices(front_useful)},
            {"saturated_points", indices(sat)},
            {"cheapest_meeting_target", nullptr},
            {"cheapest_meeting_target_95", nullptr}};
  a["takeaway"] = takeaway(s, kept, front, a);
  a["front"] = front_text(s, front);
  a["saturated"] = saturated_text(s);
  a["utilization"] = utilization_text(s, kept);
  a["confidence"] = confidence_text(s, front);
  return a;
}

}  // namespace gpuplan::reports
