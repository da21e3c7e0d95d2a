// The on-demand price tables Karpenter's providers generate from the providers' own price APIs
// (docs/catalog-import.md). aws/karpenter-provider-aws writes
// pkg/providers/pricing/zz_generated.pricing_aws.go:
//   // generated at 2026-07-20T13:44:30Z for us-east-1
//   var InitialOnDemandPricesAWS = map[string]map[ec2types.InstanceType]float64{
//   	"us-east-1": {
//   		// p5 family
//   		"p5.48xlarge": 55.040000, "p5.4xlarge": 6.880000,
//   	},
//   }
// and Azure/karpenter-provider-azure pkg/providers/pricing/zz_generated.pricing.go:
//   // generated at 2026-06-18T03:43:41Z
//   func init() {
//   	initialOnDemandPrices["eastus"] = map[string]float64{
//   		"Standard_ND96isr_H100_v5": 98.320000,
//   	}
//   }
// Both hold Linux on-demand prices in USD per hour (AWS Price List API; Azure Retail Prices API,
// priceType Consumption). gpuplan reads them line by line, not as Go.
#include <map>

#include "models/catalog/catalog_age.h"
#include "models/catalog/price_import.h"
#include "models/catalog/price_import_detail.h"

namespace gpuplan {
namespace {

using namespace price_import;

constexpr std::string_view GENERATED = "// generated at";

// How one provider's generator writes a region's map literal.
struct Layout {
  const char* provider;    // catalog provider
  const char* repository;  // the repository that generates it
  const char* opener;      // a region's opening line, as messages show it
};
constexpr Layout AWS_LAYOUT = {"aws", "aws/karpenter-provider-aws", "\"us-east-1\": {"};
constexpr Layout AZURE_LAYOUT = {"azure", "Azure/karpenter-provider-azure",
                                 "initialOnDemandPrices[\"eastus\"] = map[string]float64{"};

// A line that opens a region's map literal: the region and the layout it is written in.
struct Opener {
  std::string region;
  const Layout* layout = nullptr;
};

// The map literal `t` (a trimmed line) opens, if any: `"region": {` (AWS) or
// `name["region"] = map[string]float64{` (Azure).
std::optional<Opener> opener(std::string_view t) {
  if (t.size() > 2 && t.front() == '"') {
    const size_t q = t.find('"', 1);
    if (q == std::string_view::npos) return std::nullopt;
    const std::string_view rest = trim(t.substr(q + 1));
    if (rest.size() < 2 || rest.front() != ':' || trim(rest.substr(1)) != "{") return std::nullopt;
    return Opener{std::string(t.substr(1, q - 1)), &AWS_LAYOUT};
  }
  const size_t b = t.find("[\"");
  const size_t e = b == std::string_view::npos ? b : t.find("\"]", b + 2);
  if (b == 0 || e == std::string_view::npos) return std::nullopt;
  std::string_view rest = trim(t.substr(e + 2));
  if (rest.empty() || rest.front() != '=') return std::nullopt;
  rest = trim(rest.substr(1));
  if (!rest.starts_with("map[") || !rest.ends_with('{')) return std::nullopt;
  return Opener{std::string(t.substr(b + 2, e - b - 2)), &AZURE_LAYOUT};
}

// One `"type": price` entry of a table line.
struct Entry {
  std::string type;
  double price = 0;  // [USD per node-hour]
};

// The entries of the trimmed line `t` (one or more, separated by commas, a trailing comma
// allowed); nullopt with the reason in `why`.
std::optional<std::vector<Entry>> entries(std::string_view t, std::string& why) {
  static const std::string FORM =
      "; a line of the table holds \"instance type\": price entries separated by commas, e.g. "
      "\"p5.48xlarge\": 55.040000,";
  std::vector<Entry> out;
  while (!t.empty()) {
    const size_t q = t.front() == '"' ? t.find('"', 1) : std::string_view::npos;
    if (q == std::string_view::npos || q == 1) {
      why = "expected a quoted instance type at " + in_quotes(t) + FORM;
      return std::nullopt;
    }
    Entry e{std::string(t.substr(1, q - 1))};
    t = trim(t.substr(q + 1));
    if (t.empty() || t.front() != ':') {
      why = "no ':' after " + in_quotes(e.type) + FORM;
      return std::nullopt;
    }
    t = trim(t.substr(1));
    const size_t comma = t.find(',');
    const std::string_view number = trim(t.substr(0, comma));
    const auto price = price_text(number);
    if (!price) {
      why = "the price of " + in_quotes(e.type) + " is " + in_quotes(number) +
            ", not a number >= 0 (USD per hour)";
      return std::nullopt;
    }
    e.price = *price;
    out.push_back(std::move(e));
    t = comma == std::string_view::npos ? std::string_view() : trim(t.substr(comma + 1));
  }
  return out;
}

// Calls `f(line_number, trimmed_line)` for each line of `text`.
template <class F>
void for_each_line(std::string_view text, F f) {
  int n = 0;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    f(++n, trim(text.substr(pos, end - pos)));
    pos = end + 1;
  }
}

}  // namespace

bool is_karpenter_price_table(std::string_view text) {
  bool found = false;
  for_each_line(text, [&](int, std::string_view t) {
    found = found || t == "package pricing" || t.starts_with(GENERATED);
  });
  return found;
}

