#include <filesystem>
#include <fstream>
#include <regex>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "models/input/embedded.h"
#include "models/load/load.h"
#include "tests/data_files.h"
#include "tests/models/loaded.h"

using namespace gpuplan;

namespace {

// The scenario's folder in these tests: one without data files, so a named trace comes from the
// data path.
const std::string SCENARIO_DIR = GPUPLAN_SOURCE_DIR "/scenarios";

using gpuplan_models_test::Loaded;

Loaded load(const std::string& text, std::vector<std::string> overrides = {}) {
  return gpuplan_models_test::load_text(text, SCENARIO_DIR, std::move(overrides));
}

// A valid scenario; the line comments on the right are the line numbers tests rely on.
const std::string GOOD = R"({                              // 1
  "$schema": "../docs/scenario.schema.json",
  "_comment": "ignored", "x-owner": "ignored",
  "horizon": "30d",                                          // 4
  "warmup": "1d",
  "instances": [                                             // 6
    {"id": "lab.g1", "gpu": "a100-80gb", "gpus_per_node": 1,
     "price_per_hour": {"on_demand": 2.0, "spot": 0.5}}     // 8
  ],
  "pools": [                                                 // 10
    {"name": "main", "instance": "lab.g1", "count": 64},     // 11
    {"name": "big", "instance": "p5.48xlarge", "count": 2, "pricing": "spot"}
  ],
  "workload": [                                              // 14
    {"name": "jobs",
     "arrival": {"poisson": {"rate": "60/s"}},
     "gpus": 1,                                              // 17
     "duration": {"exponential": {"mean": "1s"}}},
    {"name": "mix", "pools": ["big"], "reference_gpu": "h100-sxm",
     "arrival": {"poisson": {"rate": "12/h"}},
     "gpus": {"choice": {"16": 0.05, "1": 0.7, "2": 0.1, "4": 0.15}},   // 21
     "duration": {"lognormal": {"median": "1h", "p90": "6h"}}}
  ],
  "scheduler": {"queue": "backfill"}
})";

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("load::scenario") {
  SUBCASE("a valid scenario loads with its values in SI units and defaults filled") {
    const auto r = load(GOOD);
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    const Scenario& sc = *r.sc;
    // The name defaults to the file stem.
    CHECK(sc.name == "scenario");
    CHECK(sc.file == "scenario.json");
    // Default seed 42.
    CHECK(sc.seed == 42);
    // 30 d = 2,592,000 s; 1 d = 86,400 s.
    CHECK(sc.horizon_s == 2592000);
    CHECK(sc.warmup_s == 86400);
    CHECK(sc.scheduler.queue == QueuePolicy::backfill);
    // The inline lab.g1, then the catalog's p5.48xlarge that pool "big" names.
    REQUIRE(sc.instances.size() == 2);
    // The GPU id is stored in the catalog's spelling.
    CHECK(sc.instances[0].gpu == "A100-80GB");
    CHECK(sc.instances[1].id == "p5.48xlarge");
    REQUIRE(sc.pools.size() == 2);
    CHECK(sc.pools[0].pricing == Pricing::on_demand);
    // lab.g1 costs 2.0 USD per node-hour on demand.
    CHECK(sc.pools[0].price_per_node_hour == 2.0);
    // p5.48xlarge spot is the catalog's spot price.
    CHECK(sc.pools[1].price_per_node_hour ==
          builtin_catalog().find_instance("p5.48xlarge")->price_per_hour.spot);
    REQUIRE(sc.workload.size() == 2);
    // 60/s.
    CHECK(sc.workload[0].rate_per_s == 60);
    CHECK(sc.workload[0].pointer == "/workload/0");
    CHECK(sc.workload[0].duration.kind == DistKind::exponential);
    // Exponential mean 1 s.
    CHECK(sc.workload[0].duration.a == 1);
    // 12/h = 1/300 per second.
    CHECK(sc.workload[1].rate_per_s == doctest::Approx(1.0 / 300));
    REQUIRE(sc.workload[1].reference_gpu != nullptr);
    CHECK(sc.workload[1].reference_gpu->id == "H100-SXM");
    // "big" is /pools/1: the class keeps its index, resolved once at load
    CHECK(sc.workload[1].pool_indices == std::vector<uint32_t>{1});
    CHECK_FALSE(sc.workload[1].may_use(0));
    CHECK(sc.workload[1].may_use(1));
    CHECK(sc.workload[0].may_use(0));
    // GPU counts sorted numerically (not as strings "1" < "16" < "2").
    CHECK(sc.workload[1].gpus.values == std::vector<uint32_t>{1, 2, 4, 16});
    // Their probabilities follow: 0.7, 0.1, 0.15, 0.05.
    CHECK(sc.workload[1].gpus.probs[3] == 0.05);
    // Lognormal: mu = ln 3600, sigma = (ln 21600 - ln 3600) / 1.2815515655446004 = 1.398105.
    CHECK(sc.workload[1].duration.a == doctest::Approx(std::log(3600.0)));
    CHECK(sc.workload[1].duration.b == doctest::Approx(std::log(6.0) / 1.2815515655446004));
    // The source echoes the file, comment keys included.
    CHECK(sc.source["x-owner"] == "ignored");
  }
  SUBCASE("every top-level key has a default except horizon, pools and workload") {
    const auto r = load(R"({"horizon": 3600,
      "pools": [{"name": "p", "instance": "g6.xlarge", "count": 1}],
      "workload": [{"name": "w", "arrival": {"poisson": {"rate": 1}}, "gpus": 1, "duration": 5}]})");
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    // Defaults from scenario.h: warmup 0, time_bins 240, max_active_jobs 65536.
    CHECK(r.sc->warmup_s == 0);
    CHECK(r.sc->limits.time_bins == 240);
    CHECK(r.sc->limits.max_active_jobs == 65536);
    CHECK(r.sc->workload[0].duration.kind == DistKind::fixed);
    // A bare number duration is 5 s fixed.
    CHECK(r.sc->workload[0].duration.a == 5);
  }
}

