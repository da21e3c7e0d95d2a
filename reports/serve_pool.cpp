#include "reports/serve_pool.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <new>
#include <optional>
#include <string>

namespace gpuplan::serve {

struct ComputePool::Job {
  Work work;
  quote::ComputeBudget budget;
  std::optional<Reply> reply;  //!< set by the worker, under the pool's mutex
};

ComputePool::ComputePool(unsigned workers, std::size_t queue_slots, double budget_s)
    : queue_slots_(queue_slots), budget_s_(budget_s) {
  for (unsigned k = 0; k < std::max(workers, 1u); ++k)
    threads_.emplace_back([this] { work_loop(); });
}

ComputePool::~ComputePool() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

Reply ComputePool::run(Work work, const std::function<bool()>& client_gone) {
  auto job = std::make_shared<Job>();
  job->work = std::move(work);
  std::unique_lock lock(mutex_);
  // NOTE: a worker busy with a cancelled job still counts: the job ends at its next check.
  if (stopping_ || running_ + queue_.size() >= threads_.size() + queue_slots_) {
    Reply busy = error_reply(503, "", "busy",
                             "the server is busy: every worker is computing and the queue is "
                             "full (--workers " +
                                 std::to_string(threads_.size()) + " --queue " +
                                 std::to_string(queue_slots_) + "); try again in " +
                                 std::to_string(BUSY_RETRY_AFTER_S) + " s");
    busy.retry_after_s = BUSY_RETRY_AFTER_S;
    return busy;
  }
  queue_.push_back(job);
  wake_.notify_one();
  while (!job->reply) {
    if (finished_.wait_for(lock, std::chrono::milliseconds(CLIENT_POLL_MS),
                           [&] { return job->reply.has_value(); }))
      break;
    lock.unlock();
    const bool gone = client_gone();
    lock.lock();
    if (gone && !job->reply) {
      // A queued job is dropped; a running one stops at its next check of the budget.
      const auto queued = std::find(queue_.begin(), queue_.end(), job);
      if (queued != queue_.end()) queue_.erase(queued);
      job->budget.cancel();
      return stopped_reply(quote::StopReason::cancelled, "the request", budget_s_);
    }
  }
  return std::move(*job->reply);
}

void ComputePool::work_loop() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and nothing is left to run
    const std::shared_ptr<Job> job = queue_.front();
    queue_.pop_front();
    if (stopping_) {
      job->reply = error_reply(503, "", "busy", "the server is stopping");
      finished_.notify_all();
      continue;
    }
    ++running_;
    lock.unlock();
    Reply reply;
    try {
      job->budget.start(budget_s_);
      reply = job->work(job->budget);
    } catch (const quote::Stopped& stop) {
      reply = stopped_reply(stop.reason, "the request", budget_s_);
    } catch (const std::bad_alloc&) {
      reply = error_reply(503, "", "limit_exceeded", "the server ran out of memory");
    } catch (...) {
      reply = error_reply(500, "", "internal", "internal error");
    }
    lock.lock();
    --running_;
    job->reply = std::move(reply);
    finished_.notify_all();
  }
}

}  // namespace gpuplan::serve
