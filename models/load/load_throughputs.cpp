// Per-class speeds on each GPU type (docs/scheduling-policies.md, "GPU-type-aware policies"):
// inline `workload[].speed` maps, or the isolated throughputs of Gavel's throughput file
// (top-level `throughputs`) for a class's `gavel_job_type`.
#include "models/input/data_files.h"
#include "models/input/input_file.h"
#include "models/load/loader.h"
#include "models/perf/throughputs.h"

namespace gpuplan::loading {
namespace {

//! Largest throughput file read [bytes] (Gavel's is 1.3 MB).
constexpr uint64_t MAX_THROUGHPUTS_BYTES = 64ull << 20;

//! The GPU type of pool `pool_idx` with the pool's name and pointer, for messages.
std::string pool_label(const Scenario& sc, size_t pool_idx) {
  return "GPU type \"" + sc.pools[pool_idx].gpu->id + "\" (pool \"" + sc.pools[pool_idx].name +
         "\", /pools/" + std::to_string(pool_idx) + ")";
}

//! The speed the class gives GPU `gpu`, or nullptr.
const double* speed_of(const JobClass& jc, const GpuSpec& gpu) {
  for (const auto& [g, speed] : jc.gpu_speeds)
    if (g->id == gpu.id) return &speed;
  return nullptr;
}

}  // namespace

void Loader::load_class_speed(const json& o, const std::string& p, JobClass& jc) {
  if (const json* v = get(o, "gavel_job_type"))
    jc.gavel_job_type = string(*v, p + "/gavel_job_type").value_or("");
  const json* v = get(o, "speed");
  if (v == nullptr) return;
  const std::string sp = p + "/speed";
  if (o.contains("gavel_job_type")) {
    d_.error(sp, DiagCode::out_of_range,
             "\"speed\" and \"gavel_job_type\" both set the class's speeds; give one");
    return;
  }
  if (!object(*v, sp, "GPU model -> relative speed, e.g. {\"V100-16GB\": 1.0, \"K80\": 0.3}"))
    return;
  for (const auto& [id, x] : v->items()) {
    const std::string ip = child(sp, id);
    const GpuSpec* gpu = catalog_.find_gpu(id);
    if (gpu == nullptr) {
      std::vector<std::string> ids;
      for (const auto& g : catalog_.gpus) ids.push_back(g.id);
      d_.unknown_name(ip, "GPU model", id, ids);
      continue;
    }
    const std::optional<double> speed = number(x, ip, 0, 1e12);
    if (!speed) continue;
    if (!(*speed > 0)) {
      d_.error(ip, DiagCode::out_of_range,
               "a speed must be positive (a throughput, e.g. steps/s), got " + num(*speed));
      continue;
    }
    // NOTE: the loader's catalog copy dies with the loader; pools point into the built-in one.
    if (const GpuSpec* builtin = builtin_catalog().find_gpu(gpu->id))
      jc.gpu_speeds.emplace_back(builtin, *speed);
  }
}

void Loader::load_throughputs(const json* v, Scenario& sc) {
  std::optional<GavelThroughputs> table;
  std::string file;
  if (v != nullptr &&
      object(*v, "/throughputs", "{\"file\": \"gavel_simulation_throughputs.json\"}")) {
    check_keys(*v, "/throughputs", {"file", "sha256"});
    const json* f = need(*v, "/throughputs", "file", "Gavel's simulation_throughputs.json");
    const std::optional<std::string> ref = f ? string(*f, "/throughputs/file") : std::nullopt;
    const std::optional<std::string> path =
        ref ? find_data_file(*ref, base_dir_, opts_.data_path, "throughput file",
                             "/throughputs/file", d_)
            : std::nullopt;
    const std::optional<std::string> text =
        path ? read_input_file(*path, MAX_THROUGHPUTS_BYTES, "throughput file", "/throughputs/file",
                               d_)
             : std::nullopt;
    bool hash_ok = true;
    if (text && v->contains("sha256")) {
      const auto h = string((*v)["sha256"], "/throughputs/sha256");
      hash_ok = h && check_sha256(*text, *h, *path, "/throughputs/sha256", d_);
    }
    if (text && hash_ok) {
      const json doc = json::parse(*text, nullptr, false);
      std::string why = doc.is_discarded() ? "it is not valid JSON" : "";
      if (!doc.is_discarded()) table = parse_gavel_throughputs(doc, why);
      if (!table) d_.error("/throughputs/file", DiagCode::parse_error, *ref + ": " + why);
      file = *ref;
    }
  }
  for (JobClass& jc : sc.workload) {
    const std::string tp = jc.pointer + "/gavel_job_type";
    if (!jc.gavel_job_type.empty()) {
      if (v == nullptr) {
        d_.error(tp, DiagCode::missing_key,
                 "a Gavel job type needs the top-level \"throughputs\": {\"file\": "
                 "\"gavel_simulation_throughputs.json\"}");
        continue;
      }
      if (!table) continue;  // the file's own error is recorded
      const std::vector<std::string> types = gavel_job_types(*table);
      if (std::find(types.begin(), types.end(), jc.gavel_job_type) == types.end()) {
        d_.unknown_name(tp, "Gavel job type", jc.gavel_job_type, types);
        continue;
      }
      // NOTE: a class of one GPU count reads the entry at that scale factor (the whole job's
      // throughput); a class of mixed sizes reads scale factor 1.
      const uint32_t scale = !jc.trace && jc.gpus.values.size() == 1 ? jc.gpus.values[0] : 1;
      const std::string key = gavel_key(jc.gavel_job_type, scale);
      for (size_t p = 0; p < sc.pools.size(); ++p) {
        const GpuSpec* gpu = sc.pools[p].gpu;
        if (gpu == nullptr || !jc.may_use(p) || speed_of(jc, *gpu)) continue;
        const std::string worker = gavel_worker_type(*gpu);
        const auto w = table->isolated.find(worker);
        const auto t = w == table->isolated.end() ? std::map<std::string, double>::const_iterator{}
                                                  : w->second.find(key);
        if (w == table->isolated.end() || t == w->second.end()) {
          d_.error(tp, DiagCode::unknown_name,
                   file + " has no throughput of " + key + " on worker type \"" + worker +
                       "\" for " + pool_label(sc, p) +
                       "; remove the pool from the class's \"pools\" or give \"speed\" instead");
          continue;
        }
        jc.gpu_speeds.emplace_back(gpu, t->second);
      }
      if (jc.reference_gpu && !speed_of(jc, *jc.reference_gpu)) {
        const auto w = table->isolated.find(gavel_worker_type(*jc.reference_gpu));
        const auto t = w == table->isolated.end() ? std::map<std::string, double>::const_iterator{}
                                                  : w->second.find(key);
        if (w != table->isolated.end() && t != w->second.end())
          jc.gpu_speeds.emplace_back(jc.reference_gpu, t->second);
      }
    }
    if (jc.gpu_speeds.empty()) continue;
    const std::string sp = jc.gavel_job_type.empty() ? jc.pointer + "/speed" : tp;
    for (size_t p = 0; p < sc.pools.size(); ++p) {
      if (sc.pools[p].gpu == nullptr || !jc.may_use(p) || speed_of(jc, *sc.pools[p].gpu)) continue;
      if (!jc.gavel_job_type.empty()) continue;  // reported above
      d_.error(sp, DiagCode::missing_key,
               "no speed for " + pool_label(sc, p) +
                   ", which the class may use; give one for "
                   "every GPU type of its pools");
    }
    if (jc.reference_gpu && !speed_of(jc, *jc.reference_gpu)) {
      d_.error(sp, DiagCode::missing_key,
               "no speed for the class's reference_gpu \"" + jc.reference_gpu->id +
                   "\", on which its durations are given");
    }
  }
}

}  // namespace gpuplan::loading
