#pragma once
//! Data files found by name: a scenario names a trace or table ("philly_jobs.csv") and gpuplan
//! finds it on a search path (the scenario's folder, then --data-dir, GPUPLAN_DATA and the
//! shared data folder next to the project), checks its SHA-256 where the scenario gives one,
//! and, when it is missing, says where the file comes from and how to point gpuplan at it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/input/diagnostic.h"
#include "models/input/sha256.h"

namespace gpuplan {

//! Environment variable holding extra data folders, separated by ':' (like PATH).
inline constexpr const char* DATA_PATH_ENV = "GPUPLAN_DATA";

//! A public data file gpuplan's scenarios and tests know by name.
struct KnownDataFile {
  std::string_view name;         //!< file name as scenarios write it
  std::string_view description;  //!< what it holds, with the paper to cite
  std::string_view origin;       //!< repository @ commit : path it was copied from unchanged
};

//! The known public data files (shared/data/README.md), in a fixed order.
[[nodiscard]] const std::vector<KnownDataFile>& known_data_files();

//! The known data file called `name` (its last path component), or nullptr.
[[nodiscard]] const KnownDataFile* find_known_data_file(std::string_view name);

//! The shared data folders next to the project: `../shared/data` beside the source tree gpuplan
//! was built from, and beside the project two levels above the running executable (a build
//! folder inside the project), without duplicates; independent of the working directory.
[[nodiscard]] std::vector<std::string> project_data_dirs();

//! The data search path after the scenario's folder: `cli_dirs` (--data-dir, in order), then
//! the entries of `env_value` (GPUPLAN_DATA's value, ':'-separated, empty entries ignored), then
//! project_data_dirs().
[[nodiscard]] std::vector<std::string> data_search_path(const std::vector<std::string>& cli_dirs,
                                                        const char* env_value);

//! data_search_path({}, getenv(GPUPLAN_DATA)): the default of LoadOptions::data_path.
[[nodiscard]] std::vector<std::string> default_data_path();

//! Where the file a scenario names as `ref` is: an absolute `ref` as given; a relative one
//! first under `base_dir` (the scenario's folder; the working directory when ""), then under
//! each folder of `data_path` in order. The first path that exists wins (lexically normal);
//! nullopt when none does.
[[nodiscard]] std::optional<std::string> resolve_data_file(
    const std::string& ref, const std::string& base_dir, const std::vector<std::string>& data_path);

//! The message for a data file that is not found: names `ref` and the folders searched, the
//! file's public origin when it is a known one, and how to point gpuplan at a folder holding it
//! (--data-dir DIR or GPUPLAN_DATA=DIR). Contains "not found on the data path".
[[nodiscard]] std::string missing_data_file_message(const std::string& ref, std::string_view what,
                                                    const std::string& base_dir,
                                                    const std::vector<std::string>& data_path);

//! Whether `s` is 64 hex digits (either case): the form of a SHA-256 a scenario may give.
[[nodiscard]] bool is_sha256_hex(std::string_view s);

//! resolve_data_file, recording an io_error at `pointer` with missing_data_file_message when
//! the file is not found; `what` names the kind of file ("trace file").
[[nodiscard]] std::optional<std::string> find_data_file(
    const std::string& ref, const std::string& base_dir, const std::vector<std::string>& data_path,
    std::string_view what, const std::string& pointer, Diagnostics& diags);

//! Checks that `bytes`, read from `path`, hash to `expected` (hex, either case); on a mismatch
//! records an io_error at `pointer` naming the file and both hashes and returns false.
[[nodiscard]] bool check_sha256(std::string_view bytes, const std::string& expected,
                                const std::string& path, const std::string& pointer,
                                Diagnostics& diags);

}  // namespace gpuplan
