//! `gpuplan serve-sim` through the real CLI: every scenario in scenarios/serving/ runs and matches
//! its golden file (scenarios/serving/<name>.expected.json, {"command", "expect"} as the top-level
//! scenarios; GPUPLAN_UPDATE_GOLDEN=1 rewrites it), and bad input exits 2 naming the pointer and
//! the numbers.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "tests/data_files.h"
#include "tests/tools/cli.h"

namespace fs = std::filesystem;
using gpuplan_cli_test::read_json;
using nlohmann::json;

namespace {

//! Where `got` differs from the `want` subset (numbers within 1e-9 relative).
void differences(const json& want, const json& got, const std::string& path, std::string& out) {
  if (want.is_object()) {
    for (const auto& [k, v] : want.items())
      if (!got.is_object() || !got.contains(k))
        out += "\n  " + path + "/" + k + ": missing";
      else
        differences(v, got[k], path + "/" + k, out);
  } else if (want.is_number()) {
    const double a = want.get<double>(), b = got.is_number() ? got.get<double>() : NAN;
    if (!(std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(a))))
      out += "\n  " + path + ": expected " + want.dump() + ", got " + got.dump();
  } else if (want != got) {
    out += "\n  " + path + ": expected " + want.dump() + ", got " + got.dump();
  }
}

//! Writes `text` to a fresh scenario file and runs serve-sim on it.
gpuplan_cli_test::CliRun run_text(const std::string& text, const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("gpuplan-servesim-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / (name + ".json");
  std::ofstream(file) << text;
  return gpuplan_cli_test::gpuplan("serve-sim " + file.string() + " --quiet --out " +
                                   (dir / name).string());
}

const char* BASE = R"({"name": "t", "model": "%MODEL%", "gpu": "%GPU%", "tp": %TP%,
  "scheduler": {"max_num_batched_tokens": %BUDGET%, "max_num_seqs": 64, "chunked_prefill": %CHUNK%},
  "workload": {"rate": "1/s", "requests": 10, "tokens_in": 3000, "tokens_out": 100}})";

std::string base(const std::string& model, const std::string& gpu, int tp, int budget, bool chunk) {
  std::string s = BASE;
  const auto put = [&](const std::string& k, const std::string& v) {
    s.replace(s.find(k), k.size(), v);
  };
  put("%MODEL%", model);
  put("%GPU%", gpu);
  put("%TP%", std::to_string(tp));
  put("%BUDGET%", std::to_string(budget));
  put("%CHUNK%", chunk ? "true" : "false");
  return s;
}

}  // namespace

