//! `gpuplan run SCENARIO`: one simulation; writes result.json, report.html and CSVs.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "models/compile.h"
#include "reports/csv.h"
#include "reports/html_report.h"
#include "reports/result_json.h"
#include "study/run.h"
#include "tools/gpuplan/commands.h"
#include "tools/gpuplan/common.h"

namespace gpuplan::cli {
namespace {

using reports::render_html_report;
using reports::write_jobs_csv;
using reports::write_per_class_csv;
using reports::write_timeseries_csv;

int run(const ScenarioOptions& o) {
  auto sc = load_or_report(o);
  if (!sc) return 2;
  const CompiledScenario cs = compile(*sc);
  std::vector<JobRecord> records;
  study::RunOptions ro;
  ro.jobs = [&records](const JobRecord* r, std::size_t n) {
    records.insert(records.end(), r, r + n);
  };
  const study::Summary s = study::run(*sc, cs, ro);
  const nlohmann::json result = result_json(*sc, cs, s);

  // Records arrive in finish order; the CSV lists jobs in submission order.
  std::sort(records.begin(), records.end(), [](const JobRecord& a, const JobRecord& b) {
    return a.submit_s != b.submit_s     ? a.submit_s < b.submit_s
           : a.class_idx != b.class_idx ? a.class_idx < b.class_idx
                                        : a.job_idx < b.job_idx;
  });
  std::ostringstream jobs_csv, series_csv, classes_csv;
  write_jobs_csv(records, cs.class_names, cs.pool_names, jobs_csv);
  write_timeseries_csv(result, series_csv);
  write_per_class_csv(result, classes_csv);
  const auto dir = output_dir(o, *sc);
  if (!write_outputs(dir, {{"result.json", result.dump(2) + "\n"},
                           {"report.html", render_html_report(result)},
                           {"jobs.csv", jobs_csv.str()},
                           {"timeseries.csv", series_csv.str()},
                           {"classes.csv", classes_csv.str()}}))
    return 1;
  if (!o.quiet) {
    const ReplicaMetrics& m = s.single->metrics;
    std::printf(
        "%s: %llu jobs submitted, %llu completed; GPU utilization %.1f%%; mean wait %.1f s "
        "(p90 %.1f s); cost $%.2f%s\n",
        sc->name.c_str(), static_cast<unsigned long long>(m.jobs_submitted),
        static_cast<unsigned long long>(m.jobs_completed), 100 * m.gpu_utilization, m.wait_s.mean,
        m.wait_s.p90, m.cost_usd,
        m.saturated() ? "  [SATURATED: this configuration cannot keep up]" : "");
    std::printf("wrote %s/{result.json,report.html,jobs.csv,timeseries.csv,classes.csv}\n",
                dir.string().c_str());
  }
  return 0;
}

}  // namespace

CLI::App* add_run_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("run", "Simulate a scenario once");
  auto opts = std::make_shared<ScenarioOptions>();
  add_scenario_options(cmd, *opts);
  cmd->callback([opts, &exit_code] { exit_code = run(*opts); });
  return cmd;
}

}  // namespace gpuplan::cli
