//! A pool's staged purchases as the loader reads them: the schedule, the pool's size after every
//! purchase, the echo, the reserved commitment per tranche, and every bad schedule named by
//! pointer and line.
#include <doctest/doctest.h>

#include <string>

#include "models/scenario/pool_commitment.h"
#include "models/load/scenario_echo.h"
#include "tests/models/loaded.h"

using namespace gpuplan;
using gpuplan_models_test::load_text;

namespace {

// A 360-day scenario; line 6 holds the pool's extra keys (`pool`), e.g. its purchases.
std::string scenario(const std::string& pool, const std::string& count = "32") {
  return "{\n"
         "  \"horizon\": \"360d\",\n"
         "  \"instances\": [{\"id\": \"lab.g8\", \"gpu\": \"H100-SXM\", \"gpus_per_node\": 8,\n"
         "                 \"price_per_hour\": {\"on_demand\": 20.0, \"reserved_3y\": 10.0}}],\n"
         "  \"pools\": [{\"name\": \"main\", \"instance\": \"lab.g8\", \"count\": " +
         count + ",\n" + "    " + pool +
         "}],\n"
         "  \"workload\": [{\"name\": \"jobs\", \"arrival\": {\"poisson\": {\"rate\": \"4/h\"}},\n"
         "                \"gpus\": 8, \"duration\": {\"exponential\": {\"mean\": \"1h\"}}}]\n"
         "}\n";
}

}  // namespace

TEST_CASE("load::purchases") {
  SUBCASE("a schedule reads as count now plus each purchase at its time") {
    const auto r = load_text(
        scenario(R"("purchases": [{"at": "90d", "add": 8}, {"at": "270d", "add": 16}])"), ".");
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    const Pool& p = r.sc->pools[0];
    // Node slots: 32 + 8 + 16 = 56; 32 of them from t = 0.
    CHECK(p.count == 56);
    CHECK(p.initial_count() == 32);
    REQUIRE(p.purchases.size() == 2);
    // 90 days = 7,776,000 s.
    CHECK(p.purchases[0].at_s == 90 * 86400.0);
    CHECK(p.purchases[1].add == 16);
    // 32 before day 90, 40 from day 90, 56 from day 270.
    CHECK(p.nodes_at(89 * 86400.0) == 32);
    CHECK(p.nodes_at(90 * 86400.0) == 40);
    CHECK(p.nodes_at(300 * 86400.0) == 56);
    // Time average over 360 days: (32 x 360 + 8 x 270 + 16 x 90) / 360 = 42 nodes.
    CHECK(p.mean_nodes(0, 360 * 86400.0) == doctest::Approx(42.0).epsilon(1e-12));
  }
  SUBCASE("the echo writes count and purchases back as the loader reads them") {
    const auto r = load_text(scenario(R"("purchases": [{"at": "90d", "add": 8}])"), ".");
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    const nlohmann::json echo = effective_scenario_json(*r.sc);
    // The echo says 32 from t = 0, not the 40 slots, and the purchase in seconds.
    CHECK(echo["pools"][0]["count"] == 32);
    CHECK(echo["pools"][0]["purchases"][0]["at"] == 90 * 86400.0);
    CHECK(echo["pools"][0]["purchases"][0]["add"] == 8);
    // Loading the echo again gives the same schedule.
    const auto again = load_text(echo.dump(), ".");
    REQUIRE_MESSAGE(again.sc, again.d.to_text());
    CHECK(again.sc->pools[0].count == 40);
    CHECK(again.sc->pools[0].purchases[0].at_s == 90 * 86400.0);
  }
  SUBCASE("a reserved pool commits each tranche for its whole term from its purchase") {
    const auto r = load_text(
        scenario(R"("pricing": "reserved_3y", "purchases": [{"at": "180d", "add": 8}])"), ".");
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    const auto c = pool_commitment(r.sc->pools[0], 0, 360 * 86400.0);
    REQUIRE(c);
    // 40 nodes x $10/h x 26,280 h (3 x 8,760) = $10,512,000 owed in all.
    CHECK(c->total_usd == doctest::Approx(40 * 10.0 * 26280).epsilon(1e-12));
    // Inside the 360-day window: 32 x 8,640 h + 8 x 4,320 h at $10/h = $3,110,400.
    CHECK(c->in_window_usd == doctest::Approx((32 * 8640.0 + 8 * 4320.0) * 10).epsilon(1e-12));
  }
  SUBCASE("a purchase at or after the horizon names its pointer and line") {
    const auto r = load_text(scenario(R"("purchases": [{"at": "400d", "add": 8}])"), ".");
    CHECK_FALSE(r.sc);
    const auto d = r.at("/pools/0/purchases/0/at");
    // The purchase is on line 6.
    CHECK(d.line == 6);
    CHECK(d.message.find("not before the horizon") != std::string::npos);
    CHECK_FALSE(load_text(scenario(R"("purchases": [{"at": "360d", "add": 8}])"), ".").sc);
  }
  SUBCASE("purchases out of time order are refused at the later entry") {
    const auto r = load_text(
        scenario(R"("purchases": [{"at": "90d", "add": 8}, {"at": "30d", "add": 8}])"), ".");
    CHECK_FALSE(r.sc);
    CHECK(r.at("/pools/0/purchases/1/at").message.find("increasing time order") !=
          std::string::npos);
    // Two purchases at the same time are out of order too (merge them into one).
    const auto same = load_text(
        scenario(R"("purchases": [{"at": "90d", "add": 8}, {"at": "90d", "add": 8}])"), ".");
    CHECK_FALSE(same.sc);
  }
  SUBCASE("negative, fractional, zero and non-numeric counts are refused") {
    for (const char* add : {"-8", "2.5", "0", "\"eight\"", "1e20"}) {
      CAPTURE(add);
      const auto r = load_text(
          scenario(std::string(R"("purchases": [{"at": "90d", "add": )") + add + "}]"), ".");
      CHECK_FALSE(r.sc);
      CHECK(r.at("/pools/0/purchases/0/add").line == 6);
    }
    CHECK_FALSE(load_text(scenario(R"("purchases": [{"at": "-5d", "add": 8}])"), ".").sc);
    CHECK_FALSE(load_text(scenario(R"("purchases": [{"at": 0, "add": 8}])"), ".").sc);
  }
  SUBCASE("count plus purchases above the pool limit is refused") {
    const auto r = load_text(scenario(R"("purchases": [{"at": "90d", "add": 8}])", "999999"), ".");
    CHECK_FALSE(r.sc);
    CHECK(r.at("/pools/0/purchases").message.find("at most 1000000") != std::string::npos);
  }
  SUBCASE("an elastic pool cannot also stage purchases") {
    const auto r = load_text(
        scenario(R"("elastic": {"min": 0, "max": 8}, "purchases": [{"at": "90d", "add": 8}])"),
        ".");
    CHECK_FALSE(r.sc);
    CHECK(r.at("/pools/0/purchases").message.find("elastic") != std::string::npos);
  }
  SUBCASE("a purchase without its time or count, or with an unknown key, is refused") {
    CHECK_FALSE(load_text(scenario(R"("purchases": [{"add": 8}])"), ".").sc);
    CHECK_FALSE(load_text(scenario(R"("purchases": [{"at": "90d"}])"), ".").sc);
    CHECK_FALSE(load_text(scenario(R"("purchases": [{"at": "90d", "add": 8, "x": 1}])"), ".").sc);
    CHECK_FALSE(load_text(scenario(R"("purchases": {"at": "90d", "add": 8})"), ".").sc);
  }
}
