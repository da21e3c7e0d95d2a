#include "models/input/data_files.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "models/input/input_file.h"

namespace gpuplan {
namespace fs = std::filesystem;

namespace {

// The project's sources, compiled in so a build finds `../shared/data` from any working folder.
#ifndef GPUPLAN_PROJECT_DIR
#define GPUPLAN_PROJECT_DIR ""
#endif

// Folder of the running executable ("" when /proc/self/exe cannot be read).
fs::path executable_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

// Appends `dir` to `out` unless empty or already there.
void add_unique(std::vector<std::string>& out, const std::string& dir) {
  if (dir.empty() || std::find(out.begin(), out.end(), dir) != out.end()) return;
  out.push_back(dir);
}

// Whether anything exists at `p` (a file, a folder, a FIFO: reading decides what is usable).
bool path_exists(const fs::path& p) {
  std::error_code ec;
  return fs::exists(p, ec) && !ec;
}

}  // namespace

const std::vector<KnownDataFile>& known_data_files() {
  static const std::vector<KnownDataFile> files = {
      {"philly_jobs.csv",
       "the condensed Microsoft Philly trace (Jeon et al., ATC'19; used by Pollux, OSDI'21)",
       "https://github.com/petuum/adaptdl @ c793c708 : simulator/traces/philly.csv"},
      {"tiresias_60_jobs.csv", "the Tiresias 60-job trace (Gu et al., NSDI'19)",
       "https://github.com/SymbioticLab/Tiresias @ 959f9b08 : simulator/60_job.csv"},
      {"alibaba_openb_pods.csv",
       "the Alibaba openb GPU pod list (Weng et al., \"Beware of Fragmentation\", ATC'23)",
       "https://github.com/alibaba/clusterdata @ 7a6c496e : "
       "cluster-trace-gpu-v2023/csv/openb_pod_list_default.csv"},
      {"alibaba_openb_nodes.csv", "the Alibaba openb GPU node list (Weng et al., ATC'23)",
       "https://github.com/alibaba/clusterdata @ 7a6c496e : "
       "cluster-trace-gpu-v2023/csv/openb_node_list_gpu_node.csv"},
      {"bamboo_p3_spot_trace.csv", "an AWS p3 spot add/remove trace (Thorpe et al., NSDI'23)",
       "https://github.com/uclasystem/bamboo @ 80809293 : traces/p3-trace.csv"},
      {"bamboo_gcp_a100_preemptible.txt",
       "live GCP preemptible 1xA100 VM counts (Thorpe et al., NSDI'23)",
       "https://github.com/uclasystem/bamboo @ 80809293 : traces/gcloud/a100x1-east1b.txt"},
      {"gavel_simulation_throughputs.json",
       "Gavel's measured job throughputs (Narayanan et al., OSDI'20)",
       "https://github.com/stanford-futuredata/gavel @ c4fa4009 : "
       "scheduler/simulation_throughputs.json"},
      {"azure_llm_inference_conv_2023.csv",
       "the Azure LLM inference trace, conversation (Patel et al., \"Splitwise\", ISCA'24)",
       "https://github.com/Azure/AzurePublicDataset @ b469a11 : "
       "data/AzureLLMInferenceTrace_conv.csv"},
      {"azure_llm_inference_code_2023.csv",
       "the Azure LLM inference trace, code completion (Patel et al., ISCA'24)",
       "https://github.com/Azure/AzurePublicDataset @ b469a11 : "
       "data/AzureLLMInferenceTrace_code.csv"},
  };
  return files;
}

const KnownDataFile* find_known_data_file(std::string_view name) {
  const std::string base = fs::path(std::string(name)).filename().string();
  for (const KnownDataFile& f : known_data_files())
    if (f.name == base) return &f;
  return nullptr;
}

std::vector<std::string> project_data_dirs() {
  std::vector<std::string> dirs;
  const std::string project = GPUPLAN_PROJECT_DIR;
  if (!project.empty())
    add_unique(dirs, (fs::path(project) / ".." / "shared" / "data").lexically_normal().string());
  // NOTE: also beside the executable's project (build/gpuplan -> build/../../shared/data), so a
  // clone moved after its build still finds the folder next to it.
  const fs::path exe_dir = executable_dir();
  if (!exe_dir.empty())
    add_unique(dirs, (exe_dir / ".." / ".." / "shared" / "data").lexically_normal().string());
  return dirs;
}

std::vector<std::string> data_search_path(const std::vector<std::string>& cli_dirs,
                                          const char* env_value) {
  std::vector<std::string> dirs;
  for (const std::string& d : cli_dirs) add_unique(dirs, d);
  if (env_value != nullptr) {
    const std::string_view env(env_value);
    size_t start = 0;
    while (start <= env.size()) {
      const size_t end = std::min(env.find(':', start), env.size());
      add_unique(dirs, std::string(env.substr(start, end - start)));
      start = end + 1;
    }
  }
  for (const std::string& d : project_data_dirs()) add_unique(dirs, d);
  return dirs;
}

std::vector<std::string> default_data_path() {
  return data_search_path({}, std::getenv(DATA_PATH_ENV));
}

std::optional<std::string> resolve_data_file(const std::string& ref, const std::string& base_dir,
                                             const std::vector<std::string>& data_path) {
  const fs::path path(ref);
  if (path.is_absolute()) {
    if (path_exists(path)) return path.lexically_normal().string();
    return std::nullopt;
  }
  const fs::path local = base_dir.empty() ? path : fs::path(base_dir) / path;
  if (path_exists(local)) return local.lexically_normal().string();
  for (const std::string& dir : data_path) {
    const fs::path p = fs::path(dir) / path;
    if (path_exists(p)) return p.lexically_normal().string();
  }
  return std::nullopt;
}

std::string missing_data_file_message(const std::string& ref, std::string_view what,
                                      const std::string& base_dir,
                                      const std::vector<std::string>& data_path) {
  std::string msg = std::string(what) + " " + in_quotes(escape_for_message(ref, 200)) +
                    " not found on the data path";
  if (fs::path(ref).is_absolute()) {
    msg += " (an absolute path is used as given)";
  } else {
    msg += " (looked in ";
    msg += base_dir.empty()
               ? std::string("the working folder")
               : "the scenario's folder " + in_quotes(escape_for_message(base_dir, 200));
    for (const std::string& d : data_path) msg += ", " + in_quotes(escape_for_message(d, 200));
    msg += ")";
  }
  if (const KnownDataFile* k = find_known_data_file(ref)) {
    msg += "; it is " + std::string(k->description) + ", public at " + std::string(k->origin);
    msg +=
        "; download it unchanged into a folder and run gpuplan with --data-dir FOLDER or "
        "GPUPLAN_DATA=FOLDER";
  } else {
    msg +=
        "; give its path relative to the scenario file, or point gpuplan at the folder that "
        "holds it with --data-dir FOLDER or GPUPLAN_DATA=FOLDER";
  }
  return msg;
}

std::optional<std::string> find_data_file(const std::string& ref, const std::string& base_dir,
                                          const std::vector<std::string>& data_path,
                                          std::string_view what, const std::string& pointer,
                                          Diagnostics& diags) {
  auto found = resolve_data_file(ref, base_dir, data_path);
  if (!found)
    diags.error(pointer, DiagCode::io_error,
                missing_data_file_message(ref, what, base_dir, data_path));
  return found;
}

bool is_sha256_hex(std::string_view s) {
  return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
           return std::isxdigit(static_cast<unsigned char>(c)) != 0;
         });
}

bool check_sha256(std::string_view bytes, const std::string& expected, const std::string& path,
                  const std::string& pointer, Diagnostics& diags) {
  std::string want = expected;
  std::transform(want.begin(), want.end(), want.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const std::string got = sha256_hex(bytes);
  if (got == want) return true;
  diags.error(pointer, DiagCode::io_error,
              "the file " + in_quotes(escape_for_message(path, 200)) + " has SHA-256 " + got +
                  ", but the scenario expects " + want +
                  "; it is not the file the scenario was written for (replace it with the "
                  "published file, or update \"sha256\" if the change is intended)");
  return false;
}

}  // namespace gpuplan
