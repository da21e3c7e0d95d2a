#pragma once
//! Figures as the report pages' verdicts write them (reports/assessment.h): a duration,
//! percentage, dollar amount or count with its word, or "n/a" when absent.
#include <optional>
#include <string>
#include <string_view>

namespace gpuplan::reports {

//! A duration, percentage or dollar amount as reports show it, or "n/a".
[[nodiscard]] std::string dur(const std::optional<double>& s);
[[nodiscard]] std::string pct(const std::optional<double>& f, int decimals = 1);
[[nodiscard]] std::string money(const std::optional<double>& usd);

//! "1 job" / "3 jobs": the count as format_count writes it, then the fitting word.
[[nodiscard]] std::string plural(double n, std::string_view one, std::string_view many);

}  // namespace gpuplan::reports