TEST_CASE("load::errors") {
  SUBCASE("all errors are collected in one pass, each with its pointer and line") {
    const std::string text = R"({
  "horizn": "30d",
  "seed": -1,
  "pools": [
    {"name": "main", "instance": "p5.48xl", "count": 0},
    {"name": "main", "instance": "lab.g1", "count": 2, "pricing": "reserved_1y"}
  ],
  "workload": [
    {"name": "w", "arrival": {"poisson": {"rate": "12/fortnight"}}, "gpus": 1,
     "duration": {"lognormal": {"median": "2h", "p90": "1h"}}}
  ],
  "scheduler": {"queue": "fifoo"},
  "limits": {"time_bins": 0},
  "instances": [{"id": "lab.g1", "gpu": "L4", "gpus_per_node": 1, "price_per_hour": {"on_demand": 1, "spot": 0.5}}]
})";
    const auto r = load(text);
    CHECK_FALSE(r.sc);
    // 11 distinct mistakes: horizn (unknown), horizon (missing), seed, instance, count,
    // duplicate name, pricing, rate, p90, queue, time_bins.
    CHECK(r.all.size() == 11);
    for (const auto& x : r.all) {
      CHECK_MESSAGE(!x.pointer.empty(), x.format());
      CHECK_MESSAGE(x.line > 0, x.format());
      CHECK(x.file == "scenario.json");
    }
    CHECK(r.at("/horizn").message == "unknown key \"horizn\"; did you mean \"horizon\"?");
    CHECK(r.at("/horizn").code == DiagCode::unknown_key);
    // The unknown key is on line 2.
    CHECK(r.at("/horizn").line == 2);
    CHECK(r.at("/horizon").code == DiagCode::missing_key);
    CHECK(r.at("/seed").code == DiagCode::out_of_range);
    CHECK(r.at("/pools/0/instance").format() ==
          "scenario.json:5: /pools/0/instance: unknown instance type \"p5.48xl\"; did you mean "
          "\"p5.48xlarge\"?");
    CHECK(r.at("/pools/0/count").message == "must be between 1 and 1000000, got 0");
    // The duplicate is reported at the second pool, on line 6.
    CHECK(r.at("/pools/1/name").line == 6);
    CHECK(contains(r.at("/pools/1/name").message, "duplicate pool name \"main\" (also /pools/0)"));
    CHECK(r.at("/pools/1/pricing").message ==
          "instance type \"lab.g1\" has no reserved_1y price; it has on_demand, spot");
    CHECK(r.at("/workload/0/arrival/poisson/rate").code == DiagCode::bad_unit);
    CHECK(contains(r.at("/workload/0/duration/lognormal/p90").message, "greater than the median"));
    CHECK(r.at("/scheduler/queue").message ==
          "unknown queue policy \"fifoo\"; did you mean \"fifo\"?");
    // The time_bins line is 13.
    CHECK(r.at("/limits/time_bins").line == 13);
  }
  SUBCASE("wrong types are diagnostics, never exceptions") {
    const auto r = load(R"({"horizon": true, "seed": "x", "name": 3, "pools": {"a": 1},
      "workload": [7, {"name": "w", "arrival": [], "gpus": "8", "duration": null}],
      "scheduler": "fifo", "limits": {"max_active_jobs": 1.5}})");
    CHECK_FALSE(r.sc);
    for (const auto& p :
         {"/horizon", "/seed", "/name", "/pools", "/workload/0", "/workload/1/arrival",
          "/workload/1/gpus", "/workload/1/duration", "/scheduler", "/limits/max_active_jobs"}) {
      CHECK_MESSAGE(r.at(p).code == DiagCode::wrong_type, p);
    }
    CHECK(r.at("/horizon").message ==
          "expected a duration (seconds, or a string like \"36h\"), got true");
  }
  SUBCASE("a root that is not an object, and invalid JSON, are single errors") {
    const auto r = load("[1, 2]");
    REQUIRE(r.all.size() == 1);
    CHECK(r.all[0].code == DiagCode::wrong_type);
    const auto p = load("{\n\"horizon\": \"1d\"\n\"pools\": []}");
    REQUIRE(p.all.size() == 1);
    CHECK(p.all[0].code == DiagCode::parse_error);
    // The missing comma is noticed at "pools" on line 3.
    CHECK(p.all[0].line == 3);
  }
  SUBCASE("warmup must be shorter than the horizon and durations cannot be negative") {
    auto r = load(GOOD, {"warmup=30d"});
    CHECK(contains(r.at("/warmup").message, "must be shorter than the horizon"));
    r = load(GOOD, {"horizon=-5h"});
    CHECK(r.at("/horizon").message == "a duration cannot be negative, got \"-5h\"");
    r = load(GOOD, {"horizon=0"});
    CHECK(r.at("/horizon").code == DiagCode::out_of_range);
    r = load(GOOD, {"horizon=5 fortnights"});
    CHECK(r.at("/horizon").code == DiagCode::bad_unit);
  }
}

