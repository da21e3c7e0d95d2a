#include "models/catalog/catalog_table.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "models/catalog/catalog_age.h"
#include "models/input/closest_names.h"

namespace gpuplan {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string money(std::optional<double> usd) {
  if (!usd) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", *usd);
  return buf;
}

std::string unknown_value(std::string_view flag, std::string_view what, std::string_view got,
                          const std::vector<std::string>& known,
                          std::vector<std::string>& candidates) {
  candidates = closest_names(got, known);
  std::string msg =
      std::string(flag) + ": unknown " + std::string(what) + " \"" + std::string(got) + "\"";
  const std::vector<std::string>& listed = candidates.empty() ? known : candidates;
  msg += candidates.empty() ? "; known: " : "; did you mean ";
  for (size_t i = 0; i < listed.size(); ++i) {
    if (i) msg += (candidates.empty() || i + 1 < listed.size()) ? ", " : " or ";
    msg += "\"" + listed[i] + "\"";
  }
  msg += candidates.empty() ? "" : "?";
  return msg;
}

// "400G", "2.5G": a NIC line rate in Gb/s without trailing zeros.
std::string gbps(double rate) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%gG", rate);
  return buf;
}

nlohmann::json prices_json(const InstancePrices& p, double divisor) {
  nlohmann::json j = nlohmann::json::object();
  const auto put = [&](const char* key, std::optional<double> v) {
    if (auto x = per_gpu_hour(v, divisor)) j[key] = *x;
  };
  put("on_demand", p.on_demand);
  put("reserved_1y", p.reserved_1y);
  put("reserved_3y", p.reserved_3y);
  put("spot", p.spot);
  put("on_prem", p.on_prem);
  return j;
}

// `header` and `rows` as text columns two spaces apart, right-aligned where `numeric(column)`;
// no trailing blanks.
template <class Numeric>
std::string aligned_table(const std::vector<std::string>& header,
                          const std::vector<std::vector<std::string>>& rows, Numeric numeric) {
  std::vector<size_t> width(header.size());
  for (size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& r : rows) width[c] = std::max(width[c], r[c].size());
  }
  const auto render = [&](const std::vector<std::string>& r) {
    std::string line;
    for (size_t c = 0; c < r.size(); ++c) {
      const std::string pad(width[c] - r[c].size(), ' ');
      if (c) line += "  ";
      line += numeric(c) ? pad + r[c] : r[c] + pad;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    return line + "\n";
  };
  std::string out = render(header);
  for (const auto& r : rows) out += render(r);
  return out;
}

}  // namespace

std::optional<double> per_gpu_hour(std::optional<double> price, double gpus) {
  if (!price || !(gpus > 0)) return std::nullopt;
  return *price / gpus;
}

CatalogSelection select_instances(const Catalog& catalog, const CatalogQuery& query) {
  CatalogSelection sel;
  if (!query.gpu.empty() && !catalog.find_gpu(query.gpu)) {
    std::vector<std::string> known;
    for (const auto& g : catalog.gpus) known.push_back(g.id);
    sel.error = unknown_value("--gpu", "GPU", query.gpu, known, sel.candidates);
    return sel;
  }
  if (!query.provider.empty()) {
    std::vector<std::string> known;
    for (const auto& it : catalog.instances)
      if (std::find(known.begin(), known.end(), it.provider) == known.end())
        known.push_back(it.provider);
    if (std::find(known.begin(), known.end(), lower(query.provider)) == known.end()) {
      sel.error = unknown_value("--provider", "provider", query.provider, known, sel.candidates);
      return sel;
    }
  }
  for (const auto& it : catalog.instances) {
    if (!query.gpu.empty() && lower(it.gpu) != lower(query.gpu)) continue;
    if (!query.provider.empty() && it.provider != lower(query.provider)) continue;
    sel.instances.push_back(&it);
  }
  return sel;
}

bool row_stale(const InstanceType& it, std::chrono::year_month_day today, unsigned months) {
  return it.priced() && is_stale(it.as_of, today, months);
}

