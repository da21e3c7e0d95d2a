//! `gpuplan catalog [--gpu G] [--provider P] [--overlay FILE]... [--json]`: the built-in instance
//! types and prices, with catalog overlays applied; `gpuplan catalog import` writes overlays.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "models/catalog.h"
#include "models/catalog_age.h"
#include "models/catalog_table.h"
#include "tools/gpuplan/commands.h"
#include "tools/gpuplan/common.h"

namespace gpuplan::cli {

CLI::App* add_catalog_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("catalog", "List built-in instance types with prices and sources");
  auto query = std::make_shared<CatalogQuery>();
  auto as_json = std::make_shared<bool>(false);
  auto overlays = std::make_shared<std::vector<std::string>>();
  cmd->add_option("--gpu", query->gpu, "Only instances with this GPU model (e.g. H100-SXM)");
  cmd->add_option("--provider", query->provider,
                  "Only this provider (aws, gcp, azure, lambda, on_prem)");
  cmd->add_option("--overlay", *overlays,
                  "Catalog overlay to apply first (from `gpuplan catalog import`; repeatable)")
      ->type_name("FILE");
  cmd->add_flag("--json", *as_json, "Print the entries as JSON, with sources");
  CLI::App* import = add_catalog_import_command(cmd, exit_code);
  cmd->callback([import, query, as_json, overlays, &exit_code] {
    if (import->parsed()) return;  // `catalog import` ran instead of the listing
    Diagnostics diags;
    const auto catalog = catalog_with_overlays(*overlays, "--overlay", diags);
    if (!catalog) {
      print_diagnostics(diags, "text");
      exit_code = 2;
      return;
    }
    const CatalogSelection sel = select_instances(*catalog, *query);
    if (!sel.error.empty()) {
      std::cerr << sel.error << "\n";
      exit_code = 2;
      return;
    }
    const auto today = today_utc();
    std::cout << (*as_json ? format_catalog_json(sel.instances, today)
                           : format_catalog_table(sel.instances, today));
    exit_code = 0;
  });
  return cmd;
}

}  // namespace gpuplan::cli