TEST_CASE("load::instance") {
  SUBCASE("an inline instance with an unknown GPU names its pointer and suggests a model") {
    const auto r = load(GOOD, {"instances.0.gpu=H100-SMX"});
    const auto d = r.at("/instances/0/gpu");
    CHECK(d.code == DiagCode::unknown_name);
    CHECK(d.message == "unknown GPU model \"H100-SMX\"; did you mean \"H100-SXM\"?");
    // The instance is on lines 7-8; the gpu key on line 7.
    CHECK(d.line == 7);
  }
  SUBCASE("an inline instance with a catalog id replaces the catalog entry") {
    const auto r = load(GOOD, {R"(instances.0.id="g6.xlarge")", "pools.0.instance=g6.xlarge"});
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    // The inline on-demand price (2.0), not the catalog's.
    CHECK(r.sc->pools[0].price_per_node_hour == 2.0);
  }
  SUBCASE("an inline instance needs its required keys and at least one price") {
    const auto r = load(GOOD, {R"(instances.0={"id": "x", "price_per_hour": {}})"});
    CHECK(r.at("/instances/0/gpu").code == DiagCode::missing_key);
    CHECK(r.at("/instances/0/gpus_per_node").code == DiagCode::missing_key);
    CHECK(r.at("/instances/0/price_per_hour").code == DiagCode::missing_key);
  }
  SUBCASE("unknown keys in an instance suggest the closest key") {
    const auto r = load(GOOD, {"instances.0.gpus_per_nod=2"});
    CHECK(r.at("/instances/0/gpus_per_nod").message ==
          "unknown key \"gpus_per_nod\"; did you mean \"gpus_per_node\"?");
  }
}

