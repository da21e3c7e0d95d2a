//! `gpuplan catalog import FILE... --out OVERLAY.json [--region R] [--currency C]`: reads provider
//! price files offline (models/catalog/price_import.h) and writes a catalog overlay that scenarios
//! (`catalog.overlays`) and quotes (`--catalog-overlay`) apply over the built-in rows.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "models/catalog/catalog.h"
#include "models/input/field_reader.h"
#include "models/input/names.h"
#include "models/catalog/price_import.h"
#include "tools/gpuplan/commands.h"
#include "tools/gpuplan/common.h"

namespace gpuplan::cli {
namespace {

namespace fs = std::filesystem;

struct ImportFlags {
  std::vector<std::string> files;
  std::string out;
  ImportOptions options;
  std::string errors = "text";
};

//! Writes `text` to `path` through a temporary file in the same folder, so the file appears
//! whole or not at all; false with a message on stderr.
bool write_file_atomically(const fs::path& path, const std::string& text) {
  const fs::path tmp =
      path.parent_path() / ("." + path.filename().string() + ".tmp-" + std::to_string(::getpid()));
  {
    std::ofstream f(tmp, std::ios::binary);
    f << text;
    if (!f.flush()) {
      std::error_code ec;
      fs::remove(tmp, ec);
      std::cerr << "--out " << path.string() << ": cannot write it\n";
      return false;
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    std::cerr << "--out " << path.string() << ": cannot write it: " << ec.message() << "\n";
    return false;
  }
  return true;
}

int run_import(const ImportFlags& f) {
  const fs::path out(f.out);
  std::error_code ec;
  const fs::path folder = out.parent_path().empty() ? fs::path(".") : out.parent_path();
  if (!fs::is_directory(folder, ec)) {
    std::cerr << "--out " << f.out << ": the folder " << folder.string() << " does not exist\n";
    return 2;
  }
  if (fs::is_directory(out, ec)) {
    std::cerr << "--out " << f.out << ": is a folder; name the overlay file, e.g. prices.json\n";
    return 2;
  }
  for (const std::string& file : f.files) {
    if (fs::exists(out, ec) && fs::equivalent(file, out, ec)) {
      std::cerr << "--out " << f.out << ": is the price file " << file
                << " itself; write the overlay elsewhere\n";
      return 2;
    }
  }
  Diagnostics diags;
  const auto overlay = import_price_files(f.files, builtin_catalog(), f.options, diags);
  if (!overlay || !diags.ok()) {
    print_diagnostics(diags, f.errors);
    return 2;
  }
  if (!write_file_atomically(out, overlay_to_json(*overlay).dump(2) + "\n")) return 2;
  size_t n_prices = 0;
  for (const InstanceType& it : overlay->instances)
    for (const Pricing p :
         {Pricing::on_demand, Pricing::reserved_1y, Pricing::reserved_3y, Pricing::spot})
      n_prices += price_of(it.price_per_hour, p).has_value() ? 1 : 0;
  std::cout << f.out << ": " << overlay->instances.size() << " instance(s), " << n_prices
            << " price(s) in " << overlay->currency << ", as of " << overlay->as_of << ", from "
            << f.files.size() << " file(s)\n";
  for (const InstanceType& it : overlay->instances) {
    std::cout << "  " << it.id << " (" << it.region << "):";
    for (const Pricing p :
         {Pricing::on_demand, Pricing::reserved_1y, Pricing::reserved_3y, Pricing::spot})
      if (auto v = price_of(it.price_per_hour, p))
        std::cout << " " << enum_name(p) << " " << fields::num(*v);
    std::cout << "\n";
  }
  if (!overlay->unmapped.empty()) {
    std::cout << overlay->unmapped.size()
              << " row(s) not mapped to a catalog instance and term (listed under \"unmapped\" "
                 "in the overlay), e.g.:\n";
    for (size_t k = 0; k < overlay->unmapped.size() && k < 10; ++k) {
      const UnmappedPriceRow& u = overlay->unmapped[k];
      std::cout << "  " << u.what << (u.region.empty() ? "" : " (" + u.region + ")") << ": "
                << u.reason << "\n";
    }
  }
  return 0;
}

}  // namespace

CLI::App* add_catalog_import_command(CLI::App* catalog, int& exit_code) {
  auto* cmd = catalog->add_subcommand(
      "import",
      "Read provider price files offline (AWS Price List bulk offer file for EC2, Azure Retail "
      "Prices API pages, GCP Cloud Billing Catalog SKU list, the AWS and Azure Karpenter "
      "providers' generated price tables, or a CSV of instance,term,price,date) into a catalog "
      "overlay");
  auto f = std::make_shared<ImportFlags>();
  cmd->add_option("FILE", f->files, "Price files, in any of the five formats")->required();
  cmd->add_option("--out", f->out, "The overlay file to write (JSON)")->required();
  cmd->add_option("--region", f->options.region,
                  "Provider region code (us-east-1, eastus, us-central1); default: each catalog "
                  "row's own region");
  cmd->add_option("--currency", f->options.currency, "Currency of the prices taken (default USD)");
  cmd->add_option("--errors", f->errors, "Format of input errors")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->callback([f, &exit_code] { exit_code = run_import(*f); });
  return cmd;
}

}  // namespace gpuplan::cli
