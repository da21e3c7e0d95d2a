#include "reports/assessment.h"

#include "reports/format.h"
#include "tests/reports/fixture.h"
#include "tests/reports/result_facts_reader.h"

#include <doctest/doctest.h>

#include <string>

using gpuplan::reports::assess;
using gpuplan::reports::assess_failures;
using gpuplan::reports::assess_quote;
using gpuplan::reports::assess_recommendation;
using gpuplan::reports::assess_sharing;
using gpuplan::reports::assess_sweep;
using gpuplan::reports::plain_text;
using gpuplan::reports::testing::load_fixture;
using gpuplan::reports::testing::read_facts;
using nlohmann::json;

namespace {

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// Every paragraph of a list of rich-text sentences, joined by newlines.
std::string paragraphs(const json& list) {
  std::string out;
  for (const json& p : list) out += plain_text(p) + "\n";
  return out;
}

// True when some run of `runs` is {"code": text}.
bool has_code(const json& runs, const std::string& text) {
  for (const json& r : runs)
    if (r.is_object() && r.contains("code") && r["code"] == text) return true;
  return false;
}

}  // namespace

TEST_CASE("reports::assessment") {
  SUBCASE("a saturated result says it cannot keep up and raises the banner") {
    const json a = assess(read_facts(load_fixture("saturated.json")));
    CHECK(a["saturated"] == true);
    CHECK(a["sizing"]["verdict"] == "cannot_keep_up");
    CHECK(a["sizing"]["label"] == "Cannot keep up");
    CHECK(a["sizing"]["tone"] == "bad");
    REQUIRE(a["banner"].is_object());
    CHECK(a["banner"]["title"] == "This configuration cannot keep up with the offered load");
    CHECK(contains(plain_text(a["banner"]["text"]), "not meaningful"));
    // The cost sentence warns that a saturated run prices hardware, not the workload.
    CHECK(contains(plain_text(a["cost"]), "this is the price of the hardware"));
  }

  SUBCASE("offered load at or above 100% is reported as cannot keep up, never as a long wait") {
    // The engine did not stop the run (the queue stayed under its limit), but demand exceeds
    // capacity: no steady state exists, so the waits only measure the horizon.
    json r = load_fixture("single_run.json");
    r["metrics"]["offered_load"] = 1.13;
    const json a = assess(read_facts(r));
    CHECK(a["saturated"] == true);
    CHECK(a["sizing"]["verdict"] == "cannot_keep_up");
    // 1.13 of capacity, rounded to whole percent: 113%.
    CHECK(contains(plain_text(a["banner"]["text"]), "Jobs ask for 113% of the cluster"));
  }

  SUBCASE("an unsaturated result has no banner and judges its sizing right-sized") {
    const json r = load_fixture("single_run.json");
    const json a = assess(read_facts(r));
    CHECK(a["saturated"] == false);
    CHECK(a["banner"].is_null());
    // Utilization 0.794 with p90 wait 1260 s against a mean run time of 11407.5 s: right-sized.
    CHECK(a["sizing"]["verdict"] == "right_sized");
    CHECK(a["sizing"]["tone"] == "ok");
    // 79.4% busy; p50 and p90 waits 300 s and 1260 s read "5 min" and "21 min".
    CHECK(contains(plain_text(a["sizing"]["text"]), "GPUs are busy 79.4% of the time"));
    CHECK(contains(plain_text(a["sizing"]["text"]), "nine in ten within 21 min (p90)"));
  }

  SUBCASE("the cost sentence states the total, the window and the price per GPU-hour") {
    const json r = load_fixture("single_run.json");
    const std::string cost = plain_text(assess(read_facts(r))["cost"]);
    CHECK(contains(cost, gpuplan::reports::format_money(r["cost_usd"]["total"].get<double>())));
    // The window is 518400 s = 6 days.
    CHECK(contains(cost, "over the 6 d statistics window (518,400 s"));
    CHECK(contains(cost, "per provisioned GPU-hour"));
  }

  SUBCASE("what to change suggests reserved pricing for a steady on-demand pool, as a command") {
    const json a = assess(read_facts(load_fixture("single_run.json")));
    // Right-sized: no capacity change; pool 0 is on demand at 83% utilization, above the 60%
    // threshold for the reserved-pricing hint.
    CHECK(contains(paragraphs(a["changes"]), "No capacity change needed."));
    bool hint = false;
    for (const json& p : a["changes"])
      hint = hint ||
             has_code(p, "gpuplan sweep SCENARIO --vary pools.0.pricing=on_demand,reserved_1y");
    CHECK(hint);
  }

  SUBCASE("running hot suggests how many GPUs to add and the sweep that checks it") {
    json r = load_fixture("single_run.json");
    r["metrics"]["gpu_utilization"] = 0.95;
    const json a = assess(read_facts(r));
    CHECK(a["sizing"]["verdict"] == "running_hot");
    // 0.95 × the fixture's GPUs ÷ 0.8 target, rounded up, is the suggested fleet.
    CHECK(contains(paragraphs(a["changes"]), "to bring utilization near 80%"));
    CHECK(contains(paragraphs(a["changes"]), "gpuplan sweep SCENARIO --vary pools.0.count="));
  }

  SUBCASE("running hot switches on at 90% utilization exactly, not above it") {
    json r = load_fixture("single_run.json");
    r["metrics"]["gpu_utilization"] = 0.9;
    CHECK(assess(read_facts(r))["sizing"]["verdict"] == "running_hot");
    r["metrics"]["gpu_utilization"] = 0.8999;
    CHECK(assess(read_facts(r))["sizing"]["verdict"] != "running_hot");
  }

  SUBCASE(
      "a demand that reaches capacity inside the horizon cannot keep up, never 'not capacity'") {
    // Long waits by the window's figures (p90 wait 3 h against a 3.2 h mean run at 60% busy), but
    // the load check says the demand reaches capacity in month 7.4: the verdict follows the load.
    json r = load_fixture("single_run.json");
    r["metrics"]["gpu_utilization"] = 0.6;
    r["metrics"]["wait_s"]["p90"] = 10800.0;
    CHECK(assess(read_facts(r))["sizing"]["verdict"] == "long_waits");
    CHECK(contains(plain_text(assess(read_facts(r))["sizing"]["text"]),
                   "rather than from total capacity"));
    r["metrics"]["reaches_capacity_month"] = 7.4;
    r["metrics"]["peak_offered_load"] = 1.31;
    const json a = assess(read_facts(r));
    CHECK(a["saturated"] == true);
    CHECK(a["sizing"]["verdict"] == "cannot_keep_up");
    CHECK(a["banner"]["title"] == "This configuration cannot keep up with the growing demand");
    CHECK(contains(plain_text(a["banner"]["text"]), "reaches it in month 7.4 and 131% of it"));
    const std::string changes = paragraphs(a["changes"]);
    CHECK_FALSE(contains(changes, "placing jobs better"));
    // 1.31 x 96 GPUs = 125.76 -> 126 to keep up; / 0.8 = 157.2 -> 158 to keep waits short.
    CHECK(contains(changes,
                   "Add capacity before month 7.4: the busiest week needs at least 126 "
                   "GPUs, and about 158 (80% busy)"));
    // The other side: a null month (the demand never reaches capacity) changes nothing.
    r["metrics"]["reaches_capacity_month"] = nullptr;
    CHECK(assess(read_facts(r))["sizing"]["verdict"] == "long_waits");
  }

  SUBCASE("one job at a time: no 'add GPUs' when every job needs more than half the cluster") {
    json r = load_fixture("single_run.json");  // 96 GPUs in two pools
    r["metrics"]["gpu_utilization"] = 0.95;
    r["metrics"]["smallest_job_gpus"] = 49;  // two such jobs need 98 > 96: one at a time
    std::string changes = paragraphs(assess(read_facts(r))["changes"]);
    CHECK_FALSE(contains(changes, "Add about"));
    CHECK(contains(changes, "Every job needs at least 49 GPUs, more than half of the 96"));
    r["metrics"]["smallest_job_gpus"] = 48;  // two fit side by side: more GPUs can help
    changes = paragraphs(assess(read_facts(r))["changes"]);
    CHECK(contains(changes, "Add about"));
    CHECK_FALSE(contains(changes, "one job runs at a time"));
  }

  SUBCASE("the cheapest TCO option of a fleet that cannot keep up carries its caveat") {
    json r = load_fixture("economics_run.json");
    CHECK_FALSE(contains(plain_text(assess(read_facts(r))["cheapest_option"]["text"]), "Caveat"));
    r["tco"]["caveat"] = "The simulated fleet cannot keep up with the demand.";
    CHECK(contains(plain_text(assess(read_facts(r))["cheapest_option"]["text"]),
                   "Caveat: The simulated fleet cannot keep up with the demand."));
  }

  SUBCASE("a single run says it is one replication and points to gpuplan mc") {
    const json a = assess(read_facts(load_fixture("single_run.json")));
    REQUIRE(!a["confidence"].empty());
    CHECK(plain_text(a["confidence"][0])
              .rfind("One replication — run gpuplan mc for confidence intervals", 0) == 0);
    CHECK(has_code(a["confidence"][0], "gpuplan mc"));
  }

  SUBCASE("a Monte Carlo result states the half-widths of its 95% confidence intervals") {
    const std::string how_sure =
        paragraphs(assess(read_facts(load_fixture("monte_carlo.json")))["confidence"]);
    CHECK(contains(how_sure, "32 replications"));
    CHECK(contains(how_sure, "Half-widths of the 95% confidence intervals"));
    // Mean wait 412.5 s with a 6% half-width: ± 24.75 s, shown as "± 25 s" (6.0%).
    CHECK(contains(how_sure, "mean wait ± 25 s (± 6.0%)"));
  }

  SUBCASE("warnings are listed as text and counted, with a link to the list") {
    const json a = assess(read_facts(load_fixture("saturated.json")));
    REQUIRE(a["warnings"].size() == 2);
    CHECK(a["warnings"][0].get<std::string>().rfind("spot pool \"h100-spot\": preemption rate",
                                                    0) == 0);
    const json& last = a["confidence"].back();
    CHECK(contains(plain_text(last), "The run raised 2 warnings"));
    bool link = false;
    for (const json& run : last)
      link = link || (run.is_object() && run.value("link", "") == "#warnings");
    CHECK(link);
  }

  SUBCASE("the cheapest TCO option is named with its NPV and the margin over the next") {
    const json a = assess(read_facts(load_fixture("economics_run.json")));
    REQUIRE(a["cheapest_option"].is_object());
    CHECK(a["cheapest_option"]["name"] == "on_prem");
    // NPVs: on_prem 390,397.83, hybrid 394,312.67: on_prem is 3,914.84 cheaper; break-even month 8.
    CHECK(a["cheapest_option"]["npv_usd"] == doctest::Approx(390397.83));
    const std::string text = plain_text(a["cheapest_option"]["text"]);
    CHECK(contains(text, "on_prem has the lowest net present value, $390,397.83"));
    CHECK(contains(text, "$3,914.84 less than the next option, hybrid"));
    CHECK(contains(text, "breaks even with the cloud in month 8"));
    CHECK(assess(read_facts(load_fixture("single_run.json")))["cheapest_option"].is_null());
  }

  SUBCASE("an option that leaves demand unserved is never the cheapest and is named as such") {
    json r = load_fixture("economics_run.json");
    json& op = r["tco"]["options"]["on_prem"];
    op["serves_demand"] = false;
    op["stops_keeping_up_month"] = 7;
    op["unserved_gpu_hours"] = 5000;
    r["tco"]["cheapest_by_npv"] = "hybrid";
    r["tco"]["break_even_month"].erase("on_prem_vs_cloud");
    const json a = assess(read_facts(r));
    CHECK(a["cheapest_option"]["name"] == "hybrid");
    const std::string text = plain_text(a["cheapest_option"]["text"]);
    // the runner-up is the cloud (NPV 509,659.41 − 394,312.67 = 115,346.74), not the cheaper
    // on_prem that serves less
    CHECK(contains(text, "$115,346.74 less than the next option, cloud"));
    CHECK(contains(text,
                   "Left out as it does not serve the demand: on_prem stops keeping up in "
                   "month 7 (5,000 GPU-h unserved)."));

    // with no option serving the demand there is no cheapest, and the text says why
    r["tco"]["options"].erase("cloud");
    r["tco"]["options"].erase("hybrid");
    r["tco"]["cheapest_by_npv"] = nullptr;
    r["tco"]["cheapest_note"] = "no compared option serves the projected demand";
    const json none = assess(read_facts(r))["cheapest_option"];
    CHECK(none["name"].is_null());
    CHECK(plain_text(none["text"]) ==
          "No option is the cheapest: no compared option serves the projected demand: on_prem "
          "stops keeping up in month 7 (5,000 GPU-h unserved).");

    // with the run-out instant of both sides, the text gives it to a tenth of a month
    r["tco"]["options"]["on_prem"]["runs_out_month"] = 6.84;
    r["tco"]["options"]["on_prem"]["simulation"] = {
        {"simulated", true}, {"stops_keeping_up_month", 8}, {"runs_out_month", 6.91}};
    CHECK(contains(plain_text(assess(read_facts(r))["cheapest_option"]["text"]),
                   "on_prem runs out at month 6.8 (6.9 simulated) (5,000 GPU-h unserved)."));
  }

  SUBCASE("facts without figures are assessed without throwing") {
    json a;
    CHECK_NOTHROW(a = assess(gpuplan::reports::ResultFacts{}));
    CHECK(a["sizing"]["verdict"] == "unknown");
    CHECK(plain_text(a["cost"]) == "The result reports no cost.");
    CHECK(a["cheapest_option"].is_null());
    CHECK(a["warnings"] == json::array());
  }
}