std::string format_catalog_table(const Catalog& catalog,
                                 const std::vector<const InstanceType*>& instances,
                                 std::chrono::year_month_day today, unsigned stale_after_months) {
  const std::vector<std::string> header = {
      "id",     "provider", "GPUs",   "mem GB", "BF16 TF",  "FP8 TF", "TB/s", "fabric", "network",
      "od $/h", "$/GPU-h",  "1y $/h", "3y $/h", "spot $/h", "as_of",  "conf", ""};
  // NOTE: columns 3..6 (hardware figures) and 9..13 (prices) are right-aligned.
  const auto numeric = [](size_t c) { return (c >= 3 && c <= 6) || (c >= 9 && c <= 13); };
  std::vector<std::vector<std::string>> rows;
  bool any_on_prem = false;
  bool any_derived = false;
  size_t n_stale = 0;
  size_t n_unpriced = 0;
  for (const InstanceType* it : instances) {
    const InstancePrices& p = it->price_per_hour;
    const GpuSpec* gpu = catalog.find_gpu(it->gpu);
    // On-prem templates have no on-demand price; their amortised cost stands in, marked '*'.
    const bool on_prem = !p.on_demand && p.on_prem;
    const std::optional<double> list = on_prem ? p.on_prem : p.on_demand;
    any_on_prem |= on_prem;
    const bool stale = row_stale(*it, today, stale_after_months);
    n_stale += stale ? 1 : 0;
    n_unpriced += it->priced() ? 0 : 1;
    const std::string nics =
        it->nics == 0 ? "-" : std::to_string(it->nics) + "x" + gbps(it->nic_gbps);
    // A derived (unpublished) price is marked '~'; --json gives its rule.
    const auto priced = [&](Pricing term, std::optional<double> v) {
      const bool derived = v && it->derived_rule(term) != nullptr;
      any_derived |= derived;
      return money(v) + (derived ? "~" : " ");
    };
    const char* list_mark = on_prem ? "*" : it->derived_rule(Pricing::on_demand) ? "~" : " ";
    any_derived |= !on_prem && list && it->derived_rule(Pricing::on_demand) != nullptr;
    const auto figure = [&](double GpuSpec::*field, const char* fmt) {
      if (gpu == nullptr || !(gpu->*field > 0)) return std::string("-");
      char buf[32];
      std::snprintf(buf, sizeof buf, fmt, gpu->*field);
      return std::string(buf);
    };
    const std::string count =
        it->gpu_fraction.empty() ? std::to_string(it->gpus_per_node) : it->gpu_fraction;
    rows.push_back({it->id, it->provider, count + "x" + it->gpu, figure(&GpuSpec::mem_gb, "%g"),
                    figure(&GpuSpec::bf16_tflops, "%g"), figure(&GpuSpec::fp8_tflops, "%g"),
                    figure(&GpuSpec::mem_bw_tbps, "%.3g"), it->intra_node_fabric, nics,
                    money(list) + list_mark, money(per_gpu_hour(list, it->gpus_held())) + list_mark,
                    priced(Pricing::reserved_1y, p.reserved_1y),
                    priced(Pricing::reserved_3y, p.reserved_3y), priced(Pricing::spot, p.spot),
                    it->as_of.empty() ? "-" : it->as_of,
                    it->confidence.empty() ? "-" : it->confidence,
                    !it->priced() ? "price required"
                    : stale       ? "stale"
                                  : ""});
  }
  std::string out = aligned_table(header, rows, numeric);
  char date[16];
  std::snprintf(date, sizeof date, "%04d-%02u-%02u", static_cast<int>(today.year()),
                static_cast<unsigned>(today.month()), static_cast<unsigned>(today.day()));
  const std::string age = stale_after_months == 12 ? std::string("one year")
                                                   : std::to_string(stale_after_months) + " months";
  out += std::to_string(rows.size()) +
         (rows.size() == 1 ? " instance type, " : " instance types, ") + std::to_string(n_stale) +
         " stale (priced more than " + age + " before " + date + ", or undated)";
  if (n_unpriced > 0) out += ", " + std::to_string(n_unpriced) + " without a price";
  out +=
      "; prices in USD per node-hour (od = on-demand, 1y/3y = reserved, spot = typical spot); "
      "hardware per GPU (dense tensor TFLOPS)\n";
  if (any_on_prem) out += "* on-prem template: amortised cost of owning, not a list price\n";
  if (any_derived)
    out += "~ derived: not published by the provider; --json gives the rule it was computed by\n";
  if (n_stale > 0) out += "stale: re-check before quoting (--stale-after N sets the age)\n";
  if (n_unpriced > 0)
    out +=
        "price required: no dated public price; give the price you are quoted with --overlay "
        "FILE, or \"price_per_hour\" for this id in a scenario's \"instances\"\n";
  out +=
      "conf: how far the list price can be trusted (high = the provider's own price file, "
      "medium = a dated capture, low = undated or partial, overlay = a file you applied); --json "
      "gives each source\n";
  return out;
}

