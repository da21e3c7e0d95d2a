#include "models/input/closest_names.h"
#include "models/trace/openb_trace.h"

#include <charconv>
#include <cmath>

#include "models/catalog/catalog.h"
#include "models/input/csv_records.h"
#include "models/input/field_reader.h"
#include "models/input/input_file.h"

namespace gpuplan {
namespace {

constexpr size_t NO_COLUMN = static_cast<size_t>(-1);
constexpr uint32_t MAX_MODELS = 32;  // PodShape::gpu_types is a 32-bit mask
constexpr uint64_t MAX_GPUS = 8;     // sharing::MAX_GPUS_PER_NODE
constexpr uint64_t MILLI = 1000;

//! Rows of one CSV file with their header resolved to the columns a reader needs.
struct Table {
  std::string_view text;
  size_t i = 0;
  int line = 1;
  std::vector<size_t> col;
};

//! Reads the header of `csv` and finds `names`; records a missing column at the header line.
std::optional<Table> open_table(std::string_view csv, const std::vector<std::string>& names,
                                const std::string& file, Diagnostics& diags) {
  Table t{csv::without_bom(csv), 0, 1, {}};
  std::vector<std::string> header;
  const int header_line = t.line;
  if (csv::next_record(t.text, t.i, t.line, header) != csv::Record::ok) {
    diags.add(Diagnostic{
        file, 1, "", DiagCode::parse_error, "the file is empty; it needs a header row", {}});
    return std::nullopt;
  }
  for (auto& h : header) h = std::string(fields::trim(h));
  bool ok = true;
  for (const std::string& n : names) {
    size_t c = NO_COLUMN;
    for (size_t k = 0; k < header.size(); ++k)
      if (header[k] == n) c = k;
    if (c == NO_COLUMN) {
      ok = false;
      diags.add(Diagnostic{file, header_line, "", DiagCode::parse_error,
                           "column " + n + ": missing from the header row",
                           closest_names(n, header)});
    }
    t.col.push_back(c);
  }
  if (!ok) return std::nullopt;
  return t;
}

//! A whole number in [lo, hi] from field `text` of column `name`; records the problem otherwise.
std::optional<uint64_t> whole(std::string_view text, const char* name, uint64_t lo, uint64_t hi,
                              const std::string& file, int line, Diagnostics& diags) {
  text = fields::trim(text);
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty() || v < lo || v > hi) {
    diags.add(Diagnostic{file,
                         line,
                         "",
                         DiagCode::out_of_range,
                         std::string("column ") + name + ": " + in_quotes(text) +
                             " is not a whole number in " + std::to_string(lo) + ".." +
                             std::to_string(hi),
                         {}});
    return std::nullopt;
  }
  return v;
}

}  // namespace

std::optional<OpenbTrace> parse_openb_nodes(std::string_view csv, const std::string& file,
                                            Diagnostics& diags) {
  const size_t before = diags.size() + diags.dropped();
  auto t = open_table(csv, {"sn", "cpu_milli", "memory_mib", "gpu", "model"}, file, diags);
  if (!t) return std::nullopt;
  OpenbTrace out;
  std::vector<std::string> f;
  while (true) {
    const int line = t->line;
    if (csv::next_record(t->text, t->i, t->line, f) != csv::Record::ok) break;
    if (csv::blank(f)) continue;
    f.resize(std::max(f.size(), size_t{5}));
    const auto cpu = whole(f[t->col[1]], "cpu_milli", 0, UINT32_MAX, file, line, diags);
    const auto mem = whole(f[t->col[2]], "memory_mib", 0, UINT64_MAX / 2, file, line, diags);
    const auto gpus = whole(f[t->col[3]], "gpu", 0, MAX_GPUS, file, line, diags);
    const std::string model(fields::trim(f[t->col[4]]));
    size_t m = 0;
    while (m < out.models.size() && out.models[m] != model) ++m;
    if (m == out.models.size()) {
      if (out.models.size() == MAX_MODELS) {
        diags.add(Diagnostic{file,
                             line,
                             "",
                             DiagCode::out_of_range,
                             "column model: more than 32 GPU models in one cluster",
                             {}});
        continue;
      }
      out.models.push_back(model);
    }
    if (!cpu || !mem || !gpus) continue;
    out.nodes.push_back(OpenbNode{std::string(fields::trim(f[t->col[0]])),
                                  static_cast<uint32_t>(*cpu), *mem, static_cast<uint8_t>(*gpus),
                                  static_cast<uint8_t>(m)});
  }
  if (diags.size() + diags.dropped() > before) return std::nullopt;
  if (out.nodes.empty()) {
    diags.add(
        Diagnostic{file, t->line, "", DiagCode::parse_error, "the node list has no rows", {}});
    return std::nullopt;
  }
  return out;
}

