#pragma once
//! CSV exports of a result: time series, per-class statistics and per-job records.
//! Columns are documented in docs/outputs.md; every file starts with a header row.
#include "reports/job_record.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::reports {

//! One CSV field: quoted when it holds a comma, quote, CR or LF (quotes doubled, RFC 4180), and
//! prefixed with `'` when it starts with `=`, `+`, `-`, `@`, tab or CR so spreadsheets do not
//! evaluate a name as a formula.
[[nodiscard]] std::string csv_text_field(std::string_view text);

//! Writes `timeseries` (and the Monte Carlo `bands`, when present) one row per time bin; absent
//! series leave their cells empty; writes only the header when the result has no time series.
void write_timeseries_csv(const nlohmann::json& result, std::ostream& out);

//! Writes `per_class` one row per job class with job counts and wait / JCT statistics [s];
//! absent values leave their cells empty.
void write_per_class_csv(const nlohmann::json& result, std::ostream& out);

//! Formats per-job CSV rows (docs/outputs.md, jobs CSV) into a text buffer, numbering rows across
//! calls; class and pool names are escaped once, numbers written with std::to_chars (shortest
//! round trip), so millions of rows per second fit in a streaming sink.
class JobsCsv {
 public:
  //! Keeps the escaped names; `class_names[i]` names class_idx i, `pool_names[i]` pool_idx i.
  JobsCsv(std::span<const std::string> class_names, std::span<const std::string> pool_names);

  //! The header row, newline included.
  [[nodiscard]] static std::string_view header();

  //! Appends one row per job to `out`; times not reached by the horizon leave their cells empty.
  //! Throws std::out_of_range when a record's class_idx or pool_idx (other than NO_POOL) has no
  //! name.
  void append(std::span<const JobRecord> jobs, std::string& out);

 private:
  std::vector<std::string> classes_, pools_;  //!< CSV fields, escaped
  uint64_t next_row_ = 0;                     //!< `job` column of the next row
};

//! Writes the header and one row per job (JobsCsv) to `out`.
void write_jobs_csv(std::span<const JobRecord> jobs, std::span<const std::string> class_names,
                    std::span<const std::string> pool_names, std::ostream& out);

//! The per-job CSV streamed to a file as a run produces records: a hidden temp file beside the
//! target is opened up front (so an unwritable place is found before simulating), each chunk of
//! records is formatted and written at once, and commit() renames the file into place; a writer
//! destroyed uncommitted removes its temp file, so a failed run leaves nothing behind.
class JobsCsvFile {
 public:
  //! Opens the temp file; check error() before using it.
  JobsCsvFile(std::filesystem::path path, std::span<const std::string> class_names,
              std::span<const std::string> pool_names);
  ~JobsCsvFile();
  JobsCsvFile(const JobsCsvFile&) = delete;
  JobsCsvFile& operator=(const JobsCsvFile&) = delete;

  //! Why `path` cannot be written ("" when it can): a missing folder, a folder, no permission.
  [[nodiscard]] const std::string& error() const { return error_; }

  //! Writes rows for records[0..n); throws std::runtime_error when the disk write fails.
  void write(const JobRecord* records, std::size_t n);

  //! Flushes, closes and renames the file into place; false (with error()) when that fails.
  bool commit();

  //! Rows written so far.
  [[nodiscard]] uint64_t rows() const { return rows_; }

 private:
  std::filesystem::path path_, tmp_;
  std::FILE* file_ = nullptr;
  JobsCsv csv_;
  std::string buffer_;  //!< one chunk of formatted rows, reused
  std::string error_;
  uint64_t rows_ = 0;
};

}  // namespace gpuplan::reports
