#pragma once
//! Each `gpuplan` subcommand lives in its own file and registers itself here. A command's callback
//! stores its exit status in `exit_code`: 0 success, 2 invalid input, 1 internal failure.
#include <CLI/CLI.hpp>

namespace gpuplan::cli {

CLI::App* add_run_command(CLI::App& app, int& exit_code);
CLI::App* add_validate_command(CLI::App& app, int& exit_code);
CLI::App* add_catalog_command(CLI::App& app, int& exit_code);
//! `catalog import`, a subcommand of `catalog` (tools/gpuplan/cmd_catalog_import.cpp).
CLI::App* add_catalog_import_command(CLI::App* catalog, int& exit_code);
CLI::App* add_mc_command(CLI::App& app, int& exit_code);
CLI::App* add_sweep_command(CLI::App& app, int& exit_code);
CLI::App* add_quote_command(CLI::App& app, int& exit_code);
CLI::App* add_recommend_command(CLI::App& app, int& exit_code);
CLI::App* add_compare_command(CLI::App& app, int& exit_code);
CLI::App* add_estimate_command(CLI::App& app, int& exit_code);
//! `serve`: the quote page on a local HTTP server (tools/gpuplan_serve/cmd_serve.cpp). It lives
//! in the program gpuplan-serve, beside gpuplan, which `gpuplan serve` becomes (exec), so the
//! other commands never load the HTTP server and its TLS libraries.
CLI::App* add_serve_command(CLI::App& app, int& exit_code);
inline constexpr const char* SERVE_SUMMARY =
    "Serve the quote page (a form, live results, downloads) locally";
//! `pack openb`: shared-GPU packing policies on the Alibaba openb trace
//! (tools/gpuplan/cmd_pack.cpp).
CLI::App* add_pack_command(CLI::App& app, int& exit_code);

//! `serve-sim`: LLM serving simulated iteration by iteration (tools/gpuplan/cmd_serve_sim.cpp).
CLI::App* add_serve_sim_command(CLI::App& app, int& exit_code);

}  // namespace gpuplan::cli
