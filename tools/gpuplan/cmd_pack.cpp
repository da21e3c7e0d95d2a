//! `gpuplan pack openb [--policy P,...] [--seed N] [--seeds K] [--load X] [--order trace|shuffled]
//! [--departures] [--data-dir DIR] [--json] [--out DIR]`: replays the Alibaba openb workload onto
//! its cluster under each packing policy (sim/sharing/, study/pack_replay.h) and writes
//! result.json with every run's figures and allocation curve. Bad input: one line per problem on
//! stderr naming the flag or the file:line and column, exit 2, nothing written.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/input/data_files.h"
#include "models/trace/openb_trace.h"
#include "reports/pack_json.h"
#include "study/pack_replay.h"
#include "tools/gpuplan/commands.h"
#include "tools/gpuplan/common.h"

namespace gpuplan::cli {
namespace {

constexpr double MAX_LOAD = 4;
constexpr uint32_t MAX_SEEDS = 1000;

//! Flags as typed; checked together in parse_flags.
struct PackFlags {
  std::vector<std::string> policies;
  std::string seed = "42", seeds = "1", load = "1", order = "trace", popularity = "0.95";
  std::string out;
  std::vector<std::string> data_dirs;
  bool departures = false, as_json = false;
};

//! The runs the flags ask for, or the problems with them.
struct PackPlan {
  std::vector<PackReplayOptions> runs;
  std::vector<std::string> problems;
};

std::optional<double> number(const std::string& text) {
  try {
    size_t used = 0;
    const double v = std::stod(text, &used);
    if (used != text.size() || !std::isfinite(v)) return std::nullopt;
    return v;
  } catch (...) {
    return std::nullopt;
  }
}

PackPlan parse_flags(const PackFlags& f) {
  PackPlan plan;
  auto bad = [&](const std::string& flag, const std::string& msg) {
    plan.problems.push_back(flag + ": " + msg);
  };
  std::vector<sharing::PackPolicy> policies;
  for (const std::string& name : f.policies) {
    if (const auto p = find_pack_policy(name))
      policies.push_back(*p);
    else
      bad("--policy", "unknown policy \"" + name + "\"; choose fgd, best-fit, worst-fit or random");
  }
  if (f.policies.empty())
    policies = {sharing::PackPolicy::fgd, sharing::PackPolicy::best_fit,
                sharing::PackPolicy::worst_fit, sharing::PackPolicy::random};
  const auto seed = number(f.seed);
  if (!seed || *seed < 0 || *seed != std::floor(*seed) || *seed > 9.007e15)
    bad("--seed", "\"" + f.seed + "\" is not a whole number ≥ 0");
  const auto seeds = number(f.seeds);
  if (!seeds || *seeds < 1 || *seeds > MAX_SEEDS || *seeds != std::floor(*seeds))
    bad("--seeds", "\"" + f.seeds + "\" is not a whole number in 1..1000");
  const auto load = number(f.load);
  if (!load || *load <= 0 || *load > MAX_LOAD)
    bad("--load", "\"" + f.load + "\" is not a number in (0, 4] (arrived GPU demand ÷ capacity)");
  const auto popularity = number(f.popularity);
  if (!popularity || *popularity <= 0 || *popularity > 1)
    bad("--popularity", "\"" + f.popularity + "\" is not a number in (0, 1]");
  if (f.order != "trace" && f.order != "shuffled")
    bad("--order", "\"" + f.order + "\" is not trace or shuffled");
  if (f.departures && f.order != "trace")
    bad("--order", "with --departures pods arrive at their creation times; drop --order");
  if (!plan.problems.empty()) return plan;
  for (sharing::PackPolicy p : policies)
    for (uint32_t s = 0; s < static_cast<uint32_t>(*seeds); ++s) {
      PackReplayOptions o;
      o.policy = p;
      o.seed = static_cast<uint64_t>(*seed) + s;
      o.load = *load;
      o.order = f.order == "shuffled" ? PodOrder::shuffled : PodOrder::trace;
      o.departures = f.departures;
      o.popularity = *popularity;
      plan.runs.push_back(o);
    }
  return plan;
}

//! The openb trace from the data path; nullopt after printing why (exit 2).
std::optional<OpenbTrace> load_openb(const std::vector<std::string>& data_dirs) {
  const auto path = data_path(data_dirs);
  Diagnostics diags;
  const auto nodes = find_data_file(OPENB_NODES_FILE, "", path, "node list", "", diags);
  const auto pods = find_data_file(OPENB_PODS_FILE, "", path, "pod list", "", diags);
  std::optional<OpenbTrace> trace;
  if (nodes && pods) trace = read_openb(*nodes, *pods, diags);
  if (!trace) print_diagnostics(diags, "text");
  return trace;
}

void print_table(const std::vector<PackReplayResult>& runs) {
  std::printf("%-10s %6s %12s %12s %12s %12s\n", "policy", "seed", "arrived %", "allocated %",
              "frag GPUs", "unplaceable");
  for (const PackReplayResult& r : runs)
    std::printf("%-10s %6llu %12.1f %12.2f %12.1f %12u\n", pack_policy_name(r.options.policy),
                static_cast<unsigned long long>(r.options.seed), 100 * r.arrived_load,
                100 * r.allocation_ratio, r.fragmented_gpus, r.pods_unplaceable);
  if (!runs.empty() && runs.front().options.departures)
    std::printf(
        "(with departures: allocated %% is the time-weighted mean, frag GPUs at the peak)\n");
}

int run_pack(const PackFlags& f) {
  const PackPlan plan = parse_flags(f);
  if (!plan.problems.empty()) {
    for (const auto& p : plan.problems) std::cerr << "gpuplan pack: " << p << "\n";
    return 2;
  }
  const std::filesystem::path dir =
      f.out.empty() ? std::filesystem::path("out/pack-openb") : std::filesystem::path(f.out);
  if (!output_folder_ok(dir)) return 2;
  const auto trace = load_openb(f.data_dirs);
  if (!trace) return 2;
  std::vector<PackReplayResult> runs;
  for (const PackReplayOptions& o : plan.runs) runs.push_back(replay_openb(*trace, o));
  const nlohmann::json result = reports::pack_json("openb", runs);
  if (!write_outputs(dir, {{"result.json", result.dump(2) + "\n"}})) return 1;
  if (f.as_json)
    std::cout << result.dump(2) << "\n";
  else
    print_table(runs);
  return 0;
}

}  // namespace

CLI::App* add_pack_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("pack", "Pack shared-GPU pods onto a cluster under each policy");
  cmd->require_subcommand(1);
  auto flags = std::make_shared<PackFlags>();
  auto* openb = cmd->add_subcommand(
      "openb",
      "Replay the Alibaba openb trace (FGD, ATC'23) under fgd, best-fit, worst-fit, random");
  openb->add_option("--policy", flags->policies, "Policies to compare (default: all four)")
      ->delimiter(',')
      ->type_name("fgd|best-fit|worst-fit|random");
  openb->add_option("--seed", flags->seed, "Seed of the first run (default 42)");
  openb->add_option("--seeds", flags->seeds, "Runs per policy, seeds seed..seed+K-1 (default 1)");
  openb->add_option("--load", flags->load,
                    "Stop arrivals at this arrived GPU demand ÷ capacity (default 1)");
  openb->add_option("--order", flags->order, "Arrival order: trace (default) or shuffled");
  openb->add_option("--popularity", flags->popularity,
                    "Share of pods the typical shapes cover (default 0.95)");
  openb->add_flag("--departures", flags->departures,
                  "Pods arrive at creation and leave at deletion time");
  openb->add_option("--out", flags->out, "Output folder (default out/pack-openb)");
  add_data_dir_option(openb, flags->data_dirs);
  openb->add_flag("--json", flags->as_json, "Print result.json on stdout instead of a table");
  openb->callback([flags, &exit_code] { exit_code = run_pack(*flags); });
  return cmd;
}

}  // namespace gpuplan::cli
