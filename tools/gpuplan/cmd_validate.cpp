//! `gpuplan validate SCENARIO...`: check scenario files; nothing is simulated or written.
#include <iostream>

#include "models/load/load.h"
#include "tools/gpuplan/commands.h"
#include "tools/gpuplan/common.h"
#include "tools/gpuplan/console.h"

namespace gpuplan::cli {

CLI::App* add_validate_command(CLI::App& app, int& exit_code) {
  struct Options {
    std::vector<std::string> files;
    std::vector<std::string> overrides;
    std::vector<std::string> data_dirs;
    std::string errors = "text";
  };
  auto* cmd = app.add_subcommand("validate", "Check scenario files without running them");
  auto o = std::make_shared<Options>();
  cmd->add_option("SCENARIO", o->files, "Scenario files")->required();
  cmd->add_option("--set", o->overrides, "Override a scenario value: PATH=VALUE (repeatable)");
  add_data_dir_option(cmd, o->data_dirs);
  cmd->add_option("--errors", o->errors, "Format of input errors")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->callback([o, &exit_code] {
    exit_code = 0;
    for (const auto& f : o->files) {
      Diagnostics diags;
      LoadOptions lo;
      lo.overrides = o->overrides;
      lo.data_path = data_path(o->data_dirs);
      const auto sc = load_scenario(f, lo, diags);
      if (sc && diags.ok()) {
        // NOTE: a load at or above capacity is a warning, not an error: the scenario is valid and
        // `run` simulates it (e.g. to see how the queue grows).
        std::cout << f << ": ok\n";
        std::cout.flush();
        print_load_warnings(*sc);
      } else {
        print_diagnostics(diags, o->errors);
        exit_code = 2;
      }
    }
  });
  return cmd;
}

}  // namespace gpuplan::cli
