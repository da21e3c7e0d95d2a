//! `gpuplan catalog [--gpu G] [--provider P] [--json]`: the built-in instance types and prices.
#include <iostream>
#include <memory>
#include <string>

#include "models/catalog.h"
#include "models/catalog_age.h"
#include "models/catalog_table.h"
#include "tools/gpuplan/commands.h"

namespace gpuplan::cli {

CLI::App* add_catalog_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("catalog", "List built-in instance types with prices and sources");
  auto query = std::make_shared<CatalogQuery>();
  auto as_json = std::make_shared<bool>(false);
  cmd->add_option("--gpu", query->gpu, "Only instances with this GPU model (e.g. H100-SXM)");
  cmd->add_option("--provider", query->provider,
                  "Only this provider (aws, gcp, azure, lambda, on_prem)");
  cmd->add_flag("--json", *as_json, "Print the entries as JSON, with sources");
  cmd->callback([query, as_json, &exit_code] {
    const CatalogSelection sel = select_instances(builtin_catalog(), *query);
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
