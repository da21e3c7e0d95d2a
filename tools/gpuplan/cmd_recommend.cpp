//! `gpuplan recommend SCENARIO`: reads the scenario once, runs study::recommend (for every
//! candidate instance x pricing the fewest nodes meeting every SLO with the required probability,
//! and the cheapest of them), prints the table and writes recommendation.json and the winner's
//! study.
#include <cstdio>
#include <iostream>

#include "models/input/names.h"
#include "reports/assessment.h"
#include "reports/quantity.h"
#include "reports/recommendation_json.h"
#include "reports/result_json.h"
#include "study/processes.h"
#include "study/recommend.h"
#include "tools/gpuplan/cmd_mc.h"
#include "tools/gpuplan/commands.h"

namespace gpuplan::cli {
namespace {

using nlohmann::json;

struct RecommendOptions {
  ScenarioOptions scenario;
  std::optional<uint32_t> replications;  //!< overrides recommend.replications
  std::string backend = "auto";
};

//! The figure of row `r` at `key` as every command writes its quantity (reports/quantity.h).
std::string cell(const json& r, const char* key) {
  return reports::format_quantity(reports::quantity_of(key), r[key].get<double>());
}

//! "p5.48xlarge spot" and, for a configuration of several pools, " + onprem: 32 x h100 on_prem".
std::string label(const json& r) {
  std::string s = r["instance"].get<std::string>() + " " + r["pricing"].get<std::string>();
  for (const json& w : r["with"])
    s += " + " + w["pool"].get<std::string>() + ": " + cell(w, "nodes") + " x " +
         w["instance"].get<std::string>() + " " + w["pricing"].get<std::string>();
  return s;
}

//! One row of the printed table; `per_useful` is the $/useful GPU-hour cell ("-" for runners-up).
void print_row(const json& r, const std::string& per_useful) {
  std::printf("  %-16s %-12s %6s %7s %8s %16s %11s %11s %10s\n",
              r["instance"].get<std::string>().c_str(), r["pricing"].get<std::string>().c_str(),
              cell(r, "nodes").c_str(), cell(r, "gpus").c_str(), cell(r, "p_slos_met").c_str(),
              cell(r, "cost_usd_total").c_str(), per_useful.c_str(),
              cell(r, "cost_usd_per_job").c_str(), cell(r, "bf16_tflops_per_usd_hour").c_str());
  for (const json& w : r["with"])
    std::printf("    with pool %s: %s %s x %s\n", w["pool"].get<std::string>().c_str(),
                w["instance"].get<std::string>().c_str(), w["pricing"].get<std::string>().c_str(),
                cell(w, "nodes").c_str());
  if (r.contains("schedule") && r["schedule"]["text"].is_string())
    std::printf("    every month: %s\n", r["schedule"]["text"].get<std::string>().c_str());
}

int run_recommend(const RecommendOptions& o) {
  const study::Processes processes;
  if (!processes.ready("recommend")) return 2;
  std::optional<McBackend> backend;
  std::optional<study::ScenarioText> text;
  std::optional<Scenario> sc;
  std::optional<std::vector<study::RecommendOption>> options;
  {
    study::AgreedInputCheck check;
    backend = resolve_backend(o.backend);
    Diagnostics diags;
    // NOTE: the file is read once; every probe loads its variant from this text in memory.
    std::vector<std::string> overrides = o.scenario.overrides;
    if (o.scenario.seed) overrides.push_back("seed=" + std::to_string(*o.scenario.seed));
    if (backend) text = study::read_scenario_text(o.scenario.scenario, overrides, diags);
    if (text) text->data_path = data_path(o.scenario.data_dirs);
    if (text) sc = study::load_variant(*text, {}, diags);
    if (sc && !sc->recommend) {
      std::cerr << o.scenario.scenario
                << ": no \"recommend\" section; add one with \"slos\" and \"candidates\" "
                   "(docs/recommend.md)\n";
    }
    if (sc && sc->recommend) options = study::recommend_options(*text, *sc, diags);
    if (!diags.ok()) print_diagnostics(diags, o.scenario.errors);
    if (!check.agree(backend && sc && sc->recommend && options &&
                     output_folder_ok(output_dir(o.scenario, *sc))))
      return 2;
  }
  study::RecommendRunOptions ro;
  ro.replications = o.replications.value_or(sc->recommend->replications);
  ro.backend = *backend;
  if (!o.scenario.quiet) {
    ro.searching = [](const study::RecommendOption& opt) {
      std::fprintf(stderr, "recommend: %s %s, %u..%u nodes\n", opt.instance.c_str(),
                   std::string(enum_name(opt.pricing)).c_str(), opt.count_min, opt.count_max);
    };
  }
  McCliOptions mc;
  mc.scenario = o.scenario;
  ro.progress = study_options(mc, *backend, "recommend").progress;
  const study::Recommendation r = study::recommend(*text, *sc, std::move(*options), ro);
  if (!study::Processes::root()) return 0;  // rank 0 writes

  const json rec = reports::recommendation_json(*sc, r);
  const std::filesystem::path dir = output_dir(o.scenario, *sc);
  if (r.ranked.empty()) {
    if (!write_outputs(dir, {{"recommendation.json", rec.dump(2) + "\n"}})) return 1;
    if (!o.scenario.quiet) {
      std::printf(
          "%s: no candidate meets every SLO with probability %s%s:\n", sc->name.c_str(),
          reports::format_quantity(reports::Quantity::fraction, sc->recommend->probability).c_str(),
          sc->recommend->max_usd_per_month ? " within the budget" : "");
      for (const json& row : rec["candidates"])
        std::printf("  %s: %s\n", label(row).c_str(),
                    row["lost_because"].get<std::string>().c_str());
      std::printf("wrote %s/recommendation.json\n", dir.string().c_str());
    }
    return 0;
  }
  json result = result_json(*r.best_scenario, *r.best_compiled, r.best);
  result["recommendation"] = rec;
  // NOTE: what report.html shows of the recommendation, beside the winner's assessment.
  if (json verdict = reports::assess_recommendation(rec, r.best); !verdict.is_null())
    result["assessment"]["recommendation"] = std::move(verdict);
  const auto out = stage_outputs(dir);
  if (!out || !write_study(*out, "", result, r.best) ||
      !write_files(*out, {{"recommendation.json", rec.dump(2) + "\n"}}) || !publish(*out))
    return 1;
  if (o.scenario.quiet) return 0;
  const std::string per_useful = cell(rec["recommended"], "cost_usd_per_useful_gpu_hour");
  std::printf(
      "%s: cheapest configuration meeting every SLO%s in >= %s of %s replications\n",
      sc->name.c_str(), sc->recommend->slos_hold == SloPeriod::every_month ? " in every month" : "",
      reports::format_quantity(reports::Quantity::fraction, sc->recommend->probability).c_str(),
      reports::format_quantity(reports::Quantity::count, ro.replications).c_str());
  std::printf("  %-16s %-12s %6s %7s %8s %16s %11s %11s %10s\n", "instance", "pricing", "nodes",
              "GPUs", "P(SLOs)", "cost total", "$/useful-h", "$/job", "TFLOPS/$h");
  print_row(rec["recommended"], per_useful);
  for (const json& row : rec["runners_up"]) print_row(row, "-");
  for (const json& row : rec["candidates"])
    if (row.contains("lost_because"))
      std::printf("  lost: %s: %s\n", label(row).c_str(),
                  row["lost_because"].get<std::string>().c_str());
  std::printf("wrote %s/{recommendation.json,result.json,report.html,replicas.csv,...}\n",
              dir.string().c_str());
  return 0;
}

}  // namespace

CLI::App* add_recommend_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "recommend",
      "Find the cheapest instance, pricing and node count meeting the scenario's SLOs");
  auto opts = std::make_shared<RecommendOptions>();
  add_scenario_options(cmd, opts->scenario);
  cmd->add_option("--replications,-n", opts->replications,
                  "Replications per probe (default: recommend.replications)")
      ->check(CLI::Range(1u, 100000u));
  cmd->add_option("--backend", opts->backend,
                  "Where replicas run (auto: CUDA when a GPU is present)")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  cmd->callback([opts, &exit_code] { exit_code = run_recommend(*opts); });
  return cmd;
}

}  // namespace gpuplan::cli
