//! `gpuplan sweep SCENARIO --vary PATH=V1,V2,...`: a Monte Carlo study per grid point, with common
//! random numbers across points, a combined sweep.csv / sweep.json / sweep.html and Pareto fronts
//! of cost.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>

#include "reports/csv.h"
#include "reports/format.h"
#include "reports/result_json.h"
#include "reports/sweep_html.h"
#include "sim/mc_mpi.h"
#include "sim/mc_sweep.h"
#include "tools/gpuplan/cmd_mc.h"
#include "tools/gpuplan/commands.h"

namespace gpuplan::cli {
namespace {

using nlohmann::json;

struct SweepOptions {
  McCliOptions mc;
  std::vector<std::string> vary;
  std::string wait_target;  //!< --p90-wait-target as written; "" = none
};

//! The figures of a point that sweep.csv / sweep.json list: mean and 95% CI.
const char* const SWEEP_METRICS[][2] = {
    {"metrics.wait_s.mean", "wait_mean_s"}, {"metrics.wait_s.p90", "wait_p90_s"},
    {"metrics.jct_s.mean", "jct_mean_s"},   {"metrics.gpu_utilization", "gpu_utilization"},
    {"cost_usd.total", "cost_usd_total"},   {"cost_usd.per_gpu_hour", "cost_usd_per_gpu_hour"}};

//! A --vary value as --set parses it: JSON when it parses, else a string.
json value_json(const std::string& text) {
  json v = json::parse(text, nullptr, false);
  return v.is_discarded() ? json(text) : v;
}

//! A word the shell passes through unchanged, or the word in single quotes.
std::string shell_quote(const std::string& word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           (c != '\0' && std::strchr("_./=,:+-@%", c) != nullptr);
  });
  if (plain) return word;
  std::string out = "'";
  for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

//! The command line that reruns the sweep with the same results (output options left out).
std::string sweep_command(const SweepOptions& o) {
  std::string cmd = "gpuplan sweep " + shell_quote(o.mc.scenario.scenario);
  for (const std::string& v : o.vary) cmd += " --vary " + shell_quote(v);
  for (const std::string& v : o.mc.scenario.overrides) cmd += " --set " + shell_quote(v);
  cmd += " --replications " + std::to_string(o.mc.replications);
  if (o.mc.scenario.seed) cmd += " --seed " + std::to_string(*o.mc.scenario.seed);
  if (o.mc.target_ci > 0) {
    cmd += " --target-ci " + reports::format_raw(o.mc.target_ci) + " --max-replications " +
           std::to_string(o.mc.max_replications);
  }
  if (!o.wait_target.empty()) cmd += " --p90-wait-target " + shell_quote(o.wait_target);
  return cmd;
}

int run_sweep(const SweepOptions& o) {
  std::optional<double> wait_target_s;
  if (!o.wait_target.empty()) {
    wait_target_s = parse_duration(o.wait_target);
    if (!wait_target_s || *wait_target_s < 0) {
      std::cerr << "--p90-wait-target: \"" << o.wait_target
                << "\" is not a duration; write seconds or a number with a unit, e.g. 900, 30m "
                   "or 2h\n";
      return 2;
    }
  }
  std::vector<SweepAxis> axes;
  for (const std::string& v : o.vary) {
    std::string error;
    auto axis = parse_sweep_axis(v, error);
    if (!axis) {
      std::cerr << error << "\n";
      return 2;
    }
    axes.push_back(std::move(*axis));
  }
  const MpiSession mpi;
  if (!mpi_ready(mpi, "sweep")) return 2;
  const ProcessGroup world = mpi_world();
  AgreedInputCheck check(world);
  const std::optional<McBackend> backend = resolve_backend(o.mc.backend);
  bool ok = backend.has_value();

  // Load every point first: nothing is written when any of them is invalid.
  const auto grid = sweep_grid(axes);
  std::vector<Scenario> scenarios;
  std::vector<McCliOptions> point_options;
  for (const auto& combo : grid) {
    McCliOptions po = o.mc;
    for (std::size_t a = 0; a < axes.size(); ++a)
      po.scenario.overrides.push_back(axes[a].path + "=" + axes[a].values[combo[a]]);
    auto sc = load_or_report(po.scenario);
    if (!sc) {
      ok = false;
      continue;
    }
    scenarios.push_back(std::move(*sc));
    point_options.push_back(std::move(po));
  }
  if (!check.agree(ok)) return 2;

  const std::filesystem::path dir = output_dir(o.mc.scenario, scenarios.front());
  json points = json::array();
  std::vector<double> cost, wait_p90, util;
  std::vector<bool> eligible;
  for (std::size_t i = 0; i < grid.size(); ++i) {
    const std::string name = "point-" + std::to_string(i);
    const std::string label = "sweep " + std::to_string(i + 1) + "/" + std::to_string(grid.size());
    json result;
    if (const int rc =
            run_study(scenarios[i], point_options[i], *backend, dir / name, label, result))
      return rc;
    json values = json::object(), figures = json::object();
    for (std::size_t a = 0; a < axes.size(); ++a)
      values[axes[a].path] = value_json(axes[a].values[grid[i][a]]);
    for (const auto& [path, column] : SWEEP_METRICS) {
      const json& s = result["summary"][path];
      figures[path] = {
          {"mean", s["mean"]}, {"ci95_low", s["ci95_low"]}, {"ci95_high", s["ci95_high"]}};
    }
    const double saturated = result["monte_carlo"]["saturated_share"].get<double>();
    double gpus = 0;
    for (const json& pool : result["per_pool"]) gpus += pool.value("gpus", 0.0);
    points.push_back({{"point", i},
                      {"dir", name},
                      {"values", values},
                      {"replications", result["replications"]},
                      {"saturated_share", saturated},
                      {"saturation_cause", result["metrics"]["saturation_cause"]},
                      {"offered_load", result["metrics"]["offered_load"]},
                      {"gpus", gpus},
                      {"window_s", result["window_s"]},
                      {"summary", figures}});
    cost.push_back(result["summary"]["cost_usd.total"]["mean"].get<double>());
    wait_p90.push_back(result["summary"]["metrics.wait_s.p90"]["mean"].get<double>());
    util.push_back(result["summary"]["metrics.gpu_utilization"]["mean"].get<double>());
    // NOTE: demand at or above capacity has no steady state even when no replica was stopped.
    eligible.push_back(saturated == 0 &&
                       !overloaded(result["metrics"]["offered_load"].get<double>()));
  }
  if (!world.root()) return 0;  // rank 0 writes the sweep's files

  // NOTE: a point that cannot keep up (a replica saturated, or offered load >= 100%) is on no
  // front.
  const std::vector<bool> front_wait = pareto_front(cost, wait_p90, false, eligible);
  const std::vector<bool> front_util = pareto_front(cost, util, true, eligible);
  json axes_json = json::array();
  for (const SweepAxis& a : axes) {
    json vals = json::array();
    for (const auto& v : a.values) vals.push_back(value_json(v));
    axes_json.push_back({{"path", a.path}, {"values", vals}});
  }
  json wait_idx = json::array(), util_idx = json::array();
  for (std::size_t i = 0; i < points.size(); ++i) {
    points[i]["pareto"] = {{"cost_vs_wait_p90", bool(front_wait[i])},
                           {"cost_vs_utilization", bool(front_util[i])}};
    if (front_wait[i]) wait_idx.push_back(i);
    if (front_util[i]) util_idx.push_back(i);
  }
  json sweep = {
      {"scenario", scenarios.front().name},
      {"gpuplan_version", GPUPLAN_VERSION},
      {"generated_at", utc_now_iso8601()},
      {"command", sweep_command(o)},
      {"seed", scenarios.front().seed},
      {"replications", o.mc.replications},
      {"common_random_numbers", true},
      {"target", wait_target_s ? json::object({{"wait_p90_s", *wait_target_s}}) : json(nullptr)},
      {"vary", axes_json},
      {"points", points},
      {"pareto", {{"cost_vs_wait_p90", wait_idx}, {"cost_vs_utilization", util_idx}}}};

  std::ostringstream csv;
  csv << "point";
  for (const SweepAxis& a : axes) csv << ',' << reports::csv_text_field(a.path);
  csv << ",replications,saturated_share";
  for (const auto& [path, column] : SWEEP_METRICS)
    csv << ',' << column << ',' << column << "_ci95_low," << column << "_ci95_high";
  csv << ",pareto_cost_wait_p90,pareto_cost_utilization\n";
  for (std::size_t i = 0; i < points.size(); ++i) {
    const json& p = points[i];
    csv << i;
    for (std::size_t a = 0; a < axes.size(); ++a)
      csv << ',' << reports::csv_text_field(axes[a].values[grid[i][a]]);
    csv << ',' << p["replications"].get<uint32_t>() << ','
        << reports::format_raw(p["saturated_share"].get<double>());
    for (const auto& [path, column] : SWEEP_METRICS) {
      const json& s = p["summary"][path];
      for (const char* k : {"mean", "ci95_low", "ci95_high"})
        csv << ',' << reports::format_raw(s[k].get<double>());
    }
    csv << ',' << (front_wait[i] ? "true" : "false") << ',' << (front_util[i] ? "true" : "false")
        << '\n';
  }
  sweep["assessment"] = reports::assess_sweep(sweep);  // the verdicts sweep.html shows
  if (!write_outputs(dir, {{"sweep.json", sweep.dump(2) + "\n"},
                           {"sweep.csv", csv.str()},
                           {"sweep.html", reports::render_sweep_html(sweep)}}))
    return 1;
  if (!o.mc.scenario.quiet) {
    std::printf("%s: %zu points x %u replications (common random numbers)\n",
                scenarios.front().name.c_str(), points.size(), o.mc.replications);
    for (std::size_t i = 0; i < points.size(); ++i) {
      // NOTE: a point that cannot keep up has no meaningful wait, and its cost may cover only
      // the time before its replications stopped.
      if (!eligible[i]) {
        std::printf("  point %zu: cannot keep up (saturated); figures not meaningful\n", i);
        continue;
      }
      std::printf("  point %zu: cost $%.2f, p90 wait %.1f s, utilization %.1f%%%s%s\n", i, cost[i],
                  wait_p90[i], 100 * util[i], front_wait[i] ? "  [front: cost-wait]" : "",
                  front_util[i] ? "  [front: cost-utilization]" : "");
    }
    std::printf("wrote %s/{sweep.json,sweep.csv,sweep.html,point-*/}\n", dir.string().c_str());
  }
  return 0;
}

}  // namespace

CLI::App* add_sweep_command(CLI::App& app, int& exit_code) {
  auto* cmd =
      app.add_subcommand("sweep", "Run a Monte Carlo study for every combination of --vary values");
  auto opts = std::make_shared<SweepOptions>();
  add_mc_options(cmd, opts->mc);
  cmd->add_option("--vary", opts->vary, "Vary a scenario value: PATH=V1,V2,... (repeatable)")
      ->type_name("PATH=V1,V2,...")
      ->required();
  cmd->add_option("--p90-wait-target", opts->wait_target,
                  "Service target for the p90 wait (e.g. 2h): sweep.html names the cheapest point "
                  "that meets it")
      ->type_name("DURATION");
  cmd->callback([opts, &exit_code] { exit_code = run_sweep(*opts); });
  return cmd;
}

}  // namespace gpuplan::cli