TEST_CASE("load::pools") {
  SUBCASE("an unknown pricing suggests the closest pricing") {
    const auto r = load(GOOD, {"pools.0.pricing=spott"});
    CHECK(r.at("/pools/0/pricing").message == "unknown pricing \"spott\"; did you mean \"spot\"?");
  }
  SUBCASE("pools must be a non-empty array") {
    const auto r = load(GOOD, {"pools=[]"});
    CHECK(r.at("/pools").code == DiagCode::missing_key);
  }
  SUBCASE("a class may only name existing pools") {
    const auto r = load(GOOD, {R"(workload.1.pools=["bigg"])"});
    CHECK(r.at("/workload/1/pools/0").message == "unknown pool \"bigg\"; did you mean \"big\"?");
  }
  SUBCASE("a loaded pool holds its instance type and GPU, resolved once") {
    const auto r = load(GOOD);
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    const Scenario& sc = *r.sc;
    CHECK(sc.instance_of(sc.pools[0]).id == "lab.g1");
    CHECK(sc.instance_of(sc.pools[1]).id == "p5.48xlarge");
    REQUIRE(sc.pools[1].gpu != nullptr);
    // the built-in catalog's own entry, so the pointer outlives any copy of the scenario
    CHECK(sc.pools[1].gpu == builtin_catalog().find_gpu("H100-SXM"));
    CHECK(&sc.gpu_of(sc.pools[0]) == builtin_catalog().find_gpu("A100-80GB"));
    CHECK(sc.pools[1].pricing == Pricing::spot);
  }
}

TEST_CASE("load::workload") {
  SUBCASE("every duration distribution is read into SI parameters") {
    struct Case {
      const char* json;
      DistKind kind;
      double a, b;
    };
    const Case cases[] = {
        // "90m" fixed = 5400 s.
        {R"("90m")", DistKind::fixed, 5400, 0},
        {R"({"fixed": 30})", DistKind::fixed, 30, 0},
        // Uniform 1 m .. 2 m = 60 .. 120 s.
        {R"({"uniform": {"low": "1m", "high": "2m"}})", DistKind::uniform, 60, 120},
        // Log-uniform 1 s .. 1 h = 1 .. 3600 s.
        {R"({"loguniform": {"low": 1, "high": "1h"}})", DistKind::loguniform, 1, 3600},
    };
    for (const auto& c : cases) {
      const auto r = load(GOOD, {std::string("workload.0.duration=") + c.json});
      REQUIRE_MESSAGE(r.sc, r.d.to_text());
      const auto& d = r.sc->workload[0].duration;
      CHECK(d.kind == c.kind);
      CHECK(d.a == c.a);
      CHECK(d.b == c.b);
    }
  }
  SUBCASE("an empirical distribution is stored sorted with matching weights") {
    const auto r = load(
        GOOD,
        {R"(workload.0.duration={"empirical": {"values": ["1h", 60, "2m"], "weights": [1, 2, 3]}})"});
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    const auto& d = r.sc->workload[0].duration;
    // 60 s, 120 s, 3600 s with weights 2, 3, 1.
    CHECK(d.values == std::vector<double>{60, 120, 3600});
    CHECK(d.weights == std::vector<double>{2, 3, 1});
    const auto eq = load(GOOD, {R"(workload.0.duration={"empirical": {"values": [5, 1]}})"});
    REQUIRE(eq.sc);
    // Weights default to equal (1 each).
    CHECK(eq.sc->workload[0].duration.weights == std::vector<double>{1, 1});
  }
  SUBCASE("bad distributions name the offending parameter") {
    auto r = load(GOOD, {R"(workload.0.duration={"loguniform": {"low": 0, "high": 5}})"});
    CHECK(r.at("/workload/0/duration/loguniform/low").code == DiagCode::out_of_range);
    r = load(GOOD, {R"(workload.0.duration={"uniform": {"low": 9, "high": 5}})"});
    CHECK(r.at("/workload/0/duration/uniform/high").code == DiagCode::out_of_range);
    r = load(GOOD, {R"(workload.0.duration={"exponentail": {"mean": 5}})"});
    CHECK(r.at("/workload/0/duration/exponentail").message ==
          "unknown distribution \"exponentail\"; did you mean \"exponential\"?");
    r = load(GOOD, {R"(workload.0.duration={"empirical": {"values": [1, 2], "weights": [1]}})"});
    CHECK(r.at("/workload/0/duration/empirical/weights").code == DiagCode::wrong_type);
  }
  SUBCASE("GPU choice probabilities must be positive and sum to 1") {
    auto r = load(GOOD, {"workload.1.gpus.choice.1=0.5"});
    CHECK(r.at("/workload/1/gpus/choice").message ==
          "probabilities sum to 0.8; they must sum to 1");
    r = load(GOOD, {"workload.1.gpus.choice.1=0", "workload.1.gpus.choice.2=0.8"});
    CHECK(r.at("/workload/1/gpus/choice/1").code == DiagCode::out_of_range);
    r = load(GOOD, {R"(workload.1.gpus={"choice": {"x": 1}})"});
    CHECK(r.at("/workload/1/gpus/choice/x").code == DiagCode::out_of_range);
  }
  SUBCASE("class names are unique and a class is either synthetic or a trace") {
    auto r = load(GOOD, {"workload.1.name=jobs"});
    CHECK(contains(r.at("/workload/1/name").message, "duplicate job class name \"jobs\""));
    r = load(GOOD, {"workload.0.trace=x.csv"});
    CHECK(contains(r.at("/workload/0/arrival").message, "cannot be used with \"trace\""));
    r = load(GOOD, {R"(workload.0={"name": "w"})"});
    CHECK(r.at("/workload/0/arrival").code == DiagCode::missing_key);
    CHECK(r.at("/workload/0/gpus").code == DiagCode::missing_key);
    CHECK(r.at("/workload/0/duration").code == DiagCode::missing_key);
  }
  SUBCASE("an unknown arrival process and an unknown reference GPU suggest fixes") {
    auto r = load(GOOD, {R"(workload.0.arrival={"poison": {"rate": 1}})"});
    CHECK(r.at("/workload/0/arrival/poison").message ==
          "unknown key \"poison\"; did you mean \"poisson\"?");
    r = load(GOOD, {"workload.1.reference_gpu=H10"});
    CHECK(r.at("/workload/1/reference_gpu").code == DiagCode::unknown_name);
  }
}

