//! Whole-process speed and memory: `gpuplan run` (and `gpuplan mc` for the growth study) as a
//! child process (wall time and the child's peak RSS) next to the bare M/M/64 loop in this process
//! on the same queue, so the run/bare ratio reads off one benchmark run. The scenarios live in
//! tools/bench/scenarios/; the gpuplan binary is the one next to this benchmark binary.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tools/bench/mm_bare_loop.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;

// The queue of tools/bench/scenarios/mm64_*.json: load 50 x 1.024 / 64 = 0.8.
constexpr double MM64_ARRIVAL_RATE = 50.0;   // [1/s]
constexpr double MM64_SERVICE_MEAN = 1.024;  // [s]

//! One size of the M/M/64 benchmarks: jobs, scenario file, iterations (fewer for larger runs).
struct Mm64Size {
  int64_t jobs;
  const char* scenario;
  int iterations;
};
inline constexpr Mm64Size MM64_SIZES[] = {{1'000'000, "mm64_1m.json", 3},
                                          {5'000'000, "mm64_5m.json", 1},
                                          {20'000'000, "mm64_20m.json", 1}};

//! A temporary directory, removed with everything in it when the object goes.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "gpuplan_bench_XXXXXX").string();
    if (mkdtemp(tmpl.data())) path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  //! The directory; empty when it could not be created.
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

//! How a child process ended: exit code (-1 when it did not exit normally), wall time [s], CPU
//! time (user + system) [s] and peak resident set [MB] from wait4, and the first line of what it
//! wrote to stderr.
struct ChildRun {
  int exit_code;
  double wall_s;
  double cpu_s;
  double peak_rss_mb;
  std::string first_error_line;
};

//! Runs `args` (args[0] is the program path) with stdout and stderr into files under `dir`.
ChildRun run_child(const std::vector<std::string>& args, const fs::path& dir) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const std::string out_log = (dir / "child.stdout").string();
  const std::string err_log = (dir / "child.stderr").string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_log.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_log.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  ChildRun r{-1, 0.0, 0.0, 0.0, {}};
  const auto t0 = std::chrono::steady_clock::now();
  pid_t pid = 0;
  const int spawn_err = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawn_err != 0) {
    r.first_error_line = "cannot start " + args[0];
    return r;
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.cpu_s = double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
            1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  r.peak_rss_mb = double(usage.ru_maxrss) / 1024.0;  // NOTE: Linux reports ru_maxrss in KiB
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  std::ifstream err(err_log);
  std::getline(err, r.first_error_line);
  return r;
}

//! The directory of this benchmark binary, where the build also puts `gpuplan`.
fs::path exe_dir() {
  return fs::read_symlink("/proc/self/exe").parent_path();
}

//! tools/bench/scenarios/`name`: from $GPUPLAN_BENCH_SCENARIOS if set, else the first
//! tools/bench/scenarios above the binary's directory (a build folder inside the source tree);
//! a name under scenarios/ is the bundled scenario of that source tree. Empty when not found.
fs::path bench_scenario(const std::string& name) {
  const bool bundled = name.rfind("scenarios/", 0) == 0;
  if (const char* dir = std::getenv("GPUPLAN_BENCH_SCENARIOS"))
    return bundled ? fs::path(dir).parent_path().parent_path().parent_path() / name
                   : fs::path(dir) / name;
  for (fs::path d = exe_dir(); !d.empty() && d != d.root_path(); d = d.parent_path()) {
    const fs::path p = bundled ? d / name : d / "tools" / "bench" / "scenarios" / name;
    if (fs::exists(p) && fs::exists(d / "tools" / "bench")) return p;
  }
  return {};
}

