//! Loading shared GPUs (docs/sharing.md, "In the engine"): a pool's MIG layout, time-slicing or
//! fractional packing, a class's MIG profile, time-sliced share or milli-GPU, with JSON-pointer
//! errors for what cannot run.
#include <doctest/doctest.h>

#include "models/compile/compile.h"
#include "tests/models/loaded.h"

using namespace gpuplan;

namespace {

using gpuplan_models_test::Loaded;

//! A 2-node p4de.24xlarge (8 x A100-80GB) pool with `pool_extra` keys, one class with `cls`
//! keys, and `top` keys after the workload.
Loaded load(const std::string& pool_extra, const std::string& cls, const std::string& top = "") {
  const std::string text =
      "{\"horizon\": \"1d\",\n\"pools\": [{\"name\": \"p\", \"instance\": \"p4de.24xlarge\", "
      "\"count\": 2" +
      pool_extra +
      "}],\n\"workload\": [{\"name\": \"w\", \"arrival\": {\"poisson\": {\"rate\": \"1/h\"}}, "
      "\"duration\": \"1h\"" +
      cls + "}]" + top + "}";
  return gpuplan_models_test::load_text(text, "");
}

}  // namespace

TEST_CASE("load::sharing") {
  SUBCASE("a MIG layout is placed as the vendor allows, and a class takes one instance") {
    const Loaded r = load(R"(, "mig": ["3g.40gb", "2x2g.20gb"])", R"(, "mig": "2g.20gb")");
    REQUIRE(r.sc);
    const PoolSharing& ps = r.sc->pools[0].sharing;
    CHECK(ps.kind == ShareKind::mig);
    REQUIRE(ps.layout.n == 3);
    // 3g only fits at slice 4 once the two 2g take slices 0-1 and 2-3
    CHECK(ps.layout.instances[0].start == 4);
    CHECK(ps.layout.instances[1].start == 0);
    CHECK(ps.layout.instances[2].start == 2);
    const CompiledScenario cs = compile(*r.sc);
    const ModelView v = cs.view();
    // the class may take layout entries 1 and 2 (its 2g.20gb instances): mask 0b110
    CHECK(v.share.class_entries[0] == 6u);
    // a 2g.20gb instance has 28 of 108 SMs: the class's duration stretches by 108 / 28
    CHECK(cs.slowdown[0] == doctest::Approx(108.0 / 28.0));
    // the pool still counts 8 physical GPUs per node
    CHECK(cs.pools[0].gpus_per_node == 8);
  }

  SUBCASE("\"7x1g.10gb\" as one string is seven instances") {
    const Loaded r = load(R"(, "mig": "7x1g.10gb")", R"(, "mig": "1g.10gb")");
    REQUIRE(r.sc);
    CHECK(r.sc->pools[0].sharing.layout.n == 7);
  }

  SUBCASE("a layout the vendor does not allow is refused at the pool's mig key") {
    const Loaded r = load(R"(, "mig": ["4g.40gb", "4g.40gb"])", R"(, "mig": "4g.40gb")");
    CHECK_FALSE(r.sc);
    CHECK(r.at("/pools/0/mig").message.find("more instances than the vendor allows") !=
          std::string::npos);
    const Loaded r2 =
        load(R"(, "mig": ["3g.40gb", "3g.40gb", "1g.10gb"])", R"(, "mig": "1g.10gb")");
    CHECK_FALSE(r2.sc);
    CHECK(r2.at("/pools/0/mig").message.find("not a layout the vendor allows") !=
          std::string::npos);
  }

  SUBCASE("a profile the GPU lacks names the GPU's profiles") {
    const Loaded r = load(R"(, "mig": ["1g.5gb"])", R"(, "mig": "1g.5gb")");
    CHECK_FALSE(r.sc);
    // 1g.5gb is an A100-40GB profile; the A100-80GB's smallest is 1g.10gb
    CHECK(r.at("/pools/0/mig/0").message.find("1g.10gb") != std::string::npos);
  }

  SUBCASE("a GPU without MIG is refused") {
    const std::string text =
        R"({"horizon": "1d", "pools": [{"name": "p", "instance": "g5.xlarge", "count": 1,
        "mig": "7x1g.10gb"}], "workload": [{"name": "w", "arrival": {"poisson": {"rate": "1/h"}},
        "duration": "1h", "mig": "1g.10gb"}]})";
    Diagnostics d;
    CHECK_FALSE(load_scenario_text(text, "scenario.json", "", LoadOptions{}, d));
    const auto all = d.sorted();
    REQUIRE_FALSE(all.empty());
    CHECK(all[0].pointer == "/pools/0/mig");
    CHECK(all[0].message.find("has no MIG") != std::string::npos);
  }

  SUBCASE("a class asking for a profile no pool offers is refused") {
    const Loaded r = load(R"(, "mig": "7x1g.10gb")", R"(, "mig": "3g.40gb")");
    CHECK_FALSE(r.sc);
    CHECK(r.at("/workload/0/mig").message.find("no pool this class may use offers") !=
          std::string::npos);
  }

  SUBCASE("time-slicing takes replicas and an interference") {
    const Loaded r = load(R"(, "time_slicing": {"replicas": 4, "interference": 0.1})",
                          R"(, "gpu_share": "time_sliced")");
    REQUIRE(r.sc);
    CHECK(r.sc->pools[0].sharing.replicas == 4);
    CHECK(r.sc->pools[0].sharing.interference == doctest::Approx(0.1));
    const Loaded bad =
        load(R"(, "time_slicing": {"replicas": 0})", R"(, "gpu_share": "time_sliced")");
    CHECK_FALSE(bad.sc);
    CHECK(bad.at("/pools/0/time_slicing/replicas").code == DiagCode::out_of_range);
  }

  SUBCASE("a shared class with gpus, or whole-GPU jobs with only shared pools, are refused") {
    const Loaded r = load(R"(, "mig": "7x1g.10gb")", R"(, "mig": "1g.10gb", "gpus": 1)");
    CHECK_FALSE(r.sc);
    CHECK(r.at("/workload/0/gpus").message.find("cannot be used with \"mig\"") !=
          std::string::npos);
    const Loaded w = load(R"(, "mig": "7x1g.10gb")", R"(, "gpus": 1)");
    CHECK_FALSE(w.sc);
    CHECK(w.at("/workload/0").message.find("every pool this class may use shares") !=
          std::string::npos);
  }

  SUBCASE("sharing refuses preempting policies and failures") {
    const Loaded r = load(R"(, "time_slicing": {"replicas": 2})", R"(, "gpu_share": "time_sliced")",
                          R"(, "scheduler": {"queue": "las"}, "failures": {})");
    CHECK_FALSE(r.sc);
    CHECK(r.at("/scheduler/queue").code == DiagCode::infeasible);
    CHECK(r.at("/failures").code == DiagCode::infeasible);
  }

  SUBCASE("a shared pool refuses maintenance windows (its nodes never go out)") {
    const Loaded r = load(R"(, "time_slicing": {"replicas": 2},
                          "maintenance": [{"start": "1h", "duration": "2h"}])",
                          R"(, "gpu_share": "time_sliced")");
    CHECK_FALSE(r.sc);
    CHECK(r.at("/pools/0/time_slicing").code == DiagCode::infeasible);
  }
}

