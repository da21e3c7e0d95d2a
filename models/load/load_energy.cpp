// The `energy` section (docs/energy.md): PUE, grid region or factor, an hourly grid series
// (CSV on the data path), electricity price, the GPU power curve, node overhead and embodied
// carbon, scenario-wide and per pool.
#include <algorithm>
#include <charconv>
#include <cmath>

#include "models/input/csv_two_columns.h"
#include "models/input/data_files.h"
#include "models/perf/energy/energy_data.h"
#include "models/input/input_file.h"
#include "models/load/loader.h"

namespace gpuplan::loading {
namespace {

inline constexpr double MAX_PUE = 5;           // beyond any facility on record: a typo
inline constexpr double MAX_G_PER_KWH = 3000;  // coal is about 1,000 gCO2e/kWh
inline constexpr double MAX_USD_PER_KWH = 10;
inline constexpr double MAX_OVERHEAD_W = 1e6;  // one node

const std::vector<std::string> LEVEL_KEYS = {"pue",
                                             "region",
                                             "g_co2e_per_kwh",
                                             "usd_per_kwh",
                                             "gpu_activity",
                                             "gpu_idle_fraction",
                                             "node_overhead_w",
                                             "power_curve"};

// A CSV field as a finite number, or nullopt.
std::optional<double> csv_number(std::string_view s) {
  s = fields::trim(s);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v))
    return std::nullopt;
  return v;
}

}  // namespace

// The rows of an hourly grid series CSV (`hour,g_co2e_per_kwh`, a header first, hours 0, 1, 2,
// ... in order; blank lines and '#' lines skipped); each bad row is an error at `file:line`.
std::optional<std::vector<double>> parse_grid_series_csv(std::string_view csv,
                                                         const std::string& file,
                                                         const std::string& pointer,
                                                         Diagnostics& d) {
  static const csv::TwoColumns KIND = {
      {"hour"},
      "g_co2e_per_kwh",
      "the first row must be the header \"hour,g_co2e_per_kwh\" (hour since the start, grid "
      "carbon intensity in gCO2e/kWh)",
      "a row has two fields, hour and g_co2e_per_kwh, e.g. \"0,379\""};
  std::vector<double> out;
  const csv::TwoColumnRead r = csv::read_two_columns(
      csv, KIND, file, pointer, d,
      [&](std::string_view first, std::string_view second) -> std::optional<std::string> {
        const std::optional<double> hour = csv_number(first);
        const std::optional<double> g = csv_number(second);
        if (!hour || *hour != double(out.size())) {
          std::string msg = "hour " + in_quotes(escape_for_message(first)) + " should be " +
                            std::to_string(out.size()) +
                            ": list every hour from 0 in order, one row each";
          out.push_back(0);  // keeps later rows' expected hours in step
          return msg;
        }
        if (!g || *g < 0 || *g > MAX_G_PER_KWH) {
          out.push_back(0);
          return "g_co2e_per_kwh " + in_quotes(escape_for_message(second)) +
                 " must be a finite number from 0 to " + fields::num(MAX_G_PER_KWH) + " gCO2e/kWh";
        }
        out.push_back(*g);
        return std::nullopt;
      });
  if (r.stop != csv::TwoColumnEnd::end) return std::nullopt;
  if (!r.header || out.empty()) {
    d.error(pointer, DiagCode::parse_error,
            "grid series " + in_quotes(file) +
                " has no rows; it needs the header \"hour,g_co2e_per_kwh\" and one row per hour");
    return std::nullopt;
  }
  if (!r.ok) return std::nullopt;
  return out;
}

bool Loader::load_energy_level(const json& o, const std::string& p, EnergyInput& in) {
  if (const json* v = get(o, "pue")) {
    if (v->is_number() && v->get<double>() < 1) {
      d_.error(p + "/pue", DiagCode::out_of_range,
               "PUE is facility power ÷ IT power, so it is at least 1, got " + describe(*v) +
                   "; 1.1 is a hyperscale site, 1.58 the industry average");
    } else {
      in.pue = number(*v, p + "/pue", 1, MAX_PUE);
    }
  }
  if (const json* v = get(o, "region")) {
    if (auto s = string(*v, p + "/region")) {
      const auto& data = energy::builtin_energy_data();
      if (const energy::GridRegion* r = data.find_region(*s)) {
        in.region = r->id;
      } else {
        d_.unknown_name(p + "/region", "grid region", *s, data.region_ids());
      }
    }
  }
  if (const json* v = get(o, "g_co2e_per_kwh"))
    in.g_co2e_per_kwh = number(*v, p + "/g_co2e_per_kwh", 0, MAX_G_PER_KWH);
  if (const json* v = get(o, "usd_per_kwh"))
    in.usd_per_kwh = number(*v, p + "/usd_per_kwh", 0, MAX_USD_PER_KWH);
  if (const json* v = get(o, "gpu_activity"))
    in.gpu_activity = number(*v, p + "/gpu_activity", 0, 1);
  if (const json* v = get(o, "gpu_idle_fraction"))
    in.gpu_idle_fraction = number(*v, p + "/gpu_idle_fraction", 0, 1);
  if (const json* v = get(o, "node_overhead_w"))
    in.node_overhead_w = number(*v, p + "/node_overhead_w", 0, MAX_OVERHEAD_W);
  if (const json* v = get(o, "power_curve")) load_power_curve(*v, p + "/power_curve", in);
  return true;
}

