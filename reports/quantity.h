#pragma once
//! How every command writes a number on the console: by what it measures (money, a count,
//! seconds, a fraction), with thousands separators, so run, mc, sweep, recommend, compare and
//! quote print the same figure the same way ("$259,371.98", "18,240", "1,234.5 s", "79.4%").
#include <cstdint>
#include <string>
#include <string_view>

namespace gpuplan::reports {

//! What a number measures, which decides how it is written.
enum class Quantity : uint8_t {
  money,     //!< [USD] "$259,371.98"
  count,     //!< whole things (jobs, GPUs, nodes) "18,240"
  seconds,   //!< [s] one decimal "1,234.5 s"
  fraction,  //!< [0, 1] as a percentage "79.4%"
  plain,     //!< anything else, two decimals "1,234.57"
};

//! The quantity a result.json metric path measures: "cost_usd…" or a leaf with "usd" (but not
//! "per_usd") money;
//! a leaf "jobs_…", "gpus" or "nodes" counts (a mean such as "mean_queued_jobs" stays plain); a
//! "…_s" segment seconds; "utilization", "share" or "p_…" fractions; anything else plain. E.g.
//! "metrics.wait_s.p90" -> seconds.
[[nodiscard]] Quantity quantity_of(std::string_view path);

//! `value` as the console writes `q` (see Quantity); non-finite -> "n/a".
[[nodiscard]] std::string format_quantity(Quantity q, double value);

//! A difference of `q` with its sign: "+$1,234.50", "-12.5 s", "+3", "+1.2 pp" (a fraction's
//! change in percentage points); zero reads "+0"; non-finite -> "n/a".
[[nodiscard]] std::string format_change(Quantity q, double delta);

//! "mean [low, high]" of a 95% CI, each written as format_quantity(q, ·).
[[nodiscard]] std::string format_with_ci(Quantity q, double mean, double low, double high);

}  // namespace gpuplan::reports