std::string format_catalog_json(const Catalog& catalog,
                                const std::vector<const InstanceType*>& instances,
                                std::chrono::year_month_day today, unsigned stale_after_months) {
  nlohmann::json arr = nlohmann::json::array();
  for (const InstanceType* it : instances) {
    const InstancePrices& p = it->price_per_hour;
    nlohmann::json prices = nlohmann::json::object();
    if (p.on_demand) prices["on_demand"] = *p.on_demand;
    if (p.reserved_1y) prices["reserved_1y"] = *p.reserved_1y;
    if (p.reserved_3y) prices["reserved_3y"] = *p.reserved_3y;
    if (p.spot) prices["spot"] = *p.spot;
    if (p.on_prem) prices["on_prem"] = *p.on_prem;
    nlohmann::json j = {{"id", it->id},
                        {"provider", it->provider},
                        {"gpu", it->gpu},
                        {"gpus_per_node", it->gpus_per_node},
                        {"intra_node_fabric", it->intra_node_fabric},
                        {"nics", it->nics},
                        {"nic_gbps", it->nic_gbps},
                        {"region", it->region},
                        {"price_per_hour", prices},
                        {"price_per_gpu_hour", prices_json(p, it->gpus_held())},
                        {"price_required", !it->priced()},
                        {"as_of", it->as_of},
                        {"stale", row_stale(*it, today, stale_after_months)},
                        {"confidence", it->confidence},
                        {"source", it->source}};
    if (!it->gpu_fraction.empty()) j["gpu_fraction"] = it->gpu_fraction;
    if (const GpuSpec* g = catalog.find_gpu(it->gpu))
      j["gpu_spec"] = {{"bf16_tflops", g->bf16_tflops},
                       {"fp8_tflops", g->fp8_tflops},
                       {"mem_gb", g->mem_gb},
                       {"mem_bw_tbps", g->mem_bw_tbps},
                       {"gpu_link_gbps", g->nvlink_gbps},
                       {"collectives", g->collectives}};
    if (const auto age = price_age_days(it->as_of, today)) j["age_days"] = *age;
    if (!it->notes.empty()) j["notes"] = it->notes;
    if (!it->derived.empty()) {
      nlohmann::json rules = nlohmann::json::object();
      for (const DerivedPrice& d : it->derived) rules[std::string(pricing_key(d.term))] = d.rule;
      j["derived"] = rules;
    }
    arr.push_back(std::move(j));
  }
  return arr.dump(2) + "\n";
}

std::string format_gpu_table(const std::vector<GpuSpec>& gpus) {
  const std::vector<std::string> header = {
      "id",       "architecture", "BF16 TFLOPS", "FP8 TFLOPS",  "mem GB",
      "mem TB/s", "TDP W",        "link GB/s",   "collectives", "name"};
  const auto numeric = [](size_t c) { return c >= 2 && c <= 7; };
  const auto figure = [](double x, const char* fmt) {
    if (x <= 0) return std::string("-");
    char buf[32];
    std::snprintf(buf, sizeof buf, fmt, x);
    return std::string(buf);
  };
  std::vector<std::vector<std::string>> rows;
  for (const GpuSpec& g : gpus)
    rows.push_back({g.id, g.architecture, figure(g.bf16_tflops, "%g"), figure(g.fp8_tflops, "%g"),
                    figure(g.mem_gb, "%g"), figure(g.mem_bw_tbps, "%.3g"), figure(g.tdp_w, "%g"),
                    figure(g.nvlink_gbps, "%g"), g.collectives, g.name});
  std::string out = aligned_table(header, rows, numeric);
  out += std::to_string(rows.size()) +
         " GPU models; dense tensor TFLOPS (BF16, or FP16 where the part has no BF16; - = no FP8 "
         "unit), memory, memory bandwidth, TDP, GPU-to-GPU link (NVLink or Infinity Fabric, both "
         "directions) and the collective library; --json shows every figure with its source\n";
  return out;
}

std::string format_gpu_json(const std::vector<GpuSpec>& gpus) {
  nlohmann::json arr = nlohmann::json::array();
  for (const GpuSpec& g : gpus)
    arr.push_back({{"id", g.id},
                   {"name", g.name},
                   {"architecture", g.architecture},
                   {"bf16_tflops", g.bf16_tflops},
                   {"fp8_tflops", g.fp8_tflops},
                   {"tf32_tflops", g.tf32_tflops},
                   {"fp32_tflops", g.fp32_tflops},
                   {"int8_tops", g.int8_tops},
                   {"mem_gb", g.mem_gb},
                   {"mem_bw_tbps", g.mem_bw_tbps},
                   {"tdp_w", g.tdp_w},
                   {"nvlink_gbps", g.nvlink_gbps},
                   {"collectives", g.collectives},
                   {"source", g.source}});
  return arr.dump(2) + "\n";
}

}  // namespace gpuplan
