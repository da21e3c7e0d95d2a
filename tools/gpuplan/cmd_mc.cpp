//! `gpuplan mc SCENARIO`: a Monte Carlo study; writes result.json, report.html and CSVs.
#include "tools/gpuplan/cmd_mc.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "models/compile/compile.h"
#include "reports/csv.h"
#include "reports/html_report.h"
#include "reports/quantity.h"
#include "reports/replicas_csv.h"
#include "reports/result_json.h"
#include "sim/backends/mc_cuda.h"
#include "study/processes.h"
#include "study/tco_simulation.h"
#include "tools/gpuplan/commands.h"
#include "tools/gpuplan/console.h"

namespace gpuplan::cli {
namespace {

std::string mebibytes(std::size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f MiB", double(bytes) / (1024.0 * 1024.0));
  return buf;
}

//! Prints the plan once on stderr, then a counter rewritten in place when stderr is a terminal.
auto progress_printer(const std::string& label, bool quiet) {
  const bool tty = !quiet && isatty(STDERR_FILENO) == 1;
  return [label, quiet, tty](const McStudy& st, uint32_t done, uint32_t planned) {
    if (quiet) return;
    if (done == 0) {
      std::fprintf(stderr, "%s: backend %s (%s); %s per replica; batches of %u replicas\n",
                   label.c_str(), backend_name(st.backend), st.device.c_str(),
                   mebibytes(st.bytes_per_replica).c_str(), st.batch_size);
      return;
    }
    if (!tty) return;
    std::fprintf(stderr, "\r%s: %u/%u replications (%.0f%%)%s", label.c_str(), done, planned,
                 100.0 * done / planned, done == planned ? "\n" : "");
  };
}

//! "mean [ci95_low, ci95_high]" of a metric path, written as its quantity (reports/quantity.h).
std::string with_ci(const study::Summary& s, const char* path) {
  const study::Statistic m = s.stat(path);
  const auto sp =
      m.spread.value_or(study::Statistic::Spread{m.mean, m.mean, m.mean, m.mean, m.mean});
  return reports::format_with_ci(reports::quantity_of(path), m.mean, sp.ci95_low, sp.ci95_high);
}

int run_mc(const McCliOptions& o) {
  const study::Processes processes;
  if (!processes.ready("mc")) return 2;
  std::optional<McBackend> backend;
  std::optional<Scenario> sc;
  {
    study::AgreedInputCheck check;
    backend = resolve_backend(o.backend);
    if (backend) sc = load_or_report(o.scenario);
    if (!check.agree(backend && sc && output_folder_ok(output_dir(o.scenario, *sc)))) return 2;
  }
  if (processes.root()) print_load_warnings(*sc);
  const CompiledScenario cs = compile(*sc);
  study::Summary s = study::monte_carlo(*sc, cs, study_options(o, *backend, "mc"));
  if (!s.held) return 0;  // another process prints and writes
  study::simulate_tco_options(
      *sc, s, std::min(s.info.replications, study::SIMULATED_OPTION_REPLICATIONS), o.threads);
  const std::filesystem::path dir = output_dir(o.scenario, *sc);
  const nlohmann::json result = result_json(*sc, cs, s);
  const auto out = stage_outputs(dir);
  if (!out || !write_study(*out, "", result, s) ||
      !write_files(*out, metrics_files(o.metrics, result)) || !publish(*out))
    return 1;
  if (o.scenario.quiet) return 0;
  // NOTE: as `run`: waits of replications that cannot keep up grow with the horizon, so their
  // means would only mislead.
  const std::string replications =
      reports::format_quantity(reports::Quantity::count, s.info.replications);
  if (const std::string notice = saturation_notice(result); !notice.empty()) {
    std::printf(
        "%s: %s replications; %s (see report.html); GPU utilization %s; cost %s (means, "
        "[95%% CI])\n",
        sc->name.c_str(), replications.c_str(), notice.c_str(),
        with_ci(s, "metrics.gpu_utilization").c_str(), with_ci(s, "cost_usd.total").c_str());
  } else {
    std::printf(
        "%s: %s replications; mean wait %s; mean JCT %s; GPU utilization %s; cost %s "
        "(means, [95%% CI])\n",
        sc->name.c_str(), replications.c_str(), with_ci(s, "metrics.wait_s.mean").c_str(),
        with_ci(s, "metrics.jct_s.mean").c_str(), with_ci(s, "metrics.gpu_utilization").c_str(),
        with_ci(s, "cost_usd.total").c_str());
  }
  if (const std::string tco = tco_notice(result); !tco.empty())
    std::printf("%s: %s\n", sc->name.c_str(), tco.c_str());
  for (const std::string& line : section_notices(result))
    std::printf("%s: %s\n", sc->name.c_str(), line.c_str());
  std::printf(
      "wrote %s/{result.json,report.html,replicas.csv,timeseries.csv,classes.csv%s}\n",
      dir.string().c_str(),
      o.metrics.openmetrics ? ",metrics.om,grafana_dashboard.json,prometheus_rules.yml" : "");
  return 0;
}

}  // namespace

void add_mc_options(CLI::App* cmd, McCliOptions& o) {
  add_scenario_options(cmd, o.scenario);
  cmd->add_option("--replications,-n", o.replications,
                  "Replications to run (the minimum with --target-ci)")
      ->check(CLI::Range(1u, 100000000u));
  cmd->add_option("--max-replications", o.max_replications,
                  "Most replications --target-ci may add up to")
      ->check(CLI::Range(1u, 100000000u));
  cmd->add_option("--backend", o.backend, "Where replicas run (auto: CUDA when a GPU is present)")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  cmd->add_option("--threads", o.threads, "CPU threads (default: all cores)")
      ->check(CLI::Range(1u, 4096u));
  cmd->add_option("--batch", o.batch, "Replications per batch (default: sized from memory)")
      ->check(CLI::Range(1u, 100000000u));
  cmd->add_option("--target-ci", o.target_ci,
                  "Add batches until every headline 95% CI half-width is at most this share of "
                  "its mean (e.g. 0.02)")
      ->check(CLI::Range(1e-9, 1.0));
}

std::optional<McBackend> resolve_backend(const std::string& name) {
  if (name == "cpu") return McBackend::cpu;
  const bool cuda = cuda_backend_available();
  if (name == "auto") return cuda ? McBackend::cuda : McBackend::cpu;
  if (cuda) return McBackend::cuda;
  std::cerr << "--backend cuda: " << cuda_module().why_not() << "; use --backend cpu or auto\n";
  return std::nullopt;
}

study::MonteCarloOptions study_options(const McCliOptions& o, McBackend backend,
                                       const std::string& label) {
  study::MonteCarloOptions mo;
  mo.replications = o.replications;
  mo.max_replications = o.max_replications;
  mo.batch = o.batch;
  mo.threads = o.threads;
  mo.backend = backend;
  mo.target_ci_rel = o.target_ci;
  mo.progress = progress_printer(label, o.scenario.quiet);
  return mo;
}

bool write_study(reports::OutputFolder& out, const std::string& sub, const nlohmann::json& result,
                 const study::Summary& s) {
  std::ostringstream replicas_csv, series_csv, classes_csv;
  reports::write_replicas_csv(s, replicas_csv);
  reports::write_timeseries_csv(result, series_csv);
  reports::write_per_class_csv(result, classes_csv);
  const std::string at = sub.empty() ? "" : sub + "/";
  // NOTE: the page's data island is made from result.json's text: serialised once.
  std::string text = result.dump(2) + "\n";
  std::string page = reports::render_html_report(result, text);
  OutputFiles files;  // moved in: an initializer list would copy every text
  files.emplace_back(at + "result.json", std::move(text));
  files.emplace_back(at + "report.html", std::move(page));
  files.emplace_back(at + "replicas.csv", std::move(replicas_csv).str());
  files.emplace_back(at + "timeseries.csv", std::move(series_csv).str());
  files.emplace_back(at + "classes.csv", std::move(classes_csv).str());
  if (result.contains("per_team")) {
    std::ostringstream teams_csv;
    reports::write_per_team_csv(result, teams_csv);
    files.emplace_back(at + "teams.csv", std::move(teams_csv).str());
  }
  return write_files(out, files);
}

CLI::App* add_mc_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("mc", "Run a Monte Carlo study of a scenario");
  auto opts = std::make_shared<McCliOptions>();
  add_mc_options(cmd, *opts);
  add_metrics_options(cmd, opts->metrics);
  cmd->callback([opts, &exit_code] { exit_code = run_mc(*opts); });
  return cmd;
}

}  // namespace gpuplan::cli
