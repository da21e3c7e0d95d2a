#include "reports/output_folder.h"

#include "reports/posix_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>

namespace gpuplan::reports {
namespace {

namespace fs = std::filesystem;

// Every file name a gpuplan command writes into its output folder (docs/outputs.md).
constexpr std::string_view OUR_FILES[] = {"result.json",
                                          "report.html",
                                          "timeseries.csv",
                                          "classes.csv",
                                          "replicas.csv",
                                          "teams.csv",
                                          "sweep.json",
                                          "sweep.csv",
                                          "sweep.html",
                                          "compare.json",
                                          "compare.html",
                                          "recommendation.json",
                                          "quote.html",
                                          "quote.json",
                                          "quote.pdf",
                                          "metrics.om",
                                          "grafana_dashboard.json",
                                          "prometheus_rules.yml"};

bool is_our_file(const std::string& name, const std::vector<std::string>& also_ours) {
  // NOTE: ".name.tmp" are the temporary files of gpuplan versions before the staged folder.
  if (name.size() > 5 && name.front() == '.' && name.ends_with(".tmp")) return true;
  return std::find(std::begin(OUR_FILES), std::end(OUR_FILES), name) != std::end(OUR_FILES) ||
         std::find(also_ours.begin(), also_ours.end(), name) != also_ours.end();
}

// "point-12", "a", "b": the subfolders of sweep and compare.
bool is_our_folder(const std::string& name) {
  if (name == "a" || name == "b") return true;
  return name.size() > 6 && name.starts_with("point-") &&
         std::all_of(name.begin() + 6, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The absolute target with the symlinks of its existing part resolved.
fs::path resolved(const fs::path& target, std::error_code& ec) {
  return fs::weakly_canonical(fs::absolute(target, ec), ec);
}

// `inner` is `outer` or inside it (both absolute and normal).
bool is_within(const fs::path& inner, const fs::path& outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
    if (o->empty()) continue;  // a trailing separator
    if (i == inner.end() || *i != *o) return false;
  }
  return true;
}

// The first entry of folder `dir` gpuplan did not write ("" when none), e.g. "point-3/notes.txt".
std::string first_foreign_entry(const fs::path& dir, const std::vector<std::string>& also_ours,
                                bool top, std::error_code& ec) {
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    std::error_code type_ec;
    const bool folder = e.is_directory(type_ec) && !e.is_symlink(type_ec);
    if (!folder && e.is_regular_file(type_ec) && !e.is_symlink(type_ec) &&
        is_our_file(name, also_ours))
      continue;
    if (folder && top && is_our_folder(name)) {
      const std::string inner = first_foreign_entry(e.path(), {}, false, ec);
      if (ec) return "";
      if (inner.empty()) continue;
      return name + "/" + inner;
    }
    return name;
  }
  return "";
}

// fsync of a folder, so the entries written or renamed in it survive a crash.
bool sync_folder(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::fsync(fd) == 0;
  return ::close(fd) == 0 && ok;
}

}  // namespace

std::string output_folder_problem(const fs::path& target,
                                  const std::vector<std::string>& also_ours) {
  std::error_code ec;
  const fs::path abs = resolved(target, ec);
  const std::string shown = target.string();
  if (ec) return shown + ": cannot resolve the output folder: " + ec.message();
  const fs::path cwd = fs::current_path(ec);
  if (!abs.has_relative_path() || (!ec && is_within(cwd, abs)))
    return shown +
           ": the output folder is the current folder or one above it; gpuplan replaces its "
           "output folder as a whole, so name a folder of its own (e.g. out/run1)";
  const fs::file_status st = fs::status(abs, ec);
  if (ec && ec != std::errc::no_such_file_or_directory)
    return shown + ": cannot read the output folder: " + ec.message();
  if (!fs::exists(st)) return "";
  if (!fs::is_directory(st)) return shown + ": exists and is not a folder; name a folder";
  const std::string foreign = first_foreign_entry(abs, also_ours, true, ec);
  if (ec) return shown + ": cannot list the output folder: " + ec.message();
  if (!foreign.empty())
    return shown + ": the output folder holds \"" + foreign +
           "\", which gpuplan did not write; gpuplan replaces its output folder as a whole, so "
           "name a new folder, an empty one, or one that holds only gpuplan outputs";
  return "";
}

std::unique_ptr<OutputFolder> OutputFolder::stage(const fs::path& target, std::string& error,
                                                  const std::vector<std::string>& also_ours) {
  error = output_folder_problem(target, also_ours);
  if (!error.empty()) return nullptr;
  std::error_code ec;
  const fs::path abs = resolved(target, ec);
  const fs::path parent = abs.parent_path();
  fs::create_directories(parent, ec);
  if (ec) {
    error = parent.string() + ": cannot create the folder: " + ec.message();
    return nullptr;
  }
  std::string tmpl = (parent / hidden_name(abs, ".gpuplan-XXXXXX")).string();
  if (::mkdtemp(tmpl.data()) == nullptr) {
    error = parent.string() + ": cannot write into this folder: " + std::strerror(errno);
    return nullptr;
  }
  return std::unique_ptr<OutputFolder>(new OutputFolder(abs, tmpl, also_ours));
}

OutputFolder::~OutputFolder() {
  for (const Unsynced& u : unsynced_) ::close(u.fd);
  if (staging_.empty()) return;
  std::error_code ec;
  fs::remove_all(staging_, ec);
}

fs::path OutputFolder::staged(const std::string& relative) const {
  return staging_ / relative;
}

bool OutputFolder::write(const std::string& relative, std::string_view content) {
  if (staging_.empty()) {
    error_ = target_.string() + ": already published; nothing more can be written";
    return false;
  }
  // At most one subfolder level, no empty, "." or ".." parts: a name never leaves the folder.
  const size_t slash = relative.find('/');
  const std::string first = relative.substr(0, slash);
  const std::string rest = slash == std::string::npos ? "" : relative.substr(slash + 1);
  const auto bad_part = [](const std::string& p) {
    return p.empty() || p == "." || p == ".." || p.find('\0') != std::string::npos;
  };
  if (bad_part(first) ||
      (slash != std::string::npos && (bad_part(rest) || rest.find('/') != std::string::npos))) {
    error_ = "\"" + relative + "\": not a file name inside the output folder";
    return false;
  }
  if (slash != std::string::npos && ::mkdir((staging_ / first).c_str(), 0777) != 0 &&
      errno != EEXIST) {
    error_ = (target_ / first).string() + ": cannot create the folder: " + std::strerror(errno);
    return false;
  }
  const fs::path path = staging_ / relative;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) {
    error_ = (target_ / relative).string() + ": cannot create: " + std::strerror(errno);
    return false;
  }
  const int write_errno = write_all(fd, content.data(), content.size());
  if (write_errno != 0) {
    ::close(fd);
    error_ = (target_ / relative).string() + ": cannot write: " + std::strerror(write_errno);
    return false;
  }
  // NOTE: the disk writes the file while the next one is rendered; commit() waits for it. A
  // file system without sync_file_range simply starts at the fsync.
  ::sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
  unsynced_.push_back(Unsynced{fd, relative});
  return unsynced_.size() <= MAX_UNSYNCED || sync_written();
}