TEST_CASE("tools::serve_sim") {
  SUBCASE("every serving scenario runs and matches its golden file") {
    const fs::path src = GPUPLAN_SOURCE_DIR;
    const bool update = std::getenv("GPUPLAN_UPDATE_GOLDEN") != nullptr;
    int n = 0;
    for (const auto& entry : fs::directory_iterator(src / "scenarios" / "serving")) {
      const fs::path p = entry.path();
      if (p.extension() != ".json" || p.stem().extension() == ".expected") continue;
      const fs::path golden = p.parent_path() / (p.stem().string() + ".expected.json");
      json expected = fs::exists(golden) ? read_json(golden) : json{{"command", {"serve-sim"}}};
      std::string args;
      for (const auto& a : expected["command"]) args += " " + a.get<std::string>();
      const fs::path out =
          fs::temp_directory_path() /
          ("gpuplan-serving-" + std::to_string(getpid()) + "-" + p.stem().string());
      fs::remove_all(out);
      const auto run =
          gpuplan_cli_test::gpuplan(args + " " + p.string() + " --quiet --out " + out.string());
      CAPTURE(run.output);
      if (run.status == 2 &&
          gpuplan_test_data::skipped_for_missing_data(p.filename().string(), run.output))
        continue;
      REQUIRE(run.status == 0);
      const json r = read_json(out / "result.json");
      CHECK(r["metrics"]["saturated"] == false);
      json subset = {{"scenario", r["scenario"]},
                     {"seed", r["seed"]},
                     {"replications", r["replications"]},
                     {"metrics", r["metrics"]},
                     {"summary", r["summary"]}};
      if (r.contains("autoscaling")) subset["autoscaling"] = r["autoscaling"];
      if (r.contains("search")) subset["search"] = r["search"];
      if (update) {
        expected["expect"] = subset;
        std::ofstream(golden) << expected.dump(2) << "\n";
      } else {
        REQUIRE_MESSAGE(fs::exists(golden), "no golden file " << golden);
        std::string diffs;
        differences(expected["expect"], r, "", diffs);
        CHECK_MESSAGE(diffs.empty(), p.filename().string()
                                         << " differs from its golden file:" << diffs);
      }
      fs::remove_all(out);
      ++n;
    }
    CHECK(n >= 1);
  }
  SUBCASE("autoscaling: what it bills, and the misuses") {
    const auto scenario = [](const std::string& root, const std::string& scaler) {
      return R"({"name": "t", "model": "llama-3-8b", "gpu": "H100-SXM", "tp": 1, )" + root +
             R"("autoscaling": {)" + scaler + R"(}, "workload": {"rate": "40/s",
               "tokens_in": 512, "tokens_out": 64, "requests": 8000}})";
    };
    const std::string ok =
        R"("min_replicas": 1, "max_replicas": 4, "target_requests": 8, "provisioning": "30s")";
    const auto run = run_text(scenario(R"("instance": "p5.48xlarge", )", ok), "scaled");
    CAPTURE(run.output);
    REQUIRE(run.status == 0);
    const json r =
        read_json(fs::temp_directory_path() / ("gpuplan-servesim-" + std::to_string(getpid())) /
                  "scaled" / "result.json");
    const json& a = r["autoscaling"];
    CHECK(a["provisioning_s"] == 30);
    CHECK(a["interval_s"] == 15);
    CHECK(a["scale_down_delay_s"] == 300);
    CHECK(a["replicas_mean"].get<double>() >= 1);
    CHECK(a["replicas_mean"].get<double>() <= a["replicas_peak"].get<double>());
    CHECK(a["replicas_peak"].get<int>() <= 4);
    CHECK(r["timeseries"]["replicas"].size() == r["timeseries"]["kv_occupancy"].size());
    // the price is the replicas billed on average, one GPU each
    CHECK(r["metrics"]["usd_per_hour"].get<double>() ==
          doctest::Approx(a["replicas_mean"].get<double>() *
                          r["price"]["usd_per_gpu_hour"].get<double>()));
    const auto refused = [&](const std::string& root, const std::string& scaler,
                             const std::string& name) {
      const auto bad = run_text(scenario(root, scaler), name);
      CHECK(bad.status == 2);
      return bad.output;
    };
    CHECK(refused(R"("replicas": 2, )", ok, "a1").find("/replicas: replicas and autoscaling") !=
          std::string::npos);
    CHECK(refused(R"("router": "cache_aware", )", ok, "a2").find("/router:") != std::string::npos);
    CHECK(refused("",
                  R"("min_replicas": 5, "max_replicas": 4, "target_requests": 8,
                     "provisioning": "30s")",
                  "a3")
              .find("/autoscaling/min_replicas: min_replicas 5 is above max_replicas 4") !=
          std::string::npos);
    CHECK(refused("", R"("min_replicas": 1, "max_replicas": 4, "target_requests": 8)", "a4")
              .find("provisioning") != std::string::npos);
    CHECK(refused("", ok + R"(, "interval": "0.1s")", "a5").find("/autoscaling/interval:") !=
          std::string::npos);
    CHECK(refused("", ok + R"(, "provisioning": "2d")", "a6").find("/autoscaling/provisioning:") !=
          std::string::npos);
  }
  SUBCASE("a model that does not fit the replica's memory exits 2 naming /tp and the sizes") {
    const auto run = run_text(base("llama-2-70b", "H100-SXM", 1, 2048, true), "nofit");
    CHECK(run.status == 2);
    // 70B at 2 bytes: 139 GB of weights; one H100 holds 80 GB x 0.9 = 72 GB
    CHECK(run.output.find("/tp:") != std::string::npos);
    CHECK(run.output.find("GB of weights") != std::string::npos);
    CHECK(run.output.find(" 72 GB") != std::string::npos);
  }
  SUBCASE("a token budget below the longest prompt without chunked prefill exits 2") {
    const auto run = run_text(base("llama-3-8b", "H100-SXM", 1, 2048, false), "budget");
    CHECK(run.status == 2);
    CHECK(run.output.find("/scheduler/max_num_batched_tokens:") != std::string::npos);
    // 3,000 prompt tokens (3,100 with the output when recomputed) against 2,048
    CHECK(run.output.find("2048") != std::string::npos);
    CHECK(run.output.find("3100") != std::string::npos);
  }
  SUBCASE("a budget below max_num_seqs exits 2; with chunked prefill a long prompt is fine") {
    const auto low = run_text(base("llama-3-8b", "H100-SXM", 1, 32, true), "seqs");
    CHECK(low.status == 2);
    CHECK(low.output.find("max_num_seqs 64") != std::string::npos);
    const auto ok = run_text(base("llama-3-8b", "H100-SXM", 1, 512, true), "chunked");
    CAPTURE(ok.output);
    CHECK(ok.status == 0);
  }
  SUBCASE("--set overrides a scenario value; a bad override exits 2") {
    const fs::path sc =
        fs::path(GPUPLAN_SOURCE_DIR) / "scenarios/serving/long_context_70b_a100.json";
    const fs::path out =
        fs::temp_directory_path() / ("gpuplan-servesim-set-" + std::to_string(getpid()));
    const auto run = gpuplan_cli_test::gpuplan("serve-sim " + sc.string() +
                                               " --set workload.rate=1.25/s --set replications=1"
                                               " --requests 1000 --quiet --out " +
                                               out.string());
    CAPTURE(run.output);
    REQUIRE(run.status == 0);
    const json r = read_json(out / "result.json");
    // 1.25 requests/s as set, one replication
    CHECK(r["workload"]["rate_per_s"] == 1.25);
    CHECK(r["replications"] == 1);
    // report.html beside it, with the result as its data island (its page: browser_scenarios.sh)
    const std::string page = gpuplan_cli_test::read_text(out / "report.html");
    CHECK(page.find("gpuplan serving simulation") != std::string::npos);
    CHECK(page.find("\"rate_per_s\":1.25") != std::string::npos);
    fs::remove_all(out);
    const auto bad = gpuplan_cli_test::gpuplan(
        "serve-sim " + sc.string() + " --set workload.rate=fast --quiet --out " + out.string());
    CHECK(bad.status == 2);
    CHECK(bad.output.find("/workload/rate") != std::string::npos);
    // the request and sequence overheads are written into result.json with the constants in
    // effect; above a second and 10 ms they are refused
    const auto ok = gpuplan_cli_test::gpuplan(
        "serve-sim " + sc.string() +
        " --set efficiency.request_overhead=25ms --set efficiency.sequence_overhead=0.05ms"
        " --requests 1000 --quiet --out " +
        out.string());
    REQUIRE(ok.status == 0);
    const json e = read_json(out / "result.json")["replica"]["efficiency"];
    CHECK(e["request_overhead_s"] == doctest::Approx(0.025));
    CHECK(e["sequence_overhead_s"] == doctest::Approx(5e-5));
    CHECK(e["decode_bandwidth"] == doctest::Approx(0.75));  // ampere's default
    fs::remove_all(out);
    const auto refused = [&](const std::string& set, const std::string& message) {
      const auto r = gpuplan_cli_test::gpuplan("serve-sim " + sc.string() + " --set " + set +
                                               " --quiet --out " + out.string());
      CHECK(r.status == 2);
      CHECK(r.output.find(message) != std::string::npos);
      CHECK_FALSE(fs::exists(out));
    };
    refused("efficiency.request_overhead=2s",
            "/efficiency/request_overhead: request_overhead 2 s is above 1 s");
    refused("efficiency.sequence_overhead=20ms",
            "/efficiency/sequence_overhead: sequence_overhead 0.02 s is above");
  }
  SUBCASE(
      "by default a replica runs at the validation's constants: the fit on H100, the "
      "generation's efficiencies elsewhere, and the serving software's overheads") {
    const fs::path dir = fs::path(GPUPLAN_SOURCE_DIR) / "scenarios/serving";
    const fs::path out =
        fs::temp_directory_path() / ("gpuplan-servesim-defaults-" + std::to_string(getpid()));
    const auto efficiency = [&](const std::string& args) {
      fs::remove_all(out);
      const auto run = gpuplan_cli_test::gpuplan("serve-sim " + args +
                                                 " --requests 1000 --set replications=1 --quiet"
                                                 " --out " +
                                                 out.string());
      CAPTURE(run.output);
      REQUIRE(run.status == 0);
      return read_json(out / "result.json")["replica"];
    };
    const json h = efficiency((dir / "chat_8b_h100.json").string());
    CHECK(h["efficiency"]["prefill_compute"] == doctest::Approx(0.47137));
    CHECK(h["efficiency"]["decode_bandwidth"] == doctest::Approx(0.889131));
    CHECK(h["efficiency"]["step_overhead_s"] == doctest::Approx(0.001576));
    CHECK(h["efficiency"]["request_overhead_s"] == doctest::Approx(0.008208));
    CHECK(h["efficiency"]["sequence_overhead_s"] == 0);
    // a scenario's own values replace them, 0 included
    const json z = efficiency((dir / "chat_8b_h100.json").string() +
                              " --set efficiency.step_overhead=0s"
                              " --set efficiency.request_overhead=0s"
                              " --set efficiency.decode_bandwidth=0.8");
    CHECK(z["efficiency"]["step_overhead_s"] == 0);
    CHECK(z["efficiency"]["request_overhead_s"] == 0);
    CHECK(z["efficiency"]["decode_bandwidth"] == doctest::Approx(0.8));
    CHECK(z["efficiency"]["prefill_compute"] == doctest::Approx(0.47137));
    // a decode pool on A100s runs at the A100's generation's efficiencies, the prefill pool on
    // H100s at the fit
    const json d = efficiency((dir / "chat_8b_h100_disaggregated.json").string() +
                              " --set 'disaggregated.decode={\"gpu\": \"A100-80GB\"}'");
    CHECK(d["efficiency"]["decode_bandwidth"] == doctest::Approx(0.889131));
    CHECK(d["disaggregated"]["decode"]["efficiency"]["decode_bandwidth"] == doctest::Approx(0.75));
    // tensor parallelism on NVLink: vLLM's custom all-reduce beside NCCL's ring unless the
    // scenario turns it off, as vLLM's --disable-custom-all-reduce; one GPU: none
    CHECK(h["tp_all_reduce"] == "none");
    const fs::path lc = dir / "long_context_70b_a100.json";
    const json on = efficiency(lc.string());
    CHECK(on["tp_all_reduce"] == "nccl_or_vllm_custom");
    const json off = efficiency(lc.string() + " --set custom_all_reduce=false");
    CHECK(off["tp_all_reduce"] == "nccl");
    fs::remove_all(out);
    const auto bad = gpuplan_cli_test::gpuplan(
        "serve-sim " + lc.string() + " --set custom_all_reduce=7 --quiet --out " + out.string());
    CHECK(bad.status == 2);
    CHECK(bad.output.find("/custom_all_reduce") != std::string::npos);
    CHECK_FALSE(fs::exists(out));
  }
  SUBCASE(
      "--backend cuda: the device's numbers are the host's, or it says why not and writes "
      "nothing") {
    const fs::path sc = fs::path(GPUPLAN_SOURCE_DIR) / "scenarios/serving/chat_8b_h100.json";
    const fs::path out =
        fs::temp_directory_path() / ("gpuplan-servesim-be-" + std::to_string(getpid()));
    const std::string args = "serve-sim " + sc.string() + " --requests 2000 --quiet --out ";
    const auto cpu = gpuplan_cli_test::gpuplan(args + (out / "cpu").string() + " --backend cpu");
    REQUIRE(cpu.status == 0);
    const auto cuda = gpuplan_cli_test::gpuplan(args + (out / "cuda").string() + " --backend cuda");
    CAPTURE(cuda.output);
    if (cuda.status == 0) {
      const json a = read_json(out / "cpu" / "result.json")["metrics"];
      const json b = read_json(out / "cuda" / "result.json")["metrics"];
      std::string diff;
      differences(a, b, "/metrics", diff);
      CHECK_MESSAGE(diff.empty(), diff);
    } else {
      CHECK(cuda.status == 2);
      CHECK(cuda.output.find("--backend cuda: ") != std::string::npos);
      CHECK(cuda.output.find("use --backend cpu") != std::string::npos);
      CHECK_FALSE(fs::exists(out / "cuda"));
    }
    // a configuration search runs on CPU threads: asked for the device, it exits 2
    const fs::path search = fs::path(GPUPLAN_SOURCE_DIR) / "scenarios/serving/chat_8b_search.json";
    const auto s = gpuplan_cli_test::gpuplan("serve-sim " + search.string() + " --quiet --out " +
                                             (out / "search").string() + " --backend cuda");
    CHECK(s.status == 2);
    CHECK(s.output.find("--backend cuda: ") != std::string::npos);
    CHECK_FALSE(fs::exists(out / "search"));
    const auto bad = gpuplan_cli_test::gpuplan(args + (out / "bad").string() + " --backend gpu");
    CHECK(bad.status == 2);
    CHECK_FALSE(fs::exists(out / "bad"));
    fs::remove_all(out);
  }
  SUBCASE("the cache-aware router's thresholds are set by SGLang's names, and checked") {
    const fs::path sc = fs::path(GPUPLAN_SOURCE_DIR) / "scenarios/serving/chat_8b_h100.json";
    const fs::path out =
        fs::temp_directory_path() / ("gpuplan-servesim-ca-" + std::to_string(getpid()));
    std::string args = "serve-sim ";
    args += sc.string();
    args += " --set router=cache_aware --set replications=1 --requests 2000";
    const auto run = gpuplan_cli_test::gpuplan(
        args + " --set cache_aware.balance_abs_threshold=8 --quiet --out " + out.string());
    CAPTURE(run.output);
    REQUIRE(run.status == 0);
    const json r = read_json(out / "result.json");
    CHECK(r["replica"]["router"] == "cache_aware");
    CHECK(r["replica"]["cache_aware"]["balance_abs_threshold"] == 8);
    CHECK(r["replica"]["cache_aware"]["cache_threshold"] == 0.5);
    fs::remove_all(out);
    // a relative threshold below 1 would call every load imbalanced
    const auto bad = gpuplan_cli_test::gpuplan(
        args + " --set cache_aware.balance_rel_threshold=0.5 --quiet --out " + out.string());
    CHECK(bad.status == 2);
    CHECK(bad.output.find("/cache_aware/balance_rel_threshold") != std::string::npos);
    CHECK_FALSE(fs::exists(out));
  }
  SUBCASE("disaggregated pools: sized by their own keys, never with replicas as well") {
    const fs::path sc = fs::path(GPUPLAN_SOURCE_DIR) / "scenarios/serving/chat_8b_h100.json";
    const fs::path out =
        fs::temp_directory_path() / ("gpuplan-servesim-pd-" + std::to_string(getpid()));
    std::string args = "serve-sim ";
    args += sc.string();
    args += " --set replications=1 --requests 2000 --quiet --out ";
    args += out.string();
    // the chat scenario sizes its cluster with replicas: 4
    const auto both = gpuplan_cli_test::gpuplan(
        args + " --set 'disaggregated={\"prefill_replicas\": 3, \"decode_replicas\": 2}'");
    CHECK(both.status == 2);
    CHECK(both.output.find("/replicas:") != std::string::npos);
    CHECK(both.output.find("prefill_replicas and decode_replicas") != std::string::npos);
    CHECK_FALSE(fs::exists(out));
    const auto no_decode =
        gpuplan_cli_test::gpuplan(args + " --set 'disaggregated={\"prefill_replicas\": 3}'");
    CHECK(no_decode.status == 2);
    CHECK(no_decode.output.find("/disaggregated") != std::string::npos);
    CHECK(no_decode.output.find("decode_replicas") != std::string::npos);
    // a link so slow that a transfer would end at 1e300 s is refused, at 1 Mb/s it is not
    const fs::path pd0 =
        fs::path(GPUPLAN_SOURCE_DIR) / "scenarios/serving/chat_8b_h100_disaggregated.json";
    for (const char* gbps : {"0.0009", "0.001"}) {
      std::string slow = "serve-sim ";
      slow += pd0.string();
      slow += " --set disaggregated.kv_transfer.bandwidth=";
      slow += gbps;
      slow += " --set replications=1 --requests 200 --quiet --out ";
      slow += out.string();
      const auto run = gpuplan_cli_test::gpuplan(slow);
      CAPTURE(gbps);
      CHECK(run.status == (std::string(gbps) == "0.001" ? 0 : 2));
      if (run.status == 2)
        CHECK(run.output.find("/disaggregated/kv_transfer/bandwidth") != std::string::npos);
      fs::remove_all(out);
    }
    const fs::path pd =
        fs::path(GPUPLAN_SOURCE_DIR) / "scenarios/serving/chat_8b_h100_disaggregated.json";
    std::string pd_args = "serve-sim ";
    pd_args += pd.string();
    pd_args += " --set replications=1 --requests 2000 --quiet --out ";
    pd_args += out.string();
    const auto ok = gpuplan_cli_test::gpuplan(pd_args);
    CAPTURE(ok.output);
    REQUIRE(ok.status == 0);
    const json r = read_json(out / "result.json");
    CHECK(r["replica"]["replicas"] == 5);
    CHECK(r["replica"]["gpus"] == 5);
    CHECK(r["replica"]["disaggregated"]["prefill_replicas"] == 3);
    CHECK(r["replica"]["disaggregated"]["kv_transfer"]["bandwidth_gbps_per_gpu"] == 400);
    CHECK_FALSE(r["replica"]["disaggregated"].contains("decode"));
    fs::remove_all(out);
    // decode replicas of their own shape: two A100s at TP 2 behind three H100 prefill replicas
    const auto mixed = gpuplan_cli_test::gpuplan(
        pd_args + " --set 'disaggregated.decode={\"gpu\": \"A100-80GB\", \"tp\": 2}'");
    CAPTURE(mixed.output);
    REQUIRE(mixed.status == 0);
    const json m = read_json(out / "result.json");
    CHECK(m["replica"]["gpus"] == 3 + 2 * 2);
    CHECK(m["replica"]["disaggregated"]["decode"]["gpu"] == "A100-80GB");
    CHECK(m["replica"]["disaggregated"]["decode"]["tp"] == 2);
    CHECK(m["replica"]["disaggregated"]["decode"]["fabric"] == "nvlink3");
    CHECK(m["replica"]["disaggregated"]["kv_transfer"]["links"] == 1);  // the smaller group's
    CHECK(m["metrics"]["kv_occupancy_peak"].get<double>() <= 1.0);
    fs::remove_all(out);
    // A decode pool too small for its prefill pool is saturated, by its own wait's growth (the
    // prefill side keeps up): two A100 decode replicas cannot, three can.
    for (const int decode : {2, 3}) {
      CAPTURE(decode);
      const auto run = gpuplan_cli_test::gpuplan(
          pd_args + " --set 'disaggregated.decode={\"gpu\": \"A100-80GB\"}'" +
          " --set disaggregated.decode_replicas=" + std::to_string(decode));
      CAPTURE(run.output);
      REQUIRE(run.status == 0);
      const json d = read_json(out / "result.json");
      CHECK(d["metrics"]["wait_growth"].get<double>() < 0.005);
      CHECK((d["metrics"]["decode_wait_growth"].get<double>() > 0.005) == (decode == 2));
      CHECK(d["metrics"]["saturated"] == (decode == 2));
      fs::remove_all(out);
    }
    // bad decode shapes, each at its key and with no output: an unknown GPU, a GPU whose memory
    // holds no KV block after the weights, an unknown key
    const struct {
      const char* decode;
      const char* where;
    } bad[] = {{R"({"gpu": "H900"})", "/disaggregated/decode/gpu"},
               {R"({"gpu": "T4"})", "/disaggregated/decode/tp"},
               {R"({"gpus": 2})", "/disaggregated/decode"}};
    for (const auto& b : bad) {
      CAPTURE(b.decode);
      const auto run =
          gpuplan_cli_test::gpuplan(pd_args + " --set 'disaggregated.decode=" + b.decode + "'");
      CHECK(run.status == 2);
      CHECK(run.output.find(b.where) != std::string::npos);
      CHECK_FALSE(fs::exists(out));
    }
  }
  SUBCASE("search: the cheapest is the scenario with its values set; SLOs none meets exit 2") {
    const fs::path dir = fs::path(GPUPLAN_SOURCE_DIR) / "scenarios/serving";
    const fs::path out =
        fs::temp_directory_path() / ("gpuplan-servesim-search-" + std::to_string(getpid()));
    const std::string search = "serve-sim " + (dir / "chat_8b_search.json").string() +
                               " --requests 6000 --quiet --out " + out.string();
    auto run = gpuplan_cli_test::gpuplan(search);
    CAPTURE(run.output);
    if (run.status == 2 &&
        gpuplan_test_data::skipped_for_missing_data("chat_8b_search.json", run.output))
      return;
    REQUIRE(run.status == 0);
    const json r = read_json(out / "result.json");
    fs::remove_all(out);
    const json& best = r["search"]["candidates"][0];
    REQUIRE(best["verdict"] == "cheapest");
    // the same scenario with the cheapest's values set, simulated alone: the same figures
    run = gpuplan_cli_test::gpuplan(
        "serve-sim " + (dir / "chat_8b_h100.json").string() +
        " --requests 6000 --quiet --set instance=" + best["instance"].get<std::string>() +
        " --set gpu=" + best["gpu"].get<std::string>() + " --set tp=" + best["tp"].dump() +
        " --set replicas=" + best["replicas"].dump() + " --set scheduler.max_num_batched_tokens=" +
        best["max_num_batched_tokens"].dump() + " --out " + out.string());
    REQUIRE(run.status == 0);
    const json alone = read_json(out / "result.json");
    fs::remove_all(out);
    CHECK(alone["metrics"] == r["metrics"]);
    CHECK(alone["summary"]["metrics.slo_attainment"] == best["slo_attainment"]);
    // a TPOT no GPU reaches: exit 2, the goal and the search's table, nothing written
    run = gpuplan_cli_test::gpuplan(search + " --set slo.tpot=2ms --set search.max_replicas=4");
    CHECK(run.status == 2);
    CHECK(run.output.find("/slo: no configuration of /search meets the goal of 99 % of requests "
                          "within TTFT 500 ms and TPOT 2 ms at up to 4 replicas") !=
          std::string::npos);
    CHECK(run.output.find("misses") != std::string::npos);
    CHECK_FALSE(fs::exists(out));
  }
  SUBCASE("a queue that grows through the run is saturated, on both sides of the limit") {
    const fs::path dir = fs::path(GPUPLAN_SOURCE_DIR) / "scenarios/serving";
    const fs::path out =
        fs::temp_directory_path() / ("gpuplan-servesim-grow-" + std::to_string(getpid()));
    const auto metrics = [&](const std::string& file, const std::string& rate) {
      std::string args = "serve-sim ";
      args += (dir / file).string();
      args += " --set workload.rate=" + rate + " --quiet --out ";
      args += out.string();
      const auto run = gpuplan_cli_test::gpuplan(args);
      CAPTURE(run.output);
      REQUIRE(run.status == 0);
      const json m = read_json(out / "result.json")["metrics"];
      fs::remove_all(out);
      return m;
    };
    // the chat scenario serves about 62 requests/s: at 55 it keeps up; at 70, offered about 13 %
    // more than it serves, its queue grows, a little slower than the fluid limit
    // (offered / served - 1), as the first requests wait less while the queue builds
    const json ok = metrics("chat_8b_h100.json", "55/s");
    CHECK(std::abs(ok["wait_growth"].get<double>()) < 0.001);
    CHECK(ok["saturated"] == false);
    const json over = metrics("chat_8b_h100.json", "70/s");
    const double over_fluid = 70 / over["throughput_rps"].get<double>() - 1;
    CHECK(over_fluid == doctest::Approx(0.13).epsilon(0.1).scale(0));
    CHECK(over["wait_growth"].get<double>() < over_fluid);
    CHECK(over["wait_growth"].get<double>() > 0.6 * over_fluid);
    CHECK(over["saturated"] == true);
    CHECK(over["queue_overflow"] == false);
    // the long-context scenario at 2 requests/s: offered about 1.6 times what it serves, so
    // the wait grows by the fluid limit, offered / served - 1 = 0.6 s per second of arrivals.
    // The fitted slope runs a little below it (over 20 seeds 0.536-0.584, mean 0.56, against
    // 0.59-0.61): the first requests, served while the KV cache fills, wait less.
    const json far = metrics("long_context_70b_a100.json", "2/s");
    const double fluid = 2 / far["throughput_rps"].get<double>() - 1;
    CHECK(fluid == doctest::Approx(0.6).epsilon(0.03));
    CHECK(far["wait_growth"].get<double>() < fluid);
    CHECK(far["wait_growth"].get<double>() > 0.85 * fluid);
    CHECK(far["saturated"] == true);
  }
  SUBCASE("an unknown model suggests the closest preset") {
    const auto run = run_text(base("llama-3-8", "H100-SXM", 1, 2048, true), "model");
    CHECK(run.status == 2);
    CHECK(run.output.find("/model:") != std::string::npos);
    CHECK(run.output.find("did you mean") != std::string::npos);
  }
  SUBCASE("a trace's timestamps replayed: every row at its time over rate_scale, and the misuses") {
    const fs::path dir =
        fs::temp_directory_path() / ("gpuplan-servesim-" + std::to_string(getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "replay.csv") << "TIMESTAMP,ContextTokens,GeneratedTokens\n"
                                         "2023-11-16 18:00:00.0,512,16\n"
                                         "2023-11-16 18:00:02.5,256,8\n"
                                         "2023-11-16 18:00:10.0,1024,32\n";
    const auto scenario = [](const std::string& workload) {
      return R"({"name": "t", "model": "llama-3-8b", "gpu": "H100-SXM", "tp": 1,
        "workload": {"trace": "replay.csv", )" +
             workload + "}}";
    };
    const auto ok = run_text(scenario(R"("arrivals": "trace", "rate_scale": 2)"), "replay");
    CAPTURE(ok.output);
    REQUIRE(ok.status == 0);
    const json w = read_json(dir / "replay" / "result.json")["workload"];
    CHECK(w["arrivals"] == "trace");
    CHECK(w["requests"] == 3);  // every row, without "requests"
    CHECK(w["rate_scale"] == 2);
    CHECK(w["replayed_s"] == doctest::Approx(5.0).epsilon(1e-12));      // 10 s at twice the pace
    CHECK(w["rate_per_s"] == doctest::Approx(2 / 5.0).epsilon(1e-12));  // 2 gaps over 5 s
    CHECK(w["mean_prompt_tokens"] == doctest::Approx((512 + 256 + 1024) / 3.0).epsilon(1e-12));
    const auto refused = [&](const std::string& workload, const std::string& name) {
      const auto run = run_text(scenario(workload), name);
      CHECK(run.status == 2);
      return run.output;
    };
    CHECK(refused(R"("arrivals": "trace", "rate": "1/s")", "r1").find("/workload/rate:") !=
          std::string::npos);
    CHECK(refused(R"("arrivals": "trace", "requests": 4)", "r2").find("/workload/requests:") !=
          std::string::npos);
    CHECK(refused(R"("rate": "1/s", "rate_scale": 2)", "r3").find("/workload/rate_scale:") !=
          std::string::npos);
    CHECK(refused(R"("arrivals": "tarce")", "r4").find("did you mean \"trace\"") !=
          std::string::npos);
    // --requests past the last row has nothing to replay.
    const auto over =
        gpuplan_cli_test::gpuplan("serve-sim " + (dir / "replay.json").string() +
                                  " --requests 4 --quiet --out " + (dir / "r5").string());
    CHECK(over.status == 2);
    CHECK(over.output.find("--requests 4: the trace replayed has 3 requests") != std::string::npos);
  }
  SUBCASE("closed-loop streams: the rate they made, and the misuses") {
    const auto scenario = [](const std::string& arrivals) {
      return R"({"name": "t", "model": "llama-3-8b", "gpu": "H100-SXM", "tp": 1, "replicas": 2,
        "workload": {"tokens_in": 512, "tokens_out": 64, "requests": 4000,
                     "warmup_requests": 400, )" +
             arrivals + "}}";
    };
    const auto ok = run_text(scenario(R"("streams": 50, "think": "2s")"), "streams");
    CAPTURE(ok.output);
    REQUIRE(ok.status == 0);
    const json r =
        read_json(fs::temp_directory_path() / ("gpuplan-servesim-" + std::to_string(getpid())) /
                  "streams" / "result.json");
    const json& w = r["workload"];
    CHECK(w["arrivals"] == "streams");
    CHECK(w["streams"] == 50);
    CHECK(w["think_s"] == 2);
    // The rate is the one the streams made: Little's law, 50 = rate x (end to end + 2 s).
    const double e2e = r["metrics"]["e2e_s"]["mean"].get<double>();
    CHECK(w["rate_per_s"].get<double>() * (e2e + 2) == doctest::Approx(50).epsilon(0.03));
    const auto refused = [&](const std::string& arrivals, const std::string& name) {
      const auto run = run_text(scenario(arrivals), name);
      CHECK(run.status == 2);
      return run.output;
    };
    CHECK(refused(R"("streams": 5, "rate": "1/s")", "c1").find("/workload/rate:") !=
          std::string::npos);
    CHECK(refused(R"("streams": 0)", "c2").find("/workload/streams:") != std::string::npos);
    CHECK(refused(R"("streams": 5, "think": "-1s")", "c3").find("/workload/think:") !=
          std::string::npos);
    // a pause or a ramp shapes streams only; with a rate it would be silently meaningless
    CHECK(refused(R"("rate": "1/s", "ramp": "10s")", "c5").find("/workload/ramp:") !=
          std::string::npos);
    CHECK(refused(R"("rate": "1/s", "think": "1s")", "c6").find("/workload/think:") !=
          std::string::npos);
    CHECK(refused(R"("streams": 5, "ramp": "-1s")", "c7").find("/workload/ramp:") !=
          std::string::npos);
    const auto ramped = run_text(scenario(R"("streams": 50, "ramp": "30s")"), "ramped");
    REQUIRE(ramped.status == 0);
    CHECK(read_json(fs::temp_directory_path() / ("gpuplan-servesim-" + std::to_string(getpid())) /
                    "ramped" / "result.json")["workload"]["ramp_s"] == 30);
    // Eight replicas queueing a million requests each would need 8 million records up front.
    const auto big = run_text(
        R"({"name": "t", "model": "llama-3-8b", "gpu": "H100-SXM", "tp": 1, "replicas": 8,
            "queue_capacity": 1000000, "workload": {"rate": "1/s", "tokens_in": 512,
            "tokens_out": 64}})",
        "c4");
    CHECK(big.status == 2);
    CHECK(big.output.find("/queue_capacity: 8 replicas x (max_num_seqs 256 + 1000000 waiting)") !=
          std::string::npos);
  }
  SUBCASE("multi-turn conversations: their settings in result.json, and the misuses") {
    const auto scenario = [](const std::string& workload) {
      return R"({"name": "t", "model": "llama-3-8b", "gpu": "H100-SXM", "tp": 1, "replicas": 2,
        "workload": {"tokens_in": 256, "tokens_out": 64, "requests": 2000,
                     "warmup_requests": 200, )" +
             workload + "}}";
    };
    const std::string talk = R"("streams": 20, "think": "1s", "conversation": )";
    const auto ok = run_text(scenario(talk + R"({"turns": {"mean": 3}})"), "talk");
    CAPTURE(ok.output);
    REQUIRE(ok.status == 0);
    const json r =
        read_json(fs::temp_directory_path() / ("gpuplan-servesim-" + std::to_string(getpid())) /
                  "talk" / "result.json");
    const json& c = r["workload"]["conversation"];
    CHECK(c["turns"] == "geometric");
    CHECK(c["turns_mean"] == 3);
    CHECK(c["max_context"] == 8192);  // Llama 3's context window
    // A later turn's prompt holds the conversation so far: part of it is hit in the cache.
    CHECK(r["metrics"]["prefix_hit_rate"].get<double>() > 0.2);
    const auto refused = [&](const std::string& workload, const std::string& name) {
      const auto run = run_text(scenario(workload), name);
      CHECK(run.status == 2);
      return run.output;
    };
    CHECK(refused(R"("rate": "1/s", "conversation": {"turns": 2})", "v1")
              .find("/workload/conversation: conversations are held by closed-loop users") !=
          std::string::npos);
    CHECK(refused(talk + R"({"turns": 0})", "v2").find("/workload/conversation/turns:") !=
          std::string::npos);
    CHECK(refused(talk + R"({"turns": {"mean": 0.5}})", "v3")
              .find("/workload/conversation/turns/mean:") != std::string::npos);
    CHECK(refused(talk + R"({"turns": 2, "window": 5})", "v4").find("/workload/conversation") !=
          std::string::npos);
    CHECK(refused(talk + R"({"turns": 2}, "prefix": {"tokens": 64})", "v5")
              .find("/workload/prefix: a conversation's turns share their history") !=
          std::string::npos);
    CHECK(refused(talk + R"({})", "v6").find("/workload/conversation/turns: missing required") !=
          std::string::npos);
    // A context no replica's KV cache holds: the pointer is max_context, with the numbers.
    const std::string too_long = refused(talk + R"({"turns": 2, "max_context": 1000000})", "v7");
    CHECK(too_long.find("/workload/conversation/max_context: the longest request (1000000 "
                        "tokens") != std::string::npos);
    CHECK(too_long.find("a smaller max_context") != std::string::npos);
    const auto split = run_text(
        R"({"name": "t", "model": "llama-3-8b", "gpu": "H100-SXM", "tp": 1,
            "disaggregated": {"prefill_replicas": 1, "decode_replicas": 1},
            "workload": {"tokens_in": 256, "tokens_out": 64, "streams": 4,
                         "conversation": {"turns": 2}}})",
        "v9");
    CHECK(split.status == 2);
    CHECK(split.output.find("/workload/conversation: conversations keep their history") !=
          std::string::npos);
    // Each stream's conversation is a cache entry in every replica: bounded up front.
    const auto many = run_text(
        R"({"name": "t", "model": "llama-3-8b", "gpu": "H100-SXM", "tp": 1, "replicas": 8,
            "workload": {"tokens_in": 256, "tokens_out": 64, "streams": 1000000,
                         "conversation": {"turns": 2}}})",
        "v8");
    CHECK(many.status == 2);
    CHECK(many.output.find("/workload/streams: 8 replicas x 1000000 conversations (one a stream) "
                           "is 8000000 prefix cache entries") != std::string::npos);
  }
  SUBCASE("lengths as distributions: the quote's stratified sample, and the misuses") {
    const auto scenario = [](const std::string& lengths) {
      return R"({"name": "t", "model": "llama-3-8b", "gpu": "H100-SXM", "tp": 1,
        "workload": {"rate": "2/s", "requests": 2000, )" +
             lengths + "}}";
    };
    const auto ok = run_text(scenario(R"("tokens_in": {"lognormal": {"median": 1000, "p90": 3000}},
                    "tokens_out": {"uniform": {"low": 100, "high": 300}})"),
                             "lengths");
    CAPTURE(ok.output);
    REQUIRE(ok.status == 0);
    const json w =
        read_json(fs::temp_directory_path() / ("gpuplan-servesim-" + std::to_string(getpid())) /
                  "lengths" / "result.json")["workload"];
    CHECK(w["lengths"] ==
          "prompt lognormal (median 1000, p90 3000), output uniform 100 to 300 tokens");
    // The lognormal's mean, median x exp(sigma^2 / 2) with sigma = ln 3 / z(0.9): 1,451 tokens;
    // the uniform's, 200. The requests drawn from the sample come within a few per cent.
    CHECK(w["mean_prompt_tokens"].get<double>() == doctest::Approx(1451).epsilon(0.05));
    CHECK(w["mean_output_tokens"].get<double>() == doctest::Approx(200).epsilon(0.02));
    // Fixed counts, given either way, are the fixed lengths they were.
    const auto fixed = run_text(scenario(R"("tokens_in": {"fixed": 512}, "tokens_out": 64)"), "l2");
    REQUIRE(fixed.status == 0);
    const auto refused = [&](const std::string& lengths, const std::string& name) {
      const auto run = run_text(scenario(lengths), name);
      CHECK(run.status == 2);
      return run.output;
    };
    CHECK(refused(R"("tokens_in": {"lognormal": {"median": 1000, "p90": 500}}, "tokens_out": 64)",
                  "l3")
              .find("/workload/tokens_in/lognormal/p90:") != std::string::npos);
    CHECK(refused(R"("tokens_in": {"gamma": {"mean": 9}}, "tokens_out": 64)", "l4")
              .find("/workload/tokens_in/gamma:") != std::string::npos);
    // A sampled prompt past the KV cache is named at the lengths' key.
    CHECK(refused(R"("tokens_in": {"lognormal": {"median": 200000, "p90": 600000}},
                     "tokens_out": 64)",
                  "l5")
              .find("/workload/tokens_in: the longest request") != std::string::npos);
  }
  SUBCASE("staged rates: one cycle's expected arrivals by default, and the misuses") {
    const auto scenario = [](const std::string& workload) {
      return R"({"name": "t", "model": "llama-3-8b", "gpu": "H100-SXM", "tp": 1,
        "workload": {"tokens_in": 128, "tokens_out": 16, )" +
             workload + "}}";
    };
    const std::string two = R"("stages": [{"rate": "2/s", "duration": "100s"},
                                           {"rate": "6/s", "duration": "50s"}])";
    const auto ok = run_text(scenario(two), "stages");
    CAPTURE(ok.output);
    REQUIRE(ok.status == 0);
    const json w =
        read_json(fs::temp_directory_path() / ("gpuplan-servesim-" + std::to_string(getpid())) /
                  "stages" / "result.json")["workload"];
    CHECK(w["arrivals"] == "stages");
    CHECK(w["requests"] == 500);  // 2 x 100 + 6 x 50
    CHECK(w["rate_per_s"] == doctest::Approx(500 / 150.0).epsilon(1e-12));
    CHECK(w["cycle_s"] == 150);
    CHECK(w["stages"][1]["duration_s"] == 50);
    CHECK(w["rate_scale"] == 1);
    // rate_scale multiplies every stage's rate (a recorded day for a smaller service), and the
    // expected arrivals with them.
    const auto scaled = run_text(scenario(two + R"(, "rate_scale": 0.5)"), "stages-scaled");
    CAPTURE(scaled.output);
    REQUIRE(scaled.status == 0);
    const json ws =
        read_json(fs::temp_directory_path() / ("gpuplan-servesim-" + std::to_string(getpid())) /
                  "stages-scaled" / "result.json")["workload"];
    CHECK(ws["rate_scale"] == 0.5);
    CHECK(ws["requests"] == 250);
    CHECK(ws["stages"][0]["rate_per_s"] == 1);
    CHECK(ws["stages"][1]["rate_per_s"] == 3);
    CHECK(ws["rate_per_s"] == doctest::Approx(250 / 150.0).epsilon(1e-12));
    const auto refused = [&](const std::string& workload, const std::string& name) {
      const auto run = run_text(scenario(workload), name);
      CHECK(run.status == 2);
      return run.output;
    };
    CHECK(refused(two + R"(, "rate": "1/s")", "s1").find("/workload/rate:") != std::string::npos);
    CHECK(refused(R"("stages": [])", "s2").find("/workload/stages:") != std::string::npos);
    CHECK(refused(R"("stages": [{"rate": "1/s"}])", "s3")
              .find("/workload/stages/0/duration: missing required key") != std::string::npos);
    CHECK(refused(R"("stages": [{"rate": "1/s", "duration": "0s"}])", "s4")
              .find("/workload/stages/0/duration:") != std::string::npos);
    CHECK(refused(R"("stages": [{"rate": "1/s", "duration": "400d"}])", "s5")
              .find("a cycle of at most 366 days") != std::string::npos);
    CHECK(refused(R"("stages": [{"rate": "1/s", "duration": "1s", "ramp": 1}])", "s6")
              .find("/workload/stages/0") != std::string::npos);
  }
  SUBCASE("an instance prices the cluster: its cost per hour and per million output tokens") {
    const auto priced = [](const std::string& extra) {
      std::string s = base("llama-3-8b", "H100-SXM", 1, 2048, true);
      s.insert(1, extra + ", ");
      return s;
    };
    const auto ok = run_text(priced(R"("instance": "p5.48xlarge", "replicas": 2)"), "priced");
    CAPTURE(ok.output);
    REQUIRE(ok.status == 0);
    const json r =
        read_json(fs::temp_directory_path() / ("gpuplan-servesim-" + std::to_string(getpid())) /
                  "priced" / "result.json");
    // p5.48xlarge on demand, $55.04 per node-hour over 8 GPUs (the catalog row); two replicas
    // of TP 1: two GPUs, always on.
    CHECK(r["price"]["usd_per_gpu_hour"] == doctest::Approx(55.04 / 8).epsilon(1e-12));
    CHECK(r["price"]["derived"] == false);
    const json& m = r["metrics"];
    CHECK(m["usd_per_hour"] == doctest::Approx(2 * 55.04 / 8).epsilon(1e-12));
    CHECK(m["usd_per_million_output_tokens"] ==
          doctest::Approx(m["usd_per_hour"].get<double>() /
                          (m["output_tokens_per_s"].get<double>() * 3600) * 1e6)
              .epsilon(1e-12));
    const auto refused = [&](const std::string& extra, const std::string& name) {
      const auto run = run_text(priced(extra), name);
      CHECK(run.status == 2);
      return run.output;
    };
    CHECK(refused(R"("instance": "p4d.24xlarge")", "p1").find("/instance:") != std::string::npos);
    CHECK(refused(R"("pricing": "spot")", "p2").find("/pricing:") != std::string::npos);
    CHECK(
        refused(R"("instance": "p5.4xlarge", "pricing": "reserved_1y")", "p3").find("/pricing:") !=
        std::string::npos);
    CHECK(refused(R"("instance": "p5.48xlarg")", "p4").find("did you mean \"p5.48xlarge\"") !=
          std::string::npos);
  }
}