TEST_CASE("load::sharing::fractional") {
  SUBCASE("a fractional pool packs by worst_fit, and a class holds milli and GPU memory") {
    const Loaded r = load(R"(, "fractional": {"packing": "worst_fit"})",
                          R"(, "gpu_milli": 300, "gpu_memory": "20GB")");
    REQUIRE(r.sc);
    CHECK(r.sc->pools[0].sharing.kind == ShareKind::fractional);
    CHECK(r.sc->pools[0].sharing.packing == PackPolicy::worst_fit);
    CHECK(r.sc->workload[0].share.milli == 300);
    // "20GB" is 20 GiB = 20,480 MiB (GPU memory is sold in GiB)
    CHECK(r.sc->workload[0].share.mem_mib == 20480);
    const CompiledScenario cs = compile(*r.sc);
    const ModelView v = cs.view();
    CHECK(v.share.n_frac_pools == 1);
    // one A100-80GB has 80 GiB
    CHECK(v.share.pools[0].gpu_mem_mib == 81920);
    CHECK(v.share.class_milli[0] == 300);
    // a fractional job holds no whole GPUs
    CHECK(cs.gpu_values[0] == 0);
  }

  SUBCASE("packing defaults to best_fit; random and fgd are not engine rules") {
    const Loaded r = load(R"(, "fractional": {})", R"(, "gpu_milli": 1000)");
    REQUIRE(r.sc);
    CHECK(r.sc->pools[0].sharing.packing == PackPolicy::best_fit);
    const Loaded bad = load(R"(, "fractional": {"packing": "fgd"})", R"(, "gpu_milli": 10)");
    CHECK_FALSE(bad.sc);
    CHECK(bad.at("/pools/0/fractional/packing").code == DiagCode::unknown_name);
  }

  SUBCASE("gpu_milli outside 1..1000 is refused at its pointer") {
    for (const char* milli : {"0", "-5", "1001"}) {
      CAPTURE(milli);
      const Loaded r = load(R"(, "fractional": {})", std::string(R"(, "gpu_milli": )") + milli);
      CHECK_FALSE(r.sc);
      CHECK(r.at("/workload/0/gpu_milli").code == DiagCode::out_of_range);
    }
    const Loaded half = load(R"(, "fractional": {})", R"(, "gpu_milli": 2.5)");
    CHECK_FALSE(half.sc);
    CHECK(half.at("/workload/0/gpu_milli").code == DiagCode::wrong_type);
  }

  SUBCASE("memory above the GPU's, or unreadable, is refused") {
    const Loaded r = load(R"(, "fractional": {})", R"(, "gpu_milli": 100, "gpu_memory": "81GB")");
    CHECK_FALSE(r.sc);
    // 81 GiB = 82,944 MiB above the A100-80GB's 81,920
    CHECK(r.at("/workload/0/gpu_memory").message.find("81920 MiB") != std::string::npos);
    const Loaded u =
        load(R"(, "fractional": {})", R"(, "gpu_milli": 100, "gpu_memory": "20 apples")");
    CHECK_FALSE(u.sc);
    CHECK(u.at("/workload/0/gpu_memory").code == DiagCode::bad_unit);
    const Loaded z = load(R"(, "fractional": {})", R"(, "gpu_milli": 100, "gpu_memory": "0GB")");
    CHECK_FALSE(z.sc);
    CHECK(z.at("/workload/0/gpu_memory").code == DiagCode::out_of_range);
  }

  SUBCASE("a milli class needs a fractional pool, and takes no gpu_fraction or second request") {
    const Loaded r = load("", R"(, "gpu_milli": 100)");
    CHECK_FALSE(r.sc);
    CHECK(r.at("/workload/0/gpu_milli").message.find("no pool this class may use is fractional") !=
          std::string::npos);
    const Loaded f = load(R"(, "fractional": {})", R"(, "gpu_milli": 100, "gpu_fraction": 0.5)");
    CHECK_FALSE(f.sc);
    CHECK(f.at("/workload/0/gpu_fraction").code == DiagCode::infeasible);
    const Loaded two =
        load(R"(, "fractional": {})", R"(, "gpu_milli": 100, "gpu_share": "time_sliced")");
    CHECK_FALSE(two.sc);
    CHECK(two.at("/workload/0/gpu_milli").code == DiagCode::infeasible);
    const Loaded pool =
        load(R"(, "fractional": {}, "time_slicing": {"replicas": 2})", R"(, "gpu_milli": 100)");
    CHECK_FALSE(pool.sc);
    CHECK(pool.at("/pools/0/fractional").code == DiagCode::infeasible);
  }
}
