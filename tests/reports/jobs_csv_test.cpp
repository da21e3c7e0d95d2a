#include "reports/csv.h"
#include "reports/jobs_csv.h"
#include "reports/jobs_csv_file.h"
#include "reports/jobs_csv_number.h"

#include <doctest/doctest.h>
#include <sys/resource.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

using namespace gpuplan::reports;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string std_text(double v) {
  char buf[64];
  return {buf, std::to_chars(buf, buf + sizeof buf, v).ptr};
}

std::string shortest_text(double v) {
  char buf[SHORTEST_MAX_CHARS];
  return {buf, write_shortest(buf, v)};
}

// The straightforward formatting of a row, as jobs.csv was written before the writer thread:
// std::to_chars for every number, empty cells for times not reached.
std::string reference_rows(std::span<const JobRecord> jobs, std::span<const std::string> classes,
                           std::span<const std::string> pools) {
  std::string out;
  uint64_t row = 0;
  const auto time = [&out](double v) {
    if (std::isfinite(v)) out += std_text(v);
    out += ',';
  };
  for (const JobRecord& j : jobs) {
    out += std::to_string(row++) + ',' + csv_text_field(classes[j.class_idx]) + ',' +
           std::to_string(j.job_idx) + ',' +
           (j.pool_idx == NO_POOL ? "" : csv_text_field(pools[j.pool_idx])) + ',' +
           std::to_string(j.gpus) + ',';
    time(j.submit_s);
    time(j.start_s);
    time(j.finish_s);
    time(j.start_s - j.submit_s);
    if (std::isfinite(j.finish_s)) out += std_text(j.finish_s - j.submit_s);
    out += '\n';
  }
  return out;
}

// Doubles a jobs.csv can hold and the edges around them: zero, integers, short decimals,
// denormals, the extremes, powers of two and their neighbours, and both ends of the fast path.
std::vector<double> edge_values() {
  std::vector<double> v{0.0,
                        -0.0,
                        1.0,
                        0.1,
                        0.3,
                        2.5,
                        1e-5,
                        1e-4,
                        123456789.0,
                        1e15,
                        1e16,
                        1e21,
                        1e22,
                        1e23,
                        9007199254740991.0,
                        9007199254740992.0,
                        9007199254740993.0,
                        std::ldexp(1.0, -28),
                        std::ldexp(1.0, 53),
                        std::numeric_limits<double>::min(),
                        std::numeric_limits<double>::denorm_min(),
                        std::numeric_limits<double>::max(),
                        std::numeric_limits<double>::lowest(),
                        std::numeric_limits<double>::epsilon(),
                        4.9406564584124654e-324 * 3,
                        2.2250738585072009e-308};
  for (int e = -1074; e <= 1023; ++e) {
    const double p = std::ldexp(1.0, e);
    v.insert(v.end(), {p, std::nextafter(p, 0.0), std::nextafter(p, 1e308), -p});
  }
  for (int64_t i = 0; i < 20000; ++i) v.push_back(double(i * 37));
  for (int d = 0; d < 23; ++d) {
    const double p = std::pow(10.0, d);
    v.insert(v.end(), {p, 1 / p, 5 / p, std::nextafter(p, 0.0), std::nextafter(1 / p, 1.0)});
  }
  return v;
}

}  // namespace

TEST_CASE("reports::jobs_csv_number") {
  SUBCASE("edge values are written byte for byte as std::to_chars writes them") {
    int mismatches = 0;
    for (const double v : edge_values()) {
      if (shortest_text(v) != std_text(v) && ++mismatches <= 5) {
        CAPTURE(v);
        CHECK(shortest_text(v) == std_text(v));
      }
    }
    // every edge value matches
    CHECK(mismatches == 0);
  }

  SUBCASE("random doubles, random bit patterns and random times match std::to_chars") {
    std::mt19937_64 rng(20261201);
    std::exponential_distribution<double> gap(50.0);
    std::uniform_int_distribution<int> exponent(995, 1076);
    int mismatches = 0;
    const auto check = [&mismatches](double v) {
      if (shortest_text(v) != std_text(v) && ++mismatches <= 5) {
        CAPTURE(v);
        CHECK(shortest_text(v) == std_text(v));
      }
    };
    double t = 0;
    for (int i = 0; i < 400000; ++i) {
      check(std::bit_cast<double>(rng()));  // anything, NaN and infinities included
      // the fast path's exponents and one beyond, either sign
      const uint64_t bits = (rng() & ((uint64_t(1) << 52) - 1)) | (uint64_t(exponent(rng)) << 52) |
                            (rng() & (uint64_t(1) << 63));
      check(std::bit_cast<double>(bits));
      t += gap(rng);  // arrival-like times and their differences
      check(t);
      check(gap(rng));
      check(double(rng() % 100000000) / std::pow(10.0, double(rng() % 12)));
    }
    // 2 M values, no mismatch
    CHECK(mismatches == 0);
  }

  SUBCASE("integers are written as std::to_chars writes them, from 0 to 2^64 - 1") {
    std::vector<uint64_t> values{0, 9, 10, 99, 100, 4294967295u, 18446744073709551615u};
    for (uint64_t p = 1; p <= 1000000000000000000u; p *= 10)
      values.insert(values.end(), {p - 1, p, p + 1});
    values.push_back(10000000000000000000u);
    std::mt19937_64 rng(3);
    for (int i = 0; i < 100000; ++i) values.push_back(rng() >> (rng() % 64));
    int mismatches = 0;
    for (const uint64_t v : values) {
      char mine[INTEGER_MAX_CHARS], std_buf[INTEGER_MAX_CHARS];
      const std::string a(mine, write_integer(mine, v));
      const std::string b(std_buf, std::to_chars(std_buf, std_buf + sizeof std_buf, v).ptr);
      if (a != b && ++mismatches <= 5) CHECK(a == b);
    }
    // every integer matches
    CHECK(mismatches == 0);
  }
}

