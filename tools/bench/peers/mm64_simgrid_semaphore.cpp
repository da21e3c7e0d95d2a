//! Peer of tools/bench/scenarios/mm64_1m.json in SimGrid S4U, the leaner of two idiomatic ways:
//! an M/M/64 FCFS queue as a plain queue of arrival times guarded by a counting semaphore.
//!
//! The same model, constants, counting and output as mm64_simgrid.cpp (mailbox with detached puts),
//! which this one keeps beside it: a generator actor sleeps exponential interarrival times, appends
//! each customer's arrival time to a queue and releases the semaphore; 64 server actors acquire it,
//! take the oldest arrival (FCFS, whichever server wakes) and sleep the service time. No
//! communication activity is created per customer, only a semaphore hand-over, so this is the
//! fastest S4U program for the queue we know of. Prints, for tools/bench/compare_peers.sh:
//!
//!     mean_wait_s=<float> customers=<int>
//!
//! Build: g++ -O2 -std=c++17 mm64_simgrid_semaphore.cpp -o mm64_simgrid_semaphore -lsimgrid
//! Usage: mm64_simgrid_semaphore [HORIZON_S] [SEED]
#include <simgrid/s4u.hpp>

#include <cstdio>
#include <cstdlib>
#include <deque>
#include <random>
#include <string>

namespace sg4 = simgrid::s4u;

namespace {

constexpr double ARRIVAL_RATE = 50.0;   // [1/s]
constexpr double SERVICE_MEAN = 1.024;  // [s]
constexpr int SERVERS = 64;
constexpr double WARMUP = 100.0;  // [s]

//! The waiting customers' arrival times and the wait totals (actors run one at a time: no lock).
struct Queue {
  std::deque<double> arrivals;  // [s]
  sg4::SemaphorePtr waiting = sg4::Semaphore::create(0);
  double wait_sum = 0;  // [s]
  long counted = 0;
};

void generator(Queue* q, double horizon, std::mt19937_64* rng) {
  std::exponential_distribution<double> inter(ARRIVAL_RATE);
  for (;;) {
    const double dt = inter(*rng);
    if (sg4::Engine::get_clock() + dt >= horizon) return;
    sg4::this_actor::sleep_for(dt);
    q->arrivals.push_back(sg4::Engine::get_clock());
    q->waiting->release();
  }
}

void server(Queue* q, std::mt19937_64* rng) {
  sg4::Actor::self()->daemonize();
  std::exponential_distribution<double> service(1.0 / SERVICE_MEAN);
  for (;;) {
    q->waiting->acquire();
    const double arrival = q->arrivals.front();
    q->arrivals.pop_front();
    if (arrival >= WARMUP) {
      q->wait_sum += sg4::Engine::get_clock() - arrival;
      ++q->counted;
    }
    sg4::this_actor::sleep_for(service(*rng));
  }
}

}  // namespace

int main(int argc, char** argv) {
  sg4::Engine engine(&argc, argv);
  const double horizon = argc > 1 ? std::strtod(argv[1], nullptr) : 20000.0;
  const unsigned long seed = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 42;
  sg4::NetZone* zone = sg4::create_full_zone("world");
  sg4::Host* host = zone->create_host("node", 1e9);
  zone->seal();

  std::mt19937_64 rng(seed);
  Queue q;
  for (int i = 0; i < SERVERS; ++i)
    sg4::Actor::create("server-" + std::to_string(i), host, server, &q, &rng);
  sg4::Actor::create("generator", host, generator, &q, horizon, &rng);
  engine.run();
  std::printf("mean_wait_s=%.6g customers=%ld\n", q.counted ? q.wait_sum / q.counted : 0,
              q.counted);
  return 0;
}
