#include "models/catalog/catalog_overlay.h"

#include <algorithm>
#include <limits>

#include "models/input/field_reader.h"
#include "models/input/input_file.h"
#include "models/input/jsonc.h"
#include "models/input/names.h"

namespace gpuplan {
namespace {

using json = nlohmann::json;

// The price terms in enumerator order (models/input/names.h), the keys of "price_per_hour".
const std::vector<std::string>& terms() {
  return enum_names<Pricing>();
}

std::optional<double>& term(InstancePrices& p, Pricing k) {
  switch (k) {
    case Pricing::on_demand:
      return p.on_demand;
    case Pricing::reserved_1y:
      return p.reserved_1y;
    case Pricing::reserved_3y:
      return p.reserved_3y;
    case Pricing::spot:
      return p.spot;
    case Pricing::on_prem:
      break;
  }
  return p.on_prem;
}

json prices_json(const InstancePrices& p) {
  json j = json::object();
  for (size_t k = 0; k < terms().size(); ++k)
    if (auto v = price_of(p, static_cast<Pricing>(k))) j[terms()[k]] = *v;
  return j;
}

// A date "YYYY-MM-DD" or "YYYY-MM" (as catalog rows give it).
bool is_date(const std::string& s) {
  const auto digits = [&](size_t from, size_t n) {
    return std::all_of(s.begin() + static_cast<ptrdiff_t>(from),
                       s.begin() + static_cast<ptrdiff_t>(from + n),
                       [](char c) { return c >= '0' && c <= '9'; });
  };
  if (s.size() != 7 && s.size() != 10) return false;
  if (!digits(0, 4) || s[4] != '-' || !digits(5, 2)) return false;
  return s.size() == 7 || (s[7] == '-' && digits(8, 2));
}

// Reads a row's "derived" object at `p`/derived into `row` (after its prices): one non-empty rule
// per term, each for a price the row gives. False on any error.
bool read_derived(FieldReader& r, const json& v, const std::string& p, InstanceType& row,
                  Diagnostics& d) {
  const std::string dp = fields::child(p, "derived");
  if (!r.object(v, dp,
                "the rule of each derived price by term, e.g. {\"spot\": \"midpoint of ...\"}"))
    return false;
  r.check_keys(v, dp, terms());
  bool ok = true;
  for (size_t k = 0; k < terms().size(); ++k) {
    const json* x = FieldReader::get(v, terms()[k].c_str());
    if (x == nullptr) continue;
    const std::string xp = fields::child(dp, terms()[k]);
    auto rule = r.string(*x, xp);
    if (rule && rule->empty()) {
      d.error(xp, DiagCode::out_of_range, "a derived price needs its rule; the rule is empty");
      rule.reset();
    }
    const auto pricing = static_cast<Pricing>(k);
    if (rule && !price_of(row.price_per_hour, pricing)) {
      d.error(xp, DiagCode::infeasible,
              "a rule for " + in_quotes(terms()[k]) +
                  ", but price_per_hour has no such price; give the price or drop the rule");
      rule.reset();
    }
    ok = ok && rule.has_value();
    if (rule) row.derived.push_back(DerivedPrice{pricing, *rule});
  }
  return ok;
}

// Reads one overlay row at `p`; nullopt when a required field is missing or bad.
std::optional<InstanceType> read_row(FieldReader& r, const json& o, const std::string& p,
                                     const Catalog& base, Diagnostics& d) {
  if (!r.object(o, p, "an instance row {\"id\", \"price_per_hour\", \"source\", \"as_of\"}"))
    return std::nullopt;
  r.check_keys(o, p,
               {"id", "provider", "gpu", "gpus_per_node", "region", "price_per_hour", "source",
                "as_of", "notes", "intra_node_fabric", "nics", "nic_gbps", "derived"});
  InstanceType row;
  bool ok = true;
  const auto text = [&](const char* key, const char* hint, std::string& out) {
    if (const json* v = r.need(o, p, key, hint)) {
      auto s = r.string(*v, fields::child(p, key));
      if (s && s->empty()) {
        d.error(fields::child(p, key), DiagCode::out_of_range,
                std::string("\"") + key + "\" must not be empty");
        s.reset();
      }
      ok = ok && s.has_value();
      if (s) out = *s;
    } else {
      ok = false;
    }
  };
  text("id", "the catalog instance name, e.g. \"p5.48xlarge\"", row.id);
  text("source", "where the prices come from (file, provider, date)", row.source);
  text("as_of", "the date of the prices, YYYY-MM-DD", row.as_of);
  if (!row.as_of.empty() && !is_date(row.as_of)) {
    d.error(fields::child(p, "as_of"), DiagCode::bad_unit,
            "as_of " + in_quotes(escape_for_message(row.as_of)) +
                " is not a date; write YYYY-MM-DD (or YYYY-MM)");
    ok = false;
  }
  if (const json* v = r.need(o, p, "price_per_hour",
                             "prices per node-hour by term, e.g. {\"on_demand\": 55.04}")) {
    const std::string pp = fields::child(p, "price_per_hour");
    if (r.object(*v, pp)) {
      r.check_keys(*v, pp, terms());
      bool any = false;
      for (size_t k = 0; k < terms().size(); ++k) {
        if (const json* x = FieldReader::get(*v, terms()[k].c_str())) {
          auto price =
              r.number(*x, fields::child(pp, terms()[k]), 0, std::numeric_limits<double>::max());
          ok = ok && price.has_value();
          term(row.price_per_hour, static_cast<Pricing>(k)) = price;
          any = true;
        }
      }
      if (!any) {
        d.error(pp, DiagCode::missing_key,
                "no price; give at least one of " + fields::list_names(terms()));
        ok = false;
      }
    } else {
      ok = false;
    }
  } else {
    ok = false;
  }
  if (const json* v = FieldReader::get(o, "derived")) ok = read_derived(r, *v, p, row, d) && ok;
  if (const json* v = FieldReader::get(o, "region"))
    row.region = r.string(*v, p + "/region").value_or("");
  if (const json* v = FieldReader::get(o, "notes"))
    row.notes = r.string(*v, p + "/notes").value_or("");
  const InstanceType* known = row.id.empty() ? nullptr : base.find_instance(row.id);
  if (known != nullptr) {
    row.provider = known->provider;
    row.gpu = known->gpu;
    row.gpus_per_node = known->gpus_per_node;
  } else if (!row.id.empty()) {
    // NOTE: a new instance needs its hardware; the importer writes it for every row anyway.
    row.provider = "custom";
    if (const json* v = FieldReader::get(o, "provider"))
      row.provider = r.string(*v, p + "/provider").value_or("custom");
    if (const json* v = r.need(o, p, "gpu", "the GPU model of an instance not in the catalog")) {
      auto g = r.string(*v, p + "/gpu");
      const GpuSpec* spec = g ? base.find_gpu(*g) : nullptr;
      if (g && spec == nullptr) {
        std::vector<std::string> ids;
        for (const GpuSpec& s : base.gpus) ids.push_back(s.id);
        d.unknown_name(p + "/gpu", "GPU model", *g, ids);
      }
      ok = ok && spec != nullptr;
      if (spec != nullptr) row.gpu = spec->id;
    } else {
      ok = false;
    }
    if (const json* v = r.need(o, p, "gpus_per_node", "GPUs per node, e.g. 8")) {
      auto n = r.integer(*v, p + "/gpus_per_node", 1, 1024);
      ok = ok && n.has_value();
      if (n) row.gpus_per_node = static_cast<uint32_t>(*n);
    } else {
      ok = false;
    }
    if (const json* v = FieldReader::get(o, "intra_node_fabric"))
      row.intra_node_fabric = r.string(*v, p + "/intra_node_fabric").value_or("pcie");
  }
  if (!ok) return std::nullopt;
  return row;
}

}  // namespace

json overlay_to_json(const CatalogOverlay& overlay) {
  json rows = json::array();
  for (const InstanceType& it : overlay.instances) {
    json j = {{"id", it.id},         {"provider", it.provider},
              {"gpu", it.gpu},       {"gpus_per_node", it.gpus_per_node},
              {"region", it.region}, {"price_per_hour", prices_json(it.price_per_hour)},
              {"source", it.source}, {"as_of", it.as_of}};
    if (!it.notes.empty()) j["notes"] = it.notes;
    if (!it.derived.empty()) {
      json rules = json::object();
      for (const DerivedPrice& dp : it.derived) rules[std::string(pricing_key(dp.term))] = dp.rule;
      j["derived"] = std::move(rules);
    }
    rows.push_back(std::move(j));
  }
  json unmapped = json::array();
  for (const UnmappedPriceRow& u : overlay.unmapped)
    unmapped.push_back({{"file", u.file},
                        {"sku", u.sku},
                        {"what", u.what},
                        {"region", u.region},
                        {"reason", u.reason}});
  return {{"gpuplan_catalog_overlay", CATALOG_OVERLAY_VERSION},
          {"currency", overlay.currency},
          {"as_of", overlay.as_of},
          {"sources", overlay.sources},
          {"instances", rows},
          {"unmapped", unmapped}};
}

std::optional<CatalogOverlay> read_catalog_overlay(const std::string& path, const Catalog& base,
                                                   const std::string& pointer, Diagnostics& diags) {
  const auto text = read_input_file(path, MAX_DOCUMENT_BYTES, "catalog overlay", pointer, diags);
  if (!text) return std::nullopt;
  // NOTE: the overlay's own diagnostics carry its file and lines; they are copied over at the end.
  Diagnostics d;
  d.set_file(path);
  std::optional<CatalogOverlay> out;
  if (auto doc = parse_jsonc(*text, path, d)) {
    const LinesAttached lines(d, doc->lines);
    FieldReader r(d);
    const json& root = doc->value;
    if (r.object(root, "", "a catalog overlay object (as `gpuplan catalog import` writes)")) {
      r.check_keys(
          root, "",
          {"gpuplan_catalog_overlay", "currency", "as_of", "sources", "instances", "unmapped"});
      CatalogOverlay o;
      o.file = path;
      bool ok = true;
      if (const json* v = r.need(root, "", "gpuplan_catalog_overlay",
                                 "the format version, 1 (written by `gpuplan catalog import`)")) {
        ok = r.integer(*v, "/gpuplan_catalog_overlay", CATALOG_OVERLAY_VERSION,
                       CATALOG_OVERLAY_VERSION)
                 .has_value();
      } else {
        ok = false;
      }
      if (const json* v =
              r.need(root, "", "currency", "the ISO 4217 code of the prices, e.g. \"USD\"")) {
        auto c = r.string(*v, "/currency");
        ok = ok && c.has_value();
        if (c) o.currency = *c;
      } else {
        ok = false;
      }
      if (const json* v = FieldReader::get(root, "as_of"))
        o.as_of = r.string(*v, "/as_of").value_or("");
      if (const json* v = FieldReader::get(root, "sources"); v != nullptr && v->is_array())
        o.sources.assign(v->begin(), v->end());
      if (const json* v = r.need(root, "", "instances", "an array of instance rows")) {
        if (!v->is_array()) {
          r.wrong_type(*v, "/instances", "an array of instance rows");
          ok = false;
        } else {
          for (size_t k = 0; k < v->size(); ++k) {
            auto row = read_row(r, (*v)[k], fields::child("/instances", k), base, d);
            ok = ok && row.has_value();
            if (row) o.instances.push_back(std::move(*row));
          }
        }
      } else {
        ok = false;
      }
      if (ok) out = std::move(o);
    }
  }
  for (const Diagnostic& x : d.sorted()) diags.add(x);
  if (!d.ok()) return std::nullopt;
  return out;
}

void apply_overlay(Catalog& catalog, const CatalogOverlay& overlay) {
  for (const InstanceType& row : overlay.instances) {
    const InstanceType* old = catalog.find_instance(row.id);
    if (old == nullptr) {
      catalog.upsert(row);
      continue;
    }
    InstanceType merged = *old;
    merged.derived.clear();
    std::vector<std::string> kept;
    for (size_t k = 0; k < terms().size(); ++k) {
      const auto pricing = static_cast<Pricing>(k);
      // A term the overlay gives takes the overlay's rule (none = published); a kept term keeps
      // the built-in rule, so a derived price never reads as published after an overlay.
      const InstanceType& from = price_of(row.price_per_hour, pricing) ? row : *old;
      if (const std::string* rule = from.derived_rule(pricing))
        merged.derived.push_back(DerivedPrice{pricing, *rule});
      if (auto v = price_of(row.price_per_hour, pricing)) {
        term(merged.price_per_hour, pricing) = v;
      } else if (price_of(old->price_per_hour, pricing)) {
        kept.push_back(terms()[k]);
      }
    }
    merged.region = row.region.empty() ? old->region : row.region;
    merged.source = row.source;
    merged.as_of = row.as_of;
    merged.notes = row.notes;
    // NOTE: the overlay's price is as good as its file; the built-in rule no longer applies.
    merged.confidence = "overlay";
    if (!kept.empty()) {
      // NOTE: say which prices the overlay did not replace, so no one reads them as current.
      merged.notes += std::string(merged.notes.empty() ? "" : "; ") + fields::list_names(kept) +
                      " from the built-in catalog (as of " + old->as_of + "), not from " +
                      (overlay.file.empty() ? std::string("the overlay") : overlay.file);
    }
    catalog.upsert(merged);
  }
}

}  // namespace gpuplan