bool parse_openb_pods(std::string_view csv, const std::string& file, OpenbTrace& trace,
                      Diagnostics& diags) {
  const size_t before = diags.size() + diags.dropped();
  auto t = open_table(csv,
                      {"name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli", "gpu_spec",
                       "creation_time", "deletion_time"},
                      file, diags);
  if (!t) return false;
  std::vector<std::string> f;
  while (true) {
    const int line = t->line;
    if (csv::next_record(t->text, t->i, t->line, f) != csv::Record::ok) break;
    if (csv::blank(f)) continue;
    f.resize(std::max(f.size(), size_t{11}));
    const auto cpu = whole(f[t->col[1]], "cpu_milli", 0, UINT32_MAX, file, line, diags);
    const auto mem = whole(f[t->col[2]], "memory_mib", 0, UINT64_MAX / 2, file, line, diags);
    const auto gpus = whole(f[t->col[3]], "num_gpu", 0, MAX_GPUS, file, line, diags);
    const auto milli = whole(f[t->col[4]], "gpu_milli", 0, MILLI, file, line, diags);
    const auto created = whole(f[t->col[6]], "creation_time", 0, UINT32_MAX, file, line, diags);
    const auto deleted = whole(f[t->col[7]], "deletion_time", 0, UINT32_MAX, file, line, diags);
    const auto bad = [&](const char* column, const std::string& msg) {
      diags.add(Diagnostic{file,
                           line,
                           "",
                           DiagCode::out_of_range,
                           std::string("column ") + column + ": " + msg,
                           {}});
    };
    if (gpus && milli) {
      if (*gpus == 0 && *milli != 0)
        bad("gpu_milli", std::to_string(*milli) + " milli-GPU for a pod with num_gpu 0; use 0");
      if (*gpus > 0 && *milli == 0)
        bad("gpu_milli", "0 for a pod with num_gpu " + std::to_string(*gpus) +
                             "; a GPU pod asks for 1..1000 milli-GPU");
      if (*gpus > 1 && *milli != MILLI)
        bad("gpu_milli", std::to_string(*milli) + " with num_gpu " + std::to_string(*gpus) +
                             "; a pod with several GPUs takes them whole (1000)");
    }
    if (created && deleted && *deleted < *created)
      bad("deletion_time",
          std::to_string(*deleted) + " is before creation_time " + std::to_string(*created));
    uint32_t types = 0;
    const std::string spec(fields::trim(f[t->col[5]]));
    for (size_t a = 0; a <= spec.size() && !spec.empty();) {
      size_t b = spec.find('|', a);
      if (b == std::string::npos) b = spec.size();
      const std::string model = spec.substr(a, b - a);
      a = b + 1;
      if (model.empty()) continue;
      size_t m = 0;
      while (m < trace.models.size() && trace.models[m] != model) ++m;
      if (m == trace.models.size()) {
        diags.add(Diagnostic{file, line, "", DiagCode::unknown_name,
                             "column gpu_spec: no node has GPU model " + in_quotes(model) +
                                 did_you_mean(closest_names(model, trace.models)),
                             closest_names(model, trace.models)});
        continue;
      }
      types |= 1u << m;
    }
    if (types == 0) types = 0xFFFFFFFFu;
    if (!cpu || !mem || !gpus || !milli || !created || !deleted) continue;
    trace.pods.push_back(
        OpenbPod{std::string(fields::trim(f[t->col[0]])), static_cast<uint32_t>(*cpu), *mem,
                 static_cast<uint8_t>(*gpus), static_cast<uint16_t>(*milli), types,
                 static_cast<double>(*created), static_cast<double>(*deleted), line});
  }
  return diags.size() + diags.dropped() == before;
}

std::optional<OpenbTrace> read_openb(const std::string& nodes_path, const std::string& pods_path,
                                     Diagnostics& diags) {
  const auto nodes_text = read_input_file(nodes_path, MAX_TRACE_BYTES, "node list", "", diags);
  const auto pods_text = read_input_file(pods_path, MAX_TRACE_BYTES, "pod list", "", diags);
  if (!nodes_text || !pods_text) return std::nullopt;
  auto trace = parse_openb_nodes(*nodes_text, nodes_path, diags);
  if (!trace) return std::nullopt;
  if (!parse_openb_pods(*pods_text, pods_path, *trace, diags)) return std::nullopt;
  return trace;
}

}  // namespace gpuplan
