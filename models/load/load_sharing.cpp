// Shared GPUs in a scenario (docs/sharing.md, "In the engine"): a pool's "mig" layout,
// "time_slicing" or "fractional" packing, a class's "mig" profile, "gpu_share" or "gpu_milli",
// and the checks between them.
#include "models/load/loader.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "models/compile/compile_sharing.h"

namespace gpuplan::loading {
namespace {

//! GPU ids that have a MIG table, for messages.
std::string mig_gpu_list() {
  std::string out;
  for (uint32_t g = 0; g < sharing::N_MIG_GPUS; ++g)
    out += (g ? ", " : "") + std::string(sharing::mig_spec(static_cast<sharing::MigGpu>(g)).gpu_id);
  return out;
}

//! The profile names of one GPU's MIG table.
std::vector<std::string> profile_names(const sharing::MigGpuSpec& spec) {
  std::vector<std::string> out;
  for (uint32_t i = 0; i < spec.n_profiles; ++i) out.emplace_back(spec.profiles[i].name);
  return out;
}

//! Places instances [i, n) of `layout` beside the memory slices in `used`, each at one of its
//! profile's vendor start slots; true when all fit (every placement tried, at most 7 deep).
bool place_from(const sharing::MigGpuSpec& spec, sharing::MigLayout& layout, uint32_t i,
                uint8_t used) {
  if (i == layout.n) return true;
  sharing::MigInstance& inst = layout.instances[i];
  const sharing::MigProfile& p = spec.profiles[inst.profile_idx];
  for (uint8_t s = 0; s < sharing::MIG_MEMORY_SLICES; ++s) {
    if ((p.start_mask & (1u << s)) == 0) continue;
    inst.start = s;
    const uint8_t mask = sharing::mig_slice_mask(spec, inst);
    if ((used & mask) == 0 && place_from(spec, layout, i + 1, static_cast<uint8_t>(used | mask)))
      return true;
  }
  return false;
}

//! "3g.40gb + 2g.20gb + 2g.20gb"
std::string layout_text(const sharing::MigGpuSpec& spec, const sharing::MigLayout& layout) {
  std::string out;
  for (uint32_t i = 0; i < layout.n; ++i)
    out += (i ? " + " : "") + std::string(spec.profiles[layout.instances[i].profile_idx].name);
  return out;
}

//! The packing rules a fractional pool takes (sim/sharing/pack_policy.h's names).
const std::vector<std::string> FRACTIONAL_PACKING = {"best_fit", "worst_fit"};

//! [MiB] of "<number>GB" (GB taken as GiB, as GPU memory is sold: "80GB" fits an 80GB GPU),
//! "<number>MiB", or a number of GB; nullopt when unreadable or not above 0.
std::optional<double> memory_mib(const nlohmann::json& v) {
  if (v.is_number()) return v.get<double>() * 1024;
  if (!v.is_string()) return std::nullopt;
  const std::string s = v.get<std::string>();
  size_t end = 0;
  double x = 0;
  try {
    x = std::stod(s, &end);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  std::string unit = s.substr(end);
  unit.erase(0, unit.find_first_not_of(' '));
  for (char& ch : unit) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (!std::isfinite(x)) return std::nullopt;
  if (unit == "gb" || unit == "gib") return x * 1024;
  if (unit == "mib" || unit == "mb") return x;
  return std::nullopt;
}

}  // namespace

void Loader::load_pool_sharing(const json& o, const std::string& p, Pool& pool) {
  const json* mig = get(o, "mig");
  const json* ts = get(o, "time_slicing");
  const json* frac = get(o, "fractional");
  if ((mig != nullptr) + (ts != nullptr) + (frac != nullptr) > 1) {
    d_.error(p + (frac != nullptr ? "/fractional" : "/time_slicing"), DiagCode::infeasible,
             "a pool's GPUs are either MIG-partitioned, time-sliced or fractional, not two of "
             "them; split the pool");
    return;
  }
  if (frac != nullptr) {
    const std::string q = p + "/fractional";
    if (!object(*frac, q, "an object, e.g. {\"packing\": \"best_fit\"}")) return;
    check_keys(*frac, q, {"packing"});
    pool.sharing.kind = ShareKind::fractional;
    pool.sharing.pointer = q;
    if (const json* v = get(*frac, "packing"))
      if (auto k = choice(*v, q + "/packing", "packing rule", FRACTIONAL_PACKING))
        pool.sharing.packing = static_cast<PackPolicy>(*k);
    return;
  }
  if (ts != nullptr) {
    const std::string q = p + "/time_slicing";
    if (!object(*ts, q, "an object, e.g. {\"replicas\": 4, \"interference\": 0.1}")) return;
    check_keys(*ts, q, {"replicas", "interference"});
    pool.sharing.kind = ShareKind::time_sliced;
    pool.sharing.pointer = q;
    if (const json* v = need(*ts, q, "replicas", "jobs one GPU takes at most, e.g. 4"))
      pool.sharing.replicas = static_cast<uint32_t>(
          integer(*v, q + "/replicas", 1, MAX_TIME_SLICE_REPLICAS).value_or(1));
    pool.sharing.interference = opt_number(*ts, q, "interference", 0, 10).value_or(0);
    return;
  }
  if (mig == nullptr) return;
  const std::string q = p + "/mig";
  pool.sharing.kind = ShareKind::mig;
  pool.sharing.pointer = q;
  // Entries: "3g.40gb" or "<count>x<profile>" ("7x1g.10gb"), as one string or an array of them.
  std::vector<std::pair<std::string, std::string>> entries;  // (pointer, text)
  if (mig->is_string()) {
    entries.emplace_back(q, mig->get<std::string>());
  } else if (mig->is_array() && !mig->empty()) {
    for (size_t k = 0; k < mig->size(); ++k)
      if (auto s = string((*mig)[k], child(q, k))) entries.emplace_back(child(q, k), *s);
  } else {
    return wrong_type(*mig, q,
                      "a MIG layout of one GPU: profile names such as [\"3g.40gb\", \"2g.20gb\", "
                      "\"2g.20gb\"] or \"7x1g.10gb\"");
  }
  if (pool.gpu == nullptr) return;  // the instance is already reported
  const sharing::MigGpuSpec* spec = sharing::find_mig_spec(pool.gpu->id.c_str());
  if (spec == nullptr) {
    d_.error(
        q, DiagCode::infeasible,
        "GPU " + in_quotes(pool.gpu->id) + " has no MIG; MIG is modelled on " + mig_gpu_list());
    return;
  }
  pool.sharing.mig = spec;
  sharing::MigLayout& layout = pool.sharing.layout;
  layout.n = 0;
  for (const auto& [ptr, text] : entries) {
    uint64_t n = 1;
    std::string name = text;
    if (const size_t x = text.find('x');
        x != std::string::npos && x > 0 && std::all_of(text.begin(), text.begin() + x, ::isdigit)) {
      n = std::stoull(text.substr(0, x));
      name = text.substr(x + 1);
    }
    const int idx = sharing::find_mig_profile(*spec, name.c_str());
    if (idx < 0) {
      d_.unknown_name(ptr, "MIG profile of " + std::string(spec->gpu_id), name,
                      profile_names(*spec));
      return;
    }
    if (n == 0 || layout.n + n > sharing::MAX_MIG_INSTANCES) {
      d_.error(ptr, DiagCode::out_of_range,
               "a MIG layout has 1 to " + std::to_string(sharing::MAX_MIG_INSTANCES) +
                   " instances per GPU; " + in_quotes(text) + " makes it " +
                   std::to_string(layout.n + n));
      return;
    }
    for (uint64_t k = 0; k < n; ++k)
      layout.instances[layout.n++] = sharing::MigInstance{static_cast<uint8_t>(idx), 0};
  }
  const std::string what =
      "MIG layout " + layout_text(*spec, layout) + " on one " + std::string(spec->gpu_id);
  // Too many of one profile is the vendor's count rule; otherwise try every vendor placement.
  uint32_t count[sharing::MAX_MIG_PROFILES] = {};
  for (uint32_t i = 0; i < layout.n; ++i) {
    const sharing::MigProfile& prof = spec->profiles[layout.instances[i].profile_idx];
    if (++count[layout.instances[i].profile_idx] == uint32_t{prof.max_instances} + 1) {
      d_.error(q, DiagCode::infeasible,
               what + ": " + sharing::mig_layout_error_text(sharing::MigLayoutError::too_many) +
                   " (" + prof.name + ": at most " + std::to_string(prof.max_instances) + ")");
      return;
    }
  }
  if (!place_from(*spec, layout, 0, 0)) {
    uint32_t slices = 0;
    for (uint32_t i = 0; i < layout.n; ++i)
      slices += spec->profiles[layout.instances[i].profile_idx].memory_slices;
    d_.error(q, DiagCode::infeasible,
             what + " is not a layout the vendor allows: its instances need " +
                 std::to_string(slices) +
                 " of 8 memory slices and no placement of them is among "
                 "the vendor's (docs/sharing.md, \"MIG profiles and placements\")");
    return;
  }
  const sharing::MigLayoutCheck check = sharing::check_mig_layout(*spec, layout);
  if (check.error != sharing::MigLayoutError::ok)  // NOTE: place_from only builds valid layouts
    d_.error(q, DiagCode::infeasible, what + ": " + sharing::mig_layout_error_text(check.error));
}

void Loader::load_class_sharing(const json& o, const std::string& p, JobClass& jc) {
  const json* mig = get(o, "mig");
  const json* share = get(o, "gpu_share");
  const json* milli = get(o, "gpu_milli");
  if ((mig != nullptr) + (share != nullptr) + (milli != nullptr) > 1) {
    d_.error(p + (milli != nullptr ? "/gpu_milli" : "/gpu_share"), DiagCode::infeasible,
             "a class asks for one of a MIG instance (\"mig\"), a time-sliced GPU "
             "(\"gpu_share\") or a milli-GPU share (\"gpu_milli\"), not two");
    return;
  }
  const json* memory = get(o, "gpu_memory");
  if (memory != nullptr && milli == nullptr)
    d_.error(p + "/gpu_memory", DiagCode::infeasible,
             "\"gpu_memory\" goes with \"gpu_milli\" (a fractional GPU share)");
  if (milli != nullptr) {
    jc.share.kind = ShareKind::fractional;
    jc.share.pointer = p + "/gpu_milli";
    if (milli->is_number() && (milli->get<double>() <= 0 || milli->get<double>() > MILLI_PER_GPU))
      d_.error(p + "/gpu_milli", DiagCode::out_of_range,
               "a fractional job holds 1 to 1000 milli-GPU of one GPU; got " + milli->dump());
    else if (auto n = integer(*milli, p + "/gpu_milli", 1, MILLI_PER_GPU))
      jc.share.milli = static_cast<uint32_t>(*n);
    if (memory != nullptr) {
      const std::optional<double> mib = memory_mib(*memory);
      if (!mib)
        d_.error(p + "/gpu_memory", DiagCode::bad_unit,
                 "GPU memory as \"20GB\", \"512MiB\" or a number of GB; got " + memory->dump());
      else if (!(*mib > 0) || *mib > 1e9)
        d_.error(p + "/gpu_memory", DiagCode::out_of_range,
                 "GPU memory is above 0 and at most 1e9 MiB; got " + memory->dump());
      else
        jc.share.mem_mib = static_cast<uint32_t>(std::ceil(*mib));
    }
    if (get(o, "gpu_fraction") != nullptr)
      d_.error(p + "/gpu_fraction", DiagCode::infeasible,
               "\"gpu_fraction\" cannot be used with \"gpu_milli\": a fractional job's milli is "
               "a guaranteed share and it runs at full speed (docs/sharing.md, \"Fractional "
               "GPUs\")");
  }
  if (mig != nullptr) {
    if (auto s = name(*mig, p + "/mig")) {
      jc.share.kind = ShareKind::mig;
      jc.share.mig_profile = *s;
      jc.share.pointer = p + "/mig";
    }
  } else if (share != nullptr) {
    if (choice(*share, p + "/gpu_share", "GPU share", {"time_sliced"})) {
      jc.share.kind = ShareKind::time_sliced;
      jc.share.pointer = p + "/gpu_share";
    }
  }
  if (const json* v = get(o, "gpu_fraction")) {
    if (auto u = number(*v, p + "/gpu_fraction", 0, 1)) {
      if (*u <= 0) {
        d_.error(p + "/gpu_fraction", DiagCode::out_of_range,
                 "a job uses more than 0 and at most 1 of a GPU's compute; got 0");
      } else {
        jc.share.fraction = *u;
      }
    }
  }
  if (jc.share.kind == ShareKind::whole) return;
  for (const char* key :
       {"gpus", "trace", "checkpoint", "spot_tolerant", "spot_fallback", "training"}) {
    // NOTE: "spot_tolerant": false (as the scenario echo writes it) asks for nothing.
    if (o.contains(key) && !(std::string(key) == "spot_tolerant" && o[key] == false))
      d_.error(child(p, key), DiagCode::infeasible,
               in_quotes(key) + " cannot be used with " +
                   in_quotes(jc.share.pointer.substr(p.size() + 1)) +
                   ": a shared-GPU job takes one MIG instance, one time-sliced replica or a "
                   "milli-GPU share, is drawn from the class's arrival and duration, and runs "
                   "without checkpoints or spot");
  }
  jc.gpus.values = {1};  // one (shared) GPU, for the host-side estimates
  jc.gpus.probs = {1.0};
}

void Loader::check_sharing(const Scenario& sc) {
  bool any = false;
  for (const Pool& pool : sc.pools) any |= pool.sharing.kind != ShareKind::whole;
  for (const JobClass& jc : sc.workload) any |= jc.share.kind != ShareKind::whole;
  if (!any) return;
  // Pools: what a shared pool cannot combine with (yet).
  for (const Pool& pool : sc.pools) {
    if (pool.sharing.kind == ShareKind::whole) continue;
    if (pool.econ.spot || pool.econ.elastic || !pool.purchases.empty() || pool.spares > 0 ||
        !pool.maintenance.empty())
      d_.error(pool.sharing.pointer, DiagCode::infeasible,
               "a shared pool (MIG, time-sliced or fractional) keeps all its nodes for the whole "
               "run: spot, "
               "elastic, staged purchases, spares and maintenance windows are not modelled with "
               "sharing");
  }
  const bool ranked_ok =
      sc.scheduler.queue == QueuePolicy::fifo || sc.scheduler.queue == QueuePolicy::backfill ||
      sc.scheduler.queue == QueuePolicy::sjf || sc.scheduler.queue == QueuePolicy::fifo_perf;
  const std::string why = " (shared GPUs do not model preemption, teams or failures)";
  if (!ranked_ok)
    d_.error("/scheduler/queue", DiagCode::infeasible,
             "shared GPUs run under fifo, backfill, sjf or fifo_perf" + why);
  if (!sc.teams.empty())
    d_.error("/teams", DiagCode::infeasible, "teams cannot be combined with shared GPUs" + why);
  if (sc.failures)
    d_.error("/failures", DiagCode::infeasible,
             "hardware failures cannot be combined with shared GPUs" + why);
  bool priorities = false;
  for (const JobClass& jc : sc.workload) priorities |= jc.priority != sc.workload[0].priority;
  if (priorities && sc.scheduler.priority_preemption)
    d_.error(
        "/scheduler/priority_preemption", DiagCode::infeasible,
        "classes of different priority preempt each other; set it to false with shared GPUs" + why);
  // Classes: each needs a pool that serves its request, and names none that cannot.
  for (const JobClass& jc : sc.workload) {
    bool served = false;
    for (size_t k = 0; k < sc.pools.size(); ++k) {
      // NOTE: a MIG pool whose GPU has no table is reported already; it counts as serving.
      const PoolSharing& ps = sc.pools[k].sharing;
      const bool unknown = ps.kind == ShareKind::mig && ps.mig == nullptr;
      const bool serves = unknown || serving_entries(ps, jc.share) != 0;
      served |= serves && jc.may_use(k);
      if (serves && jc.may_use(k) && jc.share.kind == ShareKind::fractional &&
          sc.pools[k].gpu != nullptr && jc.share.mem_mib > gpu_mem_mib(*sc.pools[k].gpu))
        d_.error(jc.pointer + "/gpu_memory", DiagCode::infeasible,
                 "a job of this class asks for " + std::to_string(jc.share.mem_mib) +
                     " MiB of GPU memory; one " + sc.pools[k].gpu->id + " of pool " +
                     in_quotes(sc.pools[k].name) + " has " +
                     std::to_string(gpu_mem_mib(*sc.pools[k].gpu)) + " MiB");
      const auto at = std::find(jc.pool_indices.begin(), jc.pool_indices.end(), k);
      if (serves || at == jc.pool_indices.end()) continue;
      const Pool& pool = sc.pools[k];
      std::string offers =
          pool.sharing.kind == ShareKind::mig
              ? "MIG instances " + layout_text(*pool.sharing.mig, pool.sharing.layout)
          : pool.sharing.kind == ShareKind::time_sliced ? "time-sliced GPUs"
          : pool.sharing.kind == ShareKind::fractional  ? "fractional (milli-GPU) GPUs"
                                                        : "whole GPUs";
      d_.error(jc.pointer + "/pools/" + std::to_string(at - jc.pool_indices.begin()),
               DiagCode::infeasible,
               "pool " + in_quotes(pool.name) + " offers " + offers + ", which this class (" +
                   (jc.share.kind == ShareKind::mig           ? "MIG " + jc.share.mig_profile
                    : jc.share.kind == ShareKind::time_sliced ? "a time-sliced GPU"
                    : jc.share.kind == ShareKind::fractional  ? "a milli-GPU share"
                                                              : "whole GPUs") +
                   ") cannot use");
    }
    if (served) continue;
    std::string offered;
    for (const Pool& pool : sc.pools)
      if (pool.sharing.kind == ShareKind::mig && pool.sharing.mig != nullptr)
        offered += (offered.empty() ? "" : "; ") + in_quotes(pool.name) + ": " +
                   layout_text(*pool.sharing.mig, pool.sharing.layout);
    const std::string ptr = jc.share.kind == ShareKind::whole ? jc.pointer : jc.share.pointer;
    d_.error(
        ptr, DiagCode::infeasible,
        jc.share.kind == ShareKind::mig
            ? "no pool this class may use offers MIG profile " + in_quotes(jc.share.mig_profile) +
                  (offered.empty() ? "; no pool has a \"mig\" layout" : "; MIG pools: " + offered)
        : jc.share.kind == ShareKind::time_sliced
            ? std::string("no pool this class may use is time-sliced; give a pool "
                          "\"time_slicing\": {\"replicas\": N}")
        : jc.share.kind == ShareKind::fractional
            ? std::string("no pool this class may use is fractional; give a pool "
                          "\"fractional\": {\"packing\": \"best_fit\"}")
            : std::string("every pool this class may use shares its GPUs; a class asking for "
                          "whole GPUs needs a pool without \"mig\", \"time_slicing\" or "
                          "\"fractional\""));
  }
}

}  // namespace gpuplan::loading
