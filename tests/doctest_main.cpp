//! The test programs' main: doctest's, then a sweep of what this process's tests left in the temp
//! folder, so that a test run leaves nothing behind.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace {

//! Removes the temp folder's entries named gpuplan-<what>-<pid>[-<more>] for this process: the
//! tests name their folders so (the process id keeps concurrent runs apart), and several return
//! before they clean up, on a failed REQUIRE or by design.
void remove_own_temp_entries() {
  namespace fs = std::filesystem;
  const std::string pid = "-" + std::to_string(::getpid());
  std::error_code ec;
  std::vector<fs::path> own;
  for (fs::directory_iterator it(fs::temp_directory_path(ec), ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const std::size_t at = name.find(pid);
    if (name.rfind("gpuplan-", 0) != 0 || at == std::string::npos) continue;
    const std::size_t after = at + pid.size();
    if (after == name.size() || name[after] == '-') own.push_back(it->path());
  }
  for (const fs::path& p : own) fs::remove_all(p, ec);
}

}  // namespace

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int status = context.run();
  remove_own_temp_entries();
  return status;
}
