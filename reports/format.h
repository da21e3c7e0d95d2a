#pragma once
//! Text formatting shared by the report writers: escaping and human-readable numbers.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace gpuplan::reports {

//! Escapes `&<>"'` for HTML text and attribute values; invalid UTF-8 bytes become U+FFFD.
[[nodiscard]] std::string html_escape(std::string_view text);

//! Serialises `value` for a `<script type="application/json">` block: `<`, `>`, `&`, U+2028 and
//! U+2029 are written as \uXXXX escapes, so the text can neither close the element nor break a
//! JavaScript parser; invalid UTF-8 becomes U+FFFD and non-finite numbers become null.
[[nodiscard]] std::string json_for_script(const nlohmann::json& value);

//! JSON text (any indentation, e.g. result.json as written) as json_for_script writes its value:
//! the whitespace between tokens dropped and the same characters escaped, so a document already
//! serialised is not serialised again. `text` must be valid JSON.
[[nodiscard]] std::string script_safe_json(std::string_view text);

//! Appends script_safe_json(text) to `out`.
void append_script_safe_json(std::string& out, std::string_view text);

//! Inline script text made safe for a `<script>` element: "</script" (any case) would end the
//! element early, so it becomes "<\/script", which means the same inside JavaScript strings,
//! regular expressions and comments.
[[nodiscard]] std::string script_safe(std::string_view js);

//! Appends script_safe(js) to `out`.
void append_script_safe(std::string& out, std::string_view js);

//! Money in US dollars with thousands separators and cents: 1234.5 -> "$1,234.50", -3 -> "-$3.00".
[[nodiscard]] std::string format_money(double usd);

//! A duration [s] in the largest fitting unit with about three significant digits:
//! 45 -> "45 s", 11520 -> "3.2 h", 0.25 -> "250 ms"; non-finite -> "n/a".
[[nodiscard]] std::string format_duration(double seconds);

//! A fraction as a percentage with `decimals` decimals: 0.7942 -> "79.4%".
[[nodiscard]] std::string format_percent(double fraction, int decimals = 1);

//! A count with thousands separators, rounded to the nearest integer: 18240 -> "18,240".
[[nodiscard]] std::string format_count(double count);

//! A plain number with `decimals` decimals and thousands separators: (1234.567, 2) -> "1,234.57".
[[nodiscard]] std::string format_number(double value, int decimals);

//! Shortest text that reads back as the same double (for raw values in tooltips and CSV);
//! non-finite values give "".
[[nodiscard]] std::string format_raw(double value);

//! A duration, percentage or dollar amount as the verdicts write it (format_duration,
//! format_percent, format_money), or "n/a" when absent.
[[nodiscard]] std::string dur(const std::optional<double>& s);
[[nodiscard]] std::string pct(const std::optional<double>& f, int decimals = 1);
[[nodiscard]] std::string money(const std::optional<double>& usd);

//! "1 job" / "3 jobs": the count as format_count writes it, then the fitting word.
[[nodiscard]] std::string plural(double n, std::string_view one, std::string_view many);

}  // namespace gpuplan::reports

namespace gpuplan::reports {

//! Graphviz SVG made safe to inline into the report: drops the XML declaration, DOCTYPE,
//! comments and processing instructions, every `<script>` and `<foreignObject>` element with its
//! content, every `on*=` event attribute, and every `href`/`xlink:href` that is not a `#fragment`
//! link inside the document. Returns "" when the text holds no `<svg` element.
[[nodiscard]] std::string sanitize_svg(std::string_view svg);

}  // namespace gpuplan::reports