// The fixture (tests/reports/fixtures/sweep.json) is a 4-point sweep of mc_quickstart over
// pools.0.count = 6, 8, 10, 12 with 8 replications: 6 nodes saturated in 5 of 8 replications,
// 8 and 10 are on the cost-vs-p90-wait front, 12 is dominated by 10 (same 0 s wait, higher cost).
TEST_CASE("reports::assessment::sweep") {
  SUBCASE(
      "the cost-vs-wait front lists points 1 and 2, cheapest first, with the price of each step") {
    const json a = assess_sweep(load_fixture("sweep.json"));
    CHECK(a["front_wait"] == json::array({1, 2}));
    CHECK(a["front_useful"] == json::array({1}));
    CHECK(plain_text(a["front"]["intro"]) == "2 of 4 points, from cheapest to quickest:");
    REQUIRE(a["front"]["items"].size() == 2);
    CHECK(plain_text(a["front"]["items"][0]["text"])
              .rfind("pools.0.count = 8 (64 GPUs): $176,185.50", 0) == 0);
    // 220,231.87 − 176,185.50 = 44,046.37, which is 25.0% of the cheaper point.
    CHECK(a["front"]["items"][1]["step"].get<std::string>().rfind("$44,046.37 more (+25.0%)", 0) ==
          0);
    CHECK(a["takeaway"]["verdict"] == "choose_on_front");
    CHECK(a["takeaway"]["tone"] == "info");
  }

  SUBCASE("a point busy 5 pp or more longer than it does useful work is named; 4.99 pp is not") {
    json s = load_fixture("sweep.json");
    json& p1 = s["points"][1]["summary"];
    json& p2 = s["points"][2]["summary"];
    // the fixture has no preemption: useful work equals utilization until set here
    p2["metrics.useful_utilization"]["mean"] =
        p2["metrics.gpu_utilization"]["mean"].get<double>() - 0.0501;
    p1["metrics.useful_utilization"]["mean"] =
        p1["metrics.gpu_utilization"]["mean"].get<double>() - 0.0499;
    const std::string text = plain_text(assess_sweep(s)["utilization"]);
    CHECK(contains(text, "front weighs cost against useful work"));
    CHECK(contains(text, "pools.0.count = 10 (80 GPUs) is busy"));
    CHECK_FALSE(contains(text, "pools.0.count = 8 (64 GPUs) is busy"));
  }

  SUBCASE("a saturated point is listed saturated and on no front, whatever the file says") {
    json s = load_fixture("sweep.json");
    s["points"][0]["pareto"]["cost_vs_wait_p90"] = true;
    const json a = assess_sweep(s);
    CHECK(a["saturated_points"] == json::array({0}));
    CHECK(a["front_wait"] == json::array({1, 2}));
    CHECK(a["saturated"]["label"] == "1 point saturated");
    // 0.625 of 8 replications = 5 saturated; offered load 0.9433 rounds to 94%.
    CHECK(contains(plain_text(a["saturated"]["items"][0]),
                   "saturated in 5 of 8 replications; offered load 94% of capacity"));
    CHECK(contains(plain_text(a["saturated"]["after"]), "not meaningful"));
  }

  SUBCASE("offered load of 100% or more counts as saturated though no replication stopped") {
    json s = load_fixture("sweep.json");
    s["points"][1]["offered_load"] = 1.13;
    const json a = assess_sweep(s);
    CHECK(a["saturated_points"] == json::array({0, 1}));
    CHECK(a["front_wait"] == json::array({2}));
    CHECK(contains(plain_text(a["saturated"]["items"][1]),
                   "every replication (demand ≥ capacity); offered load 113% of capacity"));
  }

  SUBCASE("every point saturated: no point keeps up") {
    json s = load_fixture("sweep.json");
    for (json& p : s["points"]) p["saturated_share"] = 1.0;
    const json a = assess_sweep(s);
    CHECK(a["takeaway"]["verdict"] == "no_point_keeps_up");
    CHECK(a["saturated"]["label"] == "4 points saturated");
  }

  SUBCASE("with a p90 wait target it names the cheapest point that meets it, and with 95%") {
    json s = load_fixture("sweep.json");
    // 8 nodes wait 115355 s (32 h) at p90; 10 nodes wait 0 s, so a 1 h target picks 10 nodes.
    s["target"] = {{"wait_p90_s", 3600}};
    json a = assess_sweep(s);
    CHECK(a["takeaway"]["verdict"] == "meets_target");
    CHECK(a["cheapest_meeting_target"] == 2);
    CHECK(a["cheapest_meeting_target_95"] == 2);
    CHECK(contains(plain_text(a["takeaway"]["text"][0]),
                   "within the target of 1 h is pools.0.count = 10 (80 GPUs): $220,231.87"));
    CHECK(contains(plain_text(a["takeaway"]["text"][0]), "meets the target with 95% confidence"));
    // A 2-day target (172800 s) is met by 8 nodes on the mean, but its CI reaches 262422 s (3 d).
    s["target"] = {{"wait_p90_s", 172800}};
    a = assess_sweep(s);
    CHECK(a["cheapest_meeting_target"] == 1);
    CHECK(a["cheapest_meeting_target_95"] == 2);
    CHECK(contains(plain_text(a["takeaway"]["text"][0]),
                   "Its 95% interval reaches 3 d, above the target"));
    // A target of -1 s is below every p90 wait (the shortest is 0 s), so no point meets it.
    s["target"] = {{"wait_p90_s", -1}};
    CHECK(assess_sweep(s)["takeaway"]["verdict"] == "target_not_met");
  }

  SUBCASE("a malformed document is assessed without throwing") {
    CHECK_NOTHROW((void)assess_sweep(json()));
    json s = load_fixture("sweep.json");
    s["points"][0]["summary"] = "oops";
    s["points"][1]["values"] = 3;
    s["points"][2] = nullptr;
    s["vary"] = {{{"path", 7}}};
    CHECK_NOTHROW((void)assess_sweep(s));
  }
}