std::optional<ImportedFile> import_karpenter_price_table(std::string_view text,
                                                         const std::string& file,
                                                         const Catalog& catalog,
                                                         const ImportOptions& opts,
                                                         Diagnostics& diags) {
  const size_t before = diags.size();
  const auto bad = [&](int line, DiagCode code, std::string msg) {
    diags.add(Diagnostic{file, line, "", code, std::move(msg), {}});
  };
  // A price as read: its region, instance type and line.
  struct Found {
    std::string region, type;
    double price = 0;
    int line = 0;
  };
  std::vector<Found> found;
  std::string generated;  // the generation time as written, "2026-07-20T13:44:30Z"
  int generated_line = 0;
  std::string as_of;
  const Layout* layout = nullptr;
  bool in_map = false;  // inside a region's map literal
  std::string region;   // the region of the map literal open or last closed
  int region_line = 0;
  std::map<std::string, int> seen;  // instance type -> line, in the open map literal
  bool in_comment = false;
  for_each_line(text, [&](int line, std::string_view t) {
    if (in_comment) {
      in_comment = t.find("*/") == std::string_view::npos;
      return;
    }
    if (t.starts_with("/*")) {
      in_comment = t.find("*/", 2) == std::string_view::npos;
      return;
    }
    if (t.starts_with(GENERATED)) {
      const std::string_view stamp = trim(t.substr(GENERATED.size()));
      generated = std::string(stamp.substr(0, stamp.find(' ')));
      generated_line = line;
      as_of = date_part(generated);
      if (as_of.empty() || !parse_as_of(as_of))
        bad(line, DiagCode::parse_error,
            "\"// generated at\" gives " + in_quotes(generated) +
                ", not a time starting with a date YYYY-MM-DD (RFC 3339, as the generators "
                "write it); every imported price records its as_of date");
      return;
    }
    if (t.empty() || t.starts_with("//")) return;
    if (!in_map) {
      if (auto o = opener(t)) {
        if (layout != nullptr && layout != o->layout) {
          bad(line, DiagCode::parse_error,
              "a map literal in the " + std::string(o->layout->provider) +
                  " layout in a table that began in the " + layout->provider +
                  " layout; one file is one provider's table");
          return;
        }
        layout = o->layout;
        in_map = true;
        region = o->region;
        region_line = line;
        seen.clear();
      } else if (t.front() == '"') {
        bad(line, DiagCode::parse_error,
            "a price outside a region's map literal: " + in_quotes(t) +
                "; each region's prices follow a line such as " + AWS_LAYOUT.opener + " (AWS) or " +
                AZURE_LAYOUT.opener + " (Azure)");
      }
      return;  // other Go lines: package, import, var, func, closing braces
    }
    if (t == "}" || t == "},") {
      in_map = false;
      return;
    }
    std::string why;
    const auto read = entries(t, why);
    if (!read) {
      bad(line, DiagCode::parse_error, why);
      return;
    }
    for (const Entry& e : *read) {
      if (const auto [at, fresh] = seen.emplace(e.type, line); !fresh) {
        bad(line, DiagCode::parse_error,
            "a second price for " + in_quotes(e.type) + " in " + in_quotes(region) +
                " (the first is on line " + std::to_string(at->second) + ")");
        continue;
      }
      found.push_back({region, e.type, e.price, line});
    }
  });
  if (in_map)
    bad(region_line, DiagCode::parse_error,
        "the map literal of region " + in_quotes(region) +
            " opened here is not closed; a line \"}\" or \"},\" ends it");
  if (generated_line == 0)
    bad(0, DiagCode::missing_key,
        "a Karpenter price table without its \"// generated at\" line; every imported price "
        "records its as_of date, so use the file as generated");
  if (layout == nullptr)
    bad(0, DiagCode::parse_error,
        std::string("a Karpenter price table without a region's map literal: expected lines such "
                    "as ") +
            AWS_LAYOUT.opener + " (AWS) or " + AZURE_LAYOUT.opener + " (Azure)");
  if (diags.size() != before) return std::nullopt;

  ImportedFile f;
  f.format = PriceFileFormat::karpenter_price_table;
  f.provider = layout->provider;
  f.as_of = as_of;
  f.label = std::string("Karpenter on-demand price table of ") + layout->repository +
            " pkg/providers/pricing (generated at " + generated + ")";
  // NOTE: both generators write USD list prices; the file names no currency.
  f.currencies.insert("USD");
  const std::set<std::string> regions = import_regions(catalog, f.provider, opts);
  for (const Found& p : found) {
    ++f.rows_read;
    f.regions.insert(p.region);
    if (regions.count(p.region) == 0) continue;
    const InstanceType* inst = catalog.find_instance(p.type);
    if (inst == nullptr || inst->provider != f.provider) {
      f.unmapped.push_back({file, "", p.type, p.region, "no catalog instance named " + p.type});
      continue;
    }
    // NOTE: without --region a row takes its own region's price, not the first region read.
    if (opts.region.empty() && inst->region != p.region) {
      f.unmapped.push_back({file, "", p.type, p.region,
                            "the catalog row is priced in " + inst->region + "; --region " +
                                p.region + " takes this price instead"});
      continue;
    }
    f.prices.push_back({inst->id, Pricing::on_demand, p.price, p.region,
                        "line " + std::to_string(p.line) + ", Linux on-demand", f.as_of});
  }
  return f;
}

}  // namespace gpuplan
