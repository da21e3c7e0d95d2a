#pragma once
//! The TCO options simulated (docs/tco.md, "Each option simulated"): every option the engine can
//! hold (the owned servers kept, bought, staged; a reservation; burst capped at the elastic
//! pools) becomes a typed variant of the scenario, with the month's demand growing as the
//! projection's, and runs in the engine over the projection's months. The month it stops
//! keeping up in the simulation stands beside the projected one.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/scenario/scenario.h"
#include "study/summary.h"

namespace gpuplan::study {

//! Share of a month's offered work a fleet may leave unserved in that month and still keep up:
//! above the month-to-month noise of a keeping-up fleet (jobs that arrive late in a month run
//! in the next), below what a fleet short of capacity leaves.
inline constexpr double SHORTFALL = 0.03;

//! The month from which the fleet stays short: the first month m such that every month from m
//! to the last serves less than (1 - SHORTFALL) of its offered work, and at least two months do
//! (one noisy last month is not a run-out); nullopt when there is none. Both in GPU-seconds per
//! month, of one length.
[[nodiscard]] std::optional<uint32_t> first_short_month(const std::vector<double>& offered,
                                                        const std::vector<double>& served);

//! [months from 0] When a simulated option runs out, given its first short month
//! (first_short_month): where the offered work rate passes its capacity as simulated, the median
//! of what it serves [GPU-s per month] from that month on (economics::run_out_month).
[[nodiscard]] double simulated_run_out(const std::vector<double>& offered,
                                       const std::vector<double>& served, uint32_t first_short);

//! The most replications a Monte Carlo study runs each option for; the median month over them
//! stands, the earliest beside it.
inline constexpr uint32_t SIMULATED_OPTION_REPLICATIONS = 32;

//! The scenario an option runs as, over `months` months: its pools sized as the option buys
//! them, every class confined to the option's pools, no tco section; nullopt for the options
//! the engine cannot hold (cloud and hybrid buy without limit) and a reservation priced by
//! tco.cloud with no reserved pool to run it (then `why_not` says so). `projected` is the
//! option's projection, whose fleet sizes the owned servers' pool.
[[nodiscard]] std::optional<Scenario> option_scenario(const Scenario& sc,
                                                      const TcoOptionResult& projected,
                                                      uint32_t months,
                                                      std::string* why_not = nullptr);

//! Adds `simulation` to every option of `s.tco`: the month it stops keeping up in the engine
//! (the median over `replications` replications, and the earliest), or why it is not simulated.
//! Runs each option for as many months as the projection, or until 3 months after its projected
//! run-out month; an option's replications share `threads` CPU threads (0: all cores).
void simulate_tco_options(const Scenario& sc, Summary& s, uint32_t replications,
                          uint32_t threads = 0);

}  // namespace gpuplan::study
