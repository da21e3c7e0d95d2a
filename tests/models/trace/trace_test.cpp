#include <algorithm>

#include <doctest/doctest.h>

#include "models/input/datetime.h"
#include "models/trace/trace.h"
#include "tests/data_files.h"

using namespace gpuplan;

namespace {

std::optional<TraceData> parse(const std::string& csv, const TraceFormat& fmt, Diagnostics& d) {
  return parse_trace(csv, fmt, "t.csv", "/workload/0/trace", d);
}

}  // namespace

TEST_CASE("load::parse_datetime") {
  SUBCASE("UTC date-times convert to seconds since 1970") {
    // The epoch itself.
    CHECK(*parse_datetime("1970-01-01 00:00:00") == 0);
    // 2017-10-09 07:01:55 UTC = 1507532515 (Python calendar.timegm).
    CHECK(*parse_datetime("2017-10-09 07:01:55") == 1507532515);
    // A leap day: 2000-02-29 = 951782400.
    CHECK(*parse_datetime("2000-02-29 00:00:00") == 951782400);
    // ISO form with 'T', fraction and 'Z': 0.5 s after the epoch.
    CHECK(*parse_datetime("1970-01-01T00:00:00.5Z") == doctest::Approx(0.5));
  }
  SUBCASE("impossible dates and other shapes are rejected") {
    CHECK_FALSE(parse_datetime("2017-02-29 00:00:00"));
    CHECK_FALSE(parse_datetime("2017-13-01 00:00:00"));
    CHECK_FALSE(parse_datetime("2017-10-09 24:00:00"));
    CHECK_FALSE(parse_datetime("2017/10/09 07:01:55"));
    CHECK_FALSE(parse_datetime("1507532515"));
  }
}

TEST_CASE("load::trace") {
  SUBCASE("rows are sorted stably by submit time and rebased to 0") {
    Diagnostics d;
    const auto t = parse("submit_time,num_gpus,duration\n50,1,10\n20,2,5\n50,4,7\n", {}, d);
    REQUIRE(t);
    REQUIRE(t->rows.size() == 3);
    // First submit 20 becomes 0; the two rows at 50 keep file order (gpus 1 then 4) at 30.
    CHECK(t->rows[0].submit_s == 0);
    CHECK(t->rows[0].gpus == 2);
    CHECK(t->rows[1].submit_s == 30);
    CHECK(t->rows[1].gpus == 1);
    CHECK(t->rows[2].gpus == 4);
    // Each row remembers its file line: "20,2,5" is line 3.
    CHECK(t->rows[0].line == 3);
  }
  SUBCASE("named columns, quoted fields, CRLF, time units, offset and limit are honoured") {
    TraceFormat fmt;
    fmt.submit_column = "t";
    fmt.gpus_column = "g";
    fmt.duration_column = "len";
    fmt.time_scale = 0.001;
    fmt.offset_s = 100;
    fmt.limit = 2;
    Diagnostics d;
    const auto t = parse(
        "\"len\",note,t,g\r\n2000,\"a, \"\"quoted\"\" note\",1000,8\r\n4000,x,3000,1\r\n"
        "1000,y,9000,1\r\n",
        fmt, d);
    REQUIRE(t);
    // limit 2 keeps the two earliest rows.
    REQUIRE(t->rows.size() == 2);
    // 1000 ms rebased to 0, plus the 100 s offset.
    CHECK(t->rows[0].submit_s == doctest::Approx(100));
    // 2000 ms = 2 s.
    CHECK(t->rows[0].duration_s == doctest::Approx(2));
    // 3000 ms is 2 s after the first row: 102 s.
    CHECK(t->rows[1].submit_s == doctest::Approx(102));
  }
  SUBCASE("rows with 0 GPUs or a duration <= 0 are skipped and counted") {
    Diagnostics d;
    const auto t = parse("submit_time,num_gpus,duration\n0,0,10\n1,1,0\n2,1,-3\n3,1,5\n", {}, d);
    REQUIRE(t);
    // 1 usable row, 3 skipped.
    CHECK(t->rows.size() == 1);
    CHECK(t->skipped_rows == 3);
  }
  SUBCASE("malformed rows are reported as file:line naming the column and the value") {
    Diagnostics d;
    CHECK_FALSE(parse("submit_time,num_gpus,duration\n0,1,10\nabc,1,10\n2,1.5,3\n4,1\n", {}, d));
    const auto all = d.sorted();
    REQUIRE(all.size() == 3);
    CHECK(all[0].format() == "t.csv:3: column \"submit_time\": cannot read \"abc\" as a number");
    CHECK(all[1].format() ==
          "t.csv:4: column \"num_gpus\": \"1.5\" is not a whole number of GPUs (0 or more)");
    CHECK(all[2].format() == "t.csv:5: row has 2 fields but the header has 3");
  }
  SUBCASE("a missing column lists the header's columns and suggests the closest") {
    Diagnostics d;
    CHECK_FALSE(parse("job_id,num_gpu,submit_time,duration\n0,1,0,5\n", {}, d));
    const auto all = d.sorted();
    REQUIRE(all.size() == 1);
    CHECK(all[0].pointer == "/workload/0/trace");
    CHECK(all[0].message.find("job_id, num_gpu, submit_time, duration") != std::string::npos);
    CHECK(all[0].message.ends_with("did you mean \"num_gpu\"?"));
  }
  SUBCASE("an unterminated quote, an empty file and a bad date are errors") {
    Diagnostics d1;
    CHECK_FALSE(parse("submit_time,num_gpus,duration\n0,\"1,5\n", {}, d1));
    CHECK(d1.sorted()[0].format().starts_with("t.csv:2: a quoted field is not closed"));
    Diagnostics d2;
    CHECK_FALSE(parse("", {}, d2));
    TraceFormat fmt;
    fmt.time_format = TimeFormat::datetime;
    Diagnostics d3;
    CHECK_FALSE(parse("submit_time,num_gpus,duration\n2017-02-30 00:00:00,1,5\n", fmt, d3));
    CHECK(d3.sorted()[0].message.find("\"2017-02-30 00:00:00\" as a date-time") !=
          std::string::npos);
  }
  SUBCASE("without rebasing, a submit time before 0 is an error") {
    TraceFormat fmt;
    fmt.rebase = false;
    Diagnostics d;
    CHECK_FALSE(parse("submit_time,num_gpus,duration\n-5,1,5\n", fmt, d));
    // The offending row is on line 2.
    CHECK(d.sorted()[0].line == 2);
  }
  SUBCASE("a missing file is an io_error at the trace's pointer") {
    TraceFormat fmt;
    fmt.path = GPUPLAN_BINARY_DIR "/no_such_trace.csv";
    Diagnostics d;
    CHECK_FALSE(read_trace(fmt, "/workload/0/trace", d));
    CHECK(d.sorted()[0].code == DiagCode::io_error);
  }
}