//! Runs `gpuplan COMMAND SCENARIO --quiet --out TMP [extra...]` (COMMAND: run, mc) once per
//! iteration and reports wall time, the child's CPU time (steadier than wall time on a shared
//! machine) and peak RSS, and jobs and mean wait from its result.json (a study's: means per
//! replication); returns the temporary directory's path for the caller's own checks, or an empty
//! path after SkipWithError. `fresh`, when given, is removed before each run with the clock
//! stopped, so every run writes it anew.
fs::path bench_gpuplan(benchmark::State& state, const std::string& command,
                       const std::string& scenario_name, const std::vector<std::string>& extra,
                       const TempDir& tmp, const fs::path& fresh = {}) {
  const fs::path gpuplan = exe_dir() / "gpuplan";
  const fs::path scenario = bench_scenario(scenario_name);
  if (!fs::exists(gpuplan)) {
    state.SkipWithError(
        ("no gpuplan next to the benchmark: build the gpuplan target (" + gpuplan.string() + ")")
            .c_str());
    return {};
  }
  if (scenario.empty() || tmp.path().empty()) {
    state.SkipWithError(("cannot find tools/bench/scenarios/" + scenario_name +
                         " (set GPUPLAN_BENCH_SCENARIOS) or create a temporary directory")
                            .c_str());
    return {};
  }
  std::vector<std::string> args = {gpuplan.string(), command, scenario.string(),
                                   "--quiet",        "--out", (tmp.path() / "out").string()};
  args.insert(args.end(), extra.begin(), extra.end());
  double wall_sum = 0, cpu_sum = 0, peak_mb = 0;
  for (auto _ : state) {
    if (!fresh.empty()) {
      state.PauseTiming();
      std::error_code ec;
      fs::remove(fresh, ec);
      state.ResumeTiming();
    }
    const ChildRun r = run_child(args, tmp.path());
    if (r.exit_code != 0) {
      const std::string why = r.exit_code == 2 && !extra.empty()
                                  ? " (an option this build lacks? " + extra.front() + ")"
                                  : std::string();
      state.SkipWithError(("gpuplan " + command + " exited " + std::to_string(r.exit_code) + why +
                           ": " + r.first_error_line)
                              .c_str());
      return {};
    }
    wall_sum += r.wall_s;
    cpu_sum += r.cpu_s;
    peak_mb = std::max(peak_mb, r.peak_rss_mb);
  }
  std::ifstream in(tmp.path() / "out" / "result.json");
  const nlohmann::json result = nlohmann::json::parse(in, nullptr, false);
  const auto read = [&result](const char* pointer) {  // 0 where result.json lacks it
    return result.is_object() ? result.value(nlohmann::json::json_pointer(pointer), 0.0) : 0.0;
  };
  const double jobs = read("/metrics/jobs_submitted");
  const double wait = read("/metrics/wait_s/mean");
  state.counters["wall_s"] = benchmark::Counter(wall_sum, benchmark::Counter::kAvgIterations);
  state.counters["child_cpu_s"] = benchmark::Counter(cpu_sum, benchmark::Counter::kAvgIterations);
  state.counters["peak_rss_MB"] = peak_mb;
  state.counters["jobs"] = jobs;
  state.counters["mean_wait_s"] = wait;
  state.counters["jobs_per_s"] =
      benchmark::Counter(jobs * double(state.iterations()), benchmark::Counter::kIsRate);
  return tmp.path();
}

//! `gpuplan run` on an M/M/64 of state.range(0) jobs (mm64_1m/5m/20m.json), no per-job file.
void bm_process_run_mm64(benchmark::State& state, const char* scenario) {
  const TempDir tmp;
  bench_gpuplan(state, "run", scenario, {}, tmp);
  state.SetLabel("whole process, gpuplan run --quiet");
}

