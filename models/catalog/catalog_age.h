#pragma once
//! Age of catalog prices: parses `as_of` dates and flags prices older than a threshold the user
//! sets (default 12 months) as stale, so the CLI and the reports warn before anyone quotes an
//! outdated figure.
#include <chrono>
#include <optional>
#include <string_view>

namespace gpuplan {

//! The date an `as_of` string names ("YYYY-MM-DD", "YYYY-MM" or "YYYY"; a missing month or day
//! counts as the first, so a partial date reads as the oldest day it could mean); nullopt when
//! the string is not such a date.
[[nodiscard]] std::optional<std::chrono::year_month_day> parse_as_of(std::string_view as_of);

//! Today's date in UTC from the system clock.
[[nodiscard]] std::chrono::year_month_day today_utc();

//! Days from `as_of` to `today` [d] (negative for a future date); nullopt when unparseable.
[[nodiscard]] std::optional<int> price_age_days(std::string_view as_of,
                                                std::chrono::year_month_day today);

//! Default staleness threshold [months] (`--stale-after`, `catalog.stale_after_months`).
inline constexpr unsigned DEFAULT_STALE_AFTER_MONTHS = 12;

//! True when `as_of` is more than `months` calendar months before `today`, or cannot be read (an
//! undated price is never trusted).
[[nodiscard]] bool is_stale(std::string_view as_of, std::chrono::year_month_day today,
                            unsigned months = DEFAULT_STALE_AFTER_MONTHS);

}  // namespace gpuplan
