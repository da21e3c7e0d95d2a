//! The control of the engine benchmarks: an M/M/c queue as a minimal hand-written event loop
//! (std::priority_queue, std::mt19937_64, a std::deque, no statistics but the wait sum).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <queue>
#include <random>
#include <vector>

namespace gpuplan::bench {

//! What one bare run processed: events popped, customers arrived and their summed waits [s].
struct BareLoopResult {
  uint64_t events;
  uint64_t arrivals;
  uint64_t started;   //!< customers that reached a server before the horizon
  double wait_sum_s;  //!< [s] over the started customers
};

//! Runs an FCFS M/M/c queue from an empty system until `horizon_s` [s]: Poisson arrivals at
//! `arrival_rate` [1/s], exponential service at `service_rate` [1/s] per server, `servers` servers.
inline BareLoopResult run_bare_mmc(double arrival_rate, double service_rate, int servers,
                                   double horizon_s, uint64_t seed = 42) {
  struct Ev {
    double t;
    bool finish;
    bool operator>(const Ev& o) const { return t > o.t || (t == o.t && finish < o.finish); }
  };
  std::mt19937_64 rng(seed);
  std::exponential_distribution<double> inter(arrival_rate), service(service_rate);
  std::priority_queue<Ev, std::vector<Ev>, std::greater<Ev>> pq;
  std::deque<double> queue;
  int free_servers = servers;
  BareLoopResult r{0, 0, 0, 0.0};
  pq.push({inter(rng), false});
  while (!pq.empty() && pq.top().t < horizon_s) {
    const Ev e = pq.top();
    pq.pop();
    ++r.events;
    if (e.finish) {
      ++free_servers;
    } else {
      ++r.arrivals;
      queue.push_back(e.t);
      pq.push({e.t + inter(rng), false});
    }
    while (free_servers > 0 && !queue.empty()) {
      r.wait_sum_s += e.t - queue.front();
      ++r.started;
      queue.pop_front();
      --free_servers;
      pq.push({e.t + service(rng), true});
    }
  }
  return r;
}

}  // namespace gpuplan::bench
