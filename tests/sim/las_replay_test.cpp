//! The Tiresias 60-job trace (Gu et al., NSDI'19) on 4 nodes x 4 GPUs under 2D-LAS, strict FIFO
//! and FIFO backfill, checked job by job against a reference scheduler written here from the rules
//! in docs/scheduling-policies.md: a plain loop over vectors that re-sorts and re-scans everything
//! at every instant, sharing no code with the engine.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "sim/single_run.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

namespace {

constexpr int NODES = 4, GPN = 4;
constexpr double INF = std::numeric_limits<double>::infinity();

//! The trace rows (submit, duration, gpus) in file order.
std::vector<TraceRow> tiresias_rows() {
  std::ifstream in(GPUPLAN_SOURCE_DIR "/../shared/data/tiresias_60_jobs.csv");
  std::string line;
  std::getline(in, line);  // job_id,num_gpu,submit_time,iterations,model_name,duration,interval
  std::vector<TraceRow> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    if (f.size() < 6) continue;
    rows.push_back(TraceRow{std::stod(f[2]), std::stod(f[5]), uint32_t(std::stoul(f[1])), 0});
  }
  return rows;
}

//! One job of the reference scheduler.
struct RefJob {
  double submit = 0, left = 0;  //!< [s] work left (checkpointed)
  int gpus = 0, idx = 0;
  double start = INF, finish = INF;
  bool running = false, done = false;
  double since = 0;  //!< start of the current run
  double ran = 0;    //!< [s] finished runs
  std::vector<int> nodes;
};

//! The reference: FIFO (strict), FIFO backfill or 2D-LAS with `thresholds` [GPU-s], no starvation
//! guard;
//! preempted jobs keep the work of their whole seconds (a free checkpoint each second).
struct Reference {
  std::vector<RefJob> jobs;
  std::vector<double> thresholds;
  bool las = false;
  bool backfill = false;  //!< FIFO order, every job that fits starts
  int free[NODES] = {GPN, GPN, GPN, GPN};
  double t = 0;
  int preemptions = 0;

  double attained(const RefJob& j) const {
    return j.gpus * (j.ran + (j.running ? t - j.since : 0.0));
  }
  int level(const RefJob& j) const {
    int k = 0;
    while (k < int(thresholds.size()) && attained(j) >= thresholds[k]) ++k;
    return k;
  }
  bool place(RefJob& j) {
    std::vector<int> got;
    if (j.gpus <= GPN) {
      int best = -1;
      for (int n = 0; n < NODES; ++n)
        if (free[n] >= j.gpus && (best < 0 || free[n] < free[best])) best = n;
      if (best < 0) return false;
      got = {best};
      free[best] -= j.gpus;
    } else {
      for (int n = 0; n < NODES && int(got.size()) * GPN < j.gpus; ++n)
        if (free[n] == GPN) got.push_back(n);
      if (int(got.size()) * GPN < j.gpus) return false;
      for (int n : got) free[n] = 0;
    }
    j.nodes = got;
    j.running = true;
    j.since = t;
    if (j.start == INF) j.start = t;
    return true;
  }
  void release(RefJob& j) {
    for (int n : j.nodes) free[n] += j.nodes.size() == 1 ? j.gpus : GPN;
    j.nodes.clear();
    j.running = false;
  }
  void preempt(RefJob& j, std::vector<int>& victims) {
    const double elapsed = t - j.since;
    j.left -= std::floor(elapsed);
    j.ran += elapsed;
    release(j);
    victims.push_back(j.idx);
    ++preemptions;
  }
  // Victim order: the highest queue first, then the latest run start, then the later submission.
  bool worse(const RefJob& a, const RefJob& b) const {
    if (level(a) != level(b)) return level(a) > level(b);
    if (a.since != b.since) return a.since > b.since;
    return a.submit != b.submit ? a.submit > b.submit : a.idx > b.idx;
  }
  bool make_room(RefJob& j, std::vector<int>& victims) {
    std::vector<int> can(free, free + NODES);
    std::vector<int> cands;
    for (RefJob& r : jobs)
      if (r.running && level(r) > level(j)) {
        cands.push_back(r.idx);
        for (int n : r.nodes) can[n] += r.nodes.size() == 1 ? r.gpus : GPN;
      }
    if (cands.empty()) return false;
    auto clear = [&](int n, int want) {
      while (free[n] < want) {
        RefJob* v = nullptr;
        for (int c : cands) {
          RefJob& r = jobs[c];
          if (!r.running || std::find(r.nodes.begin(), r.nodes.end(), n) == r.nodes.end()) continue;
          if (!v || worse(r, *v)) v = &r;
        }
        preempt(*v, victims);
      }
    };
    if (j.gpus <= GPN) {
      int best = -1;
      for (int n = 0; n < NODES; ++n)
        if (can[n] >= j.gpus && (best < 0 || free[n] > free[best])) best = n;
      if (best < 0) return false;
      clear(best, j.gpus);
      return true;
    }
    const int need = (j.gpus + GPN - 1) / GPN;
    int whole = 0;
    for (int n = 0; n < NODES; ++n) whole += free[n] == GPN || can[n] == GPN;
    if (whole < need) return false;
    for (int n = 0; n < NODES; ++n) {
      if (std::count(free, free + NODES, GPN) >= need) break;
      if (can[n] == GPN && free[n] < GPN) clear(n, GPN);
    }
    return true;
  }
  void schedule() {
    for (;;) {
      std::vector<int> queue;
      for (RefJob& j : jobs)
        if (!j.done && !j.running && j.submit <= t) queue.push_back(j.idx);
      std::sort(queue.begin(), queue.end(), [&](int a, int b) {
        const RefJob &x = jobs[a], &y = jobs[b];
        if (las && level(x) != level(y)) return level(x) < level(y);
        return x.submit != y.submit ? x.submit < y.submit : x.idx < y.idx;
      });
      std::vector<int> victims;
      for (int q : queue) {
        RefJob& j = jobs[q];
        if (std::find(victims.begin(), victims.end(), q) != victims.end()) continue;
        if (place(j)) continue;
        if (las && make_room(j, victims) && place(j)) continue;
        if (!las && !backfill) break;  // strict FIFO: the head blocks the rest
      }
      if (victims.empty()) return;
    }
  }
  void run() {
    schedule();  // jobs submitted at t = 0
    for (;;) {
      double next = INF;
      for (const RefJob& j : jobs) {
        if (j.done) continue;
        if (!j.running && j.submit > t) next = std::min(next, j.submit);
        if (!j.running) continue;
        next = std::min(next, j.since + j.left);
        const int k = level(j);
        if (las && k < int(thresholds.size()))
          next = std::min(next, j.since + (thresholds[k] / j.gpus - j.ran));
      }
      if (next == INF) return;
      t = next;
      for (RefJob& j : jobs)
        if (j.running && j.since + j.left == t) {
          release(j);
          j.done = true;
          j.finish = t;
        }
      schedule();
    }
  }
};

