#include "sim/sharing/mig.h"

#include <doctest/doctest.h>

#include <cstring>
#include <initializer_list>
#include <utility>

using namespace gpuplan::sharing;

namespace {

MigLayout layout(const MigGpuSpec& spec,
                 std::initializer_list<std::pair<const char*, uint8_t>> xs) {
  MigLayout l;
  for (const auto& [name, start] : xs) {
    const int idx = find_mig_profile(spec, name);
    REQUIRE(idx >= 0);
    l.instances[l.n++] = {static_cast<uint8_t>(idx), start};
  }
  return l;
}

}  // namespace

TEST_CASE("sharing::mig") {
  const MigGpuSpec& a100 = mig_spec(MigGpu::a100_40gb);

  SUBCASE("every table lists the vendor's six profiles from 1g to 7g") {
    for (uint32_t g = 0; g < N_MIG_GPUS; ++g) {
      const MigGpuSpec& s = mig_spec(static_cast<MigGpu>(g));
      // Six profiles each (1g, 1g with two memory slices, 2g, 3g, 4g, 7g).
      CHECK(s.n_profiles == 6);
      // The largest profile takes all seven compute and eight memory slices, once.
      CHECK(s.profiles[5].compute_slices == 7);
      CHECK(s.profiles[5].memory_slices == 8);
      CHECK(s.profiles[5].max_instances == 1);
    }
    // H200's smallest profile is 1g.18gb and B200's 7g.180gb (vendor names).
    CHECK(std::strcmp(mig_spec(MigGpu::h200_141gb).profiles[0].name, "1g.18gb") == 0);
    CHECK(std::strcmp(mig_spec(MigGpu::b200_180gb).profiles[5].name, "7g.180gb") == 0);
  }

  SUBCASE("GPUs and profiles are found by name, case-insensitively, and unknown ones are not") {
    CHECK(find_mig_spec("h100-80gb") == &mig_spec(MigGpu::h100_80gb));
    CHECK(find_mig_spec("H200") == &mig_spec(MigGpu::h200_141gb));
    CHECK(find_mig_spec("V100-32GB") == nullptr);
    // 2g.35gb is H200's third profile; A100-40GB has no such profile.
    CHECK(find_mig_profile(mig_spec(MigGpu::h200_141gb), "2g.35gb") == 2);
    CHECK(find_mig_profile(a100, "2g.35gb") == -1);
  }

  SUBCASE("layouts the vendor allows are accepted") {
    MigLayout seven;
    for (uint8_t s = 0; s < 7; ++s) seven.instances[seven.n++] = {0, s};
    CHECK(check_mig_layout(a100, seven).error == MigLayoutError::ok);
    CHECK(check_mig_layout(a100, layout(a100, {{"3g.20gb", 0}, {"3g.20gb", 4}})).error ==
          MigLayoutError::ok);
    CHECK(check_mig_layout(a100, layout(a100, {{"4g.20gb", 0}, {"3g.20gb", 4}})).error ==
          MigLayoutError::ok);
    CHECK(check_mig_layout(a100, layout(a100, {{"2g.10gb", 0}, {"2g.10gb", 2}, {"3g.20gb", 4}}))
              .error == MigLayoutError::ok);
    CHECK(check_mig_layout(
              a100, layout(a100, {{"3g.20gb", 4}, {"2g.10gb", 0}, {"1g.5gb", 2}, {"1g.5gb", 3}}))
              .error == MigLayoutError::ok);
    CHECK(check_mig_layout(a100, layout(a100, {{"7g.40gb", 0}})).error == MigLayoutError::ok);
  }

  SUBCASE("layouts the vendor does not allow are rejected with the instance at fault") {
    // 3g starts only at memory slice 0 or 4.
    auto c = check_mig_layout(a100, layout(a100, {{"3g.20gb", 2}}));
    CHECK(c.error == MigLayoutError::bad_start);
    // 4g.20gb starts only at 0; 2g at even slices; 1g.10gb at 0, 2, 4, 6.
    CHECK(check_mig_layout(a100, layout(a100, {{"4g.20gb", 4}})).error ==
          MigLayoutError::bad_start);
    CHECK(check_mig_layout(a100, layout(a100, {{"2g.10gb", 1}})).error ==
          MigLayoutError::bad_start);
    CHECK(check_mig_layout(a100, layout(a100, {{"1g.10gb", 1}})).error ==
          MigLayoutError::bad_start);
    // A 1g instance has no eighth slot (slice 7 belongs only to larger profiles).
    CHECK(check_mig_layout(a100, layout(a100, {{"1g.5gb", 7}})).error == MigLayoutError::bad_start);
    // A 3g at 0 covers memory slices 0..3, so a 1g at 3 overlaps it (instance 1 at fault).
    c = check_mig_layout(a100, layout(a100, {{"3g.20gb", 0}, {"1g.5gb", 3}}));
    CHECK(c.error == MigLayoutError::overlap);
    CHECK(c.instance == 1);
    // 7g.40gb takes the whole GPU.
    CHECK(check_mig_layout(a100, layout(a100, {{"7g.40gb", 0}, {"1g.5gb", 6}})).error ==
          MigLayoutError::overlap);
    // A profile index past the table.
    MigLayout bad;
    bad.instances[bad.n++] = {6, 0};
    CHECK(check_mig_layout(a100, bad).error == MigLayoutError::unknown_profile);
  }

  SUBCASE("the first free start follows the placements") {
    // A 3g at 4 leaves slices 0..3: a 2g, 3g or 4g starts at 0, a 7g nowhere.
    const uint8_t used = mig_slice_mask(a100, {3, 4});
    CHECK(used == 0xF0);
    CHECK(mig_first_start(a100, used, 2) == 0);
    CHECK(mig_first_start(a100, used, 3) == 0);
    CHECK(mig_first_start(a100, used, 5) == NO_MIG_START);
    // With all eight memory slices used, nothing fits.
    CHECK(mig_first_start(a100, 0xFF, 0) == NO_MIG_START);
    // With slices 0..5 used, 1g.5gb starts at 6 and 1g.10gb at 6 (slices 6..7).
    CHECK(mig_first_start(a100, 0x3F, 0) == 6);
    CHECK(mig_first_start(a100, 0x3F, 1) == 6);
  }

  SUBCASE("an instance's speed is its SM share where listed, else its compute slices over 7") {
    // A100-40GB 7g.40gb exposes 98 of 108 SMs.
    CHECK(mig_speed_factor(a100, 5) == doctest::Approx(98.0 / 108.0));
    // 1g.5gb: 14 of 108 SMs.
    CHECK(mig_speed_factor(a100, 0) == doctest::Approx(14.0 / 108.0));
    // H200 3g.71gb: no cited SM listing, 3 of 7 compute slices.
    CHECK(mig_speed_factor(mig_spec(MigGpu::h200_141gb), 3) == doctest::Approx(3.0 / 7.0));
  }
}
