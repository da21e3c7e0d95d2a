#pragma once
//! A pinned "today": `today_utc()` (catalog_age.h) returns the date of `SOURCE_DATE_EPOCH`
//! (seconds since 1970, the reproducible-builds.org convention) when that variable holds such a
//! number, so executable docs pages (tools/docs.sh) reproduce price ages, stale-price flags and a
//! quote's date on any later day; otherwise the system clock's date.
#include <chrono>
#include <optional>
#include <string_view>

namespace gpuplan {

//! The UTC date of `epoch_seconds` (decimal seconds since 1970-01-01); nullopt when it is not a
//! non-negative whole number.
[[nodiscard]] std::optional<std::chrono::year_month_day> date_of_epoch(
    std::string_view epoch_seconds);

}  // namespace gpuplan