TEST_CASE("reports::assessment::quote") {
  const json ok = {
      {"feasible", true},    {"instance", "p5.48xlarge"}, {"pricing_label", "on demand"},
      {"total_usd", 1000.0}, {"meets_deadline", true},    {"within_budget", true}};
  json late = ok;
  late["instance"] = "g6.48xlarge";
  late["meets_deadline"] = false;
  late["total_usd"] = 800.0;
  const json cannot = {{"feasible", false}, {"reason", "too little memory"}};

  SUBCASE("the first ranked option that meets every requirement is recommended") {
    const json a = assess_quote({{"training", {late, ok, cannot}}});
    CHECK(a["training"]["recommended"] == 1);
    CHECK(a["training"]["meets_requirements"] == true);
    CHECK(a["training"]["flags"][0] == json::array({"misses deadline"}));
    CHECK(a["training"]["flags"][2] == json::array({"cannot run"}));
    CHECK(plain_text(a["training"]["text"]) ==
          "p5.48xlarge (on demand) at $1,000.00 is the cheapest option that meets the deadline "
          "and the budget.");
    CHECK_FALSE(a.contains("inference"));
  }

  SUBCASE("without an option that meets them, the best runnable one is recommended, flagged") {
    const json a = assess_quote({{"training", {cannot, late}}});
    CHECK(a["training"]["recommended"] == 1);
    CHECK(a["training"]["meets_requirements"] == false);
    CHECK(assess_quote({{"training", {cannot}}})["training"]["recommended"].is_null());
  }

  SUBCASE("an inference option whose engine check disagrees is flagged") {
    json o = {{"feasible", true}, {"meets_target", true}, {"simulation", {{"agrees", false}}}};
    const json a = assess_quote({{"inference", {o}}});
    CHECK(a["inference"]["flags"][0] == json::array({"engine check disagrees"}));
    CHECK(a["inference"]["recommended"] == 0);
    CHECK(a["inference"]["meets_requirements"] == false);
  }

  SUBCASE(
      "an option the step-by-step simulation sees missing a p99 is passed over for one it "
      "sees meeting them") {
    const json misses = {{"feasible", true},
                         {"meets_target", true},
                         {"instance", "g6e.xlarge"},
                         {"serving_simulation", {{"meets_targets", false}}}};
    const json meets = {{"feasible", true},
                        {"meets_target", true},
                        {"instance", "p5.48xlarge"},
                        {"serving_simulation", {{"meets_targets", true}}}};
    const json a = assess_quote({{"inference", {misses, meets}}});
    CHECK(a["inference"]["flags"][0] == json::array({"simulation misses p99"}));
    CHECK(a["inference"]["flags"][1] == json::array());
    CHECK(a["inference"]["recommended"] == 1);
    CHECK(a["inference"]["meets_requirements"] == true);
    // without a simulated option that meets them, the best ranked one is shown, flagged
    const json alone = assess_quote({{"inference", {misses}}});
    CHECK(alone["inference"]["recommended"] == 0);
    CHECK(alone["inference"]["meets_requirements"] == false);
    // a row not simulated (past the rows shown) keeps the analytical verdict
    const json unsimulated = {{"feasible", true}, {"meets_target", true}};
    CHECK(assess_quote({{"inference", {unsimulated}}})["inference"]["meets_requirements"] == true);
  }
}

