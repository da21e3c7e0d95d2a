//! Peer of tools/bench/scenarios/mm64_1m.json in SimGrid S4U: an M/M/64 FCFS queue as actors.
//!
//! Poisson arrivals at 50/s, exponential service with mean 1.024 s, 64 servers (load 0.8), from an
//! empty system until the horizon (20,000 s by default: about 1 M customers). The S4U way: a
//! generator actor sleeps exponential interarrival times and posts each customer (its arrival
//! time) to a mailbox without waiting (a detached put); 64 server actors take customers from that
//! mailbox, which matches pending puts in arrival order (FCFS), and sleep the service time.
//! Payloads are 0 bytes on a one-host platform, so a hand-over takes no simulated time. Servers are
//! daemons: the simulation ends when the generator reaches the horizon. Prints the mean wait of the
//! customers that arrived after the warmup (100 s) and reached a server, in the format
//! tools/bench/compare_peers.sh reads:
//!
//!     mean_wait_s=<float> customers=<int>
//!
//! Build: g++ -O2 -std=c++17 mm64_simgrid.cpp -o mm64_simgrid -lsimgrid (Debian libsimgrid-dev).
//! Usage: mm64_simgrid [HORIZON_S] [SEED]
#include <simgrid/s4u.hpp>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>

namespace sg4 = simgrid::s4u;

namespace {

constexpr double ARRIVAL_RATE = 50.0;   // [1/s]
constexpr double SERVICE_MEAN = 1.024;  // [s]
constexpr int SERVERS = 64;
constexpr double WARMUP = 100.0;  // [s]

//! Wait totals of the counted customers (actors run one at a time, so no locking).
struct Stats {
  double wait_sum = 0;  // [s]
  long counted = 0;
};

void generator(sg4::Mailbox* queue, double horizon, std::mt19937_64* rng) {
  std::exponential_distribution<double> inter(ARRIVAL_RATE);
  for (;;) {
    const double dt = inter(*rng);
    if (sg4::Engine::get_clock() + dt >= horizon) return;
    sg4::this_actor::sleep_for(dt);
    queue->put_init(new double(sg4::Engine::get_clock()), 0)->detach([](void* p) {
      delete static_cast<double*>(p);
    });
  }
}

void server(sg4::Mailbox* queue, std::mt19937_64* rng, Stats* stats) {
  sg4::Actor::self()->daemonize();
  std::exponential_distribution<double> service(1.0 / SERVICE_MEAN);
  for (;;) {
    const std::unique_ptr<double> arrival = queue->get_unique<double>();
    if (*arrival >= WARMUP) {
      stats->wait_sum += sg4::Engine::get_clock() - *arrival;
      ++stats->counted;
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
  Stats stats;
  sg4::Mailbox* queue = sg4::Mailbox::by_name("queue");
  for (int i = 0; i < SERVERS; ++i)
    sg4::Actor::create("server-" + std::to_string(i), host, server, queue, &rng, &stats);
  sg4::Actor::create("generator", host, generator, queue, horizon, &rng);
  engine.run();
  std::printf("mean_wait_s=%.6g customers=%ld\n",
              stats.counted ? stats.wait_sum / stats.counted : 0, stats.counted);
  return 0;
}
