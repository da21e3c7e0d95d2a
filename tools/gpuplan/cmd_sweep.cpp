//! `gpuplan sweep SCENARIO --vary PATH=V1,V2,...`: parses the grid, loads every point, runs
//! study::sweep (a Monte Carlo study per point with common random numbers, Pareto fronts of cost)
//! and writes each point's folder and the combined sweep.csv / sweep.json / sweep.html.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>

#include "reports/format.h"
#include "reports/quantity.h"
#include "reports/result_json.h"
#include "reports/sweep_html.h"
#include "reports/sweep_json.h"
#include "study/sweep_grid.h"
#include "study/processes.h"
#include "study/sweep.h"
#include "tools/gpuplan/cmd_mc.h"
#include "tools/gpuplan/commands.h"

namespace gpuplan::cli {
namespace {

struct SweepOptions {
  McCliOptions mc;
  std::vector<std::string> vary;
  std::string wait_target;  //!< --p90-wait-target as written; "" = none
};

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
  const study::Processes processes;
  if (!processes.ready("sweep")) return 2;
  const auto grid = sweep_grid(axes);
  std::vector<Scenario> scenarios;
  std::vector<study::MonteCarloOptions> options;
  {
    study::AgreedInputCheck check;
    const std::optional<McBackend> backend = resolve_backend(o.mc.backend);
    bool ok = backend.has_value();
    // Load every point first: nothing is written when any of them is invalid.
    for (std::size_t i = 0; i < grid.size(); ++i) {
      ScenarioOptions so = o.mc.scenario;
      for (std::size_t a = 0; a < axes.size(); ++a)
        for (const std::string& path : axes[a].paths)
          so.overrides.push_back(path + "=" + axes[a].values[grid[i][a]]);
      auto sc = load_or_report(so);
      if (!sc) {
        ok = false;
        continue;
      }
      scenarios.push_back(std::move(*sc));
      if (backend) {
        options.push_back(study_options(
            o.mc, *backend, "sweep " + std::to_string(i + 1) + "/" + std::to_string(grid.size())));
      }
    }
    if (!check.agree(ok && output_folder_ok(output_dir(o.mc.scenario, scenarios.front()))))
      return 2;
  }

  const std::filesystem::path dir = output_dir(o.mc.scenario, scenarios.front());
  // NOTE: staged on the process that holds the points (rank 0), at its first point.
  std::unique_ptr<reports::OutputFolder> out;
  const study::Sweep sweep = study::sweep(
      scenarios, options,
      [&](std::size_t i, const Scenario& sc, const CompiledScenario& cs, const study::Summary& s) {
        if (!out) out = stage_outputs(dir);
        return out && write_study(*out, "point-" + std::to_string(i), result_json(sc, cs, s), s);
      });
  if (sweep.stopped) return 1;
  if (!sweep.held) return 0;  // rank 0 writes the sweep's files

  const reports::SweepRequest req{scenarios.front().name, scenarios.front().seed, sweep_command(o),
                                  o.mc.replications, wait_target_s};
  std::ostringstream csv;
  reports::write_sweep_csv(axes, grid, sweep, csv);
  const nlohmann::json doc = reports::sweep_json(req, axes, grid, sweep);
  if (!out) out = stage_outputs(dir);
  if (!out ||
      !write_files(*out, {{"sweep.json", doc.dump(2) + "\n"},
                          {"sweep.csv", csv.str()},
                          {"sweep.html", reports::render_sweep_html(doc)}}) ||
      !publish(*out))
    return 1;
  if (!o.mc.scenario.quiet) {
    std::printf(
        "%s: %s points x %s replications (common random numbers)\n", scenarios.front().name.c_str(),
        reports::format_quantity(reports::Quantity::count, double(sweep.points.size())).c_str(),
        reports::format_quantity(reports::Quantity::count, o.mc.replications).c_str());
    for (std::size_t i = 0; i < sweep.points.size(); ++i) {
      const study::SweepPoint& p = sweep.points[i];
      // NOTE: a point that cannot keep up has no meaningful wait, and its cost may cover only
      // the time before its replications stopped.
      if (!p.eligible) {
        std::printf("  point %zu: SATURATED: cannot keep up; figures not meaningful\n", i);
        continue;
      }
      using reports::format_quantity;
      using reports::Quantity;
      std::printf(
          "  point %zu: cost %s, p90 wait %s, utilization %s (useful work %s)%s%s\n", i,
          format_quantity(Quantity::money, p.summary.mean("cost_usd.total")).c_str(),
          format_quantity(Quantity::seconds, p.summary.mean("metrics.wait_s.p90")).c_str(),
          format_quantity(Quantity::fraction, p.summary.mean("metrics.gpu_utilization")).c_str(),
          format_quantity(Quantity::fraction, study::useful_utilization(p.summary).mean).c_str(),
          p.front_cost_wait ? "  [front: cost-wait]" : "",
          p.front_cost_useful_work ? "  [front: cost-useful work]" : "");
    }
    std::printf(
        "  fronts: cost against p90 wait, and cost against useful work (useful / provisioned "
        "GPU-hours: busy time lost to preemption, failures, checkpoints and restarts counts for "
        "nothing)\n");
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
  cmd->add_option("--vary", opts->vary,
                  "Vary scenario values: PATH[,PATH...]=V1,V2,... ('*' matches every entry, "
                  "x0.9 multiplies; repeatable)")
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
