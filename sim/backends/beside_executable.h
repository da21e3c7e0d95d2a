#pragma once
//! Where the build puts gpuplan's optional modules (libgpuplan_mpi.so, libgpuplan_cuda.so): in the
//! folder of the running executable, so a copied program finds the modules copied along with it.
#include <filesystem>
#include <string_view>

namespace gpuplan {

//! `name` in the folder of the running executable.
[[nodiscard]] inline std::filesystem::path beside_executable(std::string_view name) {
  std::error_code ec;
  return std::filesystem::read_symlink("/proc/self/exe", ec).parent_path() / name;
}

}  // namespace gpuplan
