#pragma once
//! Small POSIX file pieces shared by the output writers (reports/output_folder.*,
//! reports/jobs_csv_file.*).
#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace gpuplan::reports {

//! ".<file name of path><suffix>": a hidden name to create beside `path`.
[[nodiscard]] std::string hidden_name(const std::filesystem::path& path, std::string_view suffix);

//! The process's umask, so created files get the permissions a plain create would give.
[[nodiscard]] mode_t current_umask();

//! Writes all `n` bytes to `fd`, retrying on EINTR; 0 when done, else the errno (ENOSPC when
//! write() made no progress).
[[nodiscard]] int write_all(int fd, const char* data, std::size_t n);

}  // namespace gpuplan::reports
