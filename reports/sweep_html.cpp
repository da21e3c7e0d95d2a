#include "reports/sweep_html.h"

#include "models/compile.h"
#include "models/embedded.h"
#include "reports/format.h"
#include "reports/html_assets.h"
#include "reports/html_parts.h"
#include "reports/json_read.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>
#include <vector>

namespace gpuplan::reports {
namespace {

using nlohmann::json;

// Points beyond this many get chart labels only when they are on a front or saturated.
inline constexpr std::size_t MAX_LABELLED_POINTS = 12;

// ---- reading sweep.json: a missing key or a value of the wrong type reads as absent ------------

std::optional<double> number_of(const json& j, std::string_view key) {
  return finite_number(member(j, key));
}

std::string string_of(const json& j, std::string_view key) {
  return string_value(member(j, key));
}

bool bool_of(const json& j, std::string_view key) {
  const json* v = member(j, key);
  return v != nullptr && v->is_boolean() && v->get<bool>();
}

const json& array_of(const json& j, std::string_view key) {
  return array_value(member(j, key));
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

struct Axis {
  std::string path;
  std::string short_name;  // last key of the path, or the path when that is ambiguous
  std::vector<std::string> values;
};

struct Point {
  std::size_t idx = 0;
  std::string dir;                  // "" when absent or not a plain folder name
  std::vector<std::string> values;  // per axis, as written
  std::optional<double> replications, gpus, offered_load;
  double saturated_share = 0;  // share of replications that saturated (0-1)
  std::string saturation_cause;
  Figure cost, wait_p90, wait_mean, util;
  bool front_wait = false, front_util = false;

  //! Demand at or above capacity: the queue grows without bound even where no run was stopped.
  [[nodiscard]] bool overloaded() const {
    return offered_load && gpuplan::overloaded(*offered_load);
  }
  //! Cannot keep up: a replication saturated, or the offered load is at least 100%.
  [[nodiscard]] bool saturated() const { return saturated_share > 0 || overloaded(); }
  //! Has the two figures both charts need.
  [[nodiscard]] bool plotted() const { return cost.mean && wait_p90.mean; }
};

struct Sweep {
  std::string scenario, version, generated_at, seed, command;
  std::optional<double> replications, wait_target_s;
  std::vector<Axis> axes;
  std::vector<Point> points;

  //! True when a --vary axis sets the seed, so points need not share random numbers.
  [[nodiscard]] bool seed_varied() const {
    return std::any_of(axes.begin(), axes.end(), [](const Axis& a) { return a.path == "seed"; });
  }
};

// A folder name that is safe as a relative link: letters, digits, '-', '_' and '.', not leading.
bool plain_folder_name(const std::string& s) {
  if (s.empty() || s.size() > 64 || s[0] == '.') return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.';
  });
}

// "pools.0.count" -> "count"; a path of indices only stays whole.
std::string last_key(const std::string& path) {
  std::size_t end = path.size();
  while (end > 0) {
    const std::size_t dot = path.rfind('.', end - 1);
    const std::size_t begin = dot == std::string::npos ? 0 : dot + 1;
    const std::string key = path.substr(begin, end - begin);
    if (!key.empty() &&
        !std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return key;
    if (dot == std::string::npos) break;
    end = dot;
  }
  return path;
}

Sweep gather(const json& doc) {
  Sweep s;
  s.scenario = string_of(doc, "scenario");
  s.version = string_of(doc, "gpuplan_version");
  s.generated_at = string_of(doc, "generated_at");
  s.command = string_of(doc, "command");
  if (const json* seed = member(doc, "seed"); seed != nullptr && seed->is_number_integer())
    s.seed = seed->dump();
  s.replications = number_of(doc, "replications");
  if (const json* target = member(doc, "target"); target != nullptr)
    s.wait_target_s = number_of(*target, "wait_p90_s");

  for (const json& a : array_of(doc, "vary")) {
    Axis axis;
    axis.path = string_of(a, "path");
    for (const json& v : array_of(a, "values")) axis.values.push_back(value_text(v));
    axis.short_name = last_key(axis.path);
    s.axes.push_back(std::move(axis));
  }
  for (Axis& a : s.axes) {
    const auto same = std::count_if(s.axes.begin(), s.axes.end(), [&](const Axis& b) {
      return last_key(b.path) == last_key(a.path);
    });
    if (same > 1) a.short_name = a.path;
  }

  const json& points = array_of(doc, "points");
  for (std::size_t i = 0; i < points.size(); ++i) {
    const json& j = points[i];
    if (!j.is_object()) continue;
    Point p;
    const auto idx = number_of(j, "point");
    p.idx = idx && *idx >= 0 ? static_cast<std::size_t>(*idx) : i;
    const std::string dir = string_of(j, "dir");
    p.dir = plain_folder_name(dir) ? dir : "";
    const json* values = member(j, "values");
    for (const Axis& a : s.axes) {
      const json* v = values != nullptr ? member(*values, a.path) : nullptr;
      p.values.push_back(v != nullptr ? value_text(*v) : std::string{});
    }
    p.replications = number_of(j, "replications");
    p.gpus = number_of(j, "gpus");
    p.offered_load = number_of(j, "offered_load");
    p.saturated_share = std::clamp(number_of(j, "saturated_share").value_or(0.0), 0.0, 1.0);
    p.saturation_cause = string_of(j, "saturation_cause");
    p.cost = figure_of(j, "cost_usd.total");
    p.wait_p90 = figure_of(j, "metrics.wait_s.p90");
    p.wait_mean = figure_of(j, "metrics.wait_s.mean");
    p.util = figure_of(j, "metrics.gpu_utilization");
    // NOTE: a normal-approximation CI can cross the bounds a figure cannot leave; show it clipped.
    for (Figure* f : {&p.cost, &p.wait_p90, &p.wait_mean, &p.util})
      if (f->lo) f->lo = std::max(*f->lo, 0.0);
    if (p.util.hi) p.util.hi = std::min(*p.util.hi, 1.0);
    if (const json* pareto = member(j, "pareto"); pareto != nullptr) {
      // NOTE: a saturated point is on no front whatever the file says.
      p.front_wait = bool_of(*pareto, "cost_vs_wait_p90") && !p.saturated();
      p.front_util = bool_of(*pareto, "cost_vs_utilization") && !p.saturated();
    }
    s.points.push_back(std::move(p));
  }
  return s;
}

// ---- text ---------------------------------------------------------------------------------------

// "pools.0.count = 8, pools.0.pricing = spot" as plain text (for charts and tooltips).
std::string label_text(const Sweep& s, const Point& p) {
  if (s.axes.empty()) return "point " + std::to_string(p.idx);
  std::string out;
  for (std::size_t a = 0; a < s.axes.size(); ++a)
    out += (a ? ", " : "") + s.axes[a].path + " = " + p.values[a];
  return out;
}

// The short chart tag: "count=8", or "count=8 · spot" for several axes.
std::string tag_text(const Sweep& s, const Point& p) {
  if (s.axes.empty()) return "#" + std::to_string(p.idx);
  std::string out;
  for (std::size_t a = 0; a < s.axes.size(); ++a)
    out += (a ? " · " : "") + s.axes[a].short_name + "=" + p.values[a];
  return out;
}

// The point as HTML for the summary: "<code>pools.0.count</code> = 8 (64 GPUs)".
std::string label_html(const Sweep& s, const Point& p) {
  std::string out;
  if (s.axes.empty()) out = "point " + std::to_string(p.idx);
  for (std::size_t a = 0; a < s.axes.size(); ++a)
    out += (a ? ", " : "") + code(s.axes[a].path) + " = " + esc(p.values[a]);
  if (p.gpus) out += " (" + plural(*p.gpus, "GPU", "GPUs") + ")";
  return "<span class=\"pt\">" + out + "</span>";
}

std::string list_labels(const Sweep& s, const std::vector<const Point*>& pts) {
  std::string out;
  for (std::size_t k = 0; k < pts.size(); ++k) {
    if (k) out += k + 1 == pts.size() ? " and " : ", ";
    out += label_html(s, *pts[k]);
  }
  return out;
}

std::string ci_range(const Figure& f, std::string (*fmt)(double)) {
  if (!f.has_ci()) return "";
  if (fmt(*f.lo) == fmt(*f.hi)) return "the same in every replication";
  return "95% CI " + fmt(*f.lo) + " – " + fmt(*f.hi);
}

std::string money_plain(double v) {
  return format_money(v);
}
std::string duration_plain(double v) {
  return format_duration(v);
}
std::string percent_plain(double v) {
  return format_percent(v);
}

std::string saturated_count(const Point& p) {
  if (p.saturated_share == 0 && p.overloaded()) return "every replication (demand ≥ capacity)";
  if (!p.replications) return format_percent(p.saturated_share, 0) + " of replications";
  const double k = std::round(p.saturated_share * *p.replications);
  return format_count(k) + " of " + plural(*p.replications, "replication", "replications");
}

// ---- (a) summary --------------------------------------------------------------------------------

std::vector<const Point*> kept_up(const Sweep& s) {
  std::vector<const Point*> out;
  for (const Point& p : s.points)
    if (!p.saturated() && p.plotted()) out.push_back(&p);
  return out;
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
  std::string h = format_money(std::abs(d)) + (d >= 0 ? " more" : " less");
  if (*from.cost.mean > 0)
    h += " (" + std::string(d >= 0 ? "+" : "−") + format_percent(std::abs(d) / *from.cost.mean) +
         ")";
  return h;
}

std::string verdict(std::string_view title, const std::string& body) {
  return "<div class=\"verdict\"><dt>" + std::string(title) + "</dt><dd>" + body + "</dd></div>\n";
}

std::string takeaway_text(const Sweep& s, const std::vector<const Point*>& kept,
                          const std::vector<const Point*>& front) {
  if (kept.empty()) {
    return "<p>" + pill("bad", "No point keeps up") +
           "Every configuration in this sweep saturated: jobs arrive faster than it can finish "
           "them, so none of them is a usable plan. Extend the sweep toward more capacity and run "
           "it again.</p>";
  }
  const Point* low = cheapest(kept);
  const Point* fast = quickest(kept);
  std::string h;
  if (s.wait_target_s) {
    const double t = *s.wait_target_s;
    std::vector<const Point*> meets, sure;
    for (const Point* p : kept) {
      if (*p->wait_p90.mean <= t) meets.push_back(p);
      if (p->wait_p90.hi && *p->wait_p90.hi <= t) sure.push_back(p);
    }
    const Point* pick = cheapest(meets);
    if (pick == nullptr) {
      return "<p>" + pill("warn", "Target not met") +
             "No configuration keeps the p90 wait within " + "the target of " +
             esc(format_duration(t)) + ". The shortest p90 wait, " + esc(dur(fast->wait_p90.mean)) +
             ", comes from " + label_html(s, *fast) + " at " + esc(money(fast->cost.mean)) +
             ". Extend the sweep toward more capacity to find one that meets it.</p>";
    }
    h = "<p>" + pill("ok", "Meets the target") +
        "The cheapest configuration whose p90 wait stays within the target of " +
        esc(format_duration(t)) + " is " + label_html(s, *pick) + ": <strong>" +
        esc(money(pick->cost.mean)) + "</strong> with a p90 wait of " +
        esc(dur(pick->wait_p90.mean)) + ".";
    const Point* safe = cheapest(sure);
    if (safe == pick) {
      h += " It meets the target with 95% confidence (the interval of its p90 wait ends at " +
           esc(dur(pick->wait_p90.hi)) + ").";
    } else if (safe != nullptr) {
      h += " Its 95% interval reaches " + esc(dur(pick->wait_p90.hi)) +
           ", above the target; the cheapest point that meets it with 95% confidence is " +
           label_html(s, *safe) + " at " + esc(money(safe->cost.mean)) + ", " +
           esc(extra_cost(*pick, *safe)) + ".";
    } else {
      h += " Its 95% interval reaches " + esc(dur(pick->wait_p90.hi)) +
           ", above the target, and no point meets it with 95% confidence: run more "
           "replications before committing.";
    }
    return h + "</p>";
  }
  if (front.size() <= 1 || low == fast) {
    return "<p>" + pill("ok", "One clear choice") + label_html(s, *low) +
           " is both the cheapest configuration that keeps up (<strong>" +
           esc(money(low->cost.mean)) + "</strong>) and the one with the shortest p90 wait (" +
           esc(dur(low->wait_p90.mean)) + "); every other point is worse on both.</p>";
  }
  h = "<p>" + pill("info", "Choose on the front") + "Only the " +
      format_count(static_cast<double>(front.size())) +
      " configurations on the Pareto front are worth buying: for every other point, a front point "
      "costs no more and keeps the p90 wait no longer. Choose among them by how long your users "
      "can wait. The cheapest, " +
      label_html(s, *low) + ", costs <strong>" + esc(money(low->cost.mean)) +
      "</strong> with a p90 wait of " + esc(dur(low->wait_p90.mean)) + "; the quickest, " +
      label_html(s, *fast) + ", costs " + esc(money(fast->cost.mean)) + ", " +
      esc(extra_cost(*low, *fast)) + ", with a p90 wait of " + esc(dur(fast->wait_p90.mean)) +
      ".</p><p class=\"note\">Give a service target with <code>--p90-wait-target</code> (e.g. "
      "<code>--p90-wait-target 2h</code>) and this page names the cheapest point that meets "
      "it.</p>";
  return h;
}

std::string front_text(const Sweep& s, const std::vector<const Point*>& front) {
  if (front.empty()) return "<p>No point that keeps up has both a cost and a p90 wait.</p>";
  std::string h = "<p>" + format_count(static_cast<double>(front.size())) + " of " +
                  plural(static_cast<double>(s.points.size()), "point", "points") +
                  ", from cheapest to quickest:</p><ol class=\"front\">";
  for (std::size_t k = 0; k < front.size(); ++k) {
    const Point& p = *front[k];
    h += "<li>" + label_html(s, p) + ": <strong>" + esc(money(p.cost.mean)) +
         "</strong>, p90 wait " + esc(dur(p.wait_p90.mean));
    if (k > 0) {
      h += " <span class=\"step\">— " + esc(extra_cost(*front[k - 1], p)) +
           " than the previous point buys a p90 wait of " + esc(dur(p.wait_p90.mean)) +
           " instead of " + esc(dur(front[k - 1]->wait_p90.mean)) + "</span>";
    }
    h += "</li>";
  }
  return h + "</ol>";
}

std::string saturated_text(const Sweep& s) {
  std::vector<const Point*> sat;
  for (const Point& p : s.points)
    if (p.saturated()) sat.push_back(&p);
  if (sat.empty())
    return "<p>" + pill("ok", "None") + "Every point kept up in every replication.</p>";
  const bool one = sat.size() == 1;
  std::string h =
      "<p>" +
      pill("bad", plural(static_cast<double>(sat.size()), "point", "points") + " saturated") +
      (one ? "This configuration cannot" : "These configurations cannot") +
      " keep up with the workload: in some or all of " + (one ? "its" : "their") +
      " replications the queue of waiting jobs grew without bound.</p><ul "
      "class=\"sat-list\">";
  for (const Point* p : sat) {
    h += "<li>" + label_html(s, *p) + ": saturated in " + esc(saturated_count(*p));
    if (p->offered_load)
      h += "; offered load " + esc(format_percent(*p->offered_load, 0)) + " of capacity";
    h += "</li>";
  }
  h += "</ul><p>" + std::string(one ? "Its" : "Their") +
       " wait figures only reflect how long the simulation ran, so they are <strong>not "
       "meaningful</strong>. Saturated points are on no front; the charts stack them, as red "
       "crosses, in a shaded band.</p>";
  return h;
}

std::string utilization_text(const Sweep& s, const std::vector<const Point*>& kept) {
  std::vector<const Point*> front;
  const Point* busiest = nullptr;
  for (const Point* p : kept) {
    if (p->front_util) front.push_back(p);
    if (p->util.mean && (busiest == nullptr || *p->util.mean > *busiest->util.mean)) busiest = p;
  }
  if (busiest == nullptr) return "<p>The sweep reports no GPU utilization.</p>";
  std::string h = "<p>The busiest configuration that keeps up, " + label_html(s, *busiest) +
                  ", keeps its GPUs busy " + esc(pct(busiest->util.mean)) + " of the time.";
  if (!front.empty()) {
    std::sort(front.begin(), front.end(),
              [](const Point* a, const Point* b) { return *a->cost.mean < *b->cost.mean; });
    h += " On the front of cost against utilization: " + list_labels(s, front) + ".";
  }
  return h +
         " Higher utilization for the money usually comes with longer waits, so read the two "
         "charts together.</p>";
}

std::string confidence_text(const Sweep& s, const std::vector<const Point*>& front) {
  std::string h = "<p>Each point is a Monte Carlo study";
  if (s.replications) h += " of " + plural(*s.replications, "replication", "replications");
  h += "; the ± ranges and the whiskers in the charts are 95% confidence intervals of the mean.";
  if (s.seed_varied()) {
    h += " The seed is one of the varied values, so points with different seeds see different "
         "jobs: their differences include that noise.";
  } else {
    h += " All points use the same seed";
    if (!s.seed.empty()) h += " (" + esc(s.seed) + ")";
    h += ", so they see the same jobs (common random numbers) and the differences between them "
         "are measured more tightly than the separate intervals suggest.";
  }
  for (std::size_t k = 1; k < front.size(); ++k) {
    const Figure& a = front[k - 1]->wait_p90;
    const Figure& b = front[k]->wait_p90;
    if (a.has_ci() && b.has_ci() && *b.hi >= *a.lo && *a.hi >= *b.lo) {
      h += " The p90 wait intervals of " + label_html(s, *front[k - 1]) + " and " +
           label_html(s, *front[k]) +
           " overlap, so this sweep does not yet separate them on wait: rerun with more "
           "<code>--replications</code> before choosing between them.";
      break;
    }
  }
  return h + "</p>";
}

std::string render_summary(const Sweep& s) {
  const std::vector<const Point*> kept = kept_up(s);
  std::vector<const Point*> front;
  for (const Point* p : kept)
    if (p->front_wait) front.push_back(p);
  std::sort(front.begin(), front.end(), [](const Point* a, const Point* b) {
    return *a->cost.mean < *b->cost.mean ||
           (*a->cost.mean == *b->cost.mean && *a->wait_p90.mean > *b->wait_p90.mean);
  });

  std::string h =
      "<section id=\"summary\" aria-labelledby=\"h-summary\"><h2 id=\"h-summary\">Summary</h2>\n"
      "<div class=\"card\"><p class=\"lead\">This sweep ran ";
  h += plural(static_cast<double>(s.points.size()), "configuration", "configurations");
  if (s.replications)
    h += ", each a Monte Carlo study of " + plural(*s.replications, "replication", "replications");
  if (!s.axes.empty()) {
    h += ", varying ";
    for (std::size_t a = 0; a < s.axes.size(); ++a) {
      if (a) h += a + 1 == s.axes.size() ? " and " : ", ";
      h += code(s.axes[a].path) + " over ";
      for (std::size_t v = 0; v < s.axes[a].values.size(); ++v)
        h += (v ? ", " : "") + esc(s.axes[a].values[v]);
    }
  }
  h += ". It compares total cost with the p90 wait (nine in ten jobs start within it).</p>\n"
       "<dl class=\"verdicts\">\n";
  h += verdict("What to take from it", takeaway_text(s, kept, front));
  h += verdict("Pareto front: cost vs p90 wait", front_text(s, front));
  h += verdict("Saturated", saturated_text(s));
  h += verdict("Utilization", utilization_text(s, kept));
  h += verdict("How sure", confidence_text(s, front));
  return h + "</dl></div>\n</section>\n";
}

// ---- (b) charts ---------------------------------------------------------------------------------

// The unit of the wait axis: seconds, minutes or hours, whichever reads best for the largest wait.
json wait_unit(const Sweep& s) {
  double top = 0;
  for (const Point& p : s.points)
    if (!p.saturated() && p.wait_p90.mean)
      top = std::max(top, p.wait_p90.hi.value_or(*p.wait_p90.mean));
  if (s.wait_target_s) top = std::max(top, *s.wait_target_s);
  if (top >= 3 * 3600.0) return {{"name", "hours"}, {"scale", 3600.0}};
  if (top >= 180.0) return {{"name", "minutes"}, {"scale", 60.0}};
  return {{"name", "seconds"}, {"scale", 1.0}};
}

json triple(const Figure& f) {
  const auto v = [](const std::optional<double>& x) { return x ? json(*x) : json(nullptr); };
  return json::array({v(f.mean), v(f.lo), v(f.hi)});
}

json chart_data(const Sweep& s) {
  json points = json::array();
  const bool label_all = s.points.size() <= MAX_LABELLED_POINTS;
  for (const Point& p : s.points) {
    json tip = json::array();
    const std::string cost_ci = ci_range(p.cost, money_plain);
    tip.push_back("Total cost: " + money(p.cost.mean) +
                  (cost_ci.empty() ? "" : " (" + cost_ci + ")"));
    if (p.saturated()) {
      tip.push_back("Saturated in " + saturated_count(p) + ": cannot keep up");
      tip.push_back("p90 wait: not meaningful");
    } else {
      const std::string wait_ci = ci_range(p.wait_p90, duration_plain);
      tip.push_back("p90 wait: " + dur(p.wait_p90.mean) +
                    (wait_ci.empty() ? "" : " (" + wait_ci + ")"));
    }
    const std::string util_ci = ci_range(p.util, percent_plain);
    tip.push_back("GPU utilization: " + pct(p.util.mean) +
                  (util_ci.empty() ? "" : " (" + util_ci + ")"));
    if (p.gpus) tip.push_back("GPUs provisioned: " + format_count(*p.gpus));
    points.push_back(
        {{"label", "Point " + std::to_string(p.idx) + ": " + label_text(s, p)},
         {"tag", label_all || p.front_wait || p.front_util || p.saturated() ? tag_text(s, p)
                                                                            : std::string()},
         {"cost", triple(p.cost)},
         {"wait", triple(p.wait_p90)},
         {"util", triple(p.util)},
         {"front_wait", p.front_wait},
         {"front_util", p.front_util},
         {"sat", p.saturated()},
         {"tip", tip}});
  }
  return {{"wait_unit", wait_unit(s)},
          {"wait_target_s", s.wait_target_s ? json(*s.wait_target_s) : json(nullptr)},
          {"points", points}};
}

std::string figure(std::string_view chart, std::string_view title, const std::string& caption,
                   std::string_view aria) {
  return "<figure class=\"card wide\"><figcaption><h3>" + std::string(title) + "</h3><p>" +
         caption + "</p></figcaption><div class=\"chart-box tall\"><canvas id=\"chart-" +
         std::string(chart) + "\" data-sweep-chart=\"" + std::string(chart) +
         "\" role=\"img\" aria-label=\"" + std::string(aria) + "\"></canvas></div></figure>\n";
}

std::string render_charts(const Sweep& s) {
  bool any = false, any_saturated = false;
  for (const Point& p : s.points) {
    any = any || p.plotted();
    any_saturated = any_saturated || p.saturated();
  }
  if (!any) return "";
  const std::string marks =
      "Dots: mean over the replications; whiskers: 95% confidence intervals (none where every "
      "replication gave the same figure)." +
      std::string(any_saturated ? " Red crosses: saturated points, which cannot keep up." : "");
  const std::string band =
      any_saturated ? " Saturated points are stacked in the shaded band on the right, not to scale."
                    : "";
  std::string h =
      "<section id=\"charts\" aria-labelledby=\"h-charts\"><h2 id=\"h-charts\">Charts</h2>\n"
      "<div class=\"charts\">\n";
  h += figure("cost_wait", "Total cost against p90 wait",
              "Each point is one configuration. Blue, joined by a line: the Pareto front, where a "
              "lower cost can only be had with a longer wait. Grey: dominated points, beaten on "
              "both by a front point. " +
                  std::string(any_saturated ? "Saturated points are stacked in the shaded band on "
                                              "the right, not to scale: their waits are not "
                                              "meaningful. "
                                            : "") +
                  (s.wait_target_s ? "Green dashed line: the p90 wait target of " +
                                         esc(format_duration(*s.wait_target_s)) + ". "
                                   : std::string()) +
                  marks,
              "Scatter chart of total cost in US dollars against p90 wait, Pareto front joined");
  h += figure("cost_util", "Total cost against GPU utilization",
              "Blue, joined by a line: the Pareto front of cost against utilization (busy ÷ "
              "provisioned GPU-seconds), where more utilization can only be had at a higher "
              "cost." +
                  band + " " + marks,
              "Scatter chart of total cost in US dollars against GPU utilization in percent");
  return h + "</div>\n</section>\n";
}

// ---- (c) table ----------------------------------------------------------------------------------

// A mean with its 95% CI below; `note` replaces the CI line when given.
std::string figure_td(const Figure& f, std::string (*fmt)(double), std::string_view unit,
                      bool not_meaningful = false, std::string_view note = "") {
  if (!f.mean) return "<td class=\"num\" data-sort=\"\">n/a</td>";
  std::string h = "<td class=\"num\" data-sort=\"" + esc(format_raw(*f.mean)) + "\" title=\"" +
                  esc(format_raw(*f.mean)) + " " + std::string(unit) + "\">";
  if (not_meaningful) return h + "<span class=\"nm\">not meaningful</span></td>";
  h += esc(fmt(*f.mean));
  if (!note.empty()) {
    h += "<span class=\"ci\">" + esc(note) + "</span>";
  } else if (f.has_ci()) {
    h += "<span class=\"ci\">" +
         (fmt(*f.lo) == fmt(*f.hi) ? std::string("no spread")
                                   : esc(fmt(*f.lo)) + " – " + esc(fmt(*f.hi))) +
         "</span>";
  }
  return h + "</td>";
}

std::string render_table(const Sweep& s) {
  std::string h =
      "<section id=\"points\" aria-labelledby=\"h-points\"><h2 id=\"h-points\">All points</h2>\n"
      "<div class=\"card table-card\"><div class=\"table-scroll\"><table class=\"sortable\">"
      "<caption>Every configuration of the sweep <small>means over the replications; below each, "
      "its 95% confidence interval. Click a heading to sort.</small></caption><thead><tr>";
  h += sort_th("Point", true);
  for (const Axis& a : s.axes) h += sort_th(code(a.path), false);
  h += sort_th("GPUs", true) + sort_th("Total cost (USD)", true) + sort_th("p90 wait", true) +
       sort_th("Mean wait", true) + sort_th("GPU utilization", true) + sort_th("Saturated", true) +
       sort_th("Pareto front", false) + "</tr></thead><tbody>\n";
  for (const Point& p : s.points) {
    std::string cls;
    if (p.front_wait) cls = "on-front";
    if (p.saturated()) cls = "sat";
    h += "<tr" + (cls.empty() ? std::string() : " class=\"" + cls + "\"") + ">";
    h += "<td class=\"num\" data-sort=\"" + std::to_string(p.idx) + "\">" + std::to_string(p.idx);
    if (!p.dir.empty()) {
      h += "<a class=\"ci\" href=\"" + esc(p.dir) + "/report.html\" title=\"Open " + esc(p.dir) +
           "/report.html, the point's full Monte Carlo report\">report</a>";
    }
    h += "</td>";
    for (const std::string& v : p.values) {
      // NOTE: numeric values sort as numbers, so 10 comes after 8.
      h += "<td data-sort=\"" + esc(v) + "\">" + esc(v) + "</td>";
    }
    h += p.gpus ? "<td class=\"num\" data-sort=\"" + esc(format_raw(*p.gpus)) + "\">" +
                      esc(format_count(*p.gpus)) + "</td>"
                : "<td class=\"num\" data-sort=\"\">n/a</td>";
    // NOTE: when every replication saturated, the figures cover only the time before they stopped.
    h += figure_td(p.cost, money_plain, "USD", false,
                   p.saturated_share >= 1 ? "only until the runs stopped" : "");
    h += figure_td(p.wait_p90, duration_plain, "s", p.saturated());
    h += figure_td(p.wait_mean, duration_plain, "s", p.saturated());
    h += figure_td(p.util, percent_plain, "(0-1)");
    h += "<td class=\"num\" data-sort=\"" + esc(format_raw(p.saturated_share)) + "\">";
    h += p.saturated() ? pill("bad", "saturated") : std::string("no");
    h += "<span class=\"ci\">" + esc(saturated_count(p)) + "</span>";
    h += "</td>";
    // NOTE: sorts ascending as: on both fronts, cost-wait only, cost-utilization only, neither.
    h += "<td data-sort=\"" + std::to_string((p.front_wait ? 0 : 2) + (p.front_util ? 0 : 1)) +
         "\">";
    if (p.front_wait) h += pill("info", "cost–wait");
    if (p.front_util) h += pill("info", "cost–util.");
    if (!p.front_wait && !p.front_util) h += "<span class=\"muted\">—</span>";
    h += "</td>";
    h += "</tr>\n";
  }
  h += "</tbody></table></div><p class=\"note\">Cost: US dollars over each point's statistics "
       "window. Waits run from submission to first start over completed jobs. Utilization: busy ÷ "
       "provisioned GPU-seconds. A point is saturated when any of its replications could not keep "
       "up; its waits then only reflect how long the simulation ran, and when every replication "
       "saturated its cost covers only the time before they stopped. Pareto front: the point is on "
       "the front of cost against p90 wait, against GPU utilization, or both. Each report link "
       "opens the "
       "point's full Monte Carlo report.</p></div>\n</section>\n";
  return h;
}

// ---- (d) reproduce ------------------------------------------------------------------------------

std::string render_reproduce(const Sweep& s) {
  std::string h =
      "<section id=\"reproduce\" aria-labelledby=\"h-reproduce\"><div class=\"card\"><h2 "
      "id=\"h-reproduce\">Reproduce this sweep</h2>\n<dl class=\"facts\">";
  const auto fact = [&](std::string_view label, const std::string& value) {
    if (!value.empty()) h += "<dt>" + std::string(label) + "</dt><dd>" + value + "</dd>";
  };
  fact("Scenario", s.scenario.empty() ? "" : code(s.scenario));
  std::string axes;
  for (const Axis& a : s.axes) {
    axes += (axes.empty() ? "" : "<br>") + code(a.path) + " = ";
    for (std::size_t v = 0; v < a.values.size(); ++v) axes += (v ? ", " : "") + esc(a.values[v]);
  }
  fact("Varied", axes);
  fact("Replications per point", s.replications ? format_count(*s.replications) : "");
  fact("Seed", esc(s.seed));
  fact("Random numbers",
       s.seed_varied()
           ? std::string("the seed is varied, so only points with equal seeds share random "
                         "numbers")
           : std::string("common random numbers: every point uses the same seed, so replication "
                         "<i>k</i> draws the same arrivals, job sizes and durations at every "
                         "point"));
  if (s.wait_target_s) fact("p90 wait target", esc(format_duration(*s.wait_target_s)));
  fact("gpuplan version", esc(s.version));
  fact("Generated", esc(readable_timestamp(s.generated_at)));
  fact("Files",
       "<code>sweep.json</code> and <code>sweep.csv</code> (every figure of this page), and "
       "<code>point-&lt;i&gt;/</code> (each point's full Monte Carlo output) beside this page");
  h += "</dl>\n";
  if (!s.command.empty()) {
    h += "<pre class=\"echo\" aria-label=\"Command that ran this sweep\"><code>" + esc(s.command) +
         "</code></pre>\n";
  }
  return h + "</div></section>\n";
}

std::string_view sweep_css() {
  return R"CSS(.lead { font-size: 15.5px; margin: 0 0 12px; }
ol.front { margin: 4px 0 0; padding-left: 22px; }
ol.front li { margin: 3px 0; }
.step { color: var(--muted); font-size: 13px; }
.pt code { font-size: 0.85em; }
.chart-box.tall, figure.wide .chart-box.tall { height: 440px; }
td .pill { margin: 0 4px 2px 0; white-space: nowrap; }
ul.sat-list { margin: 4px 0 6px; padding-left: 20px; }
td a.ci { color: var(--accent); }
td .nm { color: var(--bad); font-style: italic; }
.muted { color: var(--muted); }
tr.on-front td:first-child { box-shadow: inset 3px 0 0 var(--accent); }
tr.sat td { background: #fff8f8; }
@media print { .chart-box.tall, figure.wide .chart-box.tall { height: 95mm; } }
)CSS";
}

// Draws the two scatter charts from the gp-data block; runs after report_js(), which sets Chart.js
// defaults, makes the table sortable and runs the #selftest.
std::string_view sweep_js() {
  return R"ASSET((function () {
  'use strict';
  const DATA = JSON.parse(document.getElementById('gp-data').textContent);
  const POINTS = DATA.points || [];
  const COLOR = {front: '#1d4ed8', other: '#94a3b8', otherText: '#475569', sat: '#b91c1c'};
  const fin = v => typeof v === 'number' && Number.isFinite(v);
  const fmt = (v, d) => v.toLocaleString('en-US', {maximumFractionDigits: d});
  const scaled = (v, s) => (fin(v) ? v / s : null);
  function moneyAxis(v) {
    const a = Math.abs(v);
    if (a >= 1e6) return '$' + fmt(v / 1e6, a >= 1e7 ? 1 : 2) + 'M';
    if (a >= 1e3) return '$' + fmt(v / 1e3, a >= 1e5 ? 0 : 1) + 'k';
    return '$' + fmt(v, 0);
  }
  function withAlpha(hex, a) {
    const n = parseInt(hex.slice(1), 16);
    return 'rgba(' + (n >> 16) + ',' + ((n >> 8) & 255) + ',' + (n & 255) + ',' + a + ')';
  }
  const family = () => Chart.defaults.font.family;

  // Whiskers for the 95% CIs, a tag beside each point and the band that holds saturated points.
  const decorate = {
    id: 'gpSweep',
    beforeDatasetsDraw(chart) {
      const area = chart.chartArea, ctx = chart.ctx;
      const target = chart.options.gpTarget;
      if (fin(target)) {
        const x = chart.scales.x.getPixelForValue(target);
        ctx.save();
        ctx.strokeStyle = '#047857';
        ctx.lineWidth = 1.5;
        ctx.setLineDash([6, 4]);
        ctx.beginPath(); ctx.moveTo(x, area.top); ctx.lineTo(x, area.bottom); ctx.stroke();
        ctx.fillStyle = '#047857';
        ctx.font = '600 11px ' + family();
        ctx.textAlign = 'left';
        ctx.fillText('p90 wait target', x + 5, area.top + 14);
        ctx.restore();
      }
      const band = chart.options.gpBand;
      if (!band) return;
      const left = Math.max(area.left, chart.scales.x.getPixelForValue(band.from));
      ctx.save();
      ctx.fillStyle = 'rgba(185, 28, 28, 0.06)';
      ctx.fillRect(left, area.top, area.right - left, area.bottom - area.top);
      ctx.strokeStyle = 'rgba(185, 28, 28, 0.4)';
      ctx.setLineDash([4, 4]);
      ctx.beginPath(); ctx.moveTo(left, area.top); ctx.lineTo(left, area.bottom); ctx.stroke();
      ctx.fillStyle = COLOR.sat;
      ctx.textAlign = 'center';
      ctx.font = '600 12px ' + family();
      ctx.fillText('Saturated', (left + area.right) / 2, area.top + 16);
      ctx.font = '11px ' + family();
      ctx.fillText('cannot keep up; not to scale', (left + area.right) / 2, area.top + 31);
      ctx.restore();
    },
    afterDatasetsDraw(chart) {
      const area = chart.chartArea, ctx = chart.ctx, xs = chart.scales.x, ys = chart.scales.y;
      const seg = (x1, y1, x2, y2) => { ctx.beginPath(); ctx.moveTo(x1, y1); ctx.lineTo(x2, y2); ctx.stroke(); };
      ctx.save();
      chart.data.datasets.forEach((ds, di) => {
        const meta = chart.getDatasetMeta(di);
        if (!ds.gpPoints || meta.hidden) return;
        meta.data.forEach((el, k) => {
          const p = ds.data[k];
          ctx.strokeStyle = withAlpha(ds.gpColor, 0.8);
          ctx.lineWidth = 1.5;
          ctx.setLineDash([]);
          // NOTE: an interval under 2 px wide (e.g. a fixed price) gets no whisker.
          const px = (fin(p.xl) && fin(p.xh)) ? [xs.getPixelForValue(p.xl), xs.getPixelForValue(p.xh)] : null;
          const py = (fin(p.yl) && fin(p.yh)) ? [ys.getPixelForValue(p.yl), ys.getPixelForValue(p.yh)] : null;
          if (px && Math.abs(px[1] - px[0]) >= 2) {
            const a = px[0], b = px[1];
            seg(a, el.y, b, el.y); seg(a, el.y - 4, a, el.y + 4); seg(b, el.y - 4, b, el.y + 4);
          }
          if (py && Math.abs(py[1] - py[0]) >= 2) {
            const a = py[0], b = py[1];
            seg(el.x, a, el.x, b); seg(el.x - 4, a, el.x + 4, a); seg(el.x - 4, b, el.x + 4, b);
          }
          if (!p.tag) return;
          const text = p.tag + (p.sat ? ' (saturated)' : '');
          ctx.font = (p.front || p.sat ? '600 ' : '') + '12px ' + family();
          const w = ctx.measureText(text).width;
          const right = el.x + 10 + w <= area.right;
          ctx.textAlign = right ? 'left' : 'right';
          ctx.textBaseline = 'bottom';
          const tx = right ? el.x + 10 : el.x - 10, ty = Math.max(area.top + 14, el.y - 6);
          ctx.lineWidth = 3;
          ctx.strokeStyle = 'rgba(255, 255, 255, 0.9)';
          ctx.strokeText(text, tx, ty);
          ctx.fillStyle = ds.gpText;
          ctx.fillText(text, tx, ty);
        });
      });
      ctx.restore();
    }};

  function dataset(label, data, color, text, extra) {
    return Object.assign({label: label, data: data, gpPoints: true, gpColor: color, gpText: text,
                          gpHideLegend: !data.length, borderColor: color, backgroundColor: color,
                          pointRadius: 5, pointHoverRadius: 7, showLine: false, clip: false}, extra || {});
  }
  // `x` is [mean, low, high] in axis units.
  function mark(p, x, front) {
    return {x: x[0], y: p.cost[0], xl: x[1], xh: x[2], yl: p.cost[1], yh: p.cost[2],
            tag: p.tag, title: p.label, tip: p.tip, front: front, sat: p.sat};
  }
  function options(xAxis, band) {
    return {
      gpBand: band, parsing: false,
      interaction: {mode: 'nearest', intersect: true},
      layout: {padding: {top: 6, right: 6}},
      scales: {
        // NOTE: the band right of the axis has no scale, so it gets no grid lines.
        x: Object.assign({type: 'linear', grid: {color: c => (band && c.tick && c.tick.value > band.from ? 'rgba(0, 0, 0, 0)' : '#eef0f3')}}, xAxis),
        y: {grace: '12%', title: {display: true, text: 'Total cost over the statistics window (US dollars)'},
            ticks: {callback: moneyAxis}}},
      plugins: {
        legend: {position: 'top', align: 'start', labels: {usePointStyle: true, padding: 16}},
        tooltip: {callbacks: {title: items => (items.length ? items[0].raw.title : ''), label: item => item.raw.tip}}}};
  }
  // One scatter of cost against `xOf(p)` = [mean, lo, hi] (already in axis units). Points that kept
  // up are drawn at their figures; saturated points, whose figures are not comparable, are stacked
  // in a shaded band right of the axis, each labelled.
  function costScatter(o) {
    const kept = [], sat = [];
    POINTS.forEach(p => {
      const x = o.xOf(p);
      if (p.sat) { if (fin(p.cost[0])) sat.push(p); return; }
      if (fin(p.cost[0]) && fin(x[0])) kept.push(mark(p, x, p[o.front]));
    });
    let lo = Infinity, hi = -Infinity, ylo = Infinity, yhi = -Infinity;
    kept.forEach(m => {
      lo = Math.min(lo, fin(m.xl) ? m.xl : m.x); hi = Math.max(hi, fin(m.xh) ? m.xh : m.x);
      ylo = Math.min(ylo, fin(m.yl) ? m.yl : m.y); yhi = Math.max(yhi, fin(m.yh) ? m.yh : m.y);
    });
    if (!kept.length) { lo = 0; hi = 1; sat.forEach(p => { ylo = Math.min(ylo, p.cost[0]); yhi = Math.max(yhi, p.cost[0]); }); }
    if (!(yhi > ylo)) { const c = fin(ylo) ? ylo : 0; ylo = c - Math.max(1, Math.abs(c) * 0.05); yhi = c + Math.max(1, Math.abs(c) * 0.05); }
    const range = o.range(lo, hi), w = range.max - range.min;
    const band = sat.length ? {from: range.max + 0.03 * w, to: range.max + 0.36 * w} : null;
    const crosses = sat.map((p, k) => Object.assign(mark(p, [null, null, null], false),
      {x: band.from + 0.12 * (band.to - band.from), y: ylo + (sat.length - k) / (sat.length + 1) * 0.8 * (yhi - ylo),
       yl: null, yh: null}));
    return {type: 'scatter', plugins: [decorate], data: {datasets: [
      dataset(o.frontLabel, kept.filter(m => m.front).sort((a, b) => a.x - b.x), COLOR.front, COLOR.front,
              {showLine: true, borderWidth: 2, pointRadius: 6, pointHoverRadius: 8}),
      dataset(o.otherLabel, kept.filter(m => !m.front), COLOR.other, COLOR.otherText),
      dataset('Saturated: cannot keep up (placed in the band, not to scale)', crosses, COLOR.sat, COLOR.sat,
              {pointStyle: 'crossRot', pointRadius: 8, pointHoverRadius: 10, borderWidth: 3})]},
      options: options({min: range.min, max: band ? band.to : range.max, title: {display: true, text: o.title},
        ticks: {includeBounds: false, callback: v => (band && v > band.from ? '' : o.tick(v))}}, band)};
  }

  function chartCostWait() {
    const unit = DATA.wait_unit || {name: 'seconds', scale: 1};
    const target = scaled(DATA.wait_target_s, unit.scale);
    const chart = costScatter({
      xOf: p => p.wait.map(v => scaled(v, unit.scale)), front: 'front_wait',
      range: (lo, hi) => ({min: 0, max: Math.max(hi > 0 ? hi : 1, fin(target) ? target : 0) * 1.1}),
      frontLabel: 'Pareto front: cheapest for its wait', otherLabel: 'Dominated: a front point is cheaper and waits no longer',
      title: 'p90 wait before first start (' + unit.name + '), mean over replications',
      tick: v => fmt(v, unit.scale === 1 ? 1 : 2)});
    chart.options.gpTarget = target;
    return chart;
  }

  function chartCostUtil() {
    return costScatter({
      xOf: p => p.util.map(v => (fin(v) ? 100 * v : null)), front: 'front_util',
      range: (lo, hi) => {
        const pad = Math.max(3, 0.12 * (hi - lo));
        return {min: Math.max(0, Math.floor(lo - pad)), max: Math.min(100, Math.ceil(hi + pad))};
      },
      frontLabel: 'Pareto front: cheapest for its utilization', otherLabel: 'Dominated: a front point is cheaper and at least as busy',
      title: 'GPU utilization (%): busy ÷ provisioned GPU-seconds, mean over replications',
      tick: v => fmt(v, 1) + '%'});
  }

  const BUILDERS = {cost_wait: chartCostWait, cost_util: chartCostUtil};
  const charts = [];
  document.querySelectorAll('canvas[data-sweep-chart]').forEach(canvas => {
    try {
      charts.push(new Chart(canvas, BUILDERS[canvas.dataset.sweepChart]()));
    } catch (err) {
      console.error('chart "' + canvas.dataset.sweepChart + '" failed: ' + err.message);
    }
  });
  window.addEventListener('beforeprint', () => charts.forEach(c => c.resize(680, 340)));
  window.addEventListener('afterprint', () => charts.forEach(c => c.resize()));
})();
)ASSET";
}

}  // namespace

