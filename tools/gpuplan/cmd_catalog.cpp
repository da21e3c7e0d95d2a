//! `gpuplan catalog [--gpu G] [--provider P] [--overlay FILE]... [--stale-after MONTHS] [--json]`:
//! the built-in instance types and prices, with catalog overlays applied; `--gpus` lists the GPU
//! specs instead; `gpuplan catalog import` writes overlays.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "models/catalog/catalog.h"
#include "models/catalog/catalog_age.h"
#include "models/catalog/catalog_table.h"
#include "models/input/closest_names.h"
#include "tools/gpuplan/commands.h"
#include "tools/gpuplan/common.h"

namespace gpuplan::cli {

CLI::App* add_catalog_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "catalog", "List built-in instance types: hardware, prices, dates and sources");
  auto query = std::make_shared<CatalogQuery>();
  auto as_json = std::make_shared<bool>(false);
  auto overlays = std::make_shared<std::vector<std::string>>();
  auto gpus = std::make_shared<bool>(false);
  auto stale_after = std::make_shared<unsigned>(DEFAULT_STALE_AFTER_MONTHS);
  cmd->add_option("--gpu", query->gpu,
                  "Only instances with this GPU model (e.g. H100-SXM, MI300X, GB200)");
  cmd->add_option("--provider", query->provider,
                  "Only this provider (aws, gcp, azure, lambda, alibaba, on_prem)");
  cmd->add_option("--overlay", *overlays,
                  "Catalog overlay to apply first (from `gpuplan catalog import`; repeatable)")
      ->type_name("FILE");
  cmd->add_flag("--json", *as_json, "Print the entries as JSON, with sources");
  cmd->add_flag("--gpus", *gpus,
                "List GPU models instead: dense BF16/FP8 TFLOPS, memory, bandwidth, TDP");
  cmd->add_option("--stale-after", *stale_after,
                  "Flag prices dated more than this many months ago as stale (default 12)")
      ->check(CLI::Range(1u, 1200u))
      ->type_name("MONTHS");
  CLI::App* import = add_catalog_import_command(cmd, exit_code);
  cmd->callback([import, query, as_json, overlays, gpus, stale_after, &exit_code] {
    if (import->parsed()) return;  // `catalog import` ran instead of the listing
    Diagnostics diags;
    const auto catalog = catalog_with_overlays(*overlays, "--overlay", diags);
    if (!catalog) {
      print_diagnostics(diags, "text");
      exit_code = 2;
      return;
    }
    if (*gpus) {
      std::vector<GpuSpec> shown;
      for (const GpuSpec& g : catalog->gpus)
        if (query->gpu.empty() || catalog->find_gpu(query->gpu) == &g) shown.push_back(g);
      if (!query->gpu.empty() && shown.empty()) {
        std::vector<std::string> known, candidates;
        for (const GpuSpec& g : catalog->gpus) known.push_back(g.id);
        candidates = closest_names(query->gpu, known);
        std::cerr << "--gpu: unknown GPU \"" << query->gpu << "\""
                  << (candidates.empty() ? "" : "; did you mean \"" + candidates[0] + "\"?")
                  << "\n";
        exit_code = 2;
        return;
      }
      std::cout << (*as_json ? format_gpu_json(shown) : format_gpu_table(shown));
      exit_code = 0;
      return;
    }
    const CatalogSelection sel = select_instances(*catalog, *query);
    if (!sel.error.empty()) {
      std::cerr << sel.error << "\n";
      exit_code = 2;
      return;
    }
    const auto today = today_utc();
    std::cout << (*as_json ? format_catalog_json(*catalog, sel.instances, today, *stale_after)
                           : format_catalog_table(*catalog, sel.instances, today, *stale_after));
    exit_code = 0;
  });
  return cmd;
}

}  // namespace gpuplan::cli