TEST_CASE("load::trace_files::philly") {
  const auto path = gpuplan_test_data::data_file("philly_jobs.csv", "load::trace_files::philly");
  if (!path) return;
  SUBCASE("the Philly trace loads every row, sorted, in datetime format") {
    TraceFormat fmt;
    fmt.path = *path;
    fmt.submit_column = "timestamp";
    fmt.time_format = TimeFormat::datetime;
    Diagnostics d;
    const auto t = read_trace(fmt, "/workload/0/trace", d);
    REQUIRE(t);
    CHECK(d.ok());
    // 82,247 rows in the file (data README), none with 0 GPUs or duration <= 0.
    CHECK(t->rows.size() + t->skipped_rows == 82247);
    CHECK(t->skipped_rows == 0);
    // The earliest job (2017-09-04 10:30:41) is at 0 after rebasing.
    CHECK(t->rows.front().submit_s == 0);
    // The last job is 9,408,690 s (108.9 d) after the first (computed with Python).
    CHECK(t->rows.back().submit_s == doctest::Approx(9408690));
    CHECK(std::is_sorted(t->rows.begin(), t->rows.end(),
                         [](auto& a, auto& b) { return a.submit_s < b.submit_s; }));
  }
}

TEST_CASE("load::trace_files::tiresias") {
  const auto path =
      gpuplan_test_data::data_file("tiresias_60_jobs.csv", "load::trace_files::tiresias");
  if (!path) return;
  SUBCASE("the Tiresias trace loads its 60 jobs with its own GPU column") {
    TraceFormat fmt;
    fmt.path = *path;
    fmt.gpus_column = "num_gpu";
    Diagnostics d;
    const auto t = read_trace(fmt, "/workload/0/trace", d);
    REQUIRE(t);
    // 60 jobs (data README).
    CHECK(t->rows.size() == 60);
    // Submit times 0, 30, 53 as in the file (already starting at 0).
    CHECK(t->rows[1].submit_s == 30);
    CHECK(t->rows[2].submit_s == 53);
    // The first job: 1 GPU for 164 s.
    CHECK(t->rows[0].gpus == 1);
    CHECK(t->rows[0].duration_s == 164);
  }
}
