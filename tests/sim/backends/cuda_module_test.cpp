//! The CUDA module is found, refused or asked for devices, and each way says why in its own words.
#include <dlfcn.h>
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "sim/backends/beside_executable.h"
#include "sim/backends/mc_cuda.h"

using namespace gpuplan;
namespace fs = std::filesystem;

namespace {

bool has(const std::string& text, const char* part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("sim::cuda_module::absent_means_built_without_cuda") {
  const CudaModule cuda(fs::path(GPUPLAN_BINARY_DIR) / "no_such_folder" / "libgpuplan_cuda.so");
  CHECK(cuda.support() == CudaSupport::not_built);
  CHECK(has(cuda.why_not(), "built without CUDA"));
  CHECK_FALSE(has(cuda.why_not(), "device"));
  CHECK_THROWS_WITH_AS((void)cuda.device_name(), doctest::Contains("built without CUDA"),
                       std::runtime_error);
}

TEST_CASE("sim::cuda_module::a_file_that_is_no_library_is_refused") {
  const fs::path dir =
      fs::path(GPUPLAN_BINARY_DIR) / ("cuda_module_test_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "libgpuplan_cuda.so";
  std::ofstream(file) << "not an ELF file\n";
  const CudaModule cuda(file);
  CHECK(cuda.support() == CudaSupport::unloadable);
  CHECK(has(cuda.why_not(), "cannot load gpuplan's CUDA module"));
  fs::remove_all(dir);
}

TEST_CASE("sim::cuda_module::a_library_without_the_table_is_refused") {
  // NOTE: glibc's maths library: a real shared library with no table. Found through one of its
  // functions rather than the C library's, which the executable intercepts under
  // AddressSanitizer, so dladdr would name the test program itself.
  void* libm = ::dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL);
  REQUIRE(libm != nullptr);
  Dl_info info{};
  REQUIRE(::dladdr(::dlsym(libm, "cos"), &info) != 0);
  const CudaModule cuda(info.dli_fname);
  CHECK(cuda.support() == CudaSupport::unloadable);
  CHECK(has(cuda.why_not(), "is not this gpuplan's CUDA module"));
  ::dlclose(libm);
}

TEST_CASE("sim::cuda_module::the_built_module_loads_and_counts_devices") {
  // Beside this test program, as gpuplan finds it: a copied build (tools/gpu-check.sh with
  // GPU_CHECK_BIN) checks the module it carries.
  const fs::path file = beside_executable("libgpuplan_cuda.so");
  if (!fs::exists(file)) {
    MESSAGE("skipped: this build has no CUDA module (no nvcc at configure time)");
    return;
  }
  const CudaModule cuda(file);
  REQUIRE_MESSAGE(
      (cuda.support() == CudaSupport::no_device || cuda.support() == CudaSupport::ready),
      cuda.why_not());
  if (cuda.support() == CudaSupport::no_device) {
    CHECK(has(cuda.why_not(), "no CUDA device is available"));
    CHECK_FALSE(has(cuda.why_not(), "built without CUDA"));
  } else {
    CHECK(cuda.why_not().empty());
    CHECK_FALSE(cuda.device_name().empty());
  }
}
