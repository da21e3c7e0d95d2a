#include "reports/posix_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace gpuplan::reports {

std::string hidden_name(const std::filesystem::path& path, std::string_view suffix) {
  // NOTE: built with append, not "." + s, which trips GCC 12's -Wrestrict false positive.
  return std::string(".").append(path.filename().string()).append(suffix);
}

mode_t current_umask() {
  const mode_t m = ::umask(022);
  ::umask(m);
  return m;
}

int write_all(int fd, const char* data, std::size_t n) {
  while (n > 0) {
    const ssize_t written = ::write(fd, data, n);
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) return errno;
    if (written == 0) return ENOSPC;
    data += written;
    n -= std::size_t(written);
  }
  return 0;
}

}  // namespace gpuplan::reports
