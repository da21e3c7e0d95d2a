//! `gpuplan run SCENARIO`: one simulation; writes result.json, report.html and CSVs, and with
//! `--jobs PATH` streams one CSV row per finished job to PATH.
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "models/compile/compile.h"
#include "reports/csv.h"
#include "reports/html_report.h"
#include "reports/jobs_csv_file.h"
#include "reports/quantity.h"
#include "reports/result_json.h"
#include "study/run.h"
#include "study/tco_simulation.h"
#include "tools/gpuplan/commands.h"
#include "tools/gpuplan/console.h"
#include "tools/gpuplan/common.h"

namespace gpuplan::cli {
namespace {

using reports::format_quantity;
using reports::JobsCsvFile;
using reports::JobsCsvWriteError;
using reports::Quantity;
using reports::render_html_report;
using reports::write_per_class_csv;
using reports::write_timeseries_csv;

// Whether the --jobs file `jobs` lies directly in the output folder `dir` (symlinks resolved).
bool jobs_path_in(const std::filesystem::path& dir, const std::string& jobs) {
  std::error_code ec;
  const auto folder = std::filesystem::weakly_canonical(std::filesystem::absolute(dir, ec), ec);
  const auto parent =
      std::filesystem::weakly_canonical(std::filesystem::absolute(jobs, ec).parent_path(), ec);
  return !ec && folder == parent;
}

struct RunOptions {
  ScenarioOptions scenario;
  MetricsOptions metrics;
  std::string jobs;  //!< --jobs PATH: per-job CSV ("" = none)
};

int run(const RunOptions& ro) {
  const ScenarioOptions& o = ro.scenario;
  auto sc = load_or_report(o);
  if (!sc) return 2;
  print_load_warnings(*sc);
  const CompiledScenario cs = compile(*sc);
  const auto dir = output_dir(o, *sc);
  // NOTE: a --jobs file inside the output folder is one of its files: staged and published with
  // the others (the folder is replaced as a whole).
  std::vector<std::string> jobs_in_folder;
  if (!ro.jobs.empty() && jobs_path_in(dir, ro.jobs)) {
    jobs_in_folder.push_back(std::filesystem::path(ro.jobs).filename().string());
  }
  if (!output_folder_ok(dir, jobs_in_folder)) return 2;
  // NOTE: the per-job file is opened before simulating, so a bad --jobs costs no run.
  std::unique_ptr<JobsCsvFile> jobs;
  std::unique_ptr<reports::OutputFolder> out;
  JobRecordSink sink;
  if (!ro.jobs.empty()) {
    std::filesystem::path jobs_path = ro.jobs;
    if (!jobs_in_folder.empty()) {
      out = stage_outputs(dir, jobs_in_folder);
      if (!out) return 1;
      jobs_path = out->staged(jobs_in_folder.front());
    }
    jobs = std::make_unique<JobsCsvFile>(jobs_path, cs.class_names, cs.pool_names);
    if (!jobs->error().empty()) {
      std::cerr << "--jobs " << ro.jobs << ": " << jobs->error() << "\n";
      return 2;
    }
    sink = [&jobs](const JobRecord* records, std::size_t n) { jobs->write(records, n); };
  }
  std::optional<study::Summary> summary;
  try {
    summary = study::run(*sc, cs, {.jobs = sink});
  } catch (const JobsCsvWriteError& e) {
    // NOTE: the writer's temp file goes with `jobs`, so a failed write leaves no file behind.
    std::cerr << "--jobs " << ro.jobs << ": " << e.what() << "\n";
    return 1;
  }
  study::simulate_tco_options(*sc, *summary, 1);
  const study::Summary& s = *summary;
  const nlohmann::json result = result_json(*sc, cs, s);

  std::ostringstream series_csv, classes_csv;
  write_timeseries_csv(result, series_csv);
  write_per_class_csv(result, classes_csv);
  // NOTE: the per-job file is completed first, so the outputs never appear without it.
  if (jobs && !jobs->commit()) {
    std::cerr << "--jobs " << ro.jobs << ": " << jobs->error() << "\n";
    return 1;
  }
  if (!out) out = stage_outputs(dir, jobs_in_folder);
  std::string text = result.dump(2) + "\n";  // serialised once, for the file and the page
  std::string page = render_html_report(result, text);
  // NOTE: moved in, not listed in braces: an initializer list copies every text (the page is
  // hundreds of kB, each copy fresh pages to fault in).
  OutputFiles files;
  files.emplace_back("result.json", std::move(text));
  files.emplace_back("report.html", std::move(page));
  files.emplace_back("timeseries.csv", std::move(series_csv).str());
  files.emplace_back("classes.csv", std::move(classes_csv).str());
  if (result.contains("per_team")) {
    std::ostringstream teams_csv;
    reports::write_per_team_csv(result, teams_csv);
    files.emplace_back("teams.csv", std::move(teams_csv).str());
  }
  for (auto& f : metrics_files(ro.metrics, result)) files.push_back(std::move(f));
  if (!out || !write_files(*out, files) || !publish(*out)) return 1;
  if (!o.quiet) {
    const ReplicaMetrics& m = s.single->metrics;
    const std::string counts =
        format_quantity(Quantity::count, double(m.jobs_submitted)) + " jobs submitted, " +
        format_quantity(Quantity::count, double(m.jobs_completed)) +
        " completed; GPU utilization " + format_quantity(Quantity::fraction, m.gpu_utilization);
    const std::string cost = "cost " + format_quantity(Quantity::money, m.cost_usd);
    // NOTE: the waits of a run that cannot keep up grow with the horizon, so a mean wait would
    // only mislead; the verdict is the one report.html shows.
    if (const std::string notice = saturation_notice(result); !notice.empty()) {
      std::printf("%s: %s (see report.html); %s; %s\n", sc->name.c_str(), notice.c_str(),
                  counts.c_str(), cost.c_str());
    } else {
      std::printf("%s: %s; mean wait %s (p90 %s); %s\n", sc->name.c_str(), counts.c_str(),
                  format_quantity(Quantity::seconds, m.wait_s.mean).c_str(),
                  format_quantity(Quantity::seconds, m.wait_s.p90).c_str(), cost.c_str());
    }
    if (const std::string tco = tco_notice(result); !tco.empty())
      std::printf("%s: %s\n", sc->name.c_str(), tco.c_str());
    for (const std::string& line : section_notices(result))
      std::printf("%s: %s\n", sc->name.c_str(), line.c_str());
    std::printf(
        "wrote %s/{result.json,report.html,timeseries.csv,classes.csv%s}\n", dir.string().c_str(),
        ro.metrics.openmetrics ? ",metrics.om,grafana_dashboard.json,prometheus_rules.yml" : "");
    if (jobs)
      std::printf("wrote %s job rows to %s\n",
                  format_quantity(Quantity::count, double(jobs->rows())).c_str(), ro.jobs.c_str());
  }
  return 0;
}

}  // namespace

CLI::App* add_run_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("run", "Simulate a scenario once");
  auto opts = std::make_shared<RunOptions>();
  add_scenario_options(cmd, opts->scenario);
  add_metrics_options(cmd, opts->metrics);
  cmd->add_option("--jobs", opts->jobs,
                  "Also write one CSV row per finished job, in completion order, to this file");
  cmd->callback([opts, &exit_code] { exit_code = run(*opts); });
  return cmd;
}

}  // namespace gpuplan::cli