void Loader::load_power_curve(const json& v, const std::string& p, EnergyInput& in) {
  const char* hint =
      "an array of [activity, fraction of TDP] points with activity rising from 0 to 1, e.g. "
      "[[0, 0.1], [0.5, 0.6], [1, 1]]";
  if (!v.is_array() || v.size() < 2) return wrong_type(v, p, hint);
  energy::PowerCurve curve;
  bool ok = true;
  for (size_t k = 0; k < v.size(); ++k) {
    const std::string q = child(p, k);
    const json& pt = v[k];
    if (!pt.is_array() || pt.size() != 2) {
      wrong_type(pt, q, "an [activity, fraction of TDP] pair");
      ok = false;
      continue;
    }
    const auto a = number(pt[0], child(q, 0), 0, 1);
    const auto f = number(pt[1], child(q, 1), 0, 2);
    if (!a || !f) {
      ok = false;
      continue;
    }
    if (!curve.empty() && !(*a > curve.back().first)) {
      d_.error(child(q, 0), DiagCode::out_of_range,
               "activity " + num(*a) + " is not above the point before (" +
                   num(curve.back().first) + "); list the curve in rising activity");
      ok = false;
      continue;
    }
    curve.emplace_back(*a, *f);
  }
  if (ok) in.power_curve = std::move(curve);
}

void Loader::load_energy(const json& o, Scenario& sc) {
  const std::string p = "/energy";
  if (!object(o, p, "{\"pue\": 1.1, \"region\": \"us-east-1\"}")) return;
  std::vector<std::string> keys = LEVEL_KEYS;
  keys.insert(keys.end(),
              {"grid_series", "embodied_kgco2e_per_node", "embodied_life_years", "pools"});
  check_keys(o, p, keys);
  EnergyConfig& e = sc.energy;
  load_energy_level(o, p, e.site);
  if (const json* v = get(o, "embodied_kgco2e_per_node"))
    e.embodied_kgco2e_per_node = number(*v, p + "/embodied_kgco2e_per_node", 0, 1e7);
  if (const json* v = get(o, "embodied_life_years")) {
    const auto y = number(*v, p + "/embodied_life_years", 0, 100);
    if (y && *y == 0)
      d_.error(p + "/embodied_life_years", DiagCode::out_of_range,
               "the life embodied carbon is spread over must be more than 0 years");
    else
      e.embodied_life_years = y;
  }
  if (const json* v = get(o, "grid_series")) {
    const std::string q = p + "/grid_series";
    if (auto ref = string(*v, q)) {
      if (ref->empty()) {
        d_.error(q, DiagCode::out_of_range, "the grid series path must not be empty");
      } else if (auto path =
                     find_data_file(*ref, base_dir_, opts_.data_path, "grid series", q, d_)) {
        if (auto text = read_input_file(*path, MAX_TRACE_BYTES, "grid series", q, d_)) {
          if (auto rows = parse_grid_series_csv(*text, *path, q, d_)) {
            e.grid_series_file = *path;
            e.grid_series = std::move(*rows);
          }
        }
      }
    }
  }
  if (const json* v = get(o, "pools")) {
    const std::string q = p + "/pools";
    if (!object(*v, q, "an object of pool name -> settings, e.g. {\"onprem\": {\"pue\": 1.3}}"))
      return;
    std::vector<std::string> pool_names;
    for (const Pool& pool : sc.pools) pool_names.push_back(pool.name);
    for (const auto& [name, body] : v->items()) {
      if (fields::is_comment_key(name)) continue;
      const std::string r = child(q, name);
      if (std::find(pool_names.begin(), pool_names.end(), name) == pool_names.end()) {
        d_.unknown_name(r, "pool", name, pool_names);
        continue;
      }
      if (!object(body, r)) continue;
      check_keys(body, r, LEVEL_KEYS);
      EnergyInput in;
      load_energy_level(body, r, in);
      e.pools.emplace_back(name, std::move(in));
    }
  }
}

}  // namespace gpuplan::loading
