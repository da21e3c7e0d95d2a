#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "models/catalog/catalog.h"
#include "models/perf/training/calibration.h"
#include "models/perf/training/model_shape.h"
#include "models/perf/training/parallel_plan.h"
#include "models/perf/training/published_runs.h"
#include "models/perf/training/step_time.h"

using namespace gpuplan;
using namespace gpuplan::training;

TEST_CASE("models::training::calibration") {
  const std::vector<CalibrationRow>& rows = calibration_rows();

  SUBCASE("the table has at least 20 public runs of several families, GPUs and layouts") {
    CHECK(rows.size() >= 20);
    std::set<std::string> frameworks, gpus, ids;
    int held_out = 0;
    for (const CalibrationRow& e : rows) {
      CHECK_FALSE(e.run->source.empty());
      CHECK(e.published > 0.1);
      CHECK(e.published < 0.8);
      frameworks.insert(e.run->framework);
      gpus.insert(e.run->gpu);
      ids.insert(e.run->id);
      held_out += e.run->fitted ? 0 : 1;
    }
    CHECK(ids.size() == rows.size());
    CHECK(frameworks.size() >= 5);
    CHECK(gpus.size() >= 2);
    CHECK(held_out >= 10);
  }

  SUBCASE("fitted and held-out rows: median |error| <= 8 %, worst <= 20 %") {
    for (const CalibrationRow& e : rows)
      MESSAGE(e.run->id << ": published " << e.published << ", modelled " << e.modelled
                        << std::string(e.run->fitted ? " (fitted)" : " (held out)"));
    const CalibrationErrors fitted = calibration_errors(rows, true);
    const CalibrationErrors held_out = calibration_errors(rows, false);
    MESSAGE("fitted median " << fitted.median_abs << " worst " << fitted.worst_abs
                             << "; held out median " << held_out.median_abs << " worst "
                             << held_out.worst_abs);
    CHECK(fitted.rows + held_out.rows == rows.size());
    CHECK(fitted.median_abs <= 0.08);
    CHECK(fitted.worst_abs <= 0.20);
    CHECK(held_out.median_abs <= 0.08);
    CHECK(held_out.worst_abs <= 0.20);
  }

  SUBCASE("the errors per set: median of an odd and an even count, worst, empty set") {
    // Hand-made rows: |errors| 10 %, 20 %, 40 % fitted; 5 %, 15 % held out; none else.
    PublishedRun fit, held;
    fit.fitted = true;
    held.fitted = false;
    const std::vector<CalibrationRow> made = {{&fit, 0.5, 0.55},
                                              {&fit, 0.5, 0.4},
                                              {&held, 0.4, 0.38},
                                              {&fit, 0.5, 0.7},
                                              {&held, 0.4, 0.46}};
    const CalibrationErrors f = calibration_errors(made, true);
    CHECK(f.rows == 3);
    CHECK(f.median_abs == doctest::Approx(0.2));
    CHECK(f.worst_abs == doctest::Approx(0.4));
    const CalibrationErrors h = calibration_errors(made, false);
    CHECK(h.rows == 2);
    CHECK(h.median_abs == doctest::Approx(0.10));
    CHECK(h.worst_abs == doctest::Approx(0.15));
    CHECK(calibration_errors({}, true).rows == 0);
  }

  SUBCASE("Llama 3 405B on 16,384 H100 with Meta's layout lands in 38-43 % MFU") {
    // TP 8 x CP 1 x PP 16 x DP 128 at 8K tokens (arXiv:2407.21783 Table 4, published 41 %).
    const auto it = std::find_if(rows.begin(), rows.end(), [](const CalibrationRow& e) {
      return e.run->id == "llama3-405b-16k";
    });
    REQUIRE(it != rows.end());
    CHECK(it->modelled >= 0.38);
    CHECK(it->modelled <= 0.43);
  }

  SUBCASE("published Megatron TFLOPS convert to model FLOPs without the recomputation pass") {
    const PublishedRun& r = published_runs().front();
    REQUIRE(r.metric == PublishedMetric::megatron_tflops);
    const GpuSpec& a100 = *builtin_catalog().find_gpu("A100-80GB");
    // 137 TFLOPS of 312 counted with four passes: about 3/4 of 44 % in three.
    CHECK(published_mfu(r, a100) == doctest::Approx(137.0 / 312 * 0.75).epsilon(0.02));
  }
}

TEST_CASE("models::training::calibration::nearest_run") {
  SUBCASE("a plan takes the nearest row of its own GPU architecture and precision") {
    const ModelShape& m = *find_model_preset("megatron-gpt-175b");
    ParallelPlan p;
    p.tp = 8;
    p.pp = 8;
    p.dp = 1;
    const PublishedRun* r = nearest_published_run(m, p, "ampere", Precision::bf16);
    REQUIRE(r);
    CHECK(r->id == "megatron-2022-175b");
    CHECK(nearest_published_run(m, p, "hopper", Precision::bf16)->gpu == "H100-SXM");
    // V100: Megatron-LM v1.0's one-GPU run is the only row; an architecture without one has none
    CHECK(nearest_published_run(m, p, "volta", Precision::bf16)->id == "megatron-v1-1.2b-v100");
    CHECK(nearest_published_run(m, p, "turing", Precision::bf16) == nullptr);
  }
  SUBCASE("a layout far from every row is extrapolated, one on a row is not") {
    const PublishedRun& llama =
        *std::find_if(published_runs().begin(), published_runs().end(),
                      [](const PublishedRun& r) { return r.id == "llama3-405b-8k"; });
    CHECK_FALSE(is_extrapolated(llama.model, llama.plan, "hopper", Precision::bf16));
    ParallelPlan tiny;  // a 405B model on 8 GPUs without pipelining: no run looks like it
    tiny.dp = 8;
    tiny.zero = ZeroStage::parameters;
    CHECK(is_extrapolated(llama.model, tiny, "hopper", Precision::bf16));
    // FP8 rows exist for H100 only: an FP8 plan on A100 is extrapolated.
    const PublishedRun& fp8 =
        *std::find_if(published_runs().begin(), published_runs().end(),
                      [](const PublishedRun& r) { return r.id == "nemo-llama3-70b-fp8-64"; });
    CHECK_FALSE(is_extrapolated(fp8.model, fp8.plan, "hopper", Precision::fp8));
    CHECK(is_extrapolated(fp8.model, fp8.plan, "ampere", Precision::fp8));
  }
  SUBCASE("a dense model is never calibrated by a mixture-of-experts row, nor the reverse") {
    const PublishedRun& moe =
        *std::find_if(published_runs().begin(), published_runs().end(),
                      [](const PublishedRun& r) { return r.id == "nemo-qwen3-235b-fp8-256"; });
    CHECK_FALSE(is_extrapolated(moe.model, moe.plan, "hopper", Precision::fp8));
    ModelShape dense = moe.model;
    dense.experts = 1;
    dense.experts_per_token = 1;
    CHECK(layout_distance(dense, moe.plan, moe) > CALIBRATED_DISTANCE);
  }
}
