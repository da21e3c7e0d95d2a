// The scenario's `catalog` section: overlays (models/catalog/catalog_overlay.h) that override
// built-in instance rows before pools and inline instances are read.
#include "models/catalog/catalog_overlay.h"
#include "models/input/data_files.h"
#include "models/load/loader.h"

namespace gpuplan::loading {

void Loader::load_catalog(const json& o) {
  if (!object(o, "/catalog", "{\"overlays\": [\"prices.json\"]}")) return;
  check_keys(o, "/catalog", {"overlays", "stale_after_months"});
  if (const json* m = get(o, "stale_after_months")) {
    if (auto n = integer(*m, "/catalog/stale_after_months", 1, 1200))
      stale_after_months_ = static_cast<uint32_t>(*n);
  }
  const json* v = get(o, "overlays");
  if (v == nullptr) return;
  if (!v->is_array()) return wrong_type(*v, "/catalog/overlays", "an array of overlay files");
  for (size_t k = 0; k < v->size(); ++k) {
    const std::string p = child("/catalog/overlays", k);
    auto ref = string((*v)[k], p);
    if (!ref) continue;
    if (ref->empty()) {
      d_.error(p, DiagCode::out_of_range, "the overlay path must not be empty");
      continue;
    }
    const auto path = find_data_file(*ref, base_dir_, opts_.data_path, "catalog overlay", p, d_);
    if (!path) continue;
    const auto overlay = read_catalog_overlay(*path, catalog_, p, d_);
    if (!overlay) continue;
    if (overlay->currency != "USD") {
      d_.error(p, DiagCode::out_of_range,
               "the overlay " + in_quotes(*path) + " is priced in " + overlay->currency +
                   "; scenario money is USD, so import the price file with --currency USD");
      continue;
    }
    // NOTE: overlays apply in order, so a later file overrides an earlier one's rows.
    apply_overlay(catalog_, *overlay);
  }
}

}  // namespace gpuplan::loading
