#include "models/catalog/price_import.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>

#include "models/input/closest_names.h"
#include "models/input/field_reader.h"
#include "models/input/input_file.h"
#include "models/input/jsonc.h"
#include "models/input/names.h"
#include "models/catalog/price_import_detail.h"

namespace gpuplan {

namespace price_import {

std::optional<double> price_text(std::string_view s) {
  double x = NAN;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  if (!std::isfinite(x) || x < 0) return std::nullopt;
  return x;
}

std::optional<double> price_value(const json& v) {
  if (v.is_string()) return price_text(v.get_ref<const std::string&>());
  if (!v.is_number()) return std::nullopt;
  const double x = v.get<double>();
  if (!std::isfinite(x) || x < 0) return std::nullopt;
  return x;
}

std::string date_part(std::string_view t) {
  if (t.size() < 10) return {};
  const std::string_view d = t.substr(0, 10);
  for (size_t i = 0; i < 10; ++i) {
    const bool dash = i == 4 || i == 7;
    if (dash ? d[i] != '-' : !std::isdigit(static_cast<unsigned char>(d[i]))) return {};
  }
  return std::string(d);
}

std::string_view trim(std::string_view s) {
  const size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string_view::npos) return {};
  return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

bool contains_nocase(std::string_view s, std::string_view part) {
  return std::search(s.begin(), s.end(), part.begin(), part.end(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) ==
                  std::tolower(static_cast<unsigned char>(b));
         }) != s.end();
}

}  // namespace price_import

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// "1 file" / "3 files".
std::string plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// Records a file-level error: `file: message` (with "did you mean" candidates).
void file_error(Diagnostics& d, const std::string& file, DiagCode code, std::string msg,
                std::vector<std::string> candidates = {}) {
  d.add(Diagnostic{file, 0, "", code, std::move(msg), std::move(candidates)});
}

// Checks that `f` has prices in the selected region(s) and currency; records why not.
bool check_selection(const ImportedFile& f, const std::string& file, const Catalog& catalog,
                     const ImportOptions& opts, Diagnostics& d) {
  const std::vector<std::string> regions(f.regions.begin(), f.regions.end());
  const std::vector<std::string> currencies(f.currencies.begin(), f.currencies.end());
  bool ok = true;
  if (!opts.region.empty() && f.regions.count(opts.region) == 0) {
    file_error(d, file, DiagCode::bad_flag,
               "--region " + in_quotes(opts.region) + ": the " + f.provider +
                   " price file has no prices for this region; it has " +
                   (regions.empty() ? std::string("none") : fields::list_names(regions)) +
                   did_you_mean(closest_names(opts.region, regions)),
               closest_names(opts.region, regions));
    ok = false;
  }
  if (f.currencies.count(opts.currency) == 0) {
    file_error(d, file, DiagCode::bad_flag,
               "--currency " + in_quotes(opts.currency) + ": the price file has no prices in " +
                   "this currency; it has " +
                   (currencies.empty() ? std::string("none") : fields::list_names(currencies)),
               currencies);
    ok = false;
  }
  if (ok && !f.prices.empty() && f.as_of.empty()) {
    file_error(d, file, DiagCode::missing_key,
               "the price file gives no date for its prices (AWS \"publicationDate\", Azure "
               "\"effectiveStartDate\", GCP \"effectiveTime\"); every imported price records "
               "its as_of date");
    ok = false;
  }
  if (ok && f.prices.empty()) {
    const auto wanted = import_regions(catalog, f.provider, opts);
    file_error(d, file, DiagCode::unknown_name,
               "no price in it maps to a catalog instance in " +
                   fields::list_names(std::vector<std::string>(wanted.begin(), wanted.end())) +
                   " (" + plural(f.unmapped.size(), "row", "rows") +
                   " not mapped); choose the region with --region, or add the instance to the "
                   "catalog");
    ok = false;
  }
  return ok;
}

// The text a row's "source" gives: the file, its date and the rules behind each term.
std::string source_text(const ImportedFile& f, const std::string& file,
                        const std::map<Pricing, std::string>& how) {
  std::string s = f.label + ", " + fs::path(file).filename().string() + " (as of " + f.as_of + ")";
  for (const auto& [term, rule] : how) s += "; " + std::string(enum_name(term)) + ": " + rule;
  return s;
}

// Parses `text` as one of the JSON price files into `f`; false with a diagnostic naming `file`.
bool read_json_file(const std::string& text, const std::string& file, const Catalog& catalog,
                    const ImportOptions& opts, Diagnostics& diags, ImportedFile& f) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {
    file_error(diags, file, DiagCode::parse_error,
               "not a price file gpuplan reads: it is not valid JSON (" +
                   json_error_text(e.what()) +
                   "); gpuplan reads the AWS Price List bulk offer file (JSON), Azure Retail "
                   "Prices API pages, the GCP Cloud Billing Catalog SKU list, Karpenter's "
                   "generated price tables (Go) and a CSV of instance,term,price,date");
    return false;
  }
  const auto format = detect_price_format(doc);
  if (!format) {
    file_error(diags, file, DiagCode::parse_error,
               "unknown price file format: expected the AWS Price List bulk offer file "
               "(\"products\" and \"terms\"), an Azure Retail Prices API page (\"Items\"), "
               "a GCP Cloud Billing Catalog SKU list (\"skus\") or a CSV of "
               "instance,term,price,date");
    return false;
  }
  switch (*format) {
    case PriceFileFormat::aws_price_list:
      f = import_aws_price_list(doc, file, catalog, opts);
      break;
    case PriceFileFormat::azure_retail_prices:
      f = import_azure_retail_prices(doc, file, catalog, opts);
      break;
    case PriceFileFormat::gcp_billing_catalog:
      f = import_gcp_billing_catalog(doc, file, catalog, opts);
      break;
    case PriceFileFormat::karpenter_price_table:
    case PriceFileFormat::price_csv:
      return false;  // not a JSON format
  }
  return true;
}

}  // namespace

