#pragma once
//! Small HTML pieces the report pages share (report.html, sweep.html): escaped text, code, pills,
//! sortable headers, and figures that read "n/a" when absent.
#include <optional>
#include <string>
#include <string_view>

namespace gpuplan::reports {

//! `s` HTML-escaped (reports/format.h html_escape).
[[nodiscard]] std::string esc(std::string_view s);

//! `s` escaped inside <code>.
[[nodiscard]] std::string code(std::string_view s);

//! A duration, percentage or dollar amount as reports show it, or "n/a".
[[nodiscard]] std::string dur(const std::optional<double>& s);
[[nodiscard]] std::string pct(const std::optional<double>& f, int decimals = 1);
[[nodiscard]] std::string money(const std::optional<double>& usd);

//! "1 job" / "3 jobs": the count as format_count writes it, then the fitting word.
[[nodiscard]] std::string plural(double n, std::string_view one, std::string_view many);

//! "2026-11-29T17:00:00Z" -> "2026-11-29 17:00 UTC"; anything else is shown as given.
[[nodiscard]] std::string readable_timestamp(const std::string& iso);

//! A coloured label: kind "ok", "warn", "bad" or "info"; `text` is HTML.
[[nodiscard]] std::string pill(std::string_view kind, std::string_view text);

//! A sortable table header (the page script sorts on click); `label` is HTML.
[[nodiscard]] std::string sort_th(std::string_view label, bool numeric);

}  // namespace gpuplan::reports
