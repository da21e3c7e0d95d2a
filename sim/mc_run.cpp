#include "sim/mc_run.h"

#include <algorithm>
#include <bit>
#include <memory>

#include "sim/backends/mc_cpu.h"
#include "sim/backends/mc_cuda.h"
#include "sim/mc_metrics.h"
#include "sim/mc_stats.h"
#include "sim/replica_buffers.h"

namespace gpuplan {
namespace {

inline constexpr uint32_t CPU_BATCH = 256;  //!< replicas per CPU batch by default

//! Merges a replica's quantile sketches into the study's pooled ones, then drops them.
void pool_histograms(McStudy& st, ReplicaOutcome& o) {
  for (std::size_t at = 0; at < o.wait_hist.size(); at += SKETCH_BINS) {
    sketch_merge(&st.wait_hist_all[at], &o.wait_hist[at]);
    sketch_merge(&st.jct_hist_all[at], &o.jct_hist[at]);
    if (!o.metrics.saturated()) {
      sketch_merge(&st.wait_hist_ok[at], &o.wait_hist[at]);
      sketch_merge(&st.jct_hist_ok[at], &o.jct_hist[at]);
    }
  }
  std::vector<uint32_t>().swap(o.wait_hist);
  std::vector<uint32_t>().swap(o.jct_hist);
}

inline constexpr uint32_t CUDA_MAX_BATCH = 1u << 16;  //!< most replicas per CUDA batch
inline constexpr double CUDA_MEMORY_SHARE = 0.5;      //!< share of free device memory a batch uses

//! The scenario with the job slots a device batch gives each replica: four times what a host run
//! of replica 0 used at its peak (a power of two, at least 1,024), or the scenario's limit when
//! that run saturated. Working memory grows with the slots, and replicas in flight are what the
//! device's speed comes from (docs/performance.md, "Monte Carlo"); a replica that outgrows them
//! is run again with the scenario's limit (run_cuda_batch), so no result depends on this choice.
ModelView cuda_batch_model(const ModelView& m) {
  const uint32_t peak = peak_job_slots(m, 0);
  ModelView small = m;
  if (peak > 0)
    small.max_active_jobs = std::min(m.max_active_jobs, std::bit_ceil(std::max(1024u, 4 * peak)));
  return small;
}

//! Runs replicas [first, first + n) on the device with the slots of `small`. Those that
//! saturated there run again with the scenario's own limits on `threads` host threads (`host`,
//! made on first use): one device thread runs a whole replica, so reruns one by one as device
//! batches of one would take seconds each.
void run_cuda_batch(const ModelView& m, const ModelView& small, uint32_t first, uint32_t n,
                    ReplicaOutcome* out, uint32_t threads, std::unique_ptr<CpuBackend>& host) {
  CudaBatch batch;
  cuda_module().run_batch(small, first, n, batch);
  std::vector<uint32_t> again;
  for (uint32_t i = 0; i < n; ++i) {
    out[i] = outcome_of(small, batch.states[i]);
    if (out[i].metrics.saturated() && small.max_active_jobs < m.max_active_jobs)
      again.push_back(first + i);
  }
  if (again.empty()) return;
  if (!host) host = std::make_unique<CpuBackend>(m, threads);
  std::vector<ReplicaOutcome> rerun(again.size());
  host->run_listed(again, rerun.data());
  for (std::size_t k = 0; k < again.size(); ++k) out[again[k] - first] = std::move(rerun[k]);
}

}  // namespace

const char* backend_name(McBackend b) {
  return b == McBackend::cuda ? "cuda" : "cpu";
}

bool cuda_backend_available() {
  return cuda_module().support() == CudaSupport::ready;
}

std::vector<std::size_t> replicas_in_statistics(const std::vector<ReplicaOutcome>& replicas) {
  std::vector<std::size_t> ok;
  for (std::size_t k = 0; k < replicas.size(); ++k)
    if (!replicas[k].metrics.saturated()) ok.push_back(k);
  if (ok.empty())
    for (std::size_t k = 0; k < replicas.size(); ++k) ok.push_back(k);
  return ok;
}

bool headline_target_met(const ModelView& m, const std::vector<ReplicaOutcome>& replicas,
                         double rel) {
  const std::vector<std::size_t> used = replicas_in_statistics(replicas);
  constexpr std::size_t HEADLINES[] = {HeadlineIndex::WAIT_MEAN, HeadlineIndex::JCT_MEAN,
                                       HeadlineIndex::GPU_UTILIZATION, HeadlineIndex::COST_TOTAL};
  std::vector<std::vector<double>> columns(std::size(HEADLINES));
  for (std::size_t k : used) {
    const std::vector<double> row = metric_row(m, replicas[k].metrics);
    for (std::size_t h = 0; h < std::size(HEADLINES); ++h) columns[h].push_back(row[HEADLINES[h]]);
  }
  for (const auto& c : columns)
    if (!ci_target_met(summarize(c), rel)) return false;
  return true;
}

McStudy run_monte_carlo(const ModelView& m, const McOptions& o) {
  McStudy st;
  st.backend = o.backend;
  st.target_requested = o.target_ci_rel > 0;
  const std::size_t hist_n = std::size_t(m.classes.size) * SKETCH_BINS;
  st.wait_hist_ok.assign(hist_n, 0);
  st.jct_hist_ok.assign(hist_n, 0);
  st.wait_hist_all.assign(hist_n, 0);
  st.jct_hist_all.assign(hist_n, 0);
  const uint32_t cap =
      st.target_requested ? std::max(o.max_replications, o.replications) : o.replications;

  std::unique_ptr<CpuBackend> cpu;  // the backend, or the host reruns of a device study
  ModelView device_model = m;
  if (o.backend == McBackend::cpu) {
    cpu = std::make_unique<CpuBackend>(m, o.threads);
    st.threads = cpu->threads();
    st.device = std::to_string(st.threads) + (st.threads == 1 ? " thread" : " threads");
    st.bytes_per_replica = ReplicaBuffers::bytes_per_replica(m, 0);
    st.batch_size = o.batch > 0 ? o.batch : CPU_BATCH;
  } else {
    const CudaModule& cuda = cuda_module();
    st.device = cuda.device_name();  // NOTE: throws first when there is no device
    device_model = cuda_batch_model(m);
    const ReplicaLayout layout(device_model, 0);
    st.bytes_per_replica = layout.work_bytes + layout.result_bytes + sizeof(ReplicaState);
    std::size_t free_bytes = 0, total_bytes = 0;
    cuda.memory(free_bytes, total_bytes);
    const double fit = CUDA_MEMORY_SHARE * double(free_bytes) / double(st.bytes_per_replica);
    st.batch_size =
        o.batch > 0 ? o.batch : static_cast<uint32_t>(std::clamp(fit, 1.0, double(CUDA_MAX_BATCH)));
  }
  st.batch_size = std::max(1u, std::min(st.batch_size, cap));

  const ProcessGroup& g = o.processes;
  st.processes = g.size;
  if (g.size > 1) {
    // NOTE: rounds and --target-ci growth follow rank 0's batch size (CUDA sizes it per device).
    broadcast_from_root(g, &st.batch_size, 1);
    const std::vector<uint32_t> threads = gather_to_root(g, st.threads);
    const bool same =
        std::all_of(threads.begin(), threads.end(), [&](uint32_t t) { return t == st.threads; });
    st.device =
        std::to_string(g.size) + " processes x " + (same ? st.device : st.device + " on rank 0");
  }

  uint32_t planned = o.replications;
  uint32_t done = 0;
  std::vector<ReplicaOutcome> slice_outcomes;  // this rank's slice when it is not rank 0
  if (o.progress && g.root()) o.progress(st, 0, planned);
  while (done < planned) {
    // NOTE: a round is one batch per process and never runs past `planned`, so --target-ci is
    // checked at the same replica counts as in one process.
    const uint32_t first = done;
    const auto n = static_cast<uint32_t>(
        std::min<uint64_t>(uint64_t(st.batch_size) * g.size, planned - first));
    const uint32_t lo = first + slice_begin(n, g.rank, g.size);
    const uint32_t hi = first + slice_begin(n, g.rank + 1, g.size);
    ReplicaOutcome* mine = nullptr;
    if (g.root()) {
      st.replicas.resize(first + n);
      mine = st.replicas.data() + lo;
    } else {
      slice_outcomes.assign(hi - lo, ReplicaOutcome{});
      mine = slice_outcomes.data();
    }
    if (hi > lo) {
      if (o.backend == McBackend::cpu) {
        cpu->run_batch(lo, hi - lo, mine);
      } else {
        run_cuda_batch(m, device_model, lo, hi - lo, mine, o.threads, cpu);
      }
    }
    for (uint32_t i = 0; i < hi - lo; ++i) pool_histograms(st, mine[i]);
    gather_round(g, n, mine, g.root() ? st.replicas.data() + first : nullptr);
    done = first + n;
    st.batches += 1;
    if (st.target_requested && done >= planned) {
      uint32_t decision[2] = {0, planned};  // {target met, planned}: rank 0's, for everyone
      if (g.root()) {
        st.target_met = headline_target_met(m, st.replicas, o.target_ci_rel);
        if (!st.target_met && planned < cap) planned = std::min(cap, planned + st.batch_size);
        decision[0] = st.target_met ? 1 : 0;
        decision[1] = planned;
      }
      broadcast_from_root(g, decision, 2);
      st.target_met = decision[0] == 1;
      planned = decision[1];
    }
    if (o.progress && g.root()) o.progress(st, done, planned);
  }
  // Each process pooled the sketches of its own slices; integer sums add up in any order.
  for (auto* h : {&st.wait_hist_ok, &st.jct_hist_ok, &st.wait_hist_all, &st.jct_hist_all})
    sum_to_root(g, *h);
  return st;
}

}  // namespace gpuplan
