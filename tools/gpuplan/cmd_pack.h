#pragma once
//! `gpuplan pack openb`: shared-GPU packing policies on the Alibaba openb trace
//! (tools/gpuplan/cmd_pack.cpp). Declared beside its command rather than in commands.h.
#include <CLI/CLI.hpp>

namespace gpuplan::cli {

//! Registers `pack` and its `openb` subcommand on `app`; the callback sets `exit_code`.
CLI::App* add_pack_command(CLI::App& app, int& exit_code);

}  // namespace gpuplan::cli