TEST_CASE("load::infeasible") {
  SUBCASE("a class whose largest job exceeds every pool it may use is infeasible") {
    // "big" is 2 x 8 = 16 GPUs; 32 GPUs cannot fit.
    const auto inf = load(GOOD, {R"(workload.1.gpus={"choice": {"1": 0.5, "32": 0.5}})"});
    const auto x = inf.at("/workload/1/gpus");
    CHECK(x.code == DiagCode::infeasible);
    // The choice is on line 21.
    CHECK(x.line == 21);
    CHECK(contains(x.message, "may ask for 32 GPUs"));
    CHECK(contains(x.message, "\"big\", has 16 GPUs (2 nodes x 8)"));
  }
  SUBCASE("a job larger than one node fits when the pool has enough whole nodes") {
    // 16 GPUs = both 8-GPU nodes of "big".
    const auto r = load(GOOD, {"workload.1.gpus=16"});
    CHECK_MESSAGE(r.sc, r.d.to_text());
  }
  SUBCASE("only the pools a class may use count") {
    // "main" has 64 GPUs, but class 1 may only use "big" (16).
    const auto r = load(GOOD, {"workload.1.gpus=64"});
    CHECK(r.at("/workload/1/gpus").code == DiagCode::infeasible);
    const auto all = load(GOOD, {"workload.0.gpus=64"});
    // Class 0 may use every pool, and "main" holds 64 x 1 GPUs.
    CHECK_MESSAGE(all.sc, all.d.to_text());
  }
}

