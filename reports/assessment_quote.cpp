// The quote's verdicts (reports/assessment.h assess_quote).
#include "reports/assessment.h"

#include "reports/assessment_text.h"
#include "reports/format.h"
#include "reports/json_read.h"

#include <optional>
#include <string_view>

namespace gpuplan::reports {
namespace {

using nlohmann::json;

bool flag(const json& o, std::string_view key, bool absent) {
  const json* v = member(o, key);
  return v != nullptr && v->is_boolean() ? v->get<bool>() : absent;
}

// The flags a quote shows beside an option: what it misses or why it cannot run.
json flags_of(const json& o, bool training) {
  json out = json::array();
  if (!flag(o, "feasible", false)) {
    out.push_back("cannot run");
    return out;
  }
  if (training) {
    if (!flag(o, "meets_deadline", true)) out.push_back("misses deadline");
    if (!flag(o, "within_budget", true)) out.push_back("over budget");
  } else if (!flag(o, "meets_target", true)) {
    out.push_back("misses p99");
  }
  if (flag(o, "stale_price", false)) out.push_back("stale price");
  if (const json* sim = member(o, "simulation"); sim != nullptr && !flag(*sim, "agrees", true))
    out.push_back("engine check disagrees");
  if (const json* sim = member(o, "serving_simulation");
      sim != nullptr && !flag(*sim, "meets_targets", true))
    out.push_back("simulation misses p99");
  return out;
}

// One part (training or inference): options are ranked, so the first runnable option that meets
// every requirement is the recommendation; without one, the first runnable option, flagged.
json assess_part(const json& options, bool training) {
  json flags = json::array();
  std::optional<std::size_t> pick, fallback;
  for (std::size_t i = 0; i < options.size(); ++i) {
    const json f = flags_of(options[i], training);
    const bool runnable = flag(options[i], "feasible", false);
    if (runnable && !fallback) fallback = i;
    bool clean = runnable;
    for (const json& s : f) clean = clean && s == "stale price";
    if (clean && !pick) pick = i;
    flags.push_back(f);
  }
  json part = {{"flags", flags}, {"recommended", nullptr}, {"meets_requirements", false}};
  const std::optional<std::size_t> chosen = pick ? pick : fallback;
  if (!chosen) {
    part["text"] = (RichText() << "No option can run this request.").json();
    return part;
  }
  const json& o = options[*chosen];
  part["recommended"] = *chosen;
  part["meets_requirements"] = pick.has_value();
  RichText t;
  t.code(string_value(member(o, "instance")));
  t << " (" + string_value(member(o, "pricing_label")) + ")";
  if (const auto usd = finite_number(member(o, "total_usd"))) {
    t << " at ";
    t.strong(format_money(*usd));
  }
  if (pick) {
    t << (training ? " is the cheapest option that meets the deadline and the budget."
                   : " is the cheapest option that meets the p99 latency target.");
  } else {
    t << (training ? " is the best ranked option, but none meets both the deadline and the budget."
                   : " is the best ranked option, but none meets the p99 latency target.");
  }
  part["text"] = t.json();
  return part;
}

}  // namespace

json assess_quote(const json& quote) {
  json a = json::object();
  for (const char* part : {"training", "inference"}) {
    const json& options = array_value(member(quote, part));
    if (!options.empty()) a[part] = assess_part(options, part == std::string_view("training"));
  }
  return a;
}

}  // namespace gpuplan::reports