TEST_CASE("reports::assessment::recommendation") {
  // A `gpuplan recommend` result: the winner's study with the recommendation it carries.
  json r = load_fixture("single_run.json");
  const json row = {{"pool", "main"},
                    {"instance", "p4d.24xlarge"},
                    {"pricing", "reserved_1y"},
                    {"nodes", 5},
                    {"p_slos_met", 1.0},
                    {"cost_usd_total", 13824.0},
                    {"cost_usd_per_month", 60000.0},
                    {"with", json::array({{{"pool", "onprem"},
                                           {"instance", "lab.h100"},
                                           {"pricing", "on_prem"},
                                           {"nodes", 32}}})}};
  json runner = row;
  runner["instance"] = "a2-highgpu-8g";
  runner["cost_usd_total"] = 14915.52;
  runner["p_slos_met"] = 0.9;
  json over = runner;
  over["over_budget"] = true;
  r["recommendation"] = {
      {"probability", 0.9},
      {"replications", 8},
      {"max_usd_per_month", 70000.0},
      {"slos", json::array({{{"metric", "metrics.wait_s.p90"}, {"max", 7200}},
                            {{"metric", "metrics.gpu_utilization"}, {"min", 0.3}}})},
      {"recommended", row},
      {"runners_up", json::array({runner})},
      {"candidates", json::array({row, runner, over})}};
  // The winner's study: eight replications, so each figure has its 95% CI.
  gpuplan::study::Summary winner;
  winner.info.replications = 8;
  winner.stats.paths = {"metrics.wait_s.p90", "metrics.gpu_utilization"};
  winner.stats.stats = {{.n = 8, .mean = 3600.0, .ci95_low = 3000.0, .ci95_high = 4200.0},
                        {.n = 8, .mean = 0.25, .ci95_low = 0.25, .ci95_high = 0.25}};
  const json rec = assess_recommendation(r["recommendation"], winner);
  REQUIRE(rec.is_object());

  SUBCASE("the recommended configuration, its cost and P(SLOs met) lead, with every pool") {
    const std::string text = paragraphs(rec["items"]);
    CHECK(contains(text,
                   "Recommended: 5 × p4d.24xlarge (reserved_1y) in pool main, with 32 × "
                   "lab.h100 (on_prem) in pool onprem"));
    CHECK(contains(text, "$13,824.00 over the window ($60,000.00 per month)"));
    CHECK(contains(text, "every SLO met together in 100.0% of 8 replications (90.0% required)"));
    // one candidate meeting the SLOs was over the $70,000 cap
    CHECK(contains(text,
                   "Budget cap $70,000.00 per month: 1 configuration meeting the SLOs was "
                   "over it"));
  }

  SUBCASE("each SLO shows its target against the achieved mean and its 95% CI") {
    REQUIRE(rec["slos"].size() == 2);
    const json& wait = rec["slos"][0];
    CHECK(wait["target"] == "≤ 2 h");
    CHECK(wait["achieved"] == "1 h");
    CHECK(wait["ci95"] == "50 min – 1.2 h");
    CHECK(wait["within"] == true);
    // 25% is below the 30% floor
    const json& util = rec["slos"][1];
    CHECK(util["target"] == "≥ 30.0%");
    CHECK(util["achieved"] == "25.0%");
    CHECK(util["within"] == false);
    // one replication has no spread, so no CI; a metric the study lacks shows only its target
    winner.info.replications = 1;
    json one = r["recommendation"];
    one["slos"].push_back({{"metric", "metrics.no_such_metric"}, {"max", 1}});
    const json single = assess_recommendation(one, winner);
    CHECK_FALSE(single["slos"][0].contains("ci95"));
    CHECK(single["slos"][0]["achieved"] == "1 h");
    CHECK(single["slos"][2] == json({{"metric", "metrics.no_such_metric"}, {"target", "≤ 1.00"}}));
  }

  SUBCASE("runners-up follow with their cost above the recommendation") {
    REQUIRE(rec["runners_up"].size() == 1);
    const std::string text = plain_text(rec["runners_up"][0]);
    CHECK(contains(text, "5 × a2-highgpu-8g (reserved_1y) in pool main"));
    CHECK(contains(text, "$1,091.52 more"));
    CHECK(contains(text, "SLOs met in 90.0% of replications"));
  }

  SUBCASE("a recommendation that recommends nothing has no such part") {
    CHECK(assess_recommendation(json::object(), winner).is_null());
    CHECK(assess_recommendation(json::array(), winner).is_null());
  }
}