std::string render_sweep_html(const json& sweep) {
  const Sweep s = gather(sweep);
  const std::string name = s.scenario.empty() ? "Unnamed scenario" : s.scenario;

  std::string h;
  h.reserve(gpuplan::embedded::chartjs().size() + 64 * 1024);
  h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
       // NOTE: the same policy as report.html: no fetch of any kind, so the page works offline.
       "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src "
       "'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action "
       "'none'\">\n<meta name=\"generator\" content=\"gpuplan " +
       esc(s.version) + "\">\n<title>" + esc(name) + " — gpuplan sweep report</title>\n<style>\n";
  h += report_css();
  h += sweep_css();
  h += "</style>\n<script>\n";
  h += report_error_capture_js();
  h += "</script>\n</head>\n<body>\n<header class=\"masthead\"><div class=\"wrap\"><div "
       "class=\"brand\">gpuplan · sweep report</div><h1>" +
       esc(name) + "</h1><p class=\"meta\">";
  if (!s.generated_at.empty())
    h += "<span>Generated " + esc(readable_timestamp(s.generated_at)) + "</span>";
  if (!s.version.empty()) h += "<span>gpuplan " + esc(s.version) + "</span>";
  if (!s.seed.empty()) h += "<span>seed " + esc(s.seed) + "</span>";
  h += "<span>" + plural(static_cast<double>(s.points.size()), "point", "points");
  if (s.replications) h += " × " + plural(*s.replications, "replication", "replications");
  h += "</span>";
  if (!s.seed_varied()) h += "<span>common random numbers</span>";
  h += "</p></div></header>\n";
  const std::string charts = render_charts(s);
  h += "<nav class=\"toc\" aria-label=\"Sections\"><ul><li><a href=\"#summary\">Summary</a></li>";
  if (!charts.empty()) h += "<li><a href=\"#charts\">Charts</a></li>";
  h += "<li><a href=\"#points\">All points</a></li><li><a href=\"#reproduce\">Reproduce</a></li>"
       "</ul></nav>\n<main class=\"wrap\">\n";
  h += render_summary(s);
  h += charts;
  h += render_table(s);
  h += render_reproduce(s);
  h += "<p id=\"gp-sort-status\" class=\"visually-hidden\" aria-live=\"polite\"></p>\n";
  h += "</main>\n<footer><div class=\"wrap\">Generated by gpuplan " + esc(s.version) +
       ". Each point's figures cover jobs submitted in its statistics window, from warmup to "
       "horizon. This file is self-contained: it opens offline and loads nothing from the "
       "network; the point reports it links to sit beside it.</div></footer>\n";
  h += "<script type=\"application/json\" id=\"gp-data\">" + json_for_script(chart_data(s)) +
       "</script>\n";
  h += "<script id=\"gp-chartjs\">\n" + script_safe(gpuplan::embedded::chartjs()) + "\n</script>\n";
  h += "<script>\n" + script_safe(report_js()) + "</script>\n";
  h += "<script>\n" + script_safe(sweep_js()) + "</script>\n</body>\n</html>\n";
  return h;
}

}  // namespace gpuplan::reports
