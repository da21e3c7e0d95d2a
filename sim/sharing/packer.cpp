#include "sim/sharing/packer.h"

#include <algorithm>

#include "sim/core/rng.h"

namespace gpuplan::sharing {

Packer::Packer(std::vector<SharedNode> nodes, std::vector<TypicalShape> shapes, PackPolicy policy,
               uint64_t seed)
    : nodes_(std::move(nodes)), shapes_(std::move(shapes)), policy_(policy), seed_(seed) {
  version_.assign(nodes_.size(), 1);
  frag_.resize(nodes_.size());
  const span<const TypicalShape> sh{shapes_.data(), static_cast<uint32_t>(shapes_.size())};
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const SharedNode& n = nodes_[i];
    max_cpu_milli_ = std::max(max_cpu_milli_, static_cast<double>(n.cpu_milli));
    max_gpu_milli_ = std::max(max_gpu_milli_, static_cast<double>(n.n_gpus) * MILLI_PER_GPU);
    total_gpu_milli_ += idle_gpu_milli(n);
    frag_[i] = node_fragmentation(n, sh);
    frag_sum_ += frag_[i];
  }
}

double Packer::allocation_ratio() const {
  return total_gpu_milli_ == 0 ? 0.0 : static_cast<double>(allocated_gpu_milli_) / total_gpu_milli_;
}

uint32_t Packer::shape_id(const PodShape& pod) {
  // NOTE: FGD's choice on a node depends on CPU, GPU count, milli and GPU models, not memory
  // (memory is checked by pod_fits before the cache is read).
  const std::pair<uint64_t, uint32_t> key{(static_cast<uint64_t>(pod.cpu_milli) << 32) |
                                              (static_cast<uint64_t>(pod.n_gpus) << 16) |
                                              pod.gpu_milli,
                                          pod.gpu_types};
  auto [it, fresh] = shape_ids_.try_emplace(key, static_cast<uint32_t>(fgd_cache_.size()));
  if (fresh) fgd_cache_.emplace_back(nodes_.size());
  return it->second;
}

std::optional<Placement> Packer::place(const PodShape& pod) {
  const std::optional<Placement> where = choose(pod);
  if (!where) return std::nullopt;
  allocate_pod(nodes_[where->node_idx], pod, where->gpu_mask);
  allocated_gpu_milli_ += pod_gpu_milli(pod);
  node_changed(where->node_idx);
  return where;
}

void Packer::remove(const PodShape& pod, const Placement& where) {
  release_pod(nodes_[where.node_idx], pod, where.gpu_mask);
  allocated_gpu_milli_ -= pod_gpu_milli(pod);
  node_changed(where.node_idx);
}

void Packer::node_changed(uint32_t node_idx) {
  ++version_[node_idx];
  const span<const TypicalShape> sh{shapes_.data(), static_cast<uint32_t>(shapes_.size())};
  const double f = node_fragmentation(nodes_[node_idx], sh);
  frag_sum_ += f - frag_[node_idx];
  frag_[node_idx] = f;
}

std::optional<Placement> Packer::choose(const PodShape& pod) {
  switch (policy_) {
    case PackPolicy::fgd:
      return choose_fgd(pod);
    case PackPolicy::random:
      return choose_random(pod);
    case PackPolicy::best_fit:
    case PackPolicy::worst_fit:
      break;
  }
  const bool worst = policy_ == PackPolicy::worst_fit;
  std::optional<uint32_t> best;
  double best_score = 0;
  for (uint32_t i = 0; i < nodes_.size(); ++i) {
    if (!pod_fits(nodes_[i], pod)) continue;
    const double s = fit_score(nodes_[i], pod, max_cpu_milli_, max_gpu_milli_);
    if (!best || (worst ? s > best_score : s < best_score)) {
      best = i;
      best_score = s;
    }
  }
  if (!best) return std::nullopt;
  const SharedNode& n = nodes_[*best];
  const uint8_t mask = is_share_pod(pod) ? pick_share_gpu(n, pod, worst) : lowest_gpus(n, pod);
  return Placement{*best, mask};
}

std::optional<Placement> Packer::choose_fgd(const PodShape& pod) {
  const span<const TypicalShape> sh{shapes_.data(), static_cast<uint32_t>(shapes_.size())};
  std::vector<ChoiceCache>& cache = fgd_cache_[shape_id(pod)];
  std::optional<Placement> best;
  int best_score = 0;
  for (uint32_t i = 0; i < nodes_.size(); ++i) {
    if (!pod_fits(nodes_[i], pod)) continue;
    ChoiceCache& c = cache[i];
    if (c.version != version_[i]) c = {version_[i], fgd_choice(nodes_[i], pod, sh, frag_[i])};
    if (!best || c.choice.score > best_score) {  // equal scores: the first node keeps it
      best = Placement{i, c.choice.gpu_mask};
      best_score = c.choice.score;
    }
  }
  return best;
}

std::optional<Placement> Packer::choose_random(const PodShape& pod) {
  candidates_.clear();
  for (uint32_t i = 0; i < nodes_.size(); ++i)
    if (pod_fits(nodes_[i], pod)) candidates_.push_back(i);
  if (candidates_.empty()) return std::nullopt;
  const Draw d = philox_draw(seed_, 0, Stream::packing, 0, n_draws_++);
  const auto pick = [](double u, size_t n) {
    return std::min(static_cast<size_t>(u * static_cast<double>(n)), n - 1);
  };
  const uint32_t node_idx = candidates_[pick(u01_first(d), candidates_.size())];
  const SharedNode& n = nodes_[node_idx];
  if (!is_share_pod(pod)) return Placement{node_idx, lowest_gpus(n, pod)};
  const uint32_t k = pick(u01_second(d), gpus_with_free(n, pod.gpu_milli));
  uint32_t seen = 0;
  for (uint32_t g = 0; g < n.n_gpus; ++g)
    if (n.gpu_milli_free[g] >= pod.gpu_milli && seen++ == k)
      return Placement{node_idx, static_cast<uint8_t>(1u << g)};
  return std::nullopt;
}

}  // namespace gpuplan::sharing
