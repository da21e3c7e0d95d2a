#!/usr/bin/python3
"""Peer of tools/bench/scenarios/mm64_1m.json in SimPy 3: an M/M/64 FCFS queue.

Poisson arrivals at 50/s, exponential service with mean 1.024 s, 64 servers (load 0.8), from an
empty system until the horizon (20,000 s by default: about 1 M customers). Written the way the
SimPy documentation builds queues: a source process that creates one process per customer, and a
Resource of capacity 64. Prints the mean wait of the customers that arrived after the warmup
(100 s) and reached a server, in the format tools/bench/compare_peers.sh reads:

    mean_wait_s=<float> customers=<int>

Usage: mm64_simpy.py [HORIZON_S] [SEED]
"""
import random
import sys

import simpy

ARRIVAL_RATE = 50.0  # [1/s]
SERVICE_MEAN = 1.024  # [s]
SERVERS = 64
WARMUP = 100.0  # [s]


class Stats:
    """Wait totals of the counted customers."""

    def __init__(self):
        self.wait_sum = 0.0
        self.counted = 0


def customer(env, servers, rng, stats):
    arrival = env.now
    with servers.request() as req:
        yield req
        if arrival >= WARMUP:
            stats.wait_sum += env.now - arrival
            stats.counted += 1
        yield env.timeout(rng.expovariate(1.0 / SERVICE_MEAN))


def source(env, servers, rng, stats):
    while True:
        yield env.timeout(rng.expovariate(ARRIVAL_RATE))
        env.process(customer(env, servers, rng, stats))


def main():
    horizon = float(sys.argv[1]) if len(sys.argv) > 1 else 20000.0
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 42
    rng = random.Random(seed)
    env = simpy.Environment()
    servers = simpy.Resource(env, capacity=SERVERS)
    stats = Stats()
    env.process(source(env, servers, rng, stats))
    env.run(until=horizon)
    print("mean_wait_s=%.6g customers=%d" % (stats.wait_sum / max(stats.counted, 1), stats.counted))


if __name__ == "__main__":
    main()
