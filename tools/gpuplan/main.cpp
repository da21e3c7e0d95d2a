//! gpuplan: GPU cluster simulator and capacity-planning engine (CLI contract: ARCHITECTURE.md §3).
#include <exception>
#include <new>
#include <iostream>
#include <string_view>

#include "sim/backends/mc_mpi.h"
#include "tools/gpuplan/commands.h"

namespace {

//! Subcommands that split their replicas across MPI processes (sim/backends/mc_mpi.h).
bool splits_across_processes(std::string_view command) {
  return command == "mc" || command == "sweep" || command == "recommend" || command == "compare";
}

//! Exit status when memory ran out (0 done, 1 internal error, 2 invalid input).
constexpr int EXIT_OUT_OF_MEMORY = 3;

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
  gpuplan::cli::add_serve_command(app, exit_code);
  gpuplan::cli::add_pack_command(app, exit_code);
  gpuplan::cli::add_serve_sim_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; every other command-line mistake is invalid input (2).
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  } catch (const std::bad_alloc&) {
    // NOTE: neither a bug (1) nor bad input (2): the work did not fit in memory
    // (docs/reliability.md).
    std::cerr << "gpuplan: out of memory: this scenario needs more memory than the process may "
                 "use; make it smaller (topology, job count, horizon) or run it on a larger "
                 "machine\n";
    return EXIT_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    std::cerr << "gpuplan: internal error (please report it): " << e.what() << "\n";
    return 1;
  }
  return exit_code;
}
