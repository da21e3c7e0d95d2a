#pragma once
//! NVIDIA Multi-Instance GPU (MIG): the GPU-instance profiles each supported GPU offers and the
//! placements (start slots) the vendor allows, so only layouts the driver would create are
//! accepted. Source: NVIDIA Multi-Instance GPU User Guide, "Supported MIG Profiles"
//! (https://docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-mig-profiles.html): profile
//! names, fraction of memory (eighths) and of SMs (sevenths), instances available, and the
//! placement diagrams; placements as `nvidia-smi mig -lgipp` lists them ({starts}:size in memory
//! slices). Media-extension profiles (+me) are not modelled.
//! Plain data, no allocation: usable from the engine later (host-side tables today).
#include <cstdint>

namespace gpuplan::sharing {

//! GPUs with MIG tables here.
enum class MigGpu : uint8_t { a100_40gb, a100_80gb, h100_80gb, h200_141gb, b200_180gb };
inline constexpr uint32_t N_MIG_GPUS = 5;

inline constexpr uint32_t MIG_MEMORY_SLICES = 8;   //!< memory is sliced in eighths
inline constexpr uint32_t MIG_COMPUTE_SLICES = 7;  //!< compute (GPCs) in sevenths
inline constexpr uint32_t MAX_MIG_INSTANCES = 7;   //!< at most seven GPU instances per GPU
inline constexpr uint32_t MAX_MIG_PROFILES = 6;    //!< profiles per GPU in these tables
inline constexpr uint8_t NO_MIG_START = 0xFF;      //!< no free start slot (mig_first_start)

//! One GPU-instance profile ("3g.20gb") of one GPU.
struct MigProfile {
  const char* name;        //!< vendor name, e.g. "3g.20gb"
  uint8_t compute_slices;  //!< compute slices of 7 (the vendor's "fraction of SMs")
  uint8_t memory_slices;   //!< memory slices of 8 one instance occupies
  uint8_t max_instances;   //!< the vendor's "number of instances available"
  uint8_t start_mask;      //!< bit s set: an instance may start at memory slice s
  uint16_t sms;            //!< SMs the instance exposes; 0 where no cited listing gives it
  uint16_t mem_gb;         //!< [GB] memory as the profile name states it
};

//! The MIG table of one GPU.
struct MigGpuSpec {
  const char* gpu_id;  //!< gpuplan GPU id ("A100-40GB", "H100-SXM", ...)
  uint16_t sms_total;  //!< [SMs] of the whole GPU without MIG
  uint8_t n_profiles;  //!< profiles used in `profiles`
  MigProfile profiles[MAX_MIG_PROFILES];
};

//! The MIG table of `gpu` (static storage; never null).
[[nodiscard]] const MigGpuSpec& mig_spec(MigGpu gpu);

//! The MIG table whose gpu_id or vendor alias matches `gpu_id` case-insensitively ("A100-40GB",
//! "H100-80GB", "H100-SXM", "H200", "H200-141GB", "B200"), or nullptr.
[[nodiscard]] const MigGpuSpec* find_mig_spec(const char* gpu_id);

//! Index of profile `name` ("1g.5gb") in `spec`, or -1 when the GPU has no such profile.
[[nodiscard]] int find_mig_profile(const MigGpuSpec& spec, const char* name);

//! One GPU instance of a layout.
struct MigInstance {
  uint8_t profile_idx;  //!< index into MigGpuSpec::profiles
  uint8_t start;        //!< first memory slice (0..7)
};

//! The GPU instances on one GPU (plain data).
struct MigLayout {
  uint8_t n = 0;
  MigInstance instances[MAX_MIG_INSTANCES] = {};
};

//! Why a layout is not one the vendor allows.
enum class MigLayoutError : uint8_t {
  ok,
  unknown_profile,  //!< a profile index the GPU does not have
  bad_start,        //!< a start slot not among the profile's placements
  overlap,          //!< two instances share a memory slice
  too_many,         //!< more instances of a profile than the vendor allows
};

//! The result of checking a layout: the first error and the instance it concerns.
struct MigLayoutCheck {
  MigLayoutError error = MigLayoutError::ok;
  uint8_t instance = 0;  //!< index into MigLayout::instances of the offending instance
};

//! Memory slices instance `inst` of `spec` covers, as a bit mask (bit s = slice s).
[[nodiscard]] uint8_t mig_slice_mask(const MigGpuSpec& spec, const MigInstance& inst);

//! Checks `layout` against the vendor placements of `spec`: every start among the profile's
//! placements, no two instances on one memory slice, instance counts within the vendor maximum.
[[nodiscard]] MigLayoutCheck check_mig_layout(const MigGpuSpec& spec, const MigLayout& layout);

//! The lowest start slot at which profile `profile_idx` fits beside the memory slices in
//! `used_mask`, or NO_MIG_START.
[[nodiscard]] uint8_t mig_first_start(const MigGpuSpec& spec, uint8_t used_mask,
                                      uint8_t profile_idx);

//! Speed of a job on one instance of profile `profile_idx` relative to the whole GPU: its SMs
//! over the GPU's SMs where the listing is cited (A100 7g.40gb: 98 / 108), else its compute
//! slices over 7.
[[nodiscard]] double mig_speed_factor(const MigGpuSpec& spec, uint8_t profile_idx);

//! A short name of a layout error ("start slot not allowed", ...).
[[nodiscard]] const char* mig_layout_error_text(MigLayoutError e);

}  // namespace gpuplan::sharing