bool OutputFolder::sync_written() {
  bool ok = true;
  for (const Unsynced& u : unsynced_) {
    int why = ok && ::fsync(u.fd) != 0 ? errno : 0;
    if (::close(u.fd) != 0 && why == 0) why = errno;
    if (ok && why != 0) {
      error_ = (target_ / u.relative).string() + ": cannot write: " + std::strerror(why);
      ok = false;
    }
  }
  unsynced_.clear();
  return ok;
}

bool OutputFolder::commit() {
  if (staging_.empty()) return true;
  if (!sync_written()) return false;
  // NOTE: re-checked here because a long run gives the target time to change.
  if (std::string problem = output_folder_problem(target_, also_ours_); !problem.empty()) {
    error_ = std::move(problem);
    return false;
  }
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(staging_, ec)) {
    if (e.is_directory(ec) &&
        (!sync_folder(e.path()) || ::chmod(e.path().c_str(), 0777 & ~current_umask()) != 0)) {
      error_ = (target_ / e.path().filename()).string() + ": cannot flush the folder to disk";
      return false;
    }
  }
  if (ec || !sync_folder(staging_) || ::chmod(staging_.c_str(), 0777 & ~current_umask()) != 0) {
    error_ = target_.string() + ": cannot flush the staged output folder to disk";
    return false;
  }
  // A new target appears with one rename; an existing one is swapped with the staged folder in
  // one step (the old files then sit at the staging path and are removed).
  bool swapped = false;
  if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, target_.c_str(), RENAME_NOREPLACE) != 0) {
    const int why = errno;
    if (why == EEXIST) {
      swapped =
          ::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) == 0;
      if (!swapped && (errno == EINVAL || errno == ENOSYS)) {
        // NOTE: a file system without RENAME_EXCHANGE: move the old folder aside first (the
        // target is then briefly absent, never mixed).
        std::string aside =
            (target_.parent_path() / hidden_name(target_, ".gpuplan-old-XXXXXX")).string();
        if (::mkdtemp(aside.data()) != nullptr) {
          if (::rename(target_.c_str(), aside.c_str()) != 0) {
            ::rmdir(aside.c_str());
          } else if (::rename(staging_.c_str(), target_.c_str()) != 0) {
            ::rename(aside.c_str(), target_.c_str());  // put the old folder back
          } else {
            swapped = true;
            staging_ = aside;
          }
        }
      }
      if (!swapped) {
        error_ = target_.string() + ": cannot replace the output folder: " + std::strerror(errno);
        return false;
      }
    } else if ((why == EINVAL || why == ENOSYS) &&
               ::rename(staging_.c_str(), target_.c_str()) == 0) {
      // a file system without renameat2 flags, and no target yet
    } else {
      error_ = target_.string() + ": cannot publish the output folder: " + std::strerror(why);
      return false;
    }
  }
  const fs::path old = swapped ? staging_ : fs::path();
  staging_.clear();
  sync_folder(target_.parent_path());
  if (!old.empty()) fs::remove_all(old, ec);
  return true;
}

}  // namespace gpuplan::reports
