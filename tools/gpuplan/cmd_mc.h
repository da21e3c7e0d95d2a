#pragma once
//! What `gpuplan mc` and `gpuplan sweep` share: the Monte Carlo options and one study run from a
//! loaded scenario to its output folder (so a sweep point is exactly a lone `mc` run).
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "models/scenario.h"
#include "sim/mc_run.h"
#include "tools/gpuplan/common.h"

namespace gpuplan::cli {

//! Monte Carlo options of `mc` and `sweep`, on top of the scenario options.
struct McCliOptions {
  ScenarioOptions scenario;
  uint32_t replications = 100;
  uint32_t max_replications = 10000;
  std::string backend = "auto";  //!< auto | cpu | cuda
  uint32_t threads = 0;          //!< 0 = OpenMP default
  uint32_t batch = 0;            //!< 0 = sized from memory
  double target_ci = 0;          //!< 0 = run exactly --replications
};

//! Adds the scenario options and --replications, --max-replications, --backend, --threads,
//! --batch and --target-ci to a subcommand.
void add_mc_options(CLI::App* cmd, McCliOptions& o);

//! The backend --backend names: `auto` takes CUDA when it is compiled in and a device is present.
//! `cuda` without a usable device prints why on stderr and returns nullopt (invalid input, exit 2).
[[nodiscard]] std::optional<McBackend> resolve_backend(const std::string& name);

//! False, after saying why on stderr, when `command` cannot run as one of the processes an MPI
//! launcher started (MpiSession::error, sim/mc_mpi.h).
[[nodiscard]] bool mpi_ready(const MpiSession& mpi, std::string_view command);

//! Runs the study of a loaded scenario and writes result.json, report.html, replicas.csv,
//! timeseries.csv and classes.csv into `dir`. `label` prefixes progress lines. Returns the exit
//! status (0, or 1 when the folder cannot be written) and the result document in `result`.
//! Inside an MpiSession (sim/mc_mpi.h) every process must call it: the replicas are split across
//! them, only rank 0 prints and writes, and every process gets rank 0's result.
int run_study(const Scenario& sc, const McCliOptions& o, McBackend backend,
              const std::filesystem::path& dir, const std::string& label, nlohmann::json& result);

//! Input checks that every MPI process makes alike while only rank 0 prints: on other ranks
//! std::cerr is held back from construction until agree() (or destruction).
class AgreedInputCheck {
 public:
  explicit AgreedInputCheck(const ProcessGroup& g);
  ~AgreedInputCheck();
  AgreedInputCheck(const AgreedInputCheck&) = delete;
  AgreedInputCheck& operator=(const AgreedInputCheck&) = delete;

  //! True when every process passed its checks (`ok`); call it on every process. A process whose
  //! checks failed while rank 0's passed (e.g. no GPU on its machine) prints what it held back,
  //! prefixed with its rank, and rank 0 says that another process rejected the input.
  [[nodiscard]] bool agree(bool ok);

 private:
  ProcessGroup g_;
  std::ostringstream held_;
  std::streambuf* cerr_ = nullptr;  //!< std::cerr's buffer while it is held back
  void release();
};

}  // namespace gpuplan::cli
