#pragma once
//! Packing policies for pods on shared GPUs and the per-node decisions they make (plain data,
//! no allocation). The loop over nodes with its caches is sim/sharing/packer.h.
//!
//! - best_fit: the node whose free CPU and GPU after placing are least,
//!   score = ½ (cpu_free − cpu) / max_cpu + ½ (gpu_free − gpu) / max_gpu (the FGD artifact's
//!   BestFit, pkg/simulator/plugin/best_fit_score.go, normalised by the cluster's largest node);
//!   on it, a fractional pod takes the GPU with the least free milli that fits.
//! - worst_fit: the node with the largest score, the GPU with the most free milli.
//! - random: a node drawn uniformly among those that fit, a GPU drawn uniformly among those with
//!   room (Philox, Stream::packing).
//! - fgd: the node and GPU whose placement grows the node's fragmentation (fragmentation.h)
//!   least, ΔF = F_n(M) after − F_n(M) before (Weng et al., ATC'23, Algorithm 1).
//! Whole-GPU pods take the lowest-indexed free GPUs of the chosen node under every policy.
//! Ties go to the lowest node index, then the lowest GPU index.
#include <cmath>
#include <cstdint>

#include "sim/core/portable.h"
#include "sim/core/shared_types.h"
#include "sim/sharing/fragmentation.h"
#include "sim/sharing/shared_node.h"

namespace gpuplan::sharing {

// How pods are packed onto shared GPUs: the engine's enum (sim/core/shared_types.h), whose
// fractional pools apply best_fit's and worst_fit's GPU rule (pick_share_gpu) pool-wide.
using gpuplan::N_PACK_POLICIES;
using gpuplan::PackPolicy;

//! Best/worst-fit score of placing `p` on `n` (lower = tighter fit); `max_cpu_milli` and
//! `max_gpu_milli` are the largest node's capacities.
[[nodiscard]] GPUPLAN_HD inline double fit_score(const SharedNode& n, const PodShape& p,
                                                 double max_cpu_milli, double max_gpu_milli) {
  const double cpu_left = static_cast<double>(n.cpu_milli_free) - p.cpu_milli;
  const double gpu_left = static_cast<double>(idle_gpu_milli(n)) - pod_gpu_milli(p);
  return 0.5 * cpu_left / max_cpu_milli + 0.5 * gpu_left / max_gpu_milli;
}

//! The GPU a fractional pod takes on node `n` (which it fits): the one with the least free milli
//! that fits (`most_free` false) or the most (`most_free` true), ties to the lowest index.
[[nodiscard]] GPUPLAN_HD inline uint8_t pick_share_gpu(const SharedNode& n, const PodShape& p,
                                                       bool most_free) {
  int best = -1;
  for (uint32_t g = 0; g < n.n_gpus; ++g) {
    const uint16_t f = n.gpu_milli_free[g];
    if (f < p.gpu_milli) continue;
    const bool better =
        best < 0 || (most_free ? f > n.gpu_milli_free[best] : f < n.gpu_milli_free[best]);
    if (better) best = static_cast<int>(g);
  }
  return best < 0 ? uint8_t{0} : static_cast<uint8_t>(1u << best);
}

//! FGD's node score as the paper's artifact computes it (pkg/simulator/plugin/fgd_score.go): the
//! Kubernetes integer score 0..100 of sigmoid(−ΔF / 1000), ΔF = F_n(M) after − before in
//! milli-GPU, truncated. The truncation makes ΔF values within a few hundredths of a GPU equal,
//! and equal scores go to the first node (the artifact's scheduler takes the smallest node name;
//! openb's zero-padded names are its file order): on openb that is worth a point of allocation
//! over comparing ΔF exactly.
[[nodiscard]] GPUPLAN_HD inline int fgd_score(double delta_milli) {
  return static_cast<int>(100.0 / (1.0 + std::exp(delta_milli / 1000.0)));
}

//! Whether a pod shares one GPU (a fraction of it) rather than taking whole GPUs.
[[nodiscard]] GPUPLAN_HD inline bool is_share_pod(const PodShape& p) {
  return p.n_gpus == 1 && p.gpu_milli < MILLI_PER_GPU;
}

//! FGD's choice on one node: the GPUs to take and the growth of fragmentation they cause.
struct FgdChoice {
  uint8_t gpu_mask = 0;
  double delta = 0;  //!< [milli-GPU] F_n(M) after − before
  int score = 0;     //!< fgd_score(delta)
};

//! FGD on one node the pod fits: of the GPUs with room for a fractional pod, the first with the
//! highest fgd_score (GPUs with equal free milli give the same result); the lowest free GPUs for a
//! whole-GPU or CPU-only pod; `frag_before` is node_fragmentation(n, shapes).
[[nodiscard]] GPUPLAN_HD inline FgdChoice fgd_choice(const SharedNode& n, const PodShape& p,
                                                     span<const TypicalShape> shapes,
                                                     double frag_before) {
  FgdChoice best;
  if (!is_share_pod(p)) {
    best.gpu_mask = lowest_gpus(n, p);
    SharedNode after = n;
    allocate_pod(after, p, best.gpu_mask);
    best.delta = node_fragmentation(after, shapes) - frag_before;
    best.score = fgd_score(best.delta);
    return best;
  }
  bool found = false;
  for (uint32_t g = 0; g < n.n_gpus; ++g) {
    const uint16_t f = n.gpu_milli_free[g];
    if (f < p.gpu_milli) continue;
    bool seen = false;
    for (uint32_t h = 0; h < g; ++h) seen = seen || n.gpu_milli_free[h] == f;
    if (seen) continue;
    SharedNode after = n;
    const uint8_t mask = static_cast<uint8_t>(1u << g);
    allocate_pod(after, p, mask);
    const double d = node_fragmentation(after, shapes) - frag_before;
    const int score = fgd_score(d);
    if (!found || score > best.score) {
      best = {mask, d, score};
      found = true;
    }
  }
  return best;
}

}  // namespace gpuplan::sharing
