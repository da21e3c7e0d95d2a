#pragma once
//! Where a pool's price comes from, the catalog or the scenario itself, and so whether it can be
//! stale: only a catalog price ages (models/catalog/catalog_age.h); a price the user wrote is
//! theirs.
#include <chrono>

#include "models/scenario/scenario.h"

namespace gpuplan {

//! True when the scenario itself prices `pool`: an on_prem pool with its own "on_prem" server
//! template, a spot pool with its own "price_series", or an instance type defined inline in the
//! scenario's "instances".
[[nodiscard]] bool priced_by_scenario(const Scenario& sc, const Pool& pool);

//! True when the price of `pool` should be re-checked: a catalog price dated more than
//! `sc.stale_after_months` months
//! before `today` (or undated), or an inline instance type whose own "as_of" is that old. A price
//! the scenario writes without a date is never stale.
[[nodiscard]] bool price_stale(const Scenario& sc, const Pool& pool,
                               std::chrono::year_month_day today);

}  // namespace gpuplan
