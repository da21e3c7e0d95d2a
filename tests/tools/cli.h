#pragma once
//! The one way the tools tests run the real `gpuplan` binary and read back what it wrote.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <nlohmann/json.hpp>

namespace gpuplan_cli_test {

//! What one run of the binary returned.
struct CliRun {
  int status = -1;     //!< exit status; -1 when it did not exit normally (signal)
  std::string output;  //!< stdout and stderr together
  double seconds = 0;  //!< [s] wall time
};

//! The gpuplan binary of the build tree.
inline std::string gpuplan_binary() {
  return (std::filesystem::path(GPUPLAN_BINARY_DIR) / "gpuplan").string();
}

//! Runs shell command line `cmd` and captures what it writes to stdout (redirect stderr in `cmd`
//! to capture it too); fails the test when the shell cannot be started.
inline CliRun run_shell(const std::string& cmd) {
  CliRun r;
  const auto t0 = std::chrono::steady_clock::now();
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::array<char, 4096> buf{};
  while (size_t n = std::fread(buf.data(), 1, buf.size(), p)) r.output.append(buf.data(), n);
  const int raw = ::pclose(p);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return r;
}

//! Runs `gpuplan ARGS` (ARGS as a shell would split them) in folder `cwd` (default: the test's
//! own) under `timeout`, so a regression that hangs fails instead; captures stdout and stderr.
inline CliRun gpuplan(const std::string& args, const std::filesystem::path& cwd = {},
                      int timeout_s = 600) {
  const std::string cd = cwd.empty() ? "" : "cd '" + cwd.string() + "' && ";
  return run_shell(cd + "timeout " + std::to_string(timeout_s) + " " + gpuplan_binary() + " " +
                   args + " 2>&1");
}

//! The bytes of file `p`; empty when it cannot be read.
inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

//! File `p` parsed as JSON (comments allowed, as in golden files); throws when it is not JSON.
inline nlohmann::json read_json(const std::filesystem::path& p) {
  std::ifstream f(p);
  return nlohmann::json::parse(f, nullptr, true, /*ignore_comments=*/true);
}

//! The first citation of the internal reference document in `text` ("DATA.md" or one of its
//! confidence tags "[V]", "[3P]", "[D]", "[M]"), or "" when there is none: customer-facing files
//! cite the public source instead.
inline std::string internal_citation(const std::string& text) {
  for (const char* tag : {"DATA.md", "[V]", "[3P]", "[D]", "[M]"})
    if (text.find(tag) != std::string::npos) return tag;
  return "";
}

//! An empty, not yet created path under the temp folder, unique to this process and `name`.
inline std::filesystem::path fresh_dir(const std::string& name) {
  // NOTE: the process id keeps concurrent test runs (several build trees) out of each other's way.
  const std::filesystem::path d = std::filesystem::temp_directory_path() /
                                  ("gpuplan-test-" + std::to_string(::getpid()) + "-" + name);
  std::filesystem::remove_all(d);
  return d;
}

}  // namespace gpuplan_cli_test
