#pragma once
//! The per-job CSV (docs/outputs.md, jobs CSV): one row per finished job, formatted into memory.
#include "reports/job_record.h"

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::reports {

//! Formats per-job CSV rows, numbering them across calls; class and pool names are escaped once
//! (csv_text_field), integers and times written as std::to_chars writes them (times through
//! write_shortest, the same bytes several times faster), so a writer thread keeps up with the
//! simulation.
class JobsCsv {
 public:
  //! Keeps the escaped names; `class_names[i]` names class_idx i, `pool_names[i]` pool_idx i.
  JobsCsv(std::span<const std::string> class_names, std::span<const std::string> pool_names);

  //! The header row, newline included.
  [[nodiscard]] static std::string_view header();

  //! The most bytes one row can take, newline included: write_row needs this much room.
  [[nodiscard]] std::size_t row_max() const { return row_max_; }

  //! Writes the next row for `job` at `out` (row_max() bytes of room) and returns its end; times
  //! not reached by the horizon leave their cells empty. Throws std::out_of_range when the
  //! record's class_idx or pool_idx (other than NO_POOL) has no name.
  char* write_row(const JobRecord& job, char* out);

  //! Appends one row per job to `out` (write_row for each).
  void append(std::span<const JobRecord> jobs, std::string& out);

 private:
  std::vector<std::string> classes_, pools_;  //!< CSV fields, escaped
  std::size_t row_max_ = 0;                   //!< [bytes]
  uint64_t next_row_ = 0;                     //!< `job` column of the next row
};

//! Writes the header and one row per job (JobsCsv) to `out`.
void write_jobs_csv(std::span<const JobRecord> jobs, std::span<const std::string> class_names,
                    std::span<const std::string> pool_names, std::ostream& out);

}  // namespace gpuplan::reports
