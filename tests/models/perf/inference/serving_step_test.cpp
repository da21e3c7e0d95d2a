#include <doctest/doctest.h>

#include "models/catalog/catalog.h"
#include "models/perf/inference/serving_step.h"

using namespace gpuplan;
using namespace gpuplan::inference;

TEST_CASE("models::inference::simulator_constants") {
  const Catalog& cat = builtin_catalog();
  const GpuSpec& a100 = *cat.find_gpu("A100-80GB");
  const GpuSpec& h100 = *cat.find_gpu("H100-SXM");
  const GpuSpec& l40s = *cat.find_gpu("L40S");

  SUBCASE("Hopper runs at the validation's fit, the other generations at the roofline's") {
    const SimulatorConstants h = simulator_constants(h100.architecture);
    CHECK(h.efficiency.prefill_compute == VLLM_HOPPER_PREFILL_COMPUTE);
    CHECK(h.efficiency.decode_bandwidth == VLLM_HOPPER_DECODE_BANDWIDTH);
    for (const GpuSpec* g : {&a100, &l40s}) {
      CAPTURE(g->id);
      const SimulatorConstants c = simulator_constants(g->architecture);
      const ServingEfficiency roofline = serving_efficiency(g->architecture);
      CHECK(c.efficiency.prefill_compute == roofline.prefill_compute);
      CHECK(c.efficiency.decode_bandwidth == roofline.decode_bandwidth);
      // the serving software's overheads are the same on every GPU
      CHECK(c.step_overhead_s == h.step_overhead_s);
      CHECK(c.request_overhead_s == h.request_overhead_s);
    }
    CHECK(h.step_overhead_s == VLLM_STEP_OVERHEAD_S);
    CHECK(h.request_overhead_s == VLLM_REQUEST_OVERHEAD_S);
  }

  SUBCASE("a request's own efficiencies are kept; the ones it leaves at 0 take the GPU's") {
    ServingRequest r;
    r.decode_bandwidth = 0.5;
    const ServingRequest h = with_simulator_efficiency(h100, r);
    CHECK(h.decode_bandwidth == 0.5);
    CHECK(h.prefill_compute == VLLM_HOPPER_PREFILL_COMPUTE);
    const ServingRequest a = with_simulator_efficiency(a100, ServingRequest{});
    CHECK(a.prefill_compute == serving_efficiency("ampere").prefill_compute);
    CHECK(a.decode_bandwidth == serving_efficiency("ampere").decode_bandwidth);
    // the step model runs at them: the H100's fitted bandwidth over its spec sheet's
    const ServingReplicaModel m =
        serving_replica_model(*training::find_model_preset("llama-3.1-8b"), h100, "nvlink4", h, 16);
    CHECK(m.step.bandwidth == doctest::Approx(h100.mem_bw_tbps * 1e12 * 0.5));
  }
}
