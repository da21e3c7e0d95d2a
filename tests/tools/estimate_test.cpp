//! `gpuplan estimate` through the real CLI: JSON fields of both subcommands, and bad input (unknown
//! preset with a suggestion, TP beyond a node, a model that fits nowhere, non-finite or negative
//! numbers) exiting 2 with the flag named and nothing on stdout.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "tests/tools/cli.h"

using nlohmann::json;
using namespace gpuplan_cli_test;

namespace {

//! Runs `gpuplan estimate ARGS` with stdout only (stderr dropped), for JSON parsing.
CliRun estimate_stdout(const std::string& args) {
  return run_shell("timeout 60 " + gpuplan_binary() + " estimate " + args + " 2>/dev/null");
}

//! Runs it with stderr only, to read the messages of bad input and check stdout stays empty.
CliRun estimate_stderr(const std::string& args) {
  return run_shell("timeout 60 " + gpuplan_binary() + " estimate " + args + " 2>&1 >/dev/null");
}

}  // namespace

TEST_CASE("tools::estimate") {
  SUBCASE("training on 14 p5.48xlarge prints the plan, the step time parts, MFU and days") {
    const CliRun r = estimate_stdout(
        "training --params 13B --tokens 1T --instance p5.48xlarge --nodes 14 --json");
    REQUIRE(r.status == 0);
    const json j = json::parse(r.output);
    // A shape derived from --params is no preset: it has no name and says where it came from.
    CHECK(j["model"]["name"].is_null());
    CHECK(j["model"]["shape"] == "derived from the parameter count (GPT-style)");
    // 14 nodes x 8 = 112 GPUs = tp x pp x dp.
    const json& p = j["plan"];
    CHECK(p["tp"].get<int>() * p["pp"].get<int>() * p["dp"].get<int>() == 112);
    CHECK(j["step_time_s"].get<double>() ==
          doctest::Approx(j["compute_s"].get<double>() + j["exposed_comm_s"].get<double>() +
                          j["bubble_s"].get<double>() +
                          j["step_parts_s"]["optimizer"].get<double>() +
                          j["step_parts_s"]["published_cap"].get<double>()));
    // The efficiency a customer can check: tokens per GPU-second, the nearest published run and
    // the best one of this GPU, which the free search never beats by more than 10 %.
    CHECK(j["tokens_per_gpu_s"].get<double>() ==
          doctest::Approx(j["mfu"].get<double>() * 989e12 / (6 * 13e9)).epsilon(0.15));
    CHECK(j["nearest_published_run"]["source"].get<std::string>().size() > 10);
    CHECK(j["mfu"].get<double>() <= 1.1 * j["best_published_mfu"].get<double>() + 1e-9);
    CHECK_FALSE(j["plan"]["text"].get<std::string>().empty());
    CHECK(j["fits"] == true);
    // A 13B model on H100 with NVLink and 3.2 Tb/s per node trains at 35-70% MFU (tp 1: wide
    // GEMMs).
    CHECK(j["mfu"].get<double>() > 0.35);
    CHECK(j["mfu"].get<double>() < 0.7);
    // 1T tokens = 6 x 13e9 x 1e12 = 7.8e22 FLOPs; at 112 x 989e12 x MFU that is 8-20 days.
    CHECK(j["days"].get<double>() > 8);
    CHECK(j["days"].get<double>() < 20);
    CHECK(j["memory_per_gpu_gb"]["total"].get<double>() <=
          j["memory_per_gpu_gb"]["usable"].get<double>());
  }
  SUBCASE("training a preset on a GPU count picks that GPU's largest catalog node") {
    const CliRun r =
        estimate_stdout("training --model llama-3-405b --gpus 16384 --gpu H100-SXM --json");
    REQUIRE(r.status == 0);
    const json j = json::parse(r.output);
    CHECK(j["cluster"]["gpus"] == 16384);
    CHECK(j["cluster"]["gpus_per_node"] == 8);
    CHECK(j["plan"]["tp"].get<int>() <= 8);
    // Meta's region (TP 8 x PP 16, arXiv:2407.21783 Table 4), within the calibration, with only
    // as much recomputation as the memory model needs; MFU below Meta's 41 % by that cost.
    CHECK(j["plan"]["extrapolated"] == false);
    CHECK(j["plan"]["pp"].get<int>() > 1);
    CHECK(j["mfu"].get<double>() > 0.30);
    CHECK(j["mfu"].get<double>() < 0.43);
  }
  SUBCASE("the text output states the peak, tokens per GPU-second and the nearest run") {
    const CliRun r =
        estimate_stdout("training --model megatron-gpt-175b --gpus 128 --gpu A100-80GB");
    REQUIRE(r.status == 0);
    CHECK(r.output.find("of the A100-80GB's 312 TFLOPS dense bf16 peak") != std::string::npos);
    CHECK(r.output.find("tokens/s per GPU") != std::string::npos);
    CHECK(r.output.find("nearest published run: Megatron-LM") != std::string::npos);
  }
  SUBCASE("a pinned layout that does not fit names the memory it needs") {
    const CliRun r =
        estimate_stderr("training --model llama-3-405b --instance p5.48xlarge --tp 8 --pp 1");
    CHECK(r.status == 2);
    CHECK(r.output.find("TP 8 x PP 1 on 8 x H100-SXM does not fit: needs") != std::string::npos);
    CHECK(r.output.find("GB per GPU, has 72.0") != std::string::npos);
  }
  SUBCASE("inference of Llama-2-7B on one A100 gives TTFT, TPOT, KV size and the memory bound") {
    const CliRun r = estimate_stdout(
        "inference --model llama-2-7b --gpu A100-80GB --tp 1 --batch 1 --tokens-in 2048 "
        "--tokens-out 128 --precision fp16 --json");
    REQUIRE(r.status == 0);
    const json j = json::parse(r.output);
    CHECK(j["model"]["name"] == "llama-2-7b");
    CHECK(j["model"]["shape"] == "preset");
    // 2 x 32 layers x 32 KV heads x 128 x 2 B = 524,288 B per token.
    CHECK(j["kv_bytes_per_token"] == 524288);
    CHECK(j["bound"] == "memory");
    CHECK(j["prefill_bound"] == "compute");
    CHECK(j["ttft_s"].get<double>() > 0.05);
    CHECK(j["ttft_s"].get<double>() < 0.5);
    CHECK(j["tpot_s"].get<double>() > 0.005);
    CHECK(j["tpot_s"].get<double>() < 0.015);
    CHECK(j["max_batch_by_memory"].get<int>() > 40);
    CHECK(j["tokens_per_s"].get<double>() > 0);
  }
  SUBCASE("an unknown preset names --model and suggests the closest, exit 2, stdout empty") {
    const CliRun err = estimate_stderr("inference --model llama-2-7 --gpu A100-80GB --json");
    CHECK(err.status == 2);
    CHECK(err.output.find("--model: unknown model \"llama-2-7\"") != std::string::npos);
    CHECK(err.output.find("did you mean \"llama-2-7b\"") != std::string::npos);
    CHECK(estimate_stdout("inference --model llama-2-7 --gpu A100-80GB --json").output.empty());
  }
  SUBCASE("tensor parallelism beyond one node names --tp") {
    const CliRun err = estimate_stderr("inference --model llama-2-7b --gpu A100-80GB --tp 16");
    CHECK(err.status == 2);
    CHECK(err.output.find("--tp: tensor parallelism 16 exceeds the 8 GPUs per node") !=
          std::string::npos);
    const CliRun t = estimate_stderr("training --params 7B --instance p5.48xlarge --tp 16");
    CHECK(t.status == 2);
    CHECK(t.output.find("--tp:") != std::string::npos);
  }
  SUBCASE("a model that fits on no GPU names --model; one needing more GPUs suggests --tp") {
    const CliRun none = estimate_stderr("inference --params 2T --gpu H100-SXM --tp 8");
    CHECK(none.status == 2);
    CHECK(none.output.find("fits on no GPU of the catalog") != std::string::npos);
    const CliRun more = estimate_stderr("inference --model llama-2-70b --gpu H100-SXM --tp 1");
    CHECK(more.status == 2);
    CHECK(more.output.find("use --tp 2 or more") != std::string::npos);
    const CliRun train = estimate_stderr("training --model llama-3-405b --instance p5.48xlarge");
    CHECK(train.status == 2);
    CHECK(train.output.find("--nodes: no plan fits llama-3-405b") != std::string::npos);
  }
  SUBCASE("non-finite and negative numbers name their flag") {
    const CliRun nan = estimate_stderr("training --params nan --instance p5.48xlarge");
    CHECK(nan.status == 2);
    CHECK(nan.output.find("--params:") != std::string::npos);
    const CliRun neg =
        estimate_stderr("inference --model llama-2-7b --gpu A100-80GB --tokens-in -5 --batch inf");
    CHECK(neg.status == 2);
    CHECK(neg.output.find("--tokens-in:") != std::string::npos);
    CHECK(neg.output.find("--batch:") != std::string::npos);
    const CliRun kv = estimate_stderr(
        "inference --model llama-2-7b --gpu A100-80GB --batch 4096 --tokens-in 4096");
    CHECK(kv.status == 2);
    CHECK(kv.output.find("--batch: 4096 sequences") != std::string::npos);
  }
  SUBCASE("a mixture of experts is marked as an approximation and spreads its experts") {
    const CliRun r = estimate_stdout(
        "training --params 7B --experts 8 --active-experts 2 --expert-imbalance 1.2 --gpus 64 "
        "--gpu H100-SXM --json");
    REQUIRE(r.status == 0);
    const json j = json::parse(r.output);
    const json& moe = j["mixture_of_experts"];
    CHECK(moe["experts"] == 8);
    CHECK(moe["active_experts"] == 2);
    CHECK(moe["expert_imbalance"].get<double>() == doctest::Approx(1.2));
    CHECK(moe["approximation"].get<std::string>().find("approximate") == 0);
    // 6 N_active: the active parameters are well below the total.
    CHECK(j["model"]["active_params"].get<double>() < 0.5 * j["model"]["params"].get<double>());
    CHECK(j["plan"]["ep"].get<int>() >= 1);
    CHECK(j["comm_s"]["expert_parallel"].get<double>() >= 0);
    const CliRun text = estimate_stdout(
        "training --model mixtral-8x7b --gpus 64 --gpu H100-SXM --tokens-per-step 4194304");
    REQUIRE(text.status == 0);
    CHECK(text.output.find("mixture of experts, an approximation") != std::string::npos);
    // A dense estimate carries no MoE block.
    CHECK_FALSE(
        json::parse(estimate_stdout("training --params 7B --gpus 8 --gpu H100-SXM --json").output)
            .contains("mixture_of_experts"));
  }
  SUBCASE("bad mixture-of-experts flags name the flag, exit 2, stdout empty") {
    const struct {
      const char* args;
      const char* message;
    } cases[] = {
        {"--experts 0", "--experts: \"0\" must be a whole number"},
        {"--experts 2.5", "--experts:"},
        {"--active-experts 2", "--active-experts: the model is dense"},
        {"--experts 8 --active-experts 9", "--active-experts: 9 active experts exceed the 8"},
        {"--experts 8 --expert-imbalance 0.5", "--expert-imbalance:"},
        {"--experts 8 --expert-imbalance nan", "--expert-imbalance:"},
    };
    for (const auto& c : cases) {
      const std::string args =
          std::string("training --params 7B --gpus 8 --gpu H100-SXM ") + c.args + " --json";
      INFO(args);
      const CliRun err = estimate_stderr(args);
      CHECK(err.status == 2);
      CHECK(err.output.find(c.message) != std::string::npos);
      CHECK(estimate_stdout(args).output.empty());
    }
  }
  SUBCASE("an unknown precision suggests the closest") {
    const CliRun err =
        estimate_stderr("training --params 7B --gpus 8 --gpu H100-SXM --precision bf61");
    CHECK(err.status == 2);
    CHECK(err.output.find("--precision: unknown precision \"bf61\"; did you mean \"bf16\"?") !=
          std::string::npos);
  }
}
