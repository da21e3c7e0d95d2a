//! Loading the `failures` section and each pool's `spares` (docs/failures.md), with JSON-pointer
//! errors for bad rates and spares.
#include <doctest/doctest.h>

#include "tests/models/loaded.h"

using namespace gpuplan;

namespace {

using gpuplan_models_test::Loaded;

//! A 4-node pool with `pool_extra` keys, one class, and `top` keys after the workload.
Loaded load(const std::string& pool_extra, const std::string& top) {
  const std::string text =
      "{\"horizon\": \"1d\",\n\"pools\": [{\"name\": \"p\", \"instance\": \"p5.48xlarge\", "
      "\"count\": 4" +
      pool_extra +
      "}],\n\"workload\": [{\"name\": \"w\", \"arrival\": {\"poisson\": {\"rate\": \"1/h\"}}, "
      "\"gpus\": 8, \"duration\": \"1h\"}]" +
      top + "}";
  return gpuplan_models_test::load_text(text, "");
}

}  // namespace

TEST_CASE("load::failures") {
  SUBCASE("an empty section takes the Llama 3 table, a 4 h exponential repair and no scale") {
    const Loaded r = load(", \"spares\": 1", ",\n\"failures\": {}");
    REQUIRE(r.sc);
    REQUIRE(r.sc->failures);
    const FailureConfig& f = *r.sc->failures;
    CHECK(f.table == "llama3");
    CHECK(f.causes.size() == 18);
    CHECK(f.repair.kind == DistKind::exponential);
    // 4 h = 14,400 s
    CHECK(f.repair.a == 14400);
    // 419 / (16,384 x 54 x 24) per GPU-hour, per second
    CHECK(f.rate_per_gpu_s() == doctest::Approx(419.0 / (16384 * 54 * 24) / 3600).epsilon(1e-12));
    CHECK(r.sc->pools[0].spares == 1);
  }

  SUBCASE("explicit causes take a rate per GPU or {rate, scope}, scaled by scale") {
    const Loaded r = load("", R"(, "failures": {"rates": {"gpu": "7e-6/h",
        "leaf": {"rate": "1e-6/h", "scope": "switch"}, "sw": {"rate": 0, "scope": "job"}},
        "scale": 2, "repair": {"fixed": "30m"}})");
    REQUIRE(r.sc);
    const FailureConfig& f = *r.sc->failures;
    REQUIRE(f.causes.size() == 3);
    CHECK(f.table.empty());
    CHECK(f.causes[0].name == "gpu");
    // 7e-6 per GPU-hour as written
    CHECK(f.causes[0].rate_per_gpu_hour == doctest::Approx(7e-6).epsilon(1e-12));
    CHECK(f.causes[1].scope == FailureScope::switch_leaf);
    CHECK(f.causes[2].scope == FailureScope::job);
    // (7e-6 + 1e-6 + 0) x 2 per GPU-hour
    CHECK(f.rate_per_gpu_s() * 3600 == doctest::Approx(16e-6).epsilon(1e-12));
    CHECK(f.repair.a == 1800);
  }

  SUBCASE("a negative or unreadable rate is an error at its pointer and line") {
    const Loaded r = load("",
                          ",\n\"failures\": {\"rates\": {\"gpu\": \"-1/h\",\n\"nic\": \"inf/h\", "
                          "\"psu\": {\"rate\": -2}}}");
    CHECK_FALSE(r.sc);
    const Diagnostic neg = r.at("/failures/rates/gpu");
    CHECK(neg.code == DiagCode::out_of_range);
    CHECK(neg.message.find("at least 0") != std::string::npos);
    // "failures" starts on line 4
    CHECK(neg.line == 4);
    CHECK(r.at("/failures/rates/nic").code == DiagCode::bad_unit);
    CHECK(r.at("/failures/rates/psu/rate").code == DiagCode::out_of_range);
  }

  SUBCASE("spares as many as the pool's nodes are an error naming both numbers") {
    const Loaded r = load(", \"spares\": 4", ",\n\"failures\": {}");
    CHECK_FALSE(r.sc);
    const Diagnostic d = r.at("/pools/0/spares");
    CHECK(d.message.find("spares (4) must be fewer than the pool's count (4)") !=
          std::string::npos);
  }

  SUBCASE("spares without a failures section are an error: nothing would ever use them") {
    const Loaded r = load(", \"spares\": 1", "");
    CHECK_FALSE(r.sc);
    CHECK(r.at("/pools/0/spares").message.find("\"failures\"") != std::string::npos);
  }

  SUBCASE("an unknown table and an unknown scope suggest the names there are") {
    const Loaded r = load("", R"(, "failures": {"rates": "llama", "scale": -1})");
    CHECK_FALSE(r.sc);
    CHECK(r.at("/failures/rates").message.find("llama3") != std::string::npos);
    CHECK(r.at("/failures/scale").code == DiagCode::out_of_range);
    const Loaded s = load("", R"(, "failures": {"rates": {"x": {"rate": 0, "scope": "rack"}}})");
    CHECK(s.at("/failures/rates/x/scope").message.find("\"node\"") != std::string::npos);
  }
}