TEST_CASE("load::overrides") {
  SUBCASE("a number, a string and a nested array index can be set") {
    const auto r = load(GOOD, {"seed=7", "horizon=12h", "warmup=0", "pools.1.count=5", "name=run-a",
                               "workload.1.gpus.choice.16=0.05"});
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    // seed 7 as set.
    CHECK(r.sc->seed == 7);
    // 12 h = 43,200 s.
    CHECK(r.sc->horizon_s == 43200);
    // 5 nodes as set.
    CHECK(r.sc->pools[1].count == 5);
    CHECK(r.sc->name == "run-a");
    CHECK(r.sc->source["pools"][1]["count"] == 5);
  }
  SUBCASE("missing object keys are created") {
    const auto r = load(GOOD, {"limits.time_bins=100"});
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    // 100 bins as set.
    CHECK(r.sc->limits.time_bins == 100);
  }
  SUBCASE("a bad path is a bad_override naming the path") {
    const auto r = load(GOOD, {"pools.7.count=1", "horizon.x=1", "noequals", "a..b=1"});
    CHECK_FALSE(r.sc);
    const auto idx = r.at("/pools/7/count");
    CHECK(idx.code == DiagCode::bad_override);
    CHECK(idx.file.empty());
    CHECK(idx.message ==
          "cannot apply --set \"pools.7.count=1\": /pools is an array of 2 entries, so \"7\" is "
          "not an index of it (0..1)");
    CHECK(contains(r.at("/horizon/x").message, "/horizon is \"30d\", so it has no \"x\""));
    CHECK(contains(r.at("").message, "expected PATH=VALUE"));
    CHECK(r.at("/a//b").code == DiagCode::bad_override);
  }
}

TEST_CASE("load::files") {
  const std::filesystem::path dir = GPUPLAN_BINARY_DIR "/load_test_tmp";
  std::filesystem::create_directories(dir);

  SUBCASE("a missing scenario file is an io_error naming the file") {
    Diagnostics d;
    CHECK_FALSE(load_scenario((dir / "nope.json").string(), {}, d));
    REQUIRE(d.size() == 1);
    CHECK(d.sorted()[0].code == DiagCode::io_error);
    CHECK(d.sorted()[0].file == (dir / "nope.json").string());
  }
  SUBCASE("a folder is not a readable scenario file, and a file reads back byte for byte") {
    Diagnostics d;
    CHECK_FALSE(read_scenario_file(dir.string(), d));
    REQUIRE(d.size() == 1);
    CHECK(d.sorted()[0].code == DiagCode::io_error);
    const auto path = (dir / "bytes.json").string();
    std::ofstream(path, std::ios::binary) << "{\r\n}\n";
    Diagnostics ok;
    const auto text = read_scenario_file(path, ok);
    REQUIRE(text);
    CHECK(*text == "{\r\n}\n");
    CHECK(ok.ok());
  }
  SUBCASE("a file loads with its stem as the default name and traces relative to it") {
    std::ofstream(dir / "tiny.csv") << "submit_time,num_gpus,duration\n0,1,5\n3,2,7\n";
    const auto path = (dir / "mm1.json").string();
    std::ofstream(path) << R"({"horizon": "1h",
      "pools": [{"name": "p", "instance": "p4d.24xlarge", "count": 1}],
      "workload": [{"name": "t", "trace": "tiny.csv"}]})";
    Diagnostics d;
    const auto sc = load_scenario(path, {}, d);
    REQUIRE_MESSAGE(sc, d.to_text());
    CHECK(sc->name == "mm1");
    CHECK(sc->file == path);
    // 2 rows in tiny.csv.
    CHECK(sc->workload[0].trace_rows.size() == 2);
  }
}