TEST_CASE("reports::jobs_csv") {
  const std::vector<std::string> classes{"training", "batch, \"nightly\"", "=sum"};
  const std::vector<std::string> pools{"a100", "h100-spot"};

  SUBCASE("per-job rows name class and pool and derive wait and JCT; unreached times stay empty") {
    const std::vector<JobRecord> jobs{{0, 0, 8, 1, 10.0, 12.5, 100.0},
                                      {1, 0, 1, NO_POOL, 20.0, NOT_REACHED, NOT_REACHED},
                                      {1, 1, 2, 0, 30.0, 30.0, NOT_REACHED}};
    std::ostringstream out;
    write_jobs_csv(jobs, classes, pools, out);
    const auto lines = lines_of(out.str());
    REQUIRE(lines.size() == 4);
    CHECK(lines[0] == "job,class,class_job,pool,gpus,submit_s,start_s,finish_s,wait_s,jct_s");
    // wait = 12.5 - 10 = 2.5 s, JCT = 100 - 10 = 90 s
    CHECK(lines[1] == "0,training,0,h100-spot,8,10,12.5,100,2.5,90");
    CHECK(lines[2] == "1,\"batch, \"\"nightly\"\"\",0,,1,20,,,,");
    CHECK(lines[3] == "2,\"batch, \"\"nightly\"\"\",1,a100,2,30,30,,0,");
  }

  SUBCASE("rows of random records with edge times are byte-identical to plain std::to_chars") {
    std::mt19937_64 rng(7);
    const std::vector<double> edges = edge_values();
    std::vector<JobRecord> jobs;
    double t = 0;
    for (uint32_t i = 0; i < 200000; ++i) {
      JobRecord j{uint32_t(rng() % 3),
                  i,
                  uint32_t(rng() % 2 ? 1 : rng()),
                  uint32_t(rng() % 3),
                  0.0,
                  0.0,
                  0.0};
      if (j.pool_idx == 2) j.pool_idx = NO_POOL;
      t += double(rng() % 1000) / 997.0;
      j.submit_s = t;
      j.start_s = rng() % 2 ? t : t + std::ldexp(double(rng() >> 11), -int(rng() % 60));
      j.finish_s = j.start_s + double(rng() % 100000) / 1000.0;
      switch (rng() % 6) {
        case 0:  // an edge value in any of the three times
          (rng() % 2   ? j.submit_s
           : rng() % 2 ? j.start_s
                       : j.finish_s) = edges[rng() % edges.size()];
          break;
        case 1:
          j.finish_s = NOT_REACHED;
          break;
        case 2:
          j.start_s = j.finish_s = NOT_REACHED;
          break;
        default:
          break;
      }
      jobs.push_back(j);
    }
    JobsCsv csv(classes, pools);
    std::string text;
    csv.append(jobs, text);
    // the same bytes as the straightforward formatting, row by row
    CHECK(text == reference_rows(jobs, classes, pools));
  }

  SUBCASE("a record whose class or pool index has no name throws std::out_of_range") {
    const std::vector<std::string> names{"only"};
    std::ostringstream out;
    const std::vector<JobRecord> bad_class{{3, 0, 1, 0, 0, 1, 2}};
    CHECK_THROWS_AS(write_jobs_csv(bad_class, names, names, out), std::out_of_range);
    const std::vector<JobRecord> bad_pool{{0, 0, 1, 7, 0, 1, 2}};
    CHECK_THROWS_AS(write_jobs_csv(bad_pool, names, names, out), std::out_of_range);
  }
}