// A result with a failure model: the Llama 3 study's figures (scenarios/llama3_failures.json).
namespace {

json failures_result() {
  return {{"window_s", 54 * 86400.0},
          {"failures",
           {{"failures", 417},
            {"expected_failures", 419.0},
            {"by_cause",
             {{"faulty_gpu", 148}, {"gpu_hbm3_memory", 68}, {"software_bug", 54}, {"ssd", 0}}},
            {"interruptions", 399},
            {"lost_gpu_hours", 592376.9},
            {"down_gpu_hours", 100.8},
            {"spares", 32.0},
            {"spare_swaps", 881},
            {"spare_utilization", 0.084},
            {"effective_training_time", 0.922}}}};
}

}  // namespace

TEST_CASE("reports::assessment::failures") {
  SUBCASE("a result without a failure model has no failures verdict") {
    CHECK(assess_failures(read_facts(json::object())).is_null());
    CHECK(assess(read_facts(json::object()))["failures"].is_null());
  }

  SUBCASE("failures by cause, interruptions, lost work, effective training time and spares") {
    const json a = assess_failures(read_facts(failures_result()));
    const std::string text = paragraphs(a["items"]);
    CHECK(contains(text, "417 hardware failures struck in the 54 d window (419.0 expected"));
    // the three most common causes, most first; a cause that never struck is not named
    CHECK(contains(text, "faulty_gpu 148, gpu_hbm3_memory 68, software_bug 54."));
    CHECK_FALSE(contains(text, "ssd"));
    CHECK(contains(text, "399 job runs were interrupted by a failure, losing 592,377 GPU-h"));
    CHECK(contains(text, "Effective training time 92.2%"));
    CHECK(contains(text,
                   "32 hot spare nodes stood in for 881 failed nodes; on average 8.4% of them"));
    CHECK(assess(read_facts(failures_result()))["failures"] == a);
  }

  SUBCASE("effective training time at 90% reads ok, just below it warns") {
    json r = failures_result();
    r["failures"]["effective_training_time"] = 0.9;
    CHECK(assess_failures(read_facts(r))["tone"] == "ok");
    r["failures"]["effective_training_time"] = 0.8999;
    CHECK(assess_failures(read_facts(r))["tone"] == "warn");
    CHECK(contains(paragraphs(assess_failures(read_facts(r))["items"]), "below 90.0%"));
  }

  SUBCASE("without spares the text says failed nodes stayed out until repaired") {
    json r = failures_result();
    r["failures"]["spares"] = 0.0;
    CHECK(contains(paragraphs(assess_failures(read_facts(r))["items"]), "No hot spares"));
  }
}