std::vector<JobRecord> engine_run(QueuePolicy q, const std::vector<double>& thresholds,
                                  const std::vector<TraceRow>& rows, uint64_t& preemptions) {
  Scenario sc = test::one_pool(NODES, GPN, 1e6);
  sc.scheduler.queue = q;
  sc.scheduler.las_thresholds_gpu_s = thresholds;
  JobClass c;
  c.name = "tiresias";
  c.trace = TraceFormat{};
  c.trace_rows = rows;
  c.econ.checkpoints = true;
  c.econ.interval_s = 1.0;
  sc.workload.push_back(c);
  const CompiledScenario cs = compile(sc);
  std::vector<JobRecord> out;
  const SingleRun r = run_single(
      cs.view(), [&out](const JobRecord* p, std::size_t n) { out.insert(out.end(), p, p + n); });
  std::sort(out.begin(), out.end(),
            [](const JobRecord& a, const JobRecord& b) { return a.job_idx < b.job_idx; });
  preemptions = r.metrics.classes[0].scheduler_preemptions;
  return out;
}

void compare(QueuePolicy q, const std::vector<double>& thresholds, int min_preemptions) {
  const std::vector<TraceRow> rows = tiresias_rows();
  REQUIRE(rows.size() == 60);
  Reference ref;
  ref.las = q == QueuePolicy::las;
  ref.backfill = q == QueuePolicy::backfill;
  ref.thresholds = thresholds;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    RefJob j;
    j.submit = rows[i].submit_s;
    j.left = rows[i].duration_s;
    j.gpus = int(rows[i].gpus);
    j.idx = int(i);
    ref.jobs.push_back(j);
  }
  ref.run();
  uint64_t preemptions = 0;
  const auto got = engine_run(q, thresholds, rows, preemptions);
  REQUIRE(got.size() == 60);
  for (std::size_t i = 0; i < 60; ++i) {
    CAPTURE(i);
    // the same first start and finish as the reference, to the bit (whole-second trace)
    CHECK(got[i].start_s == ref.jobs[i].start);
    CHECK(got[i].finish_s == ref.jobs[i].finish);
  }
  CHECK(int(preemptions) == ref.preemptions);
  CHECK(ref.preemptions >= min_preemptions);
}

}  // namespace

TEST_CASE("sim::queue_policy::tiresias_60") {
  SUBCASE("strict FIFO matches the reference job by job") {
    compare(QueuePolicy::fifo, {}, 0);
  }

  SUBCASE("FIFO backfill matches the reference job by job") {
    // (the engine skips the placement search of a job whose class, size and pools failed to fit
    // earlier in the same scan; the reference searches every time)
    compare(QueuePolicy::backfill, {}, 0);
  }

  SUBCASE("2D-LAS with two queues matches the reference, preemptions included") {
    // one threshold at 800 GPU-s (a 1-GPU job drops after 800 s, an 8-GPU gang after 100 s)
    compare(QueuePolicy::las, {800.0}, 1);
  }

  SUBCASE("2D-LAS with three queues matches the reference") {
    compare(QueuePolicy::las, {400.0, 3200.0}, 1);
  }
}
