#pragma once
//! Places pods one at a time on a cluster of shared-GPU nodes under one PackPolicy and keeps the
//! cluster's allocation and fragmentation. Host-side (std::vector): the per-node decisions are the
//! plain functions of pack_policy.h; this adds the loop over nodes and, for FGD, caches of each
//! node's fragmentation and of its best choice per pod shape, valid until the node changes, so a
//! replay of thousands of pods on a thousand nodes takes seconds.
#include <cstdint>
#include <optional>
#include <utility>
#include <map>
#include <vector>

#include "sim/sharing/pack_policy.h"

namespace gpuplan::sharing {

//! A cluster of shared-GPU nodes being packed under one policy.
class Packer {
 public:
  //! Packs onto `nodes` under `policy`; `shapes` are the typical pod shapes fragmentation is
  //! measured against (FGD's objective and the fragmentation metric of every policy); `seed`
  //! keys the random policy's draws.
  Packer(std::vector<SharedNode> nodes, std::vector<TypicalShape> shapes, PackPolicy policy,
         uint64_t seed);

  //! Chooses where `pod` goes and allocates it there; nullopt (nothing changed) when no node
  //! fits it.
  std::optional<Placement> place(const PodShape& pod);

  //! Gives back what `place` allocated for `pod` at `where`.
  void remove(const PodShape& pod, const Placement& where);

  [[nodiscard]] const std::vector<SharedNode>& nodes() const { return nodes_; }
  [[nodiscard]] uint64_t total_gpu_milli() const { return total_gpu_milli_; }
  //! [milli-GPU] allocated to pods now.
  [[nodiscard]] uint64_t allocated_gpu_milli() const { return allocated_gpu_milli_; }
  //! Allocated ÷ total GPU-milli.
  [[nodiscard]] double allocation_ratio() const;
  //! [milli-GPU] Σ over nodes of F_n(M) (fragmentation.h).
  [[nodiscard]] double fragmentation_milli() const { return frag_sum_; }

 private:
  struct ChoiceCache {
    uint32_t version = 0;  // node version it was computed at; 0 = never
    FgdChoice choice;
  };
  [[nodiscard]] uint32_t shape_id(const PodShape& pod);
  [[nodiscard]] std::optional<Placement> choose(const PodShape& pod);
  [[nodiscard]] std::optional<Placement> choose_fgd(const PodShape& pod);
  [[nodiscard]] std::optional<Placement> choose_random(const PodShape& pod);
  void node_changed(uint32_t node_idx);

  std::vector<SharedNode> nodes_;
  std::vector<TypicalShape> shapes_;
  PackPolicy policy_;
  uint64_t seed_;
  uint32_t n_draws_ = 0;
  double max_cpu_milli_ = 1, max_gpu_milli_ = 1;
  uint64_t total_gpu_milli_ = 0, allocated_gpu_milli_ = 0;
  std::vector<uint32_t> version_;  // per node; bumped when the node changes
  std::vector<double> frag_;       // per node: F_n(M) now
  double frag_sum_ = 0;
  std::map<std::pair<uint64_t, uint32_t>, uint32_t> shape_ids_;
  std::vector<std::vector<ChoiceCache>> fgd_cache_;  // [shape id][node]
  std::vector<uint32_t> candidates_;                 // scratch: nodes that fit
};

}  // namespace gpuplan::sharing
