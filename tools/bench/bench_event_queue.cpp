//! The event calendar alone (sim/core/event_queue.h): a steady-state hold model, each pop of the
//! earliest job finish followed by one push of a new finish, with `live` events pending and
//! lognormal durations of Philly's shape. Time per pop + push, the calendar's share of a step.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "sim/core/event_queue.h"

namespace {

using namespace gpuplan;

//! Pending events range(0): 2,200 is the year benchmark's running jobs under FIFO (0.7 x 4,096
//! GPUs / 1.31 GPUs per job), 6,000 a calendar that also holds LAS reviews.
void bm_event_calendar(benchmark::State& state) {
  const uint32_t live = static_cast<uint32_t>(state.range(0));
  std::mt19937_64 gen(1);
  // Philly's duration median 1,144 s and mean 13,136 s (as bm_core_year_4096_gpus).
  std::lognormal_distribution<double> duration(std::log(1144.0),
                                               std::sqrt(2 * std::log(13136.0 / 1144.0)));
  std::vector<double> durations(1u << 20);
  for (double& d : durations) d = duration(gen);
  std::vector<Event> store(live + 1);
  EventQueue q;
  q.heap = {store.data(), static_cast<uint32_t>(store.size())};
  reset_events(q);
  for (uint32_t i = 0; i < live; ++i)
    if (!schedule_event(q, durations[i], EventKind::job_finish, i, 0)) state.SkipWithError("full");
  uint64_t k = live;
  for (auto _ : state) {
    const Event e = pop_event(q);
    const SimTime t = e.t + durations[k++ & (durations.size() - 1)];
    if (!schedule_event(q, t, EventKind::job_finish, e.target, 0)) state.SkipWithError("full");
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
  state.SetLabel("pop + push, cpu, 1 thread");
}
BENCHMARK(bm_event_calendar)->Arg(2200)->Arg(6000);

}  // namespace
