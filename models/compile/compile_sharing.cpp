#include "models/compile/compile_sharing.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gpuplan {

bool may_run_on(const Scenario& sc, const JobClass& jc, size_t p) {
  return jc.may_use(p) && serving_entries(sc.pools[p].sharing, jc.share) != 0;
}

uint32_t gpu_mem_mib(const GpuSpec& gpu) {
  return static_cast<uint32_t>(std::lround(gpu.mem_gb * 1024));
}

uint32_t shared_gpus(const JobClass& jc, uint32_t gpus) {
  return jc.share.kind == ShareKind::whole ? gpus : 0;
}

double gpus_per_job(const Scenario& sc, const JobClass& jc) {
  switch (jc.share.kind) {
    case ShareKind::whole:
      return jc.gpus.mean();
    case ShareKind::time_sliced:
      return jc.share.fraction;
    case ShareKind::fractional:
      return double(jc.share.milli) / MILLI_PER_GPU;
    case ShareKind::mig:
      for (size_t p = 0; p < sc.pools.size(); ++p) {
        const PoolSharing& ps = sc.pools[p].sharing;
        const uint32_t entries = may_run_on(sc, jc, p) ? serving_entries(ps, jc.share) : 0u;
        if (entries == 0) continue;
        const uint8_t profile = ps.layout.instances[__builtin_ctz(entries)].profile_idx;
        const double f = sharing::mig_speed_factor(*ps.mig, profile);
        const double slices =
            double(ps.mig->profiles[profile].compute_slices) / sharing::MIG_COMPUTE_SLICES;
        return slices * std::max(1.0, jc.share.fraction / f);
      }
      return 1.0;
  }
  return 1.0;
}

void compile_sharing(const Scenario& sc, CompiledScenario& out) {
  ModelView& v = out.scalars;
  uint32_t n_shared = 0;
  for (const Pool& pool : sc.pools) n_shared += pool.sharing.kind != ShareKind::whole;
  if (n_shared == 0) return;
  v.share.n_shared_pools = n_shared;
  const size_t n_pools = sc.pools.size();
  for (const Pool& pool : sc.pools) {
    const PoolSharing& ps = pool.sharing;
    SharedPoolSpec sp;
    sp.kind = ps.kind;
    sp.interference = ps.interference;
    if (ps.kind == ShareKind::mig) {
      sp.slots = ps.layout.n;
      sp.entry0 = static_cast<uint32_t>(out.share_entry_units.size());
      for (uint32_t i = 0; i < ps.layout.n; ++i)
        out.share_entry_units.push_back(
            ps.mig->profiles[ps.layout.instances[i].profile_idx].compute_slices *
            (SHARE_UNITS / sharing::MIG_COMPUTE_SLICES));
    } else if (ps.kind == ShareKind::time_sliced) {
      sp.slots = ps.replicas;
    } else if (ps.kind == ShareKind::fractional) {
      sp.packing = ps.packing;
      sp.gpu_mem_mib = gpu_mem_mib(*pool.gpu);
      sp.level0 = v.share.n_frac_pools++ * (MILLI_PER_GPU + 1);
    }
    v.share.max_slots = std::max(v.share.max_slots, sp.slots);
    out.share_pools.push_back(sp);
  }
  for (size_t c = 0; c < sc.workload.size(); ++c) {
    const JobClass& jc = sc.workload[c];
    out.share_class_kind.push_back(jc.share.kind);
    out.share_class_fraction.push_back(jc.share.fraction);
    out.share_class_milli.push_back(jc.share.milli);
    out.share_class_mem_mib.push_back(jc.share.mem_mib);
    for (size_t p = 0; p < n_pools; ++p) {
      const uint32_t entries =
          may_run_on(sc, jc, p) ? serving_entries(sc.pools[p].sharing, jc.share) : 0u;
      out.share_class_entries.push_back(entries);
      const double milli = double(jc.share.milli) / MILLI_PER_GPU;
      if (jc.share.kind != ShareKind::mig || entries == 0) {
        out.share_class_compute.push_back(
            jc.share.kind == ShareKind::fractional ? milli : jc.share.fraction);
        continue;
      }
      // NOTE: every entry of the mask has the class's profile. A job that uses u of a GPU runs at
      // full speed on an instance with at least that share f, else at f / u.
      const PoolSharing& ps = sc.pools[p].sharing;
      const uint8_t profile = ps.layout.instances[__builtin_ctz(entries)].profile_idx;
      const double f = sharing::mig_speed_factor(*ps.mig, profile);
      if (jc.share.fraction > f) out.slowdown[c * n_pools + p] *= jc.share.fraction / f;
      out.share_class_compute.push_back(std::min(jc.share.fraction, f));
    }
  }
  // NOTE: time-sliced re-rating leaves a stale finish per moved job until it pops or is dropped.
  for (const SharedPoolSpec& sp : out.share_pools)
    if (sp.kind == ShareKind::time_sliced) {
      v.extra_events += v.max_active_jobs;
      break;
    }
  if (out.share_class_entries.size() != sc.workload.size() * n_pools ||
      out.share_class_compute.size() != out.share_class_entries.size())
    throw std::logic_error("compile: internal invariant failed: shared class entries");
}

}  // namespace gpuplan
