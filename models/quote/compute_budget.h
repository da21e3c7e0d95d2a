#pragma once
//! A computation's budget: a wall-clock deadline and a cancel flag, checked by the long loops of a
//! quote (the size searches, the spot Monte Carlo, the engine checks) and by `gpuplan serve`'s PDF
//! print, so a request stops when its time is spent or its client has gone. A quote runs on one
//! thread, so its wall time bounds its CPU time too. Checking costs an atomic load and a read of
//! the steady clock.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <optional>

namespace gpuplan::quote {

//! Why a computation stopped before its end.
enum class StopReason : uint8_t { cancelled, out_of_time };

//! Thrown by ComputeBudget::check when the computation must stop (never for bad input).
class Stopped : public std::exception {
 public:
  explicit Stopped(StopReason r) : reason(r) {}
  [[nodiscard]] const char* what() const noexcept override {
    return reason == StopReason::cancelled ? "cancelled" : "out of time";
  }
  StopReason reason;
};

//! A deadline `seconds` after start() and a flag another thread may set; without start() only the
//! flag stops it. cancel() may be called from any thread, the rest from the computing one.
class ComputeBudget {
 public:
  using Clock = std::chrono::steady_clock;

  //! Starts the clock: the computation may run `seconds` [s] from now.
  void start(double seconds) {
    seconds_ = seconds;
    deadline_ = Clock::now() +
                std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  }
  //! Stops the computation at its next check (its client has gone).
  void cancel() noexcept { cancelled_.store(true, std::memory_order_relaxed); }
  //! Why the computation must stop now, or nullopt to go on.
  [[nodiscard]] std::optional<StopReason> stop_reason() const noexcept {
    if (cancelled_.load(std::memory_order_relaxed)) return StopReason::cancelled;
    if (deadline_ && Clock::now() >= *deadline_) return StopReason::out_of_time;
    return std::nullopt;
  }
  //! Throws Stopped when the computation must stop.
  void check() const {
    if (const auto r = stop_reason()) throw Stopped(*r);
  }
  //! [s] the time start() granted (0 before).
  [[nodiscard]] double seconds() const noexcept { return seconds_; }

 private:
  std::atomic<bool> cancelled_{false};
  std::optional<Clock::time_point> deadline_;
  double seconds_ = 0;
};

//! Throws Stopped when `budget` (nullptr = none) says the computation must stop.
inline void check_budget(const ComputeBudget* budget) {
  if (budget) budget->check();
}

}  // namespace gpuplan::quote
