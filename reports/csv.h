#pragma once
//! CSV exports of a result: time series, per-class statistics and per-job records.
//! Columns are documented in docs/outputs.md; every file starts with a header row.
#include "reports/job_record.h"

#include <nlohmann/json.hpp>

#include <ostream>
#include <span>
#include <string>
#include <string_view>

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

//! Writes one row per job with its class and pool names and its wait and JCT [s]; times not
//! reached by the horizon leave their cells empty. Throws std::out_of_range when a record's
//! class_idx or pool_idx (other than NO_POOL) has no name.
void write_jobs_csv(std::span<const JobRecord> jobs, std::span<const std::string> class_names,
                    std::span<const std::string> pool_names, std::ostream& out);

}  // namespace gpuplan::reports
