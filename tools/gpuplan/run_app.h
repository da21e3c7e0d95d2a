#pragma once
//! Parses the command line into a gpuplan program's subcommands and runs the one named, with the
//! exit statuses every gpuplan program shares (ARCHITECTURE.md §3).
#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>
#include <new>

namespace gpuplan::cli {

//! Exit status when memory ran out (0 done, 1 internal error, 2 invalid input).
inline constexpr int EXIT_OUT_OF_MEMORY = 3;

//! Runs `app` on the command line; `exit_code` is what the subcommand's callback stored.
inline int run_app(CLI::App& app, int argc, char** argv, const int& exit_code) {
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

}  // namespace gpuplan::cli