// Shared pools as result.json's sharing.pools lists them (docs/scenario-sharing-fleet.md).
namespace {

json sharing_result(double ts_allocation, double ts_used) {
  return {
      {"sharing",
       {{"pools",
         json::array(
             {{{"name", "mig"}, {"sharing", "mig"}, {"allocation", 0.694}, {"compute_used", 0.601}},
              {{"name", "ts"},
               {"sharing", "time_sliced"},
               {"allocation", ts_allocation},
               {"compute_used", ts_used}}})}}}};
}

}  // namespace

TEST_CASE("reports::assessment::sharing") {
  SUBCASE("a result without shared pools has no sharing verdict") {
    CHECK(assess_sharing(read_facts(json::object())).is_null());
    CHECK(assess(read_facts(json::object()))["sharing"].is_null());
  }

  SUBCASE("each pool's allocation is shown beside its compute used, with the definitions") {
    const json a = assess_sharing(read_facts(sharing_result(0.9999, 0.727)));
    const std::string text = paragraphs(a["items"]);
    CHECK(contains(text, "allocation (the pool's gpu_utilization)"));
    CHECK(contains(text, "Pool mig (MIG): 69.4% allocated, 60.1% compute used."));
    // 99.99 − 72.7 = 27.3 pp
    CHECK(contains(text, "Pool ts (time-sliced): 100.0% allocated, 72.7% compute used; 27.3 pp"));
    CHECK(a["tone"] == "warn");
  }

  SUBCASE("a gap of 10 pp is named, 9.9 pp is not") {
    CHECK(assess_sharing(read_facts(sharing_result(0.8, 0.699)))["tone"] == "warn");
    const json a = assess_sharing(read_facts(sharing_result(0.8, 0.701)));
    CHECK(a["tone"] == "ok");
    CHECK_FALSE(contains(paragraphs(a["items"]), "allocated but not used"));
  }
}
