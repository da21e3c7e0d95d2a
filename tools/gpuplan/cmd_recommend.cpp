//! `gpuplan recommend SCENARIO`: for every candidate instance x pricing of the scenario's
//! `recommend` section, the fewest nodes meeting every SLO with the required probability (bisection
//! on the count, each probe a Monte Carlo study with the scenario's seed), and the cheapest of
//! them.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <limits>

#include "models/compile.h"
#include "reports/html_report.h"
#include "sim/mc_metrics.h"
#include "sim/mc_mpi.h"
#include "sim/mc_recommend.h"
#include "tools/gpuplan/cmd_mc.h"
#include "tools/gpuplan/commands.h"

namespace gpuplan::cli {
namespace {

using nlohmann::json;

struct RecommendOptions {
  ScenarioOptions scenario;
  std::optional<uint32_t> replications;  //!< overrides recommend.replications
  std::string backend = "auto";
};

//! One instance x pricing of a candidate pool, with what its search found.
struct Option {
  std::size_t pool_idx = 0;
  std::string pool, instance, pricing;
  uint32_t count_min = 1, count_max = 1;
  uint32_t gpus_per_node = 1;
  double bf16_tflops = 0;          //!< [TFLOPS] dense BF16 of one GPU
  double price_per_node_hour = 0;  //!< [USD/h]
  CountSearch search;
};

//! The scenario options of `o` pinned to node count `count`.
ScenarioOptions pinned(const ScenarioOptions& base, const Option& o, uint32_t count) {
  ScenarioOptions so = base;
  const std::string p = "pools." + std::to_string(o.pool_idx) + ".";
  so.overrides.push_back(p + "instance=" + o.instance);
  so.overrides.push_back(p + "pricing=" + o.pricing);
  so.overrides.push_back(p + "count=" + std::to_string(count));
  return so;
}

//! The scenario of `so`, or nullopt without printing when it does not load.
std::optional<Scenario> load_quietly(const ScenarioOptions& so) {
  Diagnostics diags;
  auto sc = load_with_options(so, diags);
  return diags.ok() ? sc : std::nullopt;
}

//! The SLOs as bounds on metric rows of a model with these pools and classes.
std::vector<SloBound> slo_bounds(const RecommendConfig& r, const CompiledScenario& cs) {
  const std::vector<std::string> paths = metric_paths(cs.pool_names, cs.class_names);
  constexpr double INF = std::numeric_limits<double>::infinity();
  std::vector<SloBound> b;
  for (const RecommendSlo& s : r.slos) {
    const auto it = std::find(paths.begin(), paths.end(), s.metric);
    b.push_back({std::size_t(it - paths.begin()), s.min.value_or(-INF), s.max.value_or(INF)});
  }
  return b;
}

//! An option as recommendation.json lists it.
json option_json(const Option& o) {
  const ProbeOutcome& at = o.search.at_count;
  const uint32_t nodes = o.search.count.value_or(o.count_max);
  const double dollar_hour = o.price_per_node_hour * nodes;
  json probes = json::array();
  for (const auto& [n, p] : o.search.probes)
    probes.push_back({{"nodes", n}, {"p_slos_met", p.p_met}, {"cost_usd_total", p.cost_usd}});
  return {{"pool", o.pool},
          {"instance", o.instance},
          {"pricing", o.pricing},
          {"meets_slos", o.search.count.has_value()},
          {"nodes", nodes},
          {"gpus", uint64_t{nodes} * o.gpus_per_node},
          {"p_slos_met", at.p_met},
          {"cost_usd_total", at.cost_usd},
          {"cost_usd_per_job", at.jobs_completed > 0 ? at.cost_usd / at.jobs_completed : 0.0},
          {"bf16_tflops_per_usd_hour",
           dollar_hour > 0 ? o.bf16_tflops * o.gpus_per_node * nodes / dollar_hour : 0.0},
          {"probes", probes}};
}

//! One row of the printed table.
void print_row(const json& r, const std::string& per_useful) {
  std::printf("  %-16s %-12s %5u %6llu %7.3f %14.2f %10s %10.2f %10.2f\n",
              r["instance"].get<std::string>().c_str(), r["pricing"].get<std::string>().c_str(),
              r["nodes"].get<uint32_t>(),
              static_cast<unsigned long long>(r["gpus"].get<uint64_t>()),
              r["p_slos_met"].get<double>(), r["cost_usd_total"].get<double>(), per_useful.c_str(),
              r["cost_usd_per_job"].get<double>(), r["bf16_tflops_per_usd_hour"].get<double>());
}

//! Loads every option at its largest count: nothing runs when any of them is invalid. False (with
//! the message printed) on bad input.
bool load_options(const RecommendOptions& o, const Scenario& sc, std::vector<Option>& options) {
  for (const RecommendCandidate& c : sc.recommend->candidates) {
    const auto pool = std::find_if(sc.pools.begin(), sc.pools.end(),
                                   [&](const Pool& p) { return p.name == c.pool; });
    for (const uint32_t inst_idx : c.instances) {
      const std::string& inst = sc.instances.at(inst_idx).id;
      for (const Pricing pricing : c.pricing) {
        Option opt;
        opt.pool_idx = std::size_t(pool - sc.pools.begin());
        opt.pool = c.pool;
        opt.instance = inst;
        opt.pricing = std::string(enum_name(pricing));
        opt.count_min = c.count_min;
        opt.count_max = c.count_max;
        const auto probe_sc = load_or_report(pinned(o.scenario, opt, c.count_max));
        if (!probe_sc) return false;
        const Pool& probe_pool = probe_sc->pools[opt.pool_idx];
        opt.gpus_per_node = probe_sc->instance_of(probe_pool).gpus_per_node;
        opt.bf16_tflops = probe_sc->gpu_of(probe_pool).bf16_tflops;
        opt.price_per_node_hour = probe_sc->pools[opt.pool_idx].price_per_node_hour;
        options.push_back(std::move(opt));
      }
    }
  }
  return true;
}

int run_recommend(const RecommendOptions& o) {
  const MpiSession mpi;
  if (!mpi_ready(mpi, "recommend")) return 2;
  const ProcessGroup world = mpi_world();
  std::optional<McBackend> backend;
  std::optional<Scenario> sc;
  std::vector<Option> options;
  {
    AgreedInputCheck check(world);
    backend = resolve_backend(o.backend);
    if (backend) sc = load_or_report(o.scenario);
    if (sc && !sc->recommend) {
      std::cerr << o.scenario.scenario
                << ": no \"recommend\" section; add one with \"slos\" and \"candidates\" "
                   "(docs/recommend.md)\n";
    }
    const bool ok = backend && sc && sc->recommend && load_options(o, *sc, options);
    if (!check.agree(ok)) return 2;
  }
  const RecommendConfig& rc = *sc->recommend;
  const uint32_t replications = o.replications.value_or(rc.replications);

  McOptions mo;
  mo.replications = replications;
  mo.backend = *backend;
  mo.processes = world;
  for (Option& opt : options) {
    if (!o.scenario.quiet && world.root())
      std::fprintf(stderr, "recommend: %s %s, %u..%u nodes\n", opt.instance.c_str(),
                   opt.pricing.c_str(), opt.count_min, opt.count_max);
    // NOTE: every probe keeps the scenario's seed, so replica k sees the same job stream at every
    // count and on every instance (common random numbers): differences are the configuration's.
    opt.search = smallest_count(opt.count_min, opt.count_max, rc.probability, [&](uint32_t n) {
      const std::optional<Scenario> probe_sc = load_quietly(pinned(o.scenario, opt, n));
      // NOTE: too few nodes for the largest job is a load error, and such a pool meets no SLO.
      if (!probe_sc) return ProbeOutcome{};
      const CompiledScenario cs = compile(*probe_sc);
      const ModelView view = cs.view();
      ProbeOutcome out = probe_outcome(view, run_monte_carlo(view, mo), slo_bounds(rc, cs));
      // NOTE: demand at or above capacity has no steady state (waits grow with the horizon), so
      // such a pool meets no SLO even where no replica was stopped for saturating.
      if (overloaded(cs.offered_load)) out.p_met = 0;
      // Under MPI rank 0 holds the study: every process takes its outcome, so all of them
      // bisect alike.
      double figures[] = {out.p_met, out.cost_usd, out.jobs_completed};
      broadcast_from_root(world, figures, std::size(figures));
      return ProbeOutcome{figures[0], figures[1], figures[2]};
    });
  }

  std::vector<CountSearch> searches;
  for (const Option& opt : options) searches.push_back(opt.search);
  const std::vector<std::size_t> ranked = rank_by_cost(searches);
  json rows = json::array();
  for (const Option& opt : options) rows.push_back(option_json(opt));
  for (std::size_t i = 0; i < options.size(); ++i) {
    json& r = rows[i];
    if (!options[i].search.count) {
      char why[160];
      std::snprintf(why, sizeof why,
                    "SLOs not met even at %u nodes: met in %.3f of replicas, %.3f required",
                    options[i].count_max, r["p_slos_met"].get<double>(), rc.probability);
      r["lost_because"] = why;
    } else if (i != ranked.front()) {
      const double more =
          r["cost_usd_total"].get<double>() - rows[ranked.front()]["cost_usd_total"].get<double>();
      char why[64];
      std::snprintf(why, sizeof why, "cost higher by $%.2f", more);
      r["lost_because"] = why;
      r["cost_usd_above_recommended"] = more;
    }
  }
  json slos = json::array();
  for (const RecommendSlo& s : rc.slos) {
    json j = {{"metric", s.metric}};
    if (s.min) j["min"] = *s.min;
    if (s.max) j["max"] = *s.max;
    slos.push_back(j);
  }
  json rec = {
      {"scenario", sc->name},
      {"seed", sc->seed},
      {"method", "bisection on node count; common random numbers (one seed for every probe)"},
      {"slos", slos},
      {"probability", rc.probability},
      {"replications", replications},
      {"recommended", nullptr},
      {"runners_up", json::array()},
      {"candidates", rows}};
  const std::filesystem::path dir = output_dir(o.scenario, *sc);
  if (ranked.empty()) {
    if (!world.root()) return 0;
    if (!write_outputs(dir, {{"recommendation.json", rec.dump(2) + "\n"}})) return 1;
    if (!o.scenario.quiet) {
      std::printf("%s: no candidate meets every SLO with probability %.3f:\n", sc->name.c_str(),
                  rc.probability);
      for (const json& r : rows)
        std::printf("  %s %s: %s\n", r["instance"].get<std::string>().c_str(),
                    r["pricing"].get<std::string>().c_str(),
                    r["lost_because"].get<std::string>().c_str());
      std::printf("wrote %s/recommendation.json\n", dir.string().c_str());
    }
    return 0;
  }
  rec["recommended"] = rows[ranked.front()];
  for (std::size_t k = 1; k < ranked.size() && k <= 4; ++k)
    rec["runners_up"].push_back(rows[ranked[k]]);

  // The winner's full study, as `mc` writes it, carries the recommendation for reports.
  const Option& best = options[ranked.front()];
  const ScenarioOptions best_so = pinned(o.scenario, best, *best.search.count);
  const Scenario best_sc = load_or_report(best_so).value();
  McCliOptions mc;
  mc.scenario = best_so;
  mc.replications = replications;
  json result;
  if (const int rc_study = run_study(best_sc, mc, *backend, dir, "recommend", result))
    return rc_study;
  if (!world.root()) return 0;  // rank 0 writes
  std::string per_useful = "-";
  if (result["cost_usd"].contains("per_useful_gpu_hour")) {
    rec["recommended"]["cost_usd_per_useful_gpu_hour"] = result["cost_usd"]["per_useful_gpu_hour"];
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", result["cost_usd"]["per_useful_gpu_hour"].get<double>());
    per_useful = buf;
  }
  result["recommendation"] = rec;
  if (!write_outputs(dir, {{"recommendation.json", rec.dump(2) + "\n"},
                           {"result.json", result.dump(2) + "\n"},
                           {"report.html", reports::render_html_report(result)}}))
    return 1;
  if (o.scenario.quiet) return 0;
  std::printf("%s: cheapest configuration meeting every SLO in >= %.0f%% of %u replications\n",
              sc->name.c_str(), 100 * rc.probability, replications);
  std::printf("  %-16s %-12s %5s %6s %7s %14s %10s %10s %10s\n", "instance", "pricing", "nodes",
              "GPUs", "P(SLOs)", "cost total $", "$/useful-h", "$/job", "TFLOPS/$h");
  print_row(rec["recommended"], per_useful);
  for (const json& r : rec["runners_up"]) print_row(r, "-");
  for (const json& r : rows)
    if (r.contains("lost_because"))
      std::printf("  lost: %s %s: %s\n", r["instance"].get<std::string>().c_str(),
                  r["pricing"].get<std::string>().c_str(),
                  r["lost_because"].get<std::string>().c_str());
  std::printf("wrote %s/{recommendation.json,result.json,report.html,replicas.csv,...}\n",
              dir.string().c_str());
  return 0;
}

}  // namespace

CLI::App* add_recommend_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "recommend",
      "Find the cheapest instance, pricing and node count meeting the scenario's SLOs");
  auto opts = std::make_shared<RecommendOptions>();
  add_scenario_options(cmd, opts->scenario);
  cmd->add_option("--replications,-n", opts->replications,
                  "Replications per probe (default: recommend.replications)")
      ->check(CLI::Range(1u, 100000u));
  cmd->add_option("--backend", opts->backend,
                  "Where replicas run (auto: CUDA when a GPU is present)")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  cmd->callback([opts, &exit_code] { exit_code = run_recommend(*opts); });
  return cmd;
}

}  // namespace gpuplan::cli
