//! gpuplan: GPU cluster simulator and capacity-planning engine (CLI contract: ARCHITECTURE.md §3).
#include <exception>
#include <iostream>

#include "tools/gpuplan/commands.h"

int main(int argc, char** argv) {
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
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; every other command-line mistake is invalid input (2).
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  } catch (const std::exception& e) {
    std::cerr << "gpuplan: internal error (please report it): " << e.what() << "\n";
    return 1;
  }
  return exit_code;
}