std::string price_format_name(PriceFileFormat f) {
  switch (f) {
    case PriceFileFormat::aws_price_list:
      return "aws_price_list";
    case PriceFileFormat::azure_retail_prices:
      return "azure_retail_prices";
    case PriceFileFormat::gcp_billing_catalog:
      return "gcp_billing_catalog";
    case PriceFileFormat::karpenter_price_table:
      return "karpenter_price_table";
    case PriceFileFormat::price_csv:
      return "price_csv";
  }
  return "unknown";
}

std::optional<PriceFileFormat> detect_price_format(const json& doc) {
  if (!doc.is_object()) return std::nullopt;
  if (doc.contains("products") && doc.contains("terms")) return PriceFileFormat::aws_price_list;
  if (doc.contains("Items")) return PriceFileFormat::azure_retail_prices;
  if (doc.contains("skus")) return PriceFileFormat::gcp_billing_catalog;
  return std::nullopt;
}

std::set<std::string> import_regions(const Catalog& catalog, const std::string& provider,
                                     const ImportOptions& opts) {
  if (!opts.region.empty()) return {opts.region};
  std::set<std::string> out;
  for (const InstanceType& it : catalog.instances)
    if (it.provider == provider && !it.region.empty()) out.insert(it.region);
  return out;
}

std::optional<CatalogOverlay> import_price_files(const std::vector<std::string>& files,
                                                 const Catalog& catalog, const ImportOptions& opts,
                                                 Diagnostics& diags) {
  CatalogOverlay overlay;
  overlay.currency = opts.currency;
  // Rows by instance id in first-seen order; the first price of an (id, term) wins.
  std::vector<InstanceType> rows;
  std::map<std::string, std::map<Pricing, std::string>> rules;
  bool ok = true;
  for (const std::string& file : files) {
    const auto text = read_input_file(file, MAX_TRACE_BYTES, "price file", "", diags);
    if (!text) {
      ok = false;
      continue;
    }
    // NOTE: a price file that does not open with a JSON object or array and has none of the Go
    // lines of a Karpenter price table is read as the plain CSV.
    const size_t lead = text->find_first_not_of(" \t\r\n\xEF\xBB\xBF");
    std::optional<ImportedFile> read;
    if (lead != std::string::npos && ((*text)[lead] == '{' || (*text)[lead] == '[')) {
      if (ImportedFile j; read_json_file(*text, file, catalog, opts, diags, j)) read = std::move(j);
    } else if (is_karpenter_price_table(*text)) {
      read = import_karpenter_price_table(*text, file, catalog, opts, diags);
    } else {
      read = import_price_csv(*text, file, catalog, opts, diags);
    }
    if (!read) {
      ok = false;
      continue;
    }
    ImportedFile& f = *read;
    if (!check_selection(f, file, catalog, opts, diags)) {
      ok = false;
      continue;
    }
    size_t used = 0;
    for (const ImportedPrice& p : f.prices) {
      auto row = std::find_if(rows.begin(), rows.end(),
                              [&](const InstanceType& r) { return r.id == p.id; });
      if (row == rows.end()) {
        const InstanceType* base = catalog.find_instance(p.id);
        InstanceType r;
        r.id = base->id;
        r.provider = base->provider;
        r.gpu = base->gpu;
        r.gpus_per_node = base->gpus_per_node;
        r.intra_node_fabric = base->intra_node_fabric;
        r.region = p.region;
        r.as_of = p.as_of.empty() ? f.as_of : p.as_of;
        rows.push_back(r);
        row = rows.end() - 1;
      }
      // NOTE: a row's date is its oldest price's, so staleness never understates an age.
      if (!p.as_of.empty()) row->as_of = std::min(row->as_of, p.as_of);
      if (price_of(row->price_per_hour, p.term)) {
        overlay.unmapped.push_back({file, "", p.id, p.region,
                                    "a second " + std::string(enum_name(p.term)) + " price (" +
                                        fields::num(p.price) +
                                        ") for this instance; the first one read is kept"});
        continue;
      }
      switch (p.term) {
        case Pricing::on_demand:
          row->price_per_hour.on_demand = p.price;
          break;
        case Pricing::reserved_1y:
          row->price_per_hour.reserved_1y = p.price;
          break;
        case Pricing::reserved_3y:
          row->price_per_hour.reserved_3y = p.price;
          break;
        case Pricing::spot:
          row->price_per_hour.spot = p.price;
          break;
        case Pricing::on_prem:
          break;
      }
      rules[p.id][p.term] = p.how;
      row->source = source_text(f, file, rules[p.id]);
      ++used;
    }
    overlay.unmapped.insert(overlay.unmapped.end(), f.unmapped.begin(), f.unmapped.end());
    overlay.sources.push_back({{"file", file},
                               {"format", price_format_name(f.format)},
                               {"as_of", f.as_of},
                               {"rows_read", f.rows_read},
                               {"prices_used", used},
                               {"rows_unmapped", f.unmapped.size()}});
    overlay.as_of = std::max(overlay.as_of, f.as_of);
  }
  if (!ok) return std::nullopt;
  overlay.instances = std::move(rows);
  return overlay;
}

}  // namespace gpuplan
