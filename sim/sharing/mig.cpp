#include "sim/sharing/mig.h"

#include <strings.h>

namespace gpuplan::sharing {
namespace {

// NOTE: placements in memory slices, as the vendor's placement diagrams and `nvidia-smi mig
// -lgipp` give them: a 1g instance with one memory slice starts at 0..6, the 1g profile with two
// memory slices and 2g at even slices (0,2,4,6 and 0,2,4), 3g at 0 or 4, 4g and 7g at 0 only.
constexpr uint8_t STARTS_1G = 0x7F;     // {0,1,2,3,4,5,6}:1
constexpr uint8_t STARTS_1G_2M = 0x55;  // {0,2,4,6}:2
constexpr uint8_t STARTS_2G = 0x15;     // {0,2,4}:2
constexpr uint8_t STARTS_3G = 0x11;     // {0,4}:4
constexpr uint8_t STARTS_FULL = 0x01;   // {0}:4 (4g) and {0}:8 (7g)

// SM counts: A100 from its `nvidia-smi mig -lgip` listing (7g.40gb exposes 98 of 108 SMs);
// H100 1g/2g/3g likewise; 0 where no cited listing gives the count (speed uses slices / 7).
constexpr MigGpuSpec SPECS[N_MIG_GPUS] = {
    {"A100-40GB",
     108,
     6,
     {{"1g.5gb", 1, 1, 7, STARTS_1G, 14, 5},
      {"1g.10gb", 1, 2, 4, STARTS_1G_2M, 14, 10},
      {"2g.10gb", 2, 2, 3, STARTS_2G, 28, 10},
      {"3g.20gb", 3, 4, 2, STARTS_3G, 42, 20},
      {"4g.20gb", 4, 4, 1, STARTS_FULL, 56, 20},
      {"7g.40gb", 7, 8, 1, STARTS_FULL, 98, 40}}},
    {"A100-80GB",
     108,
     6,
     {{"1g.10gb", 1, 1, 7, STARTS_1G, 14, 10},
      {"1g.20gb", 1, 2, 4, STARTS_1G_2M, 14, 20},
      {"2g.20gb", 2, 2, 3, STARTS_2G, 28, 20},
      {"3g.40gb", 3, 4, 2, STARTS_3G, 42, 40},
      {"4g.40gb", 4, 4, 1, STARTS_FULL, 56, 40},
      {"7g.80gb", 7, 8, 1, STARTS_FULL, 98, 80}}},
    {"H100-SXM",
     132,
     6,
     {{"1g.10gb", 1, 1, 7, STARTS_1G, 16, 10},
      {"1g.20gb", 1, 2, 4, STARTS_1G_2M, 26, 20},
      {"2g.20gb", 2, 2, 3, STARTS_2G, 32, 20},
      {"3g.40gb", 3, 4, 2, STARTS_3G, 60, 40},
      {"4g.40gb", 4, 4, 1, STARTS_FULL, 0, 40},
      {"7g.80gb", 7, 8, 1, STARTS_FULL, 0, 80}}},
    {"H200",
     132,
     6,
     {{"1g.18gb", 1, 1, 7, STARTS_1G, 0, 18},
      {"1g.35gb", 1, 2, 4, STARTS_1G_2M, 0, 35},
      {"2g.35gb", 2, 2, 3, STARTS_2G, 0, 35},
      {"3g.71gb", 3, 4, 2, STARTS_3G, 0, 71},
      {"4g.71gb", 4, 4, 1, STARTS_FULL, 0, 71},
      {"7g.141gb", 7, 8, 1, STARTS_FULL, 0, 141}}},
    {"B200",
     148,
     6,
     {{"1g.23gb", 1, 1, 7, STARTS_1G, 0, 23},
      {"1g.45gb", 1, 2, 4, STARTS_1G_2M, 0, 45},
      {"2g.45gb", 2, 2, 3, STARTS_2G, 0, 45},
      {"3g.90gb", 3, 4, 2, STARTS_3G, 0, 90},
      {"4g.90gb", 4, 4, 1, STARTS_FULL, 0, 90},
      {"7g.180gb", 7, 8, 1, STARTS_FULL, 0, 180}}},
};

// Vendor and catalog spellings of each GPU, matched case-insensitively.
struct Alias {
  const char* name;
  MigGpu gpu;
};
constexpr Alias ALIASES[] = {
    {"A100-40GB", MigGpu::a100_40gb},      {"A100-SXM4-40GB", MigGpu::a100_40gb},
    {"A100-80GB", MigGpu::a100_80gb},      {"A100-SXM4-80GB", MigGpu::a100_80gb},
    {"H100-SXM", MigGpu::h100_80gb},       {"H100-80GB", MigGpu::h100_80gb},
    {"H100-SXM5-80GB", MigGpu::h100_80gb}, {"H200", MigGpu::h200_141gb},
    {"H200-141GB", MigGpu::h200_141gb},    {"B200", MigGpu::b200_180gb},
};

}  // namespace

const MigGpuSpec& mig_spec(MigGpu gpu) {
  return SPECS[static_cast<uint32_t>(gpu)];
}

const MigGpuSpec* find_mig_spec(const char* gpu_id) {
  for (const Alias& a : ALIASES)
    if (strcasecmp(a.name, gpu_id) == 0) return &mig_spec(a.gpu);
  return nullptr;
}

int find_mig_profile(const MigGpuSpec& spec, const char* name) {
  for (uint32_t i = 0; i < spec.n_profiles; ++i)
    if (strcasecmp(spec.profiles[i].name, name) == 0) return static_cast<int>(i);
  return -1;
}

uint8_t mig_slice_mask(const MigGpuSpec& spec, const MigInstance& inst) {
  const uint32_t size = spec.profiles[inst.profile_idx].memory_slices;
  return static_cast<uint8_t>(((1u << size) - 1u) << inst.start);
}

MigLayoutCheck check_mig_layout(const MigGpuSpec& spec, const MigLayout& layout) {
  uint8_t used = 0;
  uint8_t count[MAX_MIG_PROFILES] = {};
  for (uint8_t i = 0; i < layout.n && i < MAX_MIG_INSTANCES; ++i) {
    const MigInstance& inst = layout.instances[i];
    if (inst.profile_idx >= spec.n_profiles) return {MigLayoutError::unknown_profile, i};
    const MigProfile& p = spec.profiles[inst.profile_idx];
    if (inst.start >= MIG_MEMORY_SLICES || (p.start_mask & (1u << inst.start)) == 0)
      return {MigLayoutError::bad_start, i};
    const uint8_t mask = mig_slice_mask(spec, inst);
    if ((used & mask) != 0) return {MigLayoutError::overlap, i};
    used = static_cast<uint8_t>(used | mask);
    if (++count[inst.profile_idx] > p.max_instances) return {MigLayoutError::too_many, i};
  }
  if (layout.n > MAX_MIG_INSTANCES) return {MigLayoutError::too_many, MAX_MIG_INSTANCES};
  return {};
}

uint8_t mig_first_start(const MigGpuSpec& spec, uint8_t used_mask, uint8_t profile_idx) {
  if (profile_idx >= spec.n_profiles) return NO_MIG_START;
  const MigProfile& p = spec.profiles[profile_idx];
  for (uint8_t s = 0; s < MIG_MEMORY_SLICES; ++s) {
    if ((p.start_mask & (1u << s)) == 0) continue;
    if ((used_mask & mig_slice_mask(spec, {profile_idx, s})) == 0) return s;
  }
  return NO_MIG_START;
}

double mig_speed_factor(const MigGpuSpec& spec, uint8_t profile_idx) {
  const MigProfile& p = spec.profiles[profile_idx];
  if (p.sms > 0) return static_cast<double>(p.sms) / spec.sms_total;
  return static_cast<double>(p.compute_slices) / MIG_COMPUTE_SLICES;
}

const char* mig_layout_error_text(MigLayoutError e) {
  switch (e) {
    case MigLayoutError::ok:
      return "valid";
    case MigLayoutError::unknown_profile:
      return "profile not offered by this GPU";
    case MigLayoutError::bad_start:
      return "start slot not among the vendor's placements";
    case MigLayoutError::overlap:
      return "overlaps another instance's memory slices";
    case MigLayoutError::too_many:
      return "more instances than the vendor allows";
  }
  return "invalid";
}

}  // namespace gpuplan::sharing
