//! `gpuplan serve-sim SCENARIO [--out DIR] [--seed N] [--replications N] [--requests N]
//! [--threads N] [--backend cpu|cuda|auto] [--set PATH=VALUE]... [--data-dir DIR] [--json]
//! [--quiet]`: simulates LLM serving
//! iteration by iteration (sim/serving/, docs/serving-simulation.md) and writes result.json and
//! report.html. Bad input: every problem as `file:line: /pointer: message` on stderr, exit 2,
//! nothing written.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/input/input_file.h"
#include "models/input/names.h"
#include "models/load/serving_scenario.h"
#include "reports/format.h"
#include "reports/serving_html.h"
#include "reports/serving_json.h"
#include "reports/serving_search_json.h"
#include "study/serving_search.h"
#include "study/serving_study.h"
#include "tools/gpuplan/cmd_mc.h"
#include "tools/gpuplan/commands.h"
#include "tools/gpuplan/common.h"

namespace gpuplan::cli {
namespace {

constexpr uint64_t MAX_SCENARIO_BYTES = 1u << 20;

struct ServeSimFlags {
  std::string scenario, out;
  std::optional<uint64_t> seed, requests;
  std::optional<uint32_t> replications;
  uint32_t threads = 0;
  std::string backend = "cpu";
  std::vector<std::string> data_dirs, overrides;
  bool as_json = false, quiet = false;
};

void print_table(const ServingScenario& sc, const ServingStudy& s) {
  const ServingFigures& f = s.pooled;
  if (sc.decode)
    std::printf(
        "%s: %s on %u x %u %s (prefill) + %u x %u %s (decode), %llu requests x %u "
        "replications\n",
        sc.name.c_str(), sc.model_id.c_str(), sc.view.n_prefill, sc.tp, sc.gpu_id.c_str(),
        sc.view.n_replicas - sc.view.n_prefill, sc.decode->tp, sc.decode->gpu_id.c_str(),
        static_cast<unsigned long long>(sc.view.load.n_requests), sc.replications);
  else
    std::printf("%s: %s on %s%u x %u %s, %llu requests x %u replications\n", sc.name.c_str(),
                sc.model_id.c_str(), sc.view.autoscale.max_replicas > 0 ? "up to " : "",
                sc.view.n_replicas, sc.tp, sc.gpu_id.c_str(),
                static_cast<unsigned long long>(sc.view.load.n_requests), sc.replications);
  if (sc.view.n_prefill > 0)
    std::printf(
        "disaggregated: %u prefill + %u decode replicas, KV transfer %.2f ms at the mean "
        "prompt\n",
        sc.view.n_prefill, sc.view.n_replicas - sc.view.n_prefill,
        1e3 * serving::kv_transfer_s(sc.view, s.mean_prompt));
  if (sc.decode)
    std::printf("decode replicas: %u x %s (%s), %u KV blocks each; prefill replicas %u KV blocks\n",
                sc.decode->tp, sc.decode->gpu_id.c_str(), sc.decode->fabric.c_str(),
                sc.view.decode_kv_blocks, sc.view.sched.kv_blocks);
  std::printf("%-10s %10s %10s %10s %10s\n", "[ms]", "mean", "p50", "p90", "p99");
  const auto row = [](const char* name, const LatencyFigures& l) {
    std::printf("%-10s %10.2f %10.2f %10.2f %10.2f\n", name, 1e3 * l.mean, 1e3 * l.p50, 1e3 * l.p90,
                1e3 * l.p99);
  };
  row("TTFT", f.ttft);
  row("ITL", f.itl);
  row("TPOT", f.tpot);
  row("E2E", f.e2e);
  row("wait", f.wait);
  if (!sc.arrival_times.empty() && sc.replications > 1)
    std::printf(
        "arrivals: the trace's timestamps at %g times their pace, the same in every "
        "replication (the intervals cover the shared-prefix draws only)\n",
        sc.rate_scale);
  std::printf("SLO attainment %.4f, goodput %.3f req/s (%.4f per GPU), %.0f output tokens/s\n",
              f.slo_attainment, f.goodput_rps, f.goodput_rps_per_gpu, f.output_tokens_per_s);
  const serving::Autoscale& a = sc.view.autoscale;
  const bool scaling = a.max_replicas > 0;
  if (scaling)
    std::printf(
        "autoscaling %u-%u replicas on %g requests each, %g s to provision: %.2f replicas billed "
        "on average (95%% CI %.2f-%.2f), peak %u, %.1f scale-ups and %.1f scale-downs a run\n",
        a.min_replicas, a.max_replicas, a.target_requests, a.provision_s, f.replicas_mean,
        s.replicas_mean.ci95_low, s.replicas_mean.ci95_high, f.replicas_peak,
        double(f.scale_ups) / sc.replications, double(f.scale_downs) / sc.replications);
  if (sc.price)
    std::printf(
        "cost $%.2f/h (%.0f GPUs%s of %s, %s, $%.4f per GPU-hour%s, prices of %s): $%.4f per "
        "million output tokens\n",
        f.usd_per_hour, billed_gpus(sc.view, f), scaling ? " billed on average" : "",
        sc.price->instance.c_str(), std::string(enum_name(sc.price->pricing)).c_str(),
        sc.price->usd_per_gpu_hour,
        sc.price->derived ? ", derived: the provider publishes none" : "", sc.price->as_of.c_str(),
        f.usd_per_million_output_tokens);
  std::printf(
      "KV occupancy mean %.3f peak %.3f, preemptions %llu (%.2f per 1k), prefix hits %.3f%s\n",
      f.kv_occupancy_mean, f.kv_occupancy_peak, static_cast<unsigned long long>(f.preemptions),
      f.preemptions_per_1k, f.prefix_hit_rate,
      f.queue_overflow ? ", SATURATED: a waiting queue overflowed" : "");
  if (f.saturated && !f.queue_overflow) {
    // NOTE: the pool whose wait grows faster is the one that cannot keep up.
    const bool decode = f.decode_wait_growth > f.wait_growth;
    const double g = decode ? f.decode_wait_growth : f.wait_growth;
    std::printf(
        "SATURATED: the %s wait grows by %.3f s per second of arrivals, as when %s is "
        "offered about %.3f times what it serves; the waits above grow with the run's length\n",
        decode ? "decode replicas' admission" : "admission", g,
        decode ? "the decode pool" : "the cluster", 1 + g);
  }
  std::printf("roofline, one request alone at the mean lengths: TTFT %.2f ms, TPOT %.2f ms\n",
              1e3 * s.roofline_ttft_s, 1e3 * s.roofline_tpot_s);
}

//! The search's table, ranked: each configuration's verdict, replicas, cost and attainment.
void print_search(const ServingSearch& s, FILE* to) {
  std::fprintf(to,
               "configuration search: %zu configurations, %u simulations; goal %.4g of requests "
               "within both SLOs, up to %u replicas\n",
               s.candidates.size(), s.simulations, s.attainment, s.max_replicas);
  std::fprintf(to, "%-16s %-10s %3s %7s %5s  %-12s %8s %10s %9s %9s %9s\n", "instance", "gpu", "tp",
               "budget", "seqs", "verdict", "replicas", "$/h", "SLO met", "TTFT p99", "TPOT p99");
  for (const SearchCandidate& c : s.candidates) {
    const SearchConfiguration& g = c.config;
    std::fprintf(to, "%-16s %-10s %3u %7u %5u  %-12s", g.instance.c_str(), g.gpu_id.c_str(), g.tp,
                 g.max_num_batched_tokens, g.max_num_seqs,
                 std::string(enum_name(c.verdict)).c_str());
    switch (c.verdict) {
      case SearchVerdict::does_not_fit:
        std::fprintf(to, " %s\n", c.reason.c_str());
        break;
      case SearchVerdict::costlier:
        std::fprintf(to, " %8s %10s  (the replicas it needs cost at least this)\n",
                     (">=" + std::to_string(c.replicas)).c_str(),
                     (">=" + reports::format_number(c.usd_per_hour, 2)).c_str());
        break;
      case SearchVerdict::misses:
        std::fprintf(to, " %8u %10.2f %9.4f  (misses at the most replicas tried%s%s)\n", c.replicas,
                     c.usd_per_hour, c.trials.empty() ? 0.0 : c.trials.back().slo_attainment,
                     c.reason.empty() ? "" : "; more: ", c.reason.c_str());
        break;
      default:
        std::fprintf(to, " %8u %10.2f %9.4f %7.0f ms %6.1f ms\n", c.replicas, c.usd_per_hour,
                     c.slo_attainment.mean, 1e3 * c.ttft_p99.mean, 1e3 * c.tpot_p99.mean);
    }
  }
}

//! Applies --seed, --replications and --requests to `sc`; false, with the message on stderr, when
//! --requests asks a replay for more requests than its trace holds.
bool apply_flags(const ServeSimFlags& fl, ServingScenario& sc) {
  if (fl.seed) sc.seed = sc.view.seed = *fl.seed;
  if (fl.replications) sc.replications = *fl.replications;
  if (fl.requests) {
    // NOTE: a replay has one arrival per row; past the last there is nothing to replay.
    if (!sc.arrival_times.empty() && *fl.requests > sc.arrival_times.size()) {
      std::cerr << "--requests " << *fl.requests << ": the trace replayed has "
                << sc.arrival_times.size() << " requests; ask for at most that many\n";
      return false;
    }
    sc.view.load.n_requests = *fl.requests;
    if (sc.view.load.warmup_requests >= *fl.requests) sc.view.load.warmup_requests = 0;
  }
  return true;
}

//! Writes result.json and report.html of `sc`'s study (with `search` when given) and prints.
int write_serving_study(const ServeSimFlags& fl, const ServingScenario& sc,
                        const ServingStudy& study, const ServingSearch* search) {
  const std::filesystem::path dir =
      fl.out.empty() ? std::filesystem::path("out") / sc.name : std::filesystem::path(fl.out);
  if (!output_folder_ok(dir)) return 2;
  nlohmann::json result = reports::serving_json(sc, study);
  if (search) result["search"] = reports::serving_search_json(*search);
  if (!write_outputs(dir, {{"result.json", result.dump(2) + "\n"},
                           {"report.html", reports::render_serving_html(result)}}))
    return 1;
  if (fl.as_json) {
    std::cout << result.dump(2) << "\n";
  } else if (!fl.quiet) {
    if (search) {
      print_search(*search, stdout);
      std::printf("\nthe cheapest configuration, simulated:\n");
    }
    print_table(sc, study);
  }
  return 0;
}

int run_serve_sim(const ServeSimFlags& fl) {
  Diagnostics diags;
  const auto text = read_input_file(fl.scenario, MAX_SCENARIO_BYTES, "serving scenario", "", diags);
  std::optional<ServingScenario> sc;
  const std::string base = std::filesystem::path(fl.scenario).parent_path().string();
  if (text)
    sc = load_serving_scenario(*text, fl.scenario, base, data_path(fl.data_dirs), diags,
                               fl.overrides);
  if (!sc) {
    print_diagnostics(diags, "text");
    return 2;
  }
  if (!apply_flags(fl, *sc)) return 2;
  const std::optional<McBackend> backend = resolve_backend(fl.backend);
  if (!backend) return 2;
  if (!sc->search)
    return write_serving_study(fl, *sc, run_serving_study(*sc, fl.threads, *backend), nullptr);
  if (*backend == McBackend::cuda && fl.backend == "cuda") {
    // NOTE: a search runs many short studies of a few replications each: CPU threads' work.
    std::cerr << "--backend cuda: " << fl.scenario
              << ": /search runs its studies on CPU threads; drop /search to simulate one "
                 "configuration on the device, or use --backend cpu\n";
    return 2;
  }

  const ServingSearch search = search_serving(
      *sc, *text, fl.scenario, base, data_path(fl.data_dirs), fl.overrides,
      [&fl](ServingScenario& s) { apply_flags(fl, s); }, fl.threads);
  if (!search.best) {
    // NOTE: SLOs no configuration meets are the scenario's to change: exit 2, nothing written.
    const serving::Workload& w = sc->view.load;
    std::cerr << fl.scenario << ": /slo: no configuration of /search meets the goal of "
              << 100 * search.attainment << " % of requests within TTFT " << 1e3 * w.ttft_slo_s
              << " ms and TPOT " << 1e3 * w.tpot_slo_s << " ms at up to " << search.max_replicas
              << " replicas; relax the SLOs or /search/attainment, or search larger GPUs, tp "
                 "or /search/max_replicas:\n";
    print_search(search, stderr);
    return 2;
  }
  return write_serving_study(fl, *search.best, *search.best_study, &search);
}

}  // namespace

CLI::App* add_serve_sim_command(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<ServeSimFlags>();
  auto* cmd = app.add_subcommand(
      "serve-sim", "Simulate LLM serving iteration by iteration (batches, KV cache, prefixes)");
  cmd->add_option("scenario", flags->scenario, "Serving scenario (JSON)")->required();
  cmd->add_option("--out", flags->out, "Output folder (default out/<name>)");
  cmd->add_option("--seed", flags->seed, "Seed (overrides the scenario's)");
  cmd->add_option("--replications", flags->replications, "Monte Carlo replicas")
      ->check(CLI::Range(1u, 1000u));
  cmd->add_option("--requests", flags->requests, "Requests per replica (overrides the scenario's)")
      ->check(CLI::Range(uint64_t(1), uint64_t(100'000'000)));
  cmd->add_option("--threads", flags->threads, "Threads (0 = all cores)");
  cmd->add_option("--backend", flags->backend,
                  "Where replications run: cpu (default), cuda (one per GPU thread), auto (CUDA "
                  "when a GPU is present)")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  cmd->add_option("--set", flags->overrides, "Override a scenario value: PATH=VALUE (repeatable)");
  add_data_dir_option(cmd, flags->data_dirs);
  cmd->add_flag("--json", flags->as_json, "Print result.json on stdout instead of a table");
  cmd->add_flag("--quiet", flags->quiet, "Print nothing on success");
  cmd->callback([flags, &exit_code] { exit_code = run_serve_sim(*flags); });
  return cmd;
}

}  // namespace gpuplan::cli
