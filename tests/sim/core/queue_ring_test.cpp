//! The queue ring's insertion and removal in the middle (sim/core/state.h): the order of the
//! other jobs is kept whichever side moves, across the ring's wrap, at both ends.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "sim/core/state.h"

namespace gpuplan {
namespace {

//! The queue's jobs from head to tail.
std::vector<uint32_t> contents(ReplicaState& s) {
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < s.queue_len; ++i) out.push_back(queue_at(s, i));
  return out;
}

//! A ring of 8 places holding 10, 11, ... (`n` jobs) from place `head`.
ReplicaState ring(std::vector<uint32_t>& storage, uint32_t head, uint32_t n) {
  storage.assign(8, 999);
  ReplicaState s;
  s.queue = {storage.data(), 8};
  s.queue_head = head;
  for (uint32_t i = 0; i < n; ++i) queue_at(s, i) = 10 + i, s.queue_len += 1;
  return s;
}

}  // namespace

TEST_CASE("sim::queue_ring") {
  std::vector<uint32_t> storage;
  for (uint32_t head = 0; head < 8; ++head) {
    CAPTURE(head);
    SUBCASE("opening a gap near the head moves the head side, near the tail the tail side") {
      for (uint32_t at = 0; at <= 5; ++at) {
        CAPTURE(at);
        ReplicaState s = ring(storage, head, 5);
        queue_open(s, at);
        queue_at(s, at) = 99;
        std::vector<uint32_t> want = {10, 11, 12, 13, 14};
        want.insert(want.begin() + at, 99);
        CHECK(contents(s) == want);
        // The head moved back by one exactly when the gap was in the first half.
        CHECK(s.queue_head == (at < 5 - at ? (head + 7) % 8 : head));
      }
    }
    SUBCASE("closing any place keeps the others' order") {
      for (uint32_t at = 0; at < 5; ++at) {
        CAPTURE(at);
        ReplicaState s = ring(storage, head, 5);
        queue_close(s, at);
        std::vector<uint32_t> want = {10, 11, 12, 13, 14};
        want.erase(want.begin() + at);
        CHECK(contents(s) == want);
      }
    }
    SUBCASE("a full ring after the last open, an empty one after the last close") {
      ReplicaState s = ring(storage, head, 7);
      queue_open(s, 3);
      queue_at(s, 3) = 99;
      CHECK(contents(s) == std::vector<uint32_t>{10, 11, 12, 99, 13, 14, 15, 16});
      ReplicaState one = ring(storage, head, 1);
      queue_close(one, 0);
      CHECK(one.queue_len == 0);
    }
  }
}

TEST_CASE("sim::queue_ring: runs of moves across the wrap equal a plain list") {
  // The ring moves entries as contiguous runs (ring_shift_up, ring_shift_back); a list that
  // inserts and erases one entry at a time is the reference, over every head of a 37-place ring.
  std::mt19937 rng(12345);
  for (uint32_t head = 0; head < 37; ++head) {
    CAPTURE(head);
    std::vector<uint32_t> storage(37, 999);
    ReplicaState s;
    s.queue = {storage.data(), 37};
    s.queue_head = head;
    std::vector<uint32_t> want;
    for (uint32_t op = 0; op < 400; ++op) {
      const bool open = want.empty() || (want.size() < 37 && rng() % 2 == 0);
      if (open) {
        const uint32_t at = rng() % uint32_t(want.size() + 1);
        queue_open(s, at);
        queue_at(s, at) = op;
        want.insert(want.begin() + at, op);
      } else {
        const uint32_t at = rng() % uint32_t(want.size());
        queue_close(s, at);
        want.erase(want.begin() + at);
      }
      REQUIRE(contents(s) == want);
    }
  }
}

}  // namespace gpuplan