//! The same M/M/64 as the bare loop, in this process, over the same simulated time.
void bm_bare_loop_mm64(benchmark::State& state) {
  const double horizon_s = double(state.range(0)) / MM64_ARRIVAL_RATE;
  gpuplan::bench::BareLoopResult r{};
  for (auto _ : state) {
    r = gpuplan::bench::run_bare_mmc(MM64_ARRIVAL_RATE, 1.0 / MM64_SERVICE_MEAN, 64, horizon_s);
    // NOTE: the whole struct: benchmark 1.7.1's DoNotOptimize on a double lvalue may clobber it
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(int64_t(state.iterations() * r.events));
  state.counters["jobs"] = double(r.arrivals);
  state.counters["mean_wait_s"] = r.started ? r.wait_sum_s / double(r.started) : 0.0;
  state.SetLabel("bare loop, in process, 1 thread");
}

//! `gpuplan run --jobs TMP/jobs.csv` on the M/M/64: rows of jobs.csv per second of the whole
//! process, made durable (the run fsyncs it) and renamed into place. The previous run's file is
//! removed between runs, clock stopped: freeing it is the file system's work, not the writer's
//! (docs/performance.md gives both). Skips, naming the reason, where this build's `run` has no
//! `--jobs` (exit 2).
void bm_process_run_mm64_jobs(benchmark::State& state, const char* scenario) {
  const TempDir tmp;
  const fs::path jobs_csv = tmp.path() / "jobs.csv";
  if (bench_gpuplan(state, "run", scenario, {"--jobs", jobs_csv.string()}, tmp, jobs_csv).empty())
    return;
  std::ifstream in(jobs_csv, std::ios::binary);
  const int64_t lines =
      std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n');
  const double rows = double(std::max<int64_t>(lines - 1, 0));  // less the header
  state.counters["rows"] = rows;
  state.counters["rows_per_s"] =
      benchmark::Counter(rows * double(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["jobs_csv_MB"] = fs::exists(jobs_csv) ? double(fs::file_size(jobs_csv)) / 1e6 : 0;
  state.SetLabel("whole process, gpuplan run --quiet --jobs");
}

//! `gpuplan run` on one simulated year of 4,096 GPUs under the Philly-shaped mix at 70 % load.
void bm_process_run_philly_year_4096(benchmark::State& state) {
  const TempDir tmp;
  bench_gpuplan(state, "run", "philly_year_4096.json", {}, tmp);
  state.SetLabel("whole process, gpuplan run --quiet, 1 simulated year");
}

//! Issue 11's target: `gpuplan mc` of a 12-month growth study of 1,024 GPUs (growth_year_1024.json)
//! with 200 replications on 2 threads, in under 60 s.
void bm_process_mc_growth_year_1024(benchmark::State& state) {
  const TempDir tmp;
  bench_gpuplan(state, "mc", "growth_year_1024.json",
                {"--replications", "200", "--threads", "2", "--backend", "cpu"}, tmp);
  state.SetLabel("whole process, gpuplan mc -n 200 --threads 2, 12 simulated months");
}

//! Issue 38's costs that grew faster than the work, each beside its reference run so the ratio
//! reads off one benchmark run: a case fails (SkipWithError) past a generous bound, so a return of
//! the old growth shows in the benchmark, not as a flaky timed unit test.
struct GrowthCase {
  const char* name;
  const char* scenario;
  std::vector<std::string> extra;
  double max_cpu_s;   //!< [s] child CPU time above which the case has regressed
  double max_rss_mb;  //!< [MB] child peak RSS above which the case has regressed
};

const GrowthCase GROWTH_CASES[] = {
    // 2D-LAS at 1.4x offered load for 3 simulated weeks (was 1.0 s; FIFO 0.01 s).
    {"las_overload_3w", "las_overload_3w.json", {}, 5.0, 200},
    {"las_overload_3w_fifo", "las_overload_3w.json", {"--set", "scheduler.policy=fifo"}, 5.0, 200},
    // An elastic pool's max 1e6 where it peaks at 34 nodes, under LAS (was 0.46 s) and backfill,
    // beside max 100.
    {"elastic_max_1e6_las", "elastic_max_1e6.json", {"--set", "scheduler.queue=las"}, 2.0, 400},
    {"elastic_max_100_las",
     "elastic_max_1e6.json",
     {"--set", "scheduler.queue=las", "--set", "pools.0.elastic.max=100"},
     2.0,
     400},
    {"elastic_max_1e6_backfill", "elastic_max_1e6.json", {}, 2.0, 400},
    // nodes_per_leaf 1e6 on the 2,080 nodes of the Llama 3 failure study (was 840 MB and 9 s).
    {"nodes_per_leaf_1e6",
     "scenarios/llama3_failures.json",
     {"--set", "topology.nodes_per_leaf=1000000"},
     5.0,
     200},
};

//! `gpuplan run` of one growth case; fails past its bounds.
void bm_process_growth_case(benchmark::State& state, const GrowthCase* c) {
  const TempDir tmp;
  if (bench_gpuplan(state, "run", c->scenario, c->extra, tmp).empty()) return;
  // NOTE: an averaged counter holds the sum over iterations until it is reported.
  const double cpu = state.counters["child_cpu_s"].value / double(state.iterations());
  const double rss = state.counters["peak_rss_MB"].value;
  if (cpu > c->max_cpu_s || rss > c->max_rss_mb)
    state.SkipWithError((std::string(c->name) + " regressed: " + std::to_string(cpu) + " CPU-s, " +
                         std::to_string(rss) + " MB")
                            .c_str());
  state.SetLabel("whole process, gpuplan run --quiet");
}

// NOTE: registered size by size (bare loop, then run, then run --jobs) so each ratio's two sides
// are measured back to back, in whatever load the machine has at that moment.
const bool registered = [] {
  for (const Mm64Size& s : MM64_SIZES) {
    benchmark::RegisterBenchmark("bm_bare_loop_mm64", bm_bare_loop_mm64)
        ->Arg(s.jobs)
        ->Iterations(s.iterations)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("bm_process_run_mm64", bm_process_run_mm64, s.scenario)
        ->Arg(s.jobs)
        ->Iterations(s.iterations)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    if (s.jobs <= 5'000'000)  // NOTE: 20 M rows would be a 2 GB file in the temporary directory
      benchmark::RegisterBenchmark("bm_process_run_mm64_jobs", bm_process_run_mm64_jobs, s.scenario)
          ->Arg(s.jobs)
          ->Iterations(s.iterations)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
  }
  benchmark::RegisterBenchmark("bm_process_run_philly_year_4096", bm_process_run_philly_year_4096)
      ->Iterations(1)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("bm_process_mc_growth_year_1024", bm_process_mc_growth_year_1024)
      ->Iterations(1)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  for (const GrowthCase& c : GROWTH_CASES)
    benchmark::RegisterBenchmark((std::string("bm_process_growth/") + c.name).c_str(),
                                 bm_process_growth_case, &c)
        ->Iterations(3)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
