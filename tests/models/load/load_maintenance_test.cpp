//! Loading each pool's planned `maintenance` windows (docs/failures.md "Planned maintenance"),
//! with JSON-pointer errors for overlapping, empty, too long or too large windows and unknown
//! drain policies.
#include <doctest/doctest.h>

#include "models/compile/compile.h"
#include "tests/models/loaded.h"

using namespace gpuplan;
using gpuplan_models_test::load_text;
using gpuplan_models_test::Loaded;

namespace {

//! A 4-node pool with `windows` as its maintenance array (on line 3), one class.
Loaded load(const std::string& windows) {
  return load_text(
      "{\"horizon\": \"60d\",\n\"pools\": [{\"name\": \"p\", \"instance\": \"p5.48xlarge\", "
      "\"count\": 4,\n\"maintenance\": " +
          windows +
          "}],\n\"workload\": [{\"name\": \"w\", \"arrival\": {\"poisson\": {\"rate\": \"1/h\"}}, "
          "\"gpus\": 8, \"duration\": \"1h\"}]}",
      "");
}

}  // namespace

TEST_CASE("load::maintenance") {
  SUBCASE("a window reads start, duration, every, nodes, batch and drain with their defaults") {
    const Loaded r = load(R"([{"start": "7d", "duration": "8h", "every": "4w"},
        {"start": "1d", "duration": "2h", "nodes": "50%", "first": 2, "batch": 1,
         "drain": "wait", "drain_ahead": "12h"}])");
    REQUIRE(r.sc);
    const std::vector<MaintenanceConfig>& w = r.sc->pools[0].maintenance;
    REQUIRE(w.size() == 2);
    // 7 d and 8 h in seconds, every 4 weeks
    CHECK(w[0].start_s == 7 * 86400);
    CHECK(w[0].duration_s == 8 * 3600);
    CHECK(w[0].every_s == 28 * 86400);
    // default: every node of the pool at once, with a final checkpoint
    CHECK(w[0].nodes == 4);
    CHECK(w[0].batch == 4);
    CHECK(w[0].drain == DrainPolicy::checkpoint);
    // 50 % of 4 nodes = 2, from the pool's node 2, one at a time
    CHECK(w[1].nodes == 2);
    CHECK(w[1].first == 2);
    CHECK(w[1].batches() == 2);
    CHECK(w[1].drain == DrainPolicy::wait);
    CHECK(w[1].drain_ahead_s == 12 * 3600);
    // compiled: 1 batch for the first window, 2 for the rolling one (node 3 two hours later)
    const CompiledScenario cs = compile(*r.sc);
    REQUIRE(cs.maintenance.size() == 3);
    CHECK(cs.maintenance[2].first_node == 3);
    CHECK(cs.maintenance[2].start == 86400 + 2 * 3600);
    CHECK(cs.maintenance[2].drain_ahead == 12 * 3600);
    CHECK(cs.maintenance[0].period == 28 * 86400);
    CHECK(cs.maintenance[1].period == NEVER);
  }

  SUBCASE("windows on the same nodes that overlap are an error at the later one, with the time") {
    const Loaded r = load(R"([{"start": "7d", "duration": "8h", "every": "4w", "nodes": 2},
        {"start": "35d", "duration": "1h", "first": 1, "nodes": 1}])");
    CHECK_FALSE(r.sc);
    const Diagnostic d = r.at("/pools/0/maintenance/1");
    // the first window's second repetition starts at 7 d + 28 d = 35 d = 3,024,000 s
    CHECK(d.message.find("overlaps window /pools/0/maintenance/0 on nodes 1 to 1 from 3024000 s") !=
          std::string::npos);
    // the second window is on line 4
    CHECK(d.line == 4);
  }

  SUBCASE("windows at the same time on other nodes, or on the same nodes apart, are fine") {
    const Loaded r = load(R"([{"start": "7d", "duration": "8h", "nodes": 2},
        {"start": "7d", "duration": "8h", "first": 2, "nodes": 2},
        {"start": "176h", "duration": "1h", "nodes": 4}])");
    REQUIRE(r.sc);
    CHECK(r.sc->pools[0].maintenance.size() == 3);
  }

  SUBCASE("a drain-ahead counts as part of the window for overlaps") {
    const Loaded r = load(R"([{"start": "7d", "duration": "8h"},
        {"start": "178h", "duration": "1h", "drain": "wait", "drain_ahead": "3h"}])");
    CHECK_FALSE(r.sc);
    CHECK(r.at("/pools/0/maintenance/1").message.find("overlaps") != std::string::npos);
  }

  SUBCASE("a zero or negative duration is an error at its pointer") {
    const Loaded r =
        load(R"([{"start": "1d", "duration": 0}, {"start": "2d", "duration": "-1h"}])");
    CHECK_FALSE(r.sc);
    CHECK(r.at("/pools/0/maintenance/0/duration").code == DiagCode::out_of_range);
    CHECK(r.at("/pools/0/maintenance/1/duration").message.find("-1h") != std::string::npos);
  }

  SUBCASE("a window that does not end before it repeats is an error at every") {
    const Loaded r = load(R"([{"start": "1d", "duration": "8h", "every": "8h"},
        {"start": "1d", "duration": "2h", "nodes": 4, "batch": 1, "every": "8h", "first": 0}])");
    CHECK_FALSE(r.sc);
    const Diagnostic d = r.at("/pools/0/maintenance/0/every");
    CHECK(d.message.find("must end before it repeats") != std::string::npos);
    // 4 rolling batches of 2 h take 8 h: as long as the period
    CHECK(r.at("/pools/0/maintenance/1/every").message.find("4 batch(es)") != std::string::npos);
  }

  SUBCASE("more nodes than the pool has are an error naming both counts") {
    const Loaded r = load(R"([{"start": "1d", "duration": "1h", "nodes": 3, "first": 2}])");
    CHECK_FALSE(r.sc);
    const Diagnostic d = r.at("/pools/0/maintenance/0/nodes");
    CHECK(d.message.find("nodes 2 to 4 of the pool, but it has 4") != std::string::npos);
    const Loaded b = load(R"([{"start": "1d", "duration": "1h", "nodes": 2, "batch": 3}])");
    CHECK(b.at("/pools/0/maintenance/0/batch").code == DiagCode::out_of_range);
  }

  SUBCASE("an unknown drain policy suggests the closest one") {
    const Loaded r = load(R"([{"start": "1d", "duration": "1h", "drain": "chekpoint"}])");
    CHECK_FALSE(r.sc);
    const Diagnostic d = r.at("/pools/0/maintenance/0/drain");
    CHECK(d.message.find("did you mean \"checkpoint\"") != std::string::npos);
  }

  SUBCASE("drain_ahead belongs to wait: missing with wait, refused with the others") {
    const Loaded r = load(R"([{"start": "1d", "duration": "1h", "drain": "wait"},
        {"start": "3d", "duration": "1h", "drain": "kill", "drain_ahead": "1h"}])");
    CHECK_FALSE(r.sc);
    CHECK(r.at("/pools/0/maintenance/0/drain_ahead").code == DiagCode::missing_key);
    CHECK(r.at("/pools/0/maintenance/1/drain_ahead").code == DiagCode::out_of_range);
  }

  SUBCASE("a share of nodes above 100 % or a bad word is an error") {
    const Loaded r = load(R"([{"start": "1d", "duration": "1h", "nodes": "150%"},
        {"start": "2d", "duration": "1h", "nodes": "half"}])");
    CHECK_FALSE(r.sc);
    CHECK(r.at("/pools/0/maintenance/0/nodes").code == DiagCode::out_of_range);
    CHECK(r.at("/pools/0/maintenance/1/nodes").code == DiagCode::bad_unit);
  }
}
