#include "models/catalog/catalog_age.h"

#include "models/catalog/source_date.h"

#include <charconv>
#include <cstdint>
#include <cstdlib>

namespace gpuplan {
namespace {

// Reads exactly `width` decimal digits at `pos`; nullopt on anything else.
std::optional<int> read_digits(std::string_view s, size_t pos, size_t width) {
  if (pos + width > s.size()) return std::nullopt;
  int value = 0;
  const char* first = s.data() + pos;
  const auto [end, ec] = std::from_chars(first, first + width, value);
  if (ec != std::errc() || end != first + width) return std::nullopt;
  return value;
}

}  // namespace

std::optional<std::chrono::year_month_day> parse_as_of(std::string_view as_of) {
  using namespace std::chrono;
  const auto y = read_digits(as_of, 0, 4);
  if (!y) return std::nullopt;
  int m = 1;
  int d = 1;
  if (as_of.size() > 4) {
    const auto mm = as_of[4] == '-' ? read_digits(as_of, 5, 2) : std::nullopt;
    if (!mm) return std::nullopt;
    m = *mm;
    if (as_of.size() > 7) {
      const auto dd = as_of[7] == '-' ? read_digits(as_of, 8, 2) : std::nullopt;
      if (!dd || as_of.size() != 10) return std::nullopt;
      d = *dd;
    } else if (as_of.size() != 7) {
      return std::nullopt;
    }
  }
  const year_month_day date{year{*y}, month{static_cast<unsigned>(m)},
                            day{static_cast<unsigned>(d)}};
  if (!date.ok()) return std::nullopt;
  return date;
}

std::optional<std::chrono::year_month_day> date_of_epoch(std::string_view epoch_seconds) {
  using namespace std::chrono;
  std::int64_t s = 0;
  const char* end = epoch_seconds.data() + epoch_seconds.size();
  const auto [ptr, ec] = std::from_chars(epoch_seconds.data(), end, s);
  if (epoch_seconds.empty() || ec != std::errc() || ptr != end || s < 0) return std::nullopt;
  return year_month_day{floor<days>(sys_seconds{seconds{s}})};
}

std::chrono::year_month_day today_utc() {
  using namespace std::chrono;
  if (const char* pinned = std::getenv("SOURCE_DATE_EPOCH")) {
    if (const auto date = date_of_epoch(pinned)) return *date;
  }
  return year_month_day{floor<days>(system_clock::now())};
}

std::optional<int> price_age_days(std::string_view as_of, std::chrono::year_month_day today) {
  using namespace std::chrono;
  const auto date = parse_as_of(as_of);
  if (!date) return std::nullopt;
  return static_cast<int>((sys_days{today} - sys_days{*date}).count());
}

bool is_stale(std::string_view as_of, std::chrono::year_month_day today, unsigned months_) {
  using namespace std::chrono;
  const auto date = parse_as_of(as_of);
  if (!date) return true;
  // NOTE: 31 January plus one month (or 29 February plus a year) is not a date; sys_days
  // normalises it into the next month, so the threshold is never shorter than asked.
  const year_month_day limit = *date + months{static_cast<int>(months_)};
  return sys_days{limit} < sys_days{today};
}

}  // namespace gpuplan
