#pragma once
//! Compiles shared GPUs (docs/sharing.md, "In the engine"): MIG layouts, time-slicing and
//! fractional packing of the pools into ModelView::share, and MIG speed factors into the
//! per-(class, pool) slowdown.
#include "models/compile/compiled_scenario.h"

namespace gpuplan {

//! Whether class `jc` may run on pool `p`: its pools allow it and the pool's sharing serves its
//! request (whole GPUs only on unshared pools, a MIG profile where the layout has it,
//! time-sliced replicas on time-sliced pools).
[[nodiscard]] bool may_run_on(const Scenario& sc, const JobClass& jc, size_t p);

//! [MiB] memory of one GPU of model `gpu` (its catalog GB taken as GiB, as "80GB" is sold).
[[nodiscard]] uint32_t gpu_mem_mib(const GpuSpec& gpu);

//! Whole GPUs a job of `jc` with `gpus` requested holds in the core: `gpus`, or 0 for a
//! shared-GPU class (its GPU entry is tracked by sim/core/shared_gpus.h).
[[nodiscard]] uint32_t shared_gpus(const JobClass& jc, uint32_t gpus);

//! GPUs a job of `jc` holds while it runs, on average: its mean GPU count; for a MIG job its
//! instance's compute slices / 7 times its stretch max(1, u / f) on the first pool serving it; for
//! a time-sliced job the compute share u it uses; for a fractional job its milli / 1000
//! (offered-load estimates, models/compile/offered_load.h).
[[nodiscard]] double gpus_per_job(const Scenario& sc, const JobClass& jc);

//! Fills out's share_* tables and the sharing scalars of the view, and stretches the duration of a
//! MIG class on each pool by u / f when its jobs use more of a GPU (u, gpu_fraction) than the
//! instance has (f, mig_speed_factor) in out.slowdown. Call
//! after the offered load is estimated (a shared job counts there as one GPU for its reference
//! duration, which a MIG instance's compute share times its stretched time about equals).
void compile_sharing(const Scenario& sc, CompiledScenario& out);

}  // namespace gpuplan
