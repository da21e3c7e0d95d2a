#pragma once
//! `gpuplan serve`'s compute pool: quotes and PDF prints run on a few worker threads of their own,
//! apart from the threads that read requests and write replies, behind a bounded queue. A job that
//! finds every worker busy and the queue full is answered 503 with Retry-After at once, so a busy
//! server answers within milliseconds instead of piling up waits. Each job's ComputeBudget starts
//! when a worker takes it up; a job whose client has gone is dropped from the queue or cancelled
//! while it runs. Free of HTTP plumbing, as reports/quote_service.h.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "models/quote/compute_budget.h"
#include "reports/quote_service.h"

namespace gpuplan::serve {

//! [ms] how often a waiting request asks whether its client has gone.
inline constexpr int CLIENT_POLL_MS = 50;

//! Worker threads and a bounded queue for the costly requests.
class ComputePool {
 public:
  //! The work of one job: its reply, checking `budget` in its long loops (it may throw
  //! quote::Stopped). It must own what it reads: a cancelled job may outlive its request.
  using Work = std::function<Reply(const quote::ComputeBudget& budget)>;

  //! `workers` threads (at least 1) and at most `queue_slots` jobs waiting for one; every job may
  //! run `budget_s` [s] once a worker takes it up.
  ComputePool(unsigned workers, std::size_t queue_slots, double budget_s);
  //! Lets the running jobs end and answers the queued ones 503.
  ~ComputePool();
  ComputePool(const ComputePool&) = delete;
  ComputePool& operator=(const ComputePool&) = delete;

  //! Runs `work` on a worker and returns its reply, asking `client_gone` every CLIENT_POLL_MS
  //! while it waits: once it says true the job is dropped or cancelled and a 503 `cancelled`
  //! returned at once. 503 `busy` with Retry-After (BUSY_RETRY_AFTER_S) at once when every worker
  //! is busy and the queue is full; 504 when the job ran out of its budget (stopped_reply).
  [[nodiscard]] Reply run(Work work, const std::function<bool()>& client_gone);

  [[nodiscard]] unsigned workers() const { return static_cast<unsigned>(threads_.size()); }
  [[nodiscard]] std::size_t queue_slots() const { return queue_slots_; }
  [[nodiscard]] double budget_s() const { return budget_s_; }

 private:
  struct Job;
  void work_loop();

  std::size_t queue_slots_;
  double budget_s_;
  std::mutex mutex_;                  // guards queue_, running_, stopping_ and every Job's reply
  std::condition_variable wake_;      // a job was queued, or the pool stops
  std::condition_variable finished_;  // a job has its reply
  std::deque<std::shared_ptr<Job>> queue_;
  std::size_t running_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace gpuplan::serve
