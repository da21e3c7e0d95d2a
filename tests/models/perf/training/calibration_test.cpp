#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "models/catalog/catalog.h"
#include "models/perf/training/model_shape.h"
#include "models/perf/training/parallel_plan.h"
#include "models/perf/training/published_runs.h"
#include "models/perf/training/step_time.h"

using namespace gpuplan;
using namespace gpuplan::training;

namespace {

struct RowError {
  const PublishedRun* run;
  double modelled = 0;
  double published = 0;
  [[nodiscard]] double relative() const { return modelled / published - 1; }
};

Cluster cluster_of(const PublishedRun& r, const GpuSpec& gpu) {
  return {&r.node, &gpu, static_cast<uint32_t>(r.plan.gpus() / r.node.gpus_per_node)};
}

std::vector<RowError> table_errors() {
  std::vector<RowError> out;
  for (const PublishedRun& r : published_runs()) {
    const GpuSpec* gpu = builtin_catalog().find_gpu(r.gpu);
    REQUIRE(gpu);
    const Cluster c = cluster_of(r, *gpu);
    INFO(r.id);
    REQUIRE(plan_problem(r.model, r.plan, c) == "");
    out.push_back({&r, step_time(r.model, r.plan, c, r.precision).mfu, published_mfu(r, *gpu)});
  }
  return out;
}

double median_abs(std::vector<double> e) {
  for (double& x : e) x = std::abs(x);
  std::sort(e.begin(), e.end());
  const size_t n = e.size();
  return n % 2 ? e[n / 2] : (e[n / 2 - 1] + e[n / 2]) / 2;
}

double worst_abs(const std::vector<double>& e) {
  double w = 0;
  for (double x : e) w = std::max(w, std::abs(x));
  return w;
}

}  // namespace

TEST_CASE("models::training::calibration") {
  const std::vector<RowError> rows = table_errors();

  SUBCASE("the table has at least 20 public runs of several families, GPUs and layouts") {
    CHECK(rows.size() >= 20);
    std::set<std::string> frameworks, gpus, ids;
    int held_out = 0;
    for (const RowError& e : rows) {
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
    std::vector<double> fitted, held_out;
    for (const RowError& e : rows) {
      MESSAGE(e.run->id << ": published " << e.published << ", modelled " << e.modelled
                        << std::string(e.run->fitted ? " (fitted)" : " (held out)"));
      (e.run->fitted ? fitted : held_out).push_back(e.relative());
    }
    MESSAGE("fitted median " << median_abs(fitted) << " worst " << worst_abs(fitted)
                             << "; held out median " << median_abs(held_out) << " worst "
                             << worst_abs(held_out));
    CHECK(median_abs(fitted) <= 0.08);
    CHECK(worst_abs(fitted) <= 0.20);
    CHECK(median_abs(held_out) <= 0.08);
    CHECK(worst_abs(held_out) <= 0.20);
  }

  SUBCASE("Llama 3 405B on 16,384 H100 with Meta's layout lands in 38-43 % MFU") {
    // TP 8 x CP 1 x PP 16 x DP 128 at 8K tokens (arXiv:2407.21783 Table 4, published 41 %).
    const auto it = std::find_if(rows.begin(), rows.end(),
                                 [](const RowError& e) { return e.run->id == "llama3-405b-16k"; });
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
