#pragma once
//! The per-job CSV streamed to a file by a writer thread while the simulation runs.
#include "reports/jobs_csv.h"

#include <array>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace gpuplan::reports {

//! A write to the per-job CSV failed (disk full, I/O error, file size limit); what() names the
//! file and the system's reason.
class JobsCsvWriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

//! Streams the per-job CSV to a file: a hidden temp file beside the target is opened up front (so
//! an unwritable place is found before simulating); write() copies each chunk of records into one
//! of SLOTS buffers and returns, while a writer thread formats the previous chunks
//! (JobsCsv) and writes them in 256 KiB write() calls, in order, so the bytes never depend on
//! timing; a flusher thread makes the file durable (fdatasync) as it grows, so commit()'s fsync
//! has only the tail left before it renames the file into place. Memory is bounded: the slots plus
//! one text buffer. A writer destroyed uncommitted, or one whose writes failed, removes its temp
//! file, so a failed run leaves nothing behind.
class JobsCsvFile {
 public:
  //! Opens the temp file and starts the writer and flusher threads; check error() before using it.
  JobsCsvFile(std::filesystem::path path, std::span<const std::string> class_names,
              std::span<const std::string> pool_names);
  ~JobsCsvFile();
  JobsCsvFile(const JobsCsvFile&) = delete;
  JobsCsvFile& operator=(const JobsCsvFile&) = delete;

  //! Why `path` cannot be written ("" when it can): a missing folder, a folder, no permission,
  //! or, after finish() or commit() failed, the failed write.
  [[nodiscard]] const std::string& error() const { return error_; }

  //! Queues rows for records[0..n) (copied; they may change after the call), waiting while every
  //! slot is full. Rethrows what the writer thread has met so far: JobsCsvWriteError when a
  //! disk write failed, std::out_of_range for a record with an unnamed class or pool.
  void write(const JobRecord* records, std::size_t n);

  //! Writes what is queued, stops the writer thread and closes the temp file; false (with
  //! error()) when any write or the close failed, and the temp file is then removed. Rethrows a
  //! std::out_of_range the writer met. Idempotent.
  bool finish();

  //! finish(), then renames the file into place; false (with error()) when either fails.
  bool commit();

  //! Rows queued so far.
  [[nodiscard]] uint64_t rows() const { return rows_; }

 private:
  void writer_loop();
  void write_text(const char* data, std::size_t n);  // writer thread: all of it, or throws
  void flusher_loop();  // flusher thread: fdatasync each FLUSH_CHUNK as it is written
  void stop_writer();   // joins the writer, then the flusher
  void discard();       // closes and removes the temp file

  std::filesystem::path path_, tmp_;
  int fd_ = -1;
  bool finished_ = false;
  JobsCsv csv_;  //!< used by the writer thread only
  std::string error_;
  uint64_t rows_ = 0;

  static constexpr std::size_t SLOTS = 3;  //!< record chunks in flight
  std::mutex mutex_;
  std::condition_variable filled_, drained_;
  std::array<std::vector<JobRecord>, SLOTS> slots_;
  std::size_t first_ = 0;       //!< oldest filled slot (guarded by mutex_)
  std::size_t n_filled_ = 0;    //!< slots waiting for the writer (guarded by mutex_)
  bool closing_ = false;        //!< no more chunks will come (guarded by mutex_)
  std::exception_ptr failure_;  //!< the writer thread's first error (guarded by mutex_)
  uint64_t written_ = 0;        //!< bytes written (writer thread)
  uint64_t flush_asked_ = 0;    //!< written_ when the flusher was last woken (writer thread)
  std::condition_variable flush_;
  bool flush_wanted_ = false;  //!< (guarded by mutex_)
  bool flusher_stop_ = false;  //!< (guarded by mutex_)
  int flush_error_ = 0;        //!< the flusher's first failed fdatasync's errno (flusher thread)
  std::thread writer_, flusher_;
};

}  // namespace gpuplan::reports
