//! gpuplan: GPU cluster simulator and capacity-planning engine (CLI contract: ARCHITECTURE.md §3).
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>

#include "sim/backends/beside_executable.h"
#include "sim/backends/mc_mpi.h"
#include "tools/gpuplan/commands.h"
#include "tools/gpuplan/run_app.h"

namespace {

//! Subcommands that split their replicas across MPI processes (sim/backends/mc_mpi.h).
bool splits_across_processes(std::string_view command) {
  return command == "mc" || command == "sweep" || command == "recommend" || command == "compare";
}

//! `gpuplan serve ARGS`: becomes gpuplan-serve (beside this program) with the same arguments;
//! returns only when that program cannot be started.
int exec_serve(char** argv) {
  const std::string program = gpuplan::beside_executable("gpuplan-serve").string();
  execv(program.c_str(), argv);
  std::cerr << "gpuplan serve: cannot start " << program << " (" << std::strerror(errno)
            << "); tools/setup.sh builds it beside gpuplan (or: ninja -C build gpuplan-serve)\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  // NOTE: under mpirun every process would run any other command in full and write the same
  // files; say so before any work is done.
  if (argc > 1 && gpuplan::launcher_process_count() > 1 && argv[1][0] != '-' &&
      !splits_across_processes(argv[1])) {
    std::cerr << "gpuplan " << argv[1]
              << ": this command does not split its work across MPI processes; run it without "
                 "mpirun (only `gpuplan mc`, `sweep`, `recommend` and `compare` do)\n";
    return 2;
  }
  if (argc > 1 && std::string_view(argv[1]) == "serve") return exec_serve(argv);
  CLI::App app{"gpuplan - GPU cluster simulator and capacity-planning engine"};
  app.require_subcommand(1);
  app.set_version_flag("--version", GPUPLAN_VERSION);
  int exit_code = 0;
  gpuplan::cli::add_run_command(app, exit_code);
  gpuplan::cli::add_validate_command(app, exit_code);
  gpuplan::cli::add_catalog_command(app, exit_code);
  gpuplan::cli::add_mc_command(app, exit_code);
  gpuplan::cli::add_sweep_command(app, exit_code);
  gpuplan::cli::add_quote_command(app, exit_code);
  gpuplan::cli::add_recommend_command(app, exit_code);
  gpuplan::cli::add_compare_command(app, exit_code);
  gpuplan::cli::add_estimate_command(app, exit_code);
  // NOTE: listed for --help only; `gpuplan serve` became gpuplan-serve above.
  app.add_subcommand("serve", gpuplan::cli::SERVE_SUMMARY);
  gpuplan::cli::add_pack_command(app, exit_code);
  gpuplan::cli::add_serve_sim_command(app, exit_code);
  return gpuplan::cli::run_app(app, argc, argv, exit_code);
}
