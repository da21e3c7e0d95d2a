//! The per-job CSV writer on its own (docs/performance.md, "--jobs throughput"): rows formatted
//! per CPU-second, the whole JobsCsvFile pipeline (copy, writer thread, write() calls) per
//! wall-second into a temporary file, and one double's shortest text against std::to_chars.
//! The records imitate tools/bench/scenarios/mm64_5m.json: M/M/64 at load 0.8.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "reports/jobs_csv.h"
#include "reports/jobs_csv_file.h"
#include "reports/jobs_csv_number.h"

namespace {

namespace fs = std::filesystem;
using gpuplan::JobRecord;

constexpr std::size_t CHUNK = 1 << 16;  // records per sink call, as sim/single_run.h drains

//! `n` records of an M/M/64 at load 0.8: Poisson arrivals at 50/s, 5.6 % of jobs wait (Erlang C),
//! exponential service with mean 1.024 s.
std::vector<JobRecord> mm64_records(std::size_t n) {
  std::mt19937_64 rng(42);
  std::exponential_distribution<double> gap(50.0), service(1.0 / 1.024), wait(1.0 / 0.08);
  std::bernoulli_distribution waits(0.0561);
  std::vector<JobRecord> jobs(n);
  double t = 0;
  for (std::size_t i = 0; i < n; ++i) {
    t += gap(rng);
    const double start = waits(rng) ? t + wait(rng) : t;
    jobs[i] = {0, uint32_t(i), 1, 0, t, start, start + service(rng)};
  }
  return jobs;
}

const std::vector<std::string> CLASSES{"customers"};
const std::vector<std::string> POOLS{"servers"};

//! JobsCsv formatting alone, one thread, chunk by chunk into a reused buffer.
void bm_jobs_csv_format(benchmark::State& state) {
  const std::vector<JobRecord> jobs = mm64_records(std::size_t(state.range(0)));
  std::string text;
  std::size_t bytes = 0;
  for (auto _ : state) {
    gpuplan::reports::JobsCsv csv(CLASSES, POOLS);
    bytes = 0;
    for (std::size_t at = 0; at < jobs.size(); at += CHUNK) {
      text.clear();
      csv.append(std::span(jobs).subspan(at, std::min(CHUNK, jobs.size() - at)), text);
      bytes += text.size();
    }
    benchmark::DoNotOptimize(text.data());
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * state.range(0));
  state.counters["MB"] = double(bytes) / 1e6;
  state.SetLabel("rows per CPU-second, 1 thread");
}

//! JobsCsvFile into a temporary file: the caller's thread copies chunks, the writer thread
//! formats and writes them; rows per wall-second, commit (close and rename) included.
void bm_jobs_csv_file(benchmark::State& state) {
  const std::vector<JobRecord> jobs = mm64_records(std::size_t(state.range(0)));
  const fs::path dir =
      fs::temp_directory_path() / ("gpuplan_bench_jobs_" + std::to_string(getpid()));
  fs::create_directories(dir);
  for (auto _ : state) {
    gpuplan::reports::JobsCsvFile file(dir / "jobs.csv", CLASSES, POOLS);
    if (!file.error().empty()) {
      state.SkipWithError(file.error().c_str());
      break;
    }
    for (std::size_t at = 0; at < jobs.size(); at += CHUNK)
      file.write(jobs.data() + at, std::min(CHUNK, jobs.size() - at));
    if (!file.commit()) {
      state.SkipWithError(file.error().c_str());
      break;
    }
    state.PauseTiming();
    fs::remove(dir / "jobs.csv");
    state.ResumeTiming();
  }
  fs::remove_all(dir);
  state.SetItemsProcessed(int64_t(state.iterations()) * state.range(0));
  state.SetLabel("rows per wall-second, writer thread + page cache");
}

//! Times and durations of the M/M/64 rows: submit, finish and JCT of each record.
std::vector<double> mm64_doubles() {
  std::vector<double> v;
  for (const JobRecord& j : mm64_records(1 << 18))
    v.insert(v.end(), {j.submit_s, j.finish_s, j.finish_s - j.submit_s});
  return v;
}

//! One double's shortest round-trip text: write_shortest.
void bm_jobs_csv_shortest(benchmark::State& state) {
  const std::vector<double> values = mm64_doubles();
  char buf[gpuplan::reports::SHORTEST_MAX_CHARS];
  for (auto _ : state) {
    for (const double v : values)
      benchmark::DoNotOptimize(gpuplan::reports::write_shortest(buf, v));
  }
  state.SetItemsProcessed(int64_t(state.iterations() * values.size()));
  state.SetLabel("write_shortest");
}

//! The same doubles through std::to_chars, the reference write_shortest matches byte for byte.
void bm_jobs_csv_to_chars(benchmark::State& state) {
  const std::vector<double> values = mm64_doubles();
  char buf[gpuplan::reports::SHORTEST_MAX_CHARS];
  for (auto _ : state) {
    for (const double v : values)
      benchmark::DoNotOptimize(std::to_chars(buf, buf + sizeof buf, v).ptr);
  }
  state.SetItemsProcessed(int64_t(state.iterations() * values.size()));
  state.SetLabel("std::to_chars");
}

BENCHMARK(bm_jobs_csv_format)->Arg(1 << 20)->Unit(benchmark::kMillisecond);
BENCHMARK(bm_jobs_csv_file)->Arg(1 << 20)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(bm_jobs_csv_shortest)->Unit(benchmark::kMillisecond);
BENCHMARK(bm_jobs_csv_to_chars)->Unit(benchmark::kMillisecond);

}  // namespace
