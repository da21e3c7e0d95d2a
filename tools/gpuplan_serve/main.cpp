//! gpuplan-serve: the program `gpuplan serve` becomes (tools/gpuplan/main.cpp execs it with the
//! same arguments), so only the quote server links cpp-httplib and its TLS, compression and
//! socket code; every other command starts without loading them.
#include "tools/gpuplan/commands.h"
#include "tools/gpuplan/run_app.h"

int main(int argc, char** argv) {
  CLI::App app{"gpuplan - GPU cluster simulator and capacity-planning engine"};
  app.require_subcommand(1);
  app.set_version_flag("--version", GPUPLAN_VERSION);
  int exit_code = 0;
  gpuplan::cli::add_serve_command(app, exit_code);
  return gpuplan::cli::run_app(app, argc, argv, exit_code);
}
