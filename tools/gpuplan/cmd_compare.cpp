//! `gpuplan compare A.json B.json`: a paired Monte Carlo of two scenarios with common random
//! numbers (study::compare); writes compare.json, compare.html and each side's study in a/ and b/.
#include <cstdio>
#include <iostream>

#include "models/compile/compile.h"
#include "reports/compare_json.h"
#include "reports/quantity.h"
#include "reports/result_json.h"
#include "study/compare.h"
#include "study/processes.h"
#include "tools/gpuplan/cmd_mc.h"
#include "tools/gpuplan/commands.h"

namespace gpuplan::cli {
namespace {

struct CompareOptions {
  McCliOptions mc;    //!< mc.scenario holds A, --out, --seed, --set, --errors, --quiet
  std::string other;  //!< B
  std::vector<std::string> set_a, set_b;  //!< --set-a / --set-b: overrides of one side only
};

//! "+1.5 s (95% CI +0.9 s to +2.1 s)" for a difference and its paired CI, written as its
//! quantity (reports/quantity.h), with "*" when significant.
std::string difference_text(const study::Difference& d) {
  const reports::Quantity q = reports::quantity_of(d.path);
  return reports::format_change(q, d.paired.mean) + " (95% CI " +
         reports::format_change(q, d.paired.ci95_low) + " to " +
         reports::format_change(q, d.paired.ci95_high) + ")" + (d.significant ? "  *" : "");
}

//! "lab (pools.0.count=12): scenarios/lab.json; --set x=1; --set-b pools.0.count=12"
std::string side_text(const nlohmann::json& side, const char* own_flag) {
  std::string t = side.value("label", "") + ": " + side.value("file", "");
  for (const auto& [key, flag] : {std::pair{"shared", "--set"}, std::pair{"own", own_flag}})
    for (const nlohmann::json& o : side["overrides"][key])
      t += std::string("; ") + flag + " " + o.get<std::string>();
  return t;
}

//! The output folder: --out, or out/compare-<a>-vs-<b>/.
std::filesystem::path compare_dir(const CompareOptions& o, const Scenario& a, const Scenario& b) {
  if (!o.mc.scenario.out_dir.empty()) return o.mc.scenario.out_dir;
  return std::filesystem::path("out") / ("compare-" + a.name + "-vs-" + b.name);
}

int run_compare(const CompareOptions& o) {
  const study::Processes processes;
  if (!processes.ready("compare")) return 2;
  std::optional<McBackend> backend;
  std::optional<Scenario> a, b;
  ScenarioOptions a_options = o.mc.scenario, b_options = o.mc.scenario;
  a_options.overrides.insert(a_options.overrides.end(), o.set_a.begin(), o.set_a.end());
  b_options.scenario = o.other;
  b_options.overrides.insert(b_options.overrides.end(), o.set_b.begin(), o.set_b.end());
  {
    study::AgreedInputCheck check;
    backend = resolve_backend(o.mc.backend);
    if (backend) {
      a = load_or_report(a_options);
      b = load_or_report(b_options);
    }
    // NOTE: replica k's random numbers are keyed by (seed, k): only one seed pairs the replicas.
    if (a && b && a->seed != b->seed) {
      std::cerr << "gpuplan compare: " << o.mc.scenario.scenario << " has seed " << a->seed
                << " and " << o.other << " has seed " << b->seed
                << "; common random numbers need one seed: pass --seed N to use it for both\n";
      a.reset();
    }
    if (!check.agree(backend && a && b && output_folder_ok(compare_dir(o, *a, *b)))) return 2;
  }
  const CompiledScenario ca = compile(*a), cb = compile(*b);
  const study::Comparison c =
      study::compare(*a, ca, *b, cb, study_options(o.mc, *backend, "compare"));
  if (!c.held()) return 0;  // rank 0 writes

  const std::filesystem::path dir = compare_dir(o, *a, *b);
  const nlohmann::json doc = reports::compare_json({*a, ca, o.mc.scenario.overrides, o.set_a},
                                                   {*b, cb, o.mc.scenario.overrides, o.set_b}, c);
  const auto out = stage_outputs(dir);
  if (!out || !write_study(*out, "a", result_json(*a, ca, c.a), c.a) ||
      !write_study(*out, "b", result_json(*b, cb, c.b), c.b) ||
      !write_files(*out, {{"compare.json", doc.dump(2) + "\n"},
                          {"compare.html", reports::render_compare_html(doc)}}) ||
      !publish(*out))
    return 1;
  if (o.mc.scenario.quiet) return 0;
  std::printf("%s vs %s: %s paired replications (common random numbers, seed %llu)\n",
              doc["a"]["label"].get<std::string>().c_str(),
              doc["b"]["label"].get<std::string>().c_str(),
              reports::format_quantity(reports::Quantity::count, double(c.paired.size())).c_str(),
              static_cast<unsigned long long>(a->seed));
  std::printf("  A: %s\n  B: %s\n", side_text(doc["a"], "--set-a").c_str(),
              side_text(doc["b"], "--set-b").c_str());
  std::printf("  %-32s %14s %14s   %s\n", "metric", "A", "B", "B - A (95% CI)  (* significant)");
  for (const study::Difference& d : c.differences)
    std::printf("  %-32s %14s %14s   %s\n", d.path.c_str(),
                reports::format_quantity(reports::quantity_of(d.path), d.a_mean).c_str(),
                reports::format_quantity(reports::quantity_of(d.path), d.b_mean).c_str(),
                difference_text(d).c_str());
  for (const nlohmann::json& w : doc["warnings"])
    std::printf("  warning: %s\n", w.get<std::string>().c_str());
  for (const char* side : {"a", "b"})
    for (const nlohmann::json& w : doc[side]["warnings"])
      std::printf("  %s warning: %s\n", side[0] == 'a' ? "A" : "B", w.get<std::string>().c_str());
  std::printf("wrote %s/{compare.json,compare.html,a/,b/}\n", dir.string().c_str());
  return 0;
}

}  // namespace

CLI::App* add_compare_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "compare", "Compare two scenarios by a paired Monte Carlo study (common random numbers)");
  auto opts = std::make_shared<CompareOptions>();
  McCliOptions& mc = opts->mc;
  cmd->add_option("A", mc.scenario.scenario, "Baseline scenario file")->required();
  cmd->add_option("B", opts->other, "Scenario compared with it (differences are B - A)")
      ->required();
  cmd->add_option("--out", mc.scenario.out_dir,
                  "Output folder (default out/compare-<A name>-vs-<B name>/)");
  cmd->add_option("--seed", mc.scenario.seed, "Seed for both scenarios");
  cmd->add_option("--set", mc.scenario.overrides,
                  "Override a value in both scenarios: PATH=VALUE (repeatable)")
      ->type_name("PATH=VALUE");
  cmd->add_option("--set-a", opts->set_a, "Override a value in A only (after --set; repeatable)")
      ->type_name("PATH=VALUE");
  cmd->add_option("--set-b", opts->set_b,
                  "Override a value in B only (after --set; repeatable), e.g. to compare a "
                  "scenario with a variant of itself")
      ->type_name("PATH=VALUE");
  cmd->add_option("--errors", mc.scenario.errors, "Format of input errors")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->add_flag("--quiet,-q", mc.scenario.quiet, "No progress or summary output");
  cmd->add_option("--replications,-n", mc.replications, "Replications of each scenario")
      ->check(CLI::Range(2u, 100000000u));
  cmd->add_option("--backend", mc.backend, "Where replicas run (auto: CUDA when a GPU is present)")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  cmd->add_option("--threads", mc.threads, "CPU threads (default: all cores)")
      ->check(CLI::Range(1u, 4096u));
  cmd->add_option("--batch", mc.batch, "Replications per batch (default: sized from memory)")
      ->check(CLI::Range(1u, 100000000u));
  cmd->callback([opts, &exit_code] { exit_code = run_compare(*opts); });
  return cmd;
}

}  // namespace gpuplan::cli
