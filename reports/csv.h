#pragma once
//! CSV exports of a result: time series and per-class statistics (per-job records:
//! reports/jobs_csv.h). Columns are documented in docs/outputs.md; every file starts with a header
//! row.
#include <nlohmann/json.hpp>

#include <ostream>
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

//! Writes teams.csv: one row per team of `result["per_team"]` in scenario order (docs/outputs.md);
//! the header only when the result has no teams.
void write_per_team_csv(const nlohmann::json& result, std::ostream& out);

}  // namespace gpuplan::reports
