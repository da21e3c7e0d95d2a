#include "reports/jobs_csv_file.h"

#include "reports/posix_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace gpuplan::reports {
namespace {

// NOTE: 256 KiB per write() call: the text is still in the core's L2 cache when the kernel
// copies it into the page cache, which made that copy 3-4x cheaper than with 4 MB calls
// (docs/performance.md, --jobs throughput), and 2,200 calls for 560 MB cost nothing.
constexpr std::size_t TEXT_CHUNK = std::size_t(256) << 10;  // [bytes]

// NOTE: a flusher thread makes each 16 MiB durable (fdatasync) while the simulation goes on, so
// commit()'s fsync waits only for the tail. The disk's cost is in the flush, not in the write:
// fdatasync of 560 MB written in one go took 0.21 s here, even after its pages had been handed
// to the disk (sync_file_range); flushed as it grows, the final fsync took 4-6 ms (29 ms with
// 64 MiB steps, the same run time with 8 MiB).
constexpr uint64_t FLUSH_CHUNK = uint64_t(16) << 20;  // [bytes]

std::string cannot_write(int err) {
  return std::string("cannot write: ") + std::strerror(err);
}

}  // namespace

JobsCsvFile::JobsCsvFile(std::filesystem::path path, std::span<const std::string> class_names,
                         std::span<const std::string> pool_names)
    : path_(std::move(path)), csv_(class_names, pool_names) {
  std::error_code ec;
  if (path_.filename().empty() || std::filesystem::is_directory(path_, ec)) {
    error_ = "is a folder; name a file, e.g. " + (path_ / "jobs.csv").string();
    return;
  }
  // NOTE: mkstemp: a fresh name opened O_EXCL, so a planted file or symlink is never written.
  std::string tmpl = (path_.parent_path() / hidden_name(path_, ".XXXXXX")).string();
  fd_ = ::mkostemp(tmpl.data(), O_CLOEXEC);
  if (fd_ < 0) {
    const int why = errno;
    const std::filesystem::path dir = path_.parent_path().empty() ? "." : path_.parent_path();
    error_ = std::filesystem::is_directory(dir, ec)
                 ? "cannot write into " + dir.string() + ": " + std::strerror(why)
             : std::filesystem::exists(dir, ec) ? dir.string() + " is not a folder"
                                                : "the folder " + dir.string() + " does not exist";
    return;
  }
  tmp_ = tmpl;
  ::fchmod(fd_, 0666 & ~current_umask());
  writer_ = std::thread([this] { writer_loop(); });
  flusher_ = std::thread([this] { flusher_loop(); });
}

JobsCsvFile::~JobsCsvFile() {
  stop_writer();
  discard();
}

void JobsCsvFile::write(const JobRecord* records, std::size_t n) {
  if (fd_ < 0 || finished_) throw std::logic_error("JobsCsvFile::write: the file is not open");
  if (n == 0) return;
  std::size_t slot = 0;
  {
    std::unique_lock lock(mutex_);
    drained_.wait(lock, [this] { return n_filled_ < SLOTS || failure_; });
    if (failure_) std::rethrow_exception(failure_);
    slot = (first_ + n_filled_) % SLOTS;
  }
  // NOTE: the writer reads only filled slots, so this copy needs no lock.
  slots_[slot].assign(records, records + n);
  {
    const std::lock_guard lock(mutex_);
    ++n_filled_;
  }
  filled_.notify_one();
  rows_ += n;
}

void JobsCsvFile::writer_loop() {
  try {
    std::vector<char> text(TEXT_CHUNK + csv_.row_max());
    const std::string_view header = JobsCsv::header();
    std::memcpy(text.data(), header.data(), header.size());
    std::size_t used = header.size();
    for (;;) {
      const std::vector<JobRecord>* chunk = nullptr;
      {
        std::unique_lock lock(mutex_);
        filled_.wait(lock, [this] { return n_filled_ > 0 || closing_; });
        if (n_filled_ == 0) break;
        chunk = &slots_[first_];
      }
      for (const JobRecord& job : *chunk) {
        if (used >= TEXT_CHUNK) {
          write_text(text.data(), used);
          used = 0;
        }
        used = std::size_t(csv_.write_row(job, text.data() + used) - text.data());
      }
      {
        const std::lock_guard lock(mutex_);
        first_ = (first_ + 1) % SLOTS;
        --n_filled_;
      }
      drained_.notify_one();
    }
    write_text(text.data(), used);
  } catch (...) {
    {
      const std::lock_guard lock(mutex_);
      failure_ = std::current_exception();
    }
    drained_.notify_one();
  }
}

void JobsCsvFile::write_text(const char* data, std::size_t n) {
  if (const int err = write_all(fd_, data, n)) throw JobsCsvWriteError(cannot_write(err));
  written_ += n;
  if (written_ - flush_asked_ < FLUSH_CHUNK) return;
  flush_asked_ = written_;
  {
    const std::lock_guard lock(mutex_);
    flush_wanted_ = true;
  }
  flush_.notify_one();
}

void JobsCsvFile::flusher_loop() {
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      flush_.wait(lock, [this] { return flush_wanted_ || flusher_stop_; });
      if (flusher_stop_) return;
      flush_wanted_ = false;
    }
    // NOTE: Linux reports a writeback error to one fsync per open file only, so the first one
    // met here is kept for finish().
    if (::fdatasync(fd_) != 0 && flush_error_ == 0) flush_error_ = errno;
  }
}

void JobsCsvFile::stop_writer() {
  if (writer_.joinable()) {
    {
      const std::lock_guard lock(mutex_);
      closing_ = true;
    }
    filled_.notify_one();
    writer_.join();
  }
  if (flusher_.joinable()) {
    {
      const std::lock_guard lock(mutex_);
      flusher_stop_ = true;
    }
    flush_.notify_one();
    flusher_.join();
  }
}

void JobsCsvFile::discard() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  std::error_code ec;
  if (!tmp_.empty()) std::filesystem::remove(tmp_, ec);
  tmp_.clear();
}

bool JobsCsvFile::finish() {
  if (finished_) return error_.empty();
  if (fd_ < 0) return false;  // never opened; error() says why
  finished_ = true;
  stop_writer();
  if (failure_) {
    try {
      std::rethrow_exception(failure_);
    } catch (const JobsCsvWriteError& e) {
      error_ = e.what();
      discard();
      return false;
    } catch (...) {
      discard();
      throw;
    }
  }
  // NOTE: on disk before the rename, so a crash never leaves a renamed but empty file.
  const bool synced = flush_error_ == 0 && ::fsync(fd_) == 0;
  const int sync_why = flush_error_ != 0 ? flush_error_ : errno;
  const int closed = ::close(fd_);
  const int why = synced ? errno : sync_why;
  fd_ = -1;
  if (!synced || closed != 0) {
    error_ = cannot_write(why);
    discard();
    return false;
  }
  return true;
}

bool JobsCsvFile::commit() {
  if (!finish()) return false;
  if (tmp_.empty()) return true;  // committed before
  std::error_code ec;
  std::filesystem::rename(tmp_, path_, ec);
  if (ec) {
    error_ = "cannot write: " + ec.message();
    discard();
    return false;
  }
  tmp_.clear();
  return true;
}

}  // namespace gpuplan::reports