TEST_CASE("reports::jobs_csv_file") {
  const fs::path tmp =
      fs::temp_directory_path() / ("gpuplan-jobs-csv-file-" + std::to_string(getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  const fs::path target = tmp / "jobs.csv";
  // The writer's temp files are ".jobs.csv.XXXXXX" (mkstemp): any left behind is a leak.
  const auto temp_files = [&tmp] {
    int n = 0;
    for (const auto& e : fs::directory_iterator(tmp))
      n += e.path().filename().string().rfind(".jobs.csv.", 0) == 0;
    return n;
  };
  const std::vector<std::string> classes{"a", "b"};
  const std::vector<std::string> pools{"p"};
  std::vector<JobRecord> jobs;
  for (uint32_t i = 0; i < 300000; ++i) {
    const double submit = 0.02 * i + 1.0 / (i + 3);
    jobs.push_back({i % 2, i / 2, 1, 0, submit, submit + (i % 7) * 0.125, submit + 1.5 + i % 11});
  }
  const auto read = [](const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };

  SUBCASE("chunks written from the simulation thread give the same bytes as one in-memory pass") {
    std::ostringstream expected;
    write_jobs_csv(jobs, classes, pools, expected);
    JobsCsvFile file(target, classes, pools);
    REQUIRE(file.error().empty());
    // uneven chunks, many more than the writer's slots, across many 256 KiB text buffers
    for (std::size_t at = 0, n = 1; at < jobs.size(); at += n, n = n * 3 % 65537 + 1)
      file.write(jobs.data() + at, std::min(n, jobs.size() - at));
    // nothing appears at the target before commit
    CHECK_FALSE(fs::exists(target));
    REQUIRE(file.commit());
    // 300,000 rows queued
    CHECK(file.rows() == 300000);
    CHECK(read(target) == expected.str());
    CHECK(temp_files() == 0);
    // over 16 MiB, so the flusher thread's fdatasync ran while rows were still being written
    CHECK(expected.str().size() > std::size_t(16) << 20);
  }

  SUBCASE("a writer destroyed uncommitted leaves no file behind") {
    {
      JobsCsvFile file(target, classes, pools);
      file.write(jobs.data(), 1000);
    }
    CHECK_FALSE(fs::exists(target));
    CHECK(temp_files() == 0);
  }

  SUBCASE("an unwritable place is reported before any record") {
    JobsCsvFile missing(tmp / "missing" / "jobs.csv", classes, pools);
    CHECK(missing.error().find("does not exist") != std::string::npos);
    JobsCsvFile folder(tmp, classes, pools);
    CHECK(folder.error().find("is a folder") != std::string::npos);
    CHECK_FALSE(missing.commit());
  }

  SUBCASE("a failed disk write surfaces as JobsCsvWriteError and leaves no file behind") {
    // NOTE: a 64 KiB file size limit (RLIMIT_FSIZE) makes write() fail with EFBIG, as a full
    // disk fails with ENOSPC; SIGXFSZ is ignored so the process survives to see it.
    rlimit old{};
    REQUIRE(getrlimit(RLIMIT_FSIZE, &old) == 0);
    const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit small = old;
    small.rlim_cur = 64 * 1024;
    REQUIRE(setrlimit(RLIMIT_FSIZE, &small) == 0);
    bool thrown = false;
    bool finished = true;
    std::string error;
    {
      JobsCsvFile file(target, classes, pools);
      try {
        for (std::size_t at = 0; at < jobs.size(); at += 1000) file.write(jobs.data() + at, 1000);
        finished = file.finish();
        error = file.error();
      } catch (const JobsCsvWriteError& e) {
        thrown = true;
        error = e.what();
      }
    }
    setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, old_handler);
    // either a later write() or finish() reports it, naming the system's reason
    CHECK((thrown || !finished));
    CHECK(error == std::string("cannot write: ") + std::strerror(EFBIG));
    CHECK_FALSE(fs::exists(target));
    CHECK(temp_files() == 0);
  }

  SUBCASE("a record the writer thread cannot name is rethrown to the caller") {
    JobsCsvFile file(target, classes, pools);
    const std::vector<JobRecord> bad{{9, 0, 1, 0, 0, 1, 2}};
    file.write(bad.data(), bad.size());
    CHECK_THROWS_AS((void)file.finish(), std::out_of_range);
    CHECK(temp_files() == 0);
  }
  fs::remove_all(tmp);
}
