//! The recommendation part of an assessment (reports/assessment.h, assess_recommendation): what
//! report.html shows of a `gpuplan recommend` result.
#include "reports/assessment.h"

#include "reports/assessment_text.h"
#include "reports/format.h"
#include "reports/json_read.h"

#include <cmath>
#include <optional>
#include <string>
#include <string_view>

namespace gpuplan::reports {
namespace {

using nlohmann::json;

std::optional<double> number_in(const json& j, std::string_view key) {
  return finite_number(member(j, key));
}

//! A value of SLO metric `metric` as the report writes that kind of figure.
std::string metric_value(const std::string& metric, double v) {
  if (metric.find("_s.") != std::string::npos) return format_duration(v);
  if (metric.ends_with("utilization")) return format_percent(v);
  if (metric.starts_with("cost_usd")) return format_money(v);
  if (metric.ends_with("jobs_completed")) return format_count(v);
  return format_number(v, 2);
}

//! "5 × p4d.24xlarge (reserved_1y) in pool main" for a candidate row or one of its `with` pools.
RichText configuration(const json& row) {
  RichText t;
  // NOTE: a purchase schedule starts with fewer nodes than it ends with.
  std::string nodes = format_count(number_in(row, "nodes").value_or(0));
  if (const json* sched = member(row, "schedule"); sched != nullptr)
    if (const auto start = number_in(*sched, "nodes_at_start");
        start && *start != number_in(row, "nodes"))
      nodes = format_count(*start) + " → " + nodes;
  t.strong(nodes + " × " + string_value(member(row, "instance")));
  t << " (" + string_value(member(row, "pricing")) + ") in pool ";
  t.code(string_value(member(row, "pool")));
  for (const json& w : array_value(member(row, "with"))) {
    t << ", with " + format_count(number_in(w, "nodes").value_or(0)) + " × " +
             string_value(member(w, "instance")) + " (" + string_value(member(w, "pricing")) +
             ") in pool ";
    t.code(string_value(member(w, "pool")));
  }
  return t;
}

//! "$13,824.00 over the window ($59,904.00 per month)" for a candidate row.
std::string cost_phrase(const json& row) {
  std::string s = money(number_in(row, "cost_usd_total")) + " over the window";
  if (const auto m = number_in(row, "cost_usd_per_month"))
    s += " (" + format_money(*m) + " per month)";
  return s;
}

//! One SLO of the recommendation against what the winner's study achieved.
json slo_row(const json& slo, const study::Summary& winner) {
  const std::string metric = string_value(member(slo, "metric"));
  const auto lo = number_in(slo, "min"), hi = number_in(slo, "max");
  std::string target;
  if (lo) target = "≥ " + metric_value(metric, *lo);
  if (hi) target += (target.empty() ? "" : " and ") + std::string("≤ ") + metric_value(metric, *hi);
  json row = {{"metric", metric}, {"target", target}};
  const auto stat = summary_statistic(winner, metric);
  if (!stat || !std::isfinite(stat->mean)) return row;
  const double mean = stat->mean;
  row["achieved"] = metric_value(metric, mean);
  row["within"] = (!lo || mean >= *lo) && (!hi || mean <= *hi);
  if (stat->spread)
    row["ci95"] = metric_value(metric, stat->spread->ci95_low) + " – " +
                  metric_value(metric, stat->spread->ci95_high);
  return row;
}

}  // namespace

json assess_recommendation(const json& recommendation, const study::Summary& winner) {
  const json* best = member(recommendation, "recommended");
  if (best == nullptr || !best->is_object()) return nullptr;
  const auto p_met = number_in(*best, "p_slos_met");
  const auto required = number_in(recommendation, "probability");
  const auto reps = number_in(recommendation, "replications");
  RichText head;
  head << "Recommended: ";
  head << configuration(*best);
  head << ", " + cost_phrase(*best) + "; every SLO met together in " + pct(p_met) + " of " +
              plural(reps.value_or(0), "replication", "replications") + " (" + pct(required) +
              " required).";
  json items = json::array({head.json()});
  if (const json* sched = member(*best, "schedule"); sched != nullptr) {
    // NOTE: under growth the window's figures hide the last months; each month was judged alone.
    RichText t;
    t << "The SLOs hold in every month on its own (the least month: " +
             pct(number_in(*best, "p_slos_met")) +
             " of replications): " + string_value(member(*sched, "text")) + ".";
    items.push_back(t.json());
  }
  if (const auto cap = number_in(recommendation, "max_usd_per_month")) {
    std::size_t over = 0;
    for (const json& c : array_value(member(recommendation, "candidates")))
      if (const json* ob = member(c, "over_budget"); ob != nullptr && ob->is_boolean())
        over += ob->get<bool>() ? 1 : 0;
    RichText t;
    t << "Budget cap " + format_money(*cap) + " per month: " +
             plural(double(over), "configuration meeting the SLOs was",
                    "configurations meeting the SLOs were") +
             " over it and not recommended.";
    items.push_back(t.json());
  }
  json slos = json::array();
  for (const json& s : array_value(member(recommendation, "slos")))
    slos.push_back(slo_row(s, winner));
  json runners = json::array();
  const auto best_cost = number_in(*best, "cost_usd_total");
  for (const json& r : array_value(member(recommendation, "runners_up"))) {
    RichText t;
    t << configuration(r);
    t << ": " + cost_phrase(r);
    if (const auto c = number_in(r, "cost_usd_total"); c && best_cost)
      t << ", " + format_money(*c - *best_cost) + " more";
    t << "; SLOs met in " + pct(number_in(r, "p_slos_met")) + " of replications.";
    runners.push_back(t.json());
  }
  return {{"items", items}, {"slos", slos}, {"runners_up", runners}};
}

}  // namespace gpuplan::reports
