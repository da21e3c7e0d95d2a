//! Inputs that used to run away with memory (issue 16), run through the real CLI under a memory
//! cap: each is refused with exit 2 and a message before anything large is allocated, writes
//! nothing, and never crashes or reports running out of memory (exit 3).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/tools/cli.h"

namespace fs = std::filesystem;

namespace {

using gpuplan_cli_test::CliRun;

#if defined(__SANITIZE_ADDRESS__)
#define GPUPLAN_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GPUPLAN_TEST_ASAN 1
#endif
#endif

// [MB] the cap: a tenth of what the largest of these cases took before (3.6 GB for a
// 1e6-spine leaf-spine), ten times what a refusal needs (about 10 MB resident).
constexpr int CAP_MB = 384;

//! Runs `gpuplan ARGS` with at most CAP_MB of memory and a 60 s timeout. Release builds cap the
//! address space (`ulimit -v`). AddressSanitizer reserves terabytes of address space for its
//! shadow, so sanitized builds fail any allocation above CAP_MB instead (as `new` does under
//! the cap: std::bad_alloc) and kill a process whose resident size passes 4 x CAP_MB (its
//! shadow and quarantine included), which the checks below see as a crash.
CliRun capped(const std::string& args) {
#ifdef GPUPLAN_TEST_ASAN
  const std::string cap =
      "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1"
      ":max_allocation_size_mb=" +
      std::to_string(CAP_MB) + ":hard_rss_limit_mb=" + std::to_string(4 * CAP_MB) + "\" ";
#else
  const std::string cap = "ulimit -v " + std::to_string(CAP_MB * 1024) + " && ";
#endif
  return gpuplan_cli_test::run_shell(cap + "timeout 60 " + gpuplan_cli_test::gpuplan_binary() +
                                     " " + args + " 2>&1");
}

// A small valid scenario; `pool_name`, `topology` and `limits` replace parts of it.
std::string scenario(const std::string& pool_name = "main", const std::string& topology = "",
                     const std::string& workload = "", const std::string& limits = "") {
  return "{\n"
         "  \"name\": \"oom\",\n"
         "  \"horizon\": \"2d\",\n"
         "  \"instances\": [{\"id\": \"lab.g8\", \"gpu\": \"a100-80gb\", \"gpus_per_node\": 8,\n"
         "                 \"price_per_hour\": {\"on_demand\": 16.0}}],\n"
         "  \"pools\": [{\"name\": \"" +
         pool_name + "\", \"instance\": \"lab.g8\", \"count\": 8}],\n" + topology +
         "  \"workload\": [" +
         (workload.empty()
              ? "{\"name\": \"jobs\", \"arrival\": {\"poisson\": {\"rate\": \"4/h\"}},\n"
                "                \"gpus\": 1, \"duration\": \"1h\"}"
              : workload) +
         "]" + limits + "\n}\n";
}

}  // namespace

TEST_CASE("tools::memory_cap") {
  const fs::path tmp = gpuplan_cli_test::fresh_dir("memory-cap");
  fs::create_directories(tmp);
  const fs::path file = tmp / "s.json";
  const fs::path out = tmp / "out";
  const auto write = [&](const std::string& text) { std::ofstream(file) << text; };
  // Checks a refusal: exit 2 (not 3, out of memory, nor a crash), `message` on stderr, no output.
  const auto refused = [&](const std::string& args, const std::string& message) {
    CAPTURE(args);
    const CliRun r = capped(args);
    CAPTURE(r.output.substr(0, 2000));
    CHECK(r.status == 2);
    CHECK(r.output.find(message) != std::string::npos);
    CHECK(r.output.find("out of memory") == std::string::npos);
    CHECK_FALSE(fs::exists(out));
  };
  const std::string run = "run " + file.string() + " --quiet --out " + out.string();

  SUBCASE("the cap leaves room for an ordinary run (so a refusal below is not the cap's doing)") {
    write(scenario());
    const CliRun r = capped(run);
    CAPTURE(r.output);
    CHECK(r.status == 0);
    CHECK(fs::exists(out / "result.json"));
    fs::remove_all(out);
  }
  SUBCASE("100,000 nested [ are refused by the nesting pre-scan") {
    // one JSON pointer string per value: this needed over 4 GB before the depth limit
    write("{\"name\": \"oom\", \"pools\": " + std::string(100'000, '[') + "\n}\n");
    refused(run, "nest deeper than");
  }
  SUBCASE("huge topology sizes are refused before the topology is built") {
    for (const std::string topo :
         {R"({"kind": "fat_tree", "k": 65536})", R"({"kind": "leaf_spine", "spines": 1000000})",
          R"({"kind": "rail_optimized", "su": 1000000})",
          R"({"kind": "tree_ring_hybrid", "workers_per_group": 1000000})"}) {
      write(scenario("main", "  \"topology\": " + topo + ",\n"));
      refused(run, "limits.max_topology_size");
    }
  }
  SUBCASE("a 100 KB pool name is refused by the name length limit") {
    // it made a 466 MB jobs.csv and 1.4 GB resident before
    write(scenario(std::string(100'000, 'p')));
    refused(run + " --jobs " + (out / "jobs.csv").string(), "/pools/0/name");
  }
  SUBCASE("max_active_jobs 2^32 - 1 is refused by the job-slot memory limit") {
    write(scenario("main", "", "", ",\n  \"limits\": {\"max_active_jobs\": 4294967295}"));
    refused(run, "limits.max_memory");
    refused("mc " + file.string() + " --quiet --replications 2 --out " + out.string(),
            "limits.max_memory");
  }
  SUBCASE("/dev/zero as a trace is refused as not a regular file") {
    // it was read whole, growing to the memory cap
    write(scenario("main", "",
                   R"({"name": "t", "trace": {"path": "/dev/zero", "columns": {"submit": "s",
                     "gpus": "g", "duration": "d"}}})"));
    refused(run, "not a regular file");
  }
  SUBCASE("a topology past the cap with its limit raised is exit 3, out of memory, not a crash") {
    // k = 900: 730 million switches, hosts and links, under limits.max_topology_size = 1e9;
    // std::bad_alloc while building it was exit 2 "unexpected value" before
    write(scenario("main", "  \"topology\": {\"kind\": \"fat_tree\", \"k\": 900},\n", "",
                   ",\n  \"limits\": {\"max_topology_size\": 1e9}"));
    const CliRun r = capped("validate " + file.string());
    CAPTURE(r.output.substr(0, 2000));
#ifdef GPUPLAN_TEST_ASAN
    // NOTE: AddressSanitizer's `new` does not throw std::bad_alloc when it cannot allocate (it
    // reports and exits), and it has no address-space cap: the topology's many small
    // allocations reach the resident-size limit instead. Checked here: the cap stopped it and
    // no memory error came first. Exit 3 itself is checked by the Release build of this test.
    CHECK(r.status != 0);
    const bool capped_rss = r.output.find("hard rss limit exhausted") != std::string::npos;
    const bool refused_size = r.output.find("allocation-size-too-big") != std::string::npos ||
                              r.output.find("out of memory") != std::string::npos;
    CHECK((capped_rss || refused_size));
#else
    CHECK(r.status == 3);
    CHECK(r.output.find("gpuplan: out of memory") != std::string::npos);
#endif
  }
  SUBCASE("a quote request nested 100,000 deep is refused") {
    const fs::path req = tmp / "q.json";
    std::ofstream(req) << "{\"training\": " + std::string(100'000, '[') + "\n}\n";
    refused("quote --request " + req.string() + " --out " + out.string(), "nest deeper than");
  }
  fs::remove_all(tmp);
}
