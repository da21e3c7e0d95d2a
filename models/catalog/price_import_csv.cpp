//! The plain price CSV (instance, term, price, date) of `gpuplan catalog import`.
#include <algorithm>

#include "models/catalog/catalog_age.h"
#include "models/catalog/price_import.h"
#include "models/catalog/price_import_detail.h"
#include "models/input/closest_names.h"
#include "models/input/csv_records.h"
#include "models/input/field_reader.h"
#include "models/input/names.h"

namespace gpuplan {
namespace {

const std::vector<std::string> COLUMNS = {"instance", "term", "price", "date"};

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::optional<ImportedFile> import_price_csv(std::string_view text, const std::string& file,
                                             const Catalog& catalog, const ImportOptions& opts,
                                             Diagnostics& diags) {
  ImportedFile f;
  f.format = PriceFileFormat::price_csv;
  f.provider = "csv";
  f.label = "price CSV (instance, term, price, date)";
  f.currencies.insert(opts.currency);
  std::vector<std::string> ids;
  for (const InstanceType& it : catalog.instances) ids.push_back(it.id);
  const std::vector<std::string>& terms = enum_names<Pricing>();
  const auto bad = [&](int line, const std::string& column, std::string msg,
                       std::vector<std::string> candidates = {}) {
    diags.add(Diagnostic{file, line, "", DiagCode::parse_error,
                         "column \"" + column + "\": " + std::move(msg), std::move(candidates)});
  };
  const size_t before = diags.size();
  const std::string_view body = csv::without_bom(text);
  size_t i = 0;
  int line = 1;
  std::vector<std::string> cols;
  bool first = true;
  for (;;) {
    const int at = line;
    const csv::Record rec = csv::next_record(body, i, line, cols);
    if (rec == csv::Record::end) break;
    if (rec == csv::Record::unterminated_quote) {
      bad(at, "instance", "a quoted field runs to the end of the file; close its quote");
      break;
    }
    if (csv::blank(cols)) continue;
    for (std::string& x : cols) x = std::string(price_import::trim(x));
    if (first && cols.size() == COLUMNS.size() && lower(cols[0]) == "instance") {
      first = false;  // the header line
      continue;
    }
    first = false;
    ++f.rows_read;
    if (cols.size() != COLUMNS.size()) {
      bad(at, COLUMNS[std::min(cols.size(), COLUMNS.size() - 1)],
          "expected 4 columns (instance, term, price, date), got " + std::to_string(cols.size()));
      continue;
    }
    const InstanceType* it = catalog.find_instance(cols[0]);
    if (it == nullptr) {
      const auto near = closest_names(cols[0], ids);
      bad(at, "instance",
          "unknown instance type " + in_quotes(cols[0]) + did_you_mean(near) +
              " (a catalog id; gpuplan catalog lists them)",
          near);
      continue;
    }
    const auto term = parse_enum<Pricing>(lower(cols[1]));
    if (!term) {
      const auto near = closest_names(cols[1], terms);
      bad(at, "term",
          "unknown term " + in_quotes(cols[1]) + "; one of " + fields::list_names(terms) +
              did_you_mean(near),
          near);
      continue;
    }
    const auto price = price_import::price_text(cols[2]);
    if (!price) {
      bad(at, "price",
          in_quotes(cols[2]) + " is not a price: a number >= 0 in " + opts.currency +
              " per node-hour, e.g. 14.27");
      continue;
    }
    if (cols[3].size() != 10 || !parse_as_of(cols[3])) {
      bad(at, "date", in_quotes(cols[3]) + " is not a date YYYY-MM-DD (the day the price held)");
      continue;
    }
    f.regions.insert(it->region);
    f.as_of = std::max(f.as_of, cols[3]);
    f.prices.push_back(ImportedPrice{it->id, *term, *price, it->region,
                                     "line " + std::to_string(at) + " of the CSV", cols[3]});
  }
  if (diags.size() != before) return std::nullopt;
  return f;
}

}  // namespace gpuplan