TEST_CASE("load::trace_class") {
  const auto philly_path = gpuplan_test_data::data_file("philly_jobs.csv", "load::trace_class");
  const auto tiresias_path =
      gpuplan_test_data::data_file("tiresias_60_jobs.csv", "load::trace_class");
  if (!philly_path || !tiresias_path) return;
  const std::string philly = R"({"horizon": "120d",
    "pools": [{"name": "p", "instance": "p4de.24xlarge", "count": 16}],
    "workload": [{"name": "philly",
      "trace": {"path": "philly_jobs.csv", "columns": {"submit": "timestamp"},
                "time_format": "datetime"}}]})";

  SUBCASE("the Philly trace loads next to a pool that fits its 128-GPU jobs") {
    const auto r = load(philly);
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    const JobClass& jc = r.sc->workload[0];
    // 82,247 rows in the file, none skipped.
    CHECK(jc.trace_rows.size() + jc.skipped_rows == 82247);
    CHECK(jc.skipped_rows == 0);
    CHECK(jc.trace->path == *philly_path);
  }
  SUBCASE("trace rows larger than every pool report the first offending row as file:line") {
    // 8 nodes x 8 = 64 GPUs; Philly has three 128-GPU jobs, the first on line 23198.
    const auto r = load(philly, {"pools.0.count=8"});
    CHECK_FALSE(r.sc);
    const auto d = r.at("/workload/0/trace");
    CHECK(d.code == DiagCode::infeasible);
    CHECK(d.file == *philly_path);
    CHECK(d.line == 23198);
    CHECK(contains(d.message, "asks for 128 GPUs"));
    CHECK(contains(d.message, "3 row(s)"));
  }
  SUBCASE("the Tiresias trace loads 60 jobs with its own GPU column, limit and time unit") {
    const auto r = load(R"({"horizon": "1d",
      "pools": [{"name": "p", "instance": "p4d.24xlarge", "count": 1}],
      "workload": [{"name": "t", "trace": {"path": "tiresias_60_jobs.csv",
                                           "columns": {"gpus": "num_gpu"}}}]})");
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    // 60 jobs.
    CHECK(r.sc->workload[0].trace_rows.size() == 60);
    const auto lim = load(R"({"horizon": "1d",
      "pools": [{"name": "p", "instance": "p4d.24xlarge", "count": 1}],
      "workload": [{"name": "t", "trace": {"path": "tiresias_60_jobs.csv", "limit": 10,
                    "time_unit": "1m", "columns": {"gpus": "num_gpu"}}}]})");
    REQUIRE_MESSAGE(lim.sc, lim.d.to_text());
    // limit 10 keeps 10 rows.
    CHECK(lim.sc->workload[0].trace_rows.size() == 10);
    // Job 1 is submitted at 30 minutes = 1800 s with time_unit 1 m.
    CHECK(lim.sc->workload[0].trace_rows[1].submit_s == 1800);
  }
  SUBCASE("a missing column suggests the closest header column") {
    const auto r = load(R"({"horizon": "1d",
      "pools": [{"name": "p", "instance": "p4d.24xlarge", "count": 1}],
      "workload": [{"name": "t", "trace": "tiresias_60_jobs.csv"}]})");
    const auto d = r.at("/workload/0/trace");
    CHECK(d.code == DiagCode::unknown_name);
    CHECK(contains(d.message, "did you mean \"num_gpu\"?"));
  }
}

TEST_CASE("load::trace_missing") {
  SUBCASE("a missing trace file is an io_error at the trace's pointer and line") {
    const auto r = load(
        "{\"horizon\": \"1d\",\n"
        "\"pools\": [{\"name\": \"p\", \"instance\": \"p4d.24xlarge\", \"count\": 1}],\n"
        "\"workload\": [{\"name\": \"t\",\n \"trace\": \"missing.csv\"}]}");
    const auto d = r.at("/workload/0/trace");
    CHECK(d.code == DiagCode::io_error);
    // "trace" is on line 4.
    CHECK(d.line == 4);
  }
}

TEST_CASE("load::schema") {
  const auto schema = nlohmann::json::parse(embedded::scenario_schema());

  SUBCASE("the schema is draft 2020-12 and lists every top-level key the loader accepts") {
    CHECK(schema["$schema"] == "https://json-schema.org/draft/2020-12/schema");
    std::vector<std::string> keys;
    for (const auto& [k, v] : schema["properties"].items()) keys.push_back(k);
    std::vector<std::string> loader = scenario_keys();
    std::sort(keys.begin(), keys.end());
    std::sort(loader.begin(), loader.end());
    CHECK(keys == loader);
    CHECK(schema["additionalProperties"] == false);
  }
  SUBCASE("the schema's duration and rate patterns agree with the parsers") {
    const std::regex duration(schema["$defs"]["duration_string"]["pattern"].get<std::string>());
    for (const char* s : {"36h", "36 h", "1.5d", "250ms", "1e3s", ".5y", "90", "5 hours", "-5s",
                          "h", "5M", "1..2s", "30 days", "1 day", "2 months", "10 mins"}) {
      CHECK_MESSAGE(std::regex_search(s, duration) == parse_duration(s).has_value(), s);
    }
    const std::regex rate(schema["$defs"]["rate"]["oneOf"][1]["pattern"].get<std::string>());
    for (const char* s : {"60/s", "12 / h", "3/d", "5/10m", "0.5", "12/hour", "12h", "/h", "3/day",
                          "5/10 minutes", "1/month"}) {
      CHECK_MESSAGE(std::regex_search(s, rate) == parse_rate(s).has_value(), s);
    }
  }
}
