//! `gpuplan mc SCENARIO`: a Monte Carlo study; writes result.json, report.html and CSVs.
#include "tools/gpuplan/cmd_mc.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <sstream>

#include "models/compile.h"
#include "reports/csv.h"
#include "reports/html_report.h"
#include "reports/mc_result.h"
#include "sim/mc_summary.h"
#include "tools/gpuplan/commands.h"

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

int run_mc(const McCliOptions& o) {
  const MpiSession mpi;
  if (!mpi_ready(mpi, "mc")) return 2;
  const ProcessGroup world = mpi_world();
  std::optional<McBackend> backend;
  std::optional<Scenario> sc;
  {
    AgreedInputCheck check(world);
    backend = resolve_backend(o.backend);
    if (backend) sc = load_or_report(o.scenario);
    if (!check.agree(backend && sc)) return 2;
  }
  nlohmann::json result;
  const std::filesystem::path dir = output_dir(o.scenario, *sc);
  const int rc = run_study(*sc, o, *backend, dir, "mc", result);
  if (rc != 0 || o.scenario.quiet || !world.root()) return rc;
  const nlohmann::json& s = result["summary"];
  const auto line = [&](const char* path) {
    const auto& m = s[path];
    return std::to_string(m["mean"].get<double>()) + " [" +
           std::to_string(m["ci95_low"].get<double>()) + ", " +
           std::to_string(m["ci95_high"].get<double>()) + "]";
  };
  std::printf(
      "%s: %u replications; mean wait %s s; mean JCT %s s; GPU utilization %s; cost $%s "
      "(means, [95%% CI])\n",
      sc->name.c_str(), result["replications"].get<uint32_t>(), line("metrics.wait_s.mean").c_str(),
      line("metrics.jct_s.mean").c_str(), line("metrics.gpu_utilization").c_str(),
      line("cost_usd.total").c_str());
  const auto saturated = result["monte_carlo"]["saturated_replications"].get<uint32_t>();
  if (saturated > 0)
    std::printf(
        "  [SATURATED in %u replications: this configuration cannot keep up; see warnings]\n",
        saturated);
  std::printf("wrote %s/{result.json,report.html,replicas.csv,timeseries.csv,classes.csv}\n",
              dir.string().c_str());
  return 0;
}

}  // namespace

bool mpi_ready(const MpiSession& mpi, std::string_view command) {
  if (mpi.error().empty()) return true;
  std::cerr << "gpuplan " << command << ": " << mpi.error() << "\n";
  return false;
}

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
#if defined(GPUPLAN_HAVE_CUDA)
  std::cerr << "--backend cuda: no CUDA device is available on this machine; use --backend cpu "
               "or auto\n";
#else
  std::cerr << "--backend cuda: this gpuplan was built without CUDA (no nvcc at build time); use "
               "--backend cpu or auto\n";
#endif
  return std::nullopt;
}

int run_study(const Scenario& sc, const McCliOptions& o, McBackend backend,
              const std::filesystem::path& dir, const std::string& label, nlohmann::json& result) {
  const CompiledScenario cs = compile(sc);
  const ModelView view = cs.view();
  McOptions mo;
  mo.replications = o.replications;
  mo.max_replications = o.max_replications;
  mo.batch = o.batch;
  mo.threads = o.threads;
  mo.backend = backend;
  mo.target_ci_rel = o.target_ci;
  mo.processes = mpi_world();
  mo.progress = progress_printer(label, o.scenario.quiet);
  const McStudy st = run_monte_carlo(view, mo);
  if (!mo.processes.root()) {
    // NOTE: rank 0 holds the study; the others get its result so callers (sweep) run alike.
    std::string text;
    broadcast_from_root(mo.processes, text);
    result = nlohmann::json::parse(text);
    return 0;
  }
  const McSummary sum = summarize_study(view, st, cs.pool_names, cs.class_names);
  result = monte_carlo_result(sc, cs, st, sum,
                              McRequest{o.replications, o.max_replications, o.target_ci});
  result["monte_carlo"]["processes"] = st.processes;
  if (mo.processes.size > 1) {
    std::string text = result.dump();
    broadcast_from_root(mo.processes, text);
  }
  std::ostringstream replicas_csv, series_csv, classes_csv;
  write_replicas_csv(st, sum, replicas_csv);
  reports::write_timeseries_csv(result, series_csv);
  reports::write_per_class_csv(result, classes_csv);
  result["assessment"] = reports::assess(result);  // the verdicts report.html shows
  if (!write_outputs(dir, {{"result.json", result.dump(2) + "\n"},
                           {"report.html", reports::render_html_report(result)},
                           {"replicas.csv", replicas_csv.str()},
                           {"timeseries.csv", series_csv.str()},
                           {"classes.csv", classes_csv.str()}}))
    return 1;
  return 0;
}

AgreedInputCheck::AgreedInputCheck(const ProcessGroup& g) : g_(g) {
  if (!g_.root()) cerr_ = std::cerr.rdbuf(held_.rdbuf());
}

AgreedInputCheck::~AgreedInputCheck() {
  release();
}

void AgreedInputCheck::release() {
  if (cerr_ != nullptr) std::cerr.rdbuf(cerr_);
  cerr_ = nullptr;
}

bool AgreedInputCheck::agree(bool ok) {
  const bool all_ok = all_true(g_, ok);
  uint32_t root_ok = ok ? 1 : 0;
  broadcast_from_root(g_, &root_ok, 1);
  release();
  if (all_ok || root_ok == 0) return all_ok;
  // Rank 0 accepted the input, so its reason is local to this machine: say it here.
  if (g_.root()) {
    std::cerr << "gpuplan: another MPI process rejected the input (see its [rank N] lines)\n";
  } else if (!ok) {
    std::istringstream lines(held_.str());
    for (std::string line; std::getline(lines, line);)
      std::cerr << "[rank " << g_.rank << "] " << line << "\n";
  }
  return false;
}

CLI::App* add_mc_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("mc", "Run a Monte Carlo study of a scenario");
  auto opts = std::make_shared<McCliOptions>();
  add_mc_options(cmd, *opts);
  cmd->callback([opts, &exit_code] { exit_code = run_mc(*opts); });
  return cmd;
}

}  // namespace gpuplan::cli
