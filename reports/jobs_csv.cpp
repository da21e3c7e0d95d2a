#include "reports/jobs_csv.h"

#include "reports/csv.h"
#include "reports/jobs_csv_number.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace gpuplan::reports {
namespace {

const std::string NO_NAME;  // pool cell of a job that never started

const std::string& name_at(std::span<const std::string> names, uint32_t idx, const char* what,
                           uint64_t job) {
  if (idx >= names.size()) {
    throw std::out_of_range("job " + std::to_string(job) + ": " + what + " index " +
                            std::to_string(idx) + " has no name (" + std::to_string(names.size()) +
                            " known)");
  }
  return names[idx];
}

std::size_t longest(const std::vector<std::string>& names) {
  std::size_t n = 0;
  for (const std::string& s : names) n = std::max(n, s.size());
  return n;
}

}  // namespace

JobsCsv::JobsCsv(std::span<const std::string> class_names,
                 std::span<const std::string> pool_names) {
  for (const std::string& c : class_names) classes_.push_back(csv_text_field(c));
  for (const std::string& p : pool_names) pools_.push_back(csv_text_field(p));
  // NOTE: 3 integers, 2 names, 5 times, 9 commas and the newline.
  row_max_ =
      3 * INTEGER_MAX_CHARS + longest(classes_) + longest(pools_) + 5 * SHORTEST_MAX_CHARS + 10;
}

std::string_view JobsCsv::header() {
  return "job,class,class_job,pool,gpus,submit_s,start_s,finish_s,wait_s,jct_s\n";
}

char* JobsCsv::write_row(const JobRecord& job, char* p) {
  const std::string& cls = name_at(classes_, job.class_idx, "class", next_row_);
  const std::string& pool =
      job.pool_idx == NO_POOL ? NO_NAME : name_at(pools_, job.pool_idx, "pool", next_row_);
  const auto text = [&p](const std::string& t) {
    std::memcpy(p, t.data(), t.size());
    p += t.size();
    *p++ = ',';
  };
  p = write_integer(p, next_row_++);
  *p++ = ',';
  text(cls);
  p = write_integer(p, job.job_idx);
  *p++ = ',';
  text(pool);
  p = write_integer(p, job.gpus);
  *p++ = ',';
  char* const submit = p;
  if (std::isfinite(job.submit_s)) p = write_shortest(p, job.submit_s);
  const std::size_t submit_len = std::size_t(p - submit);
  *p++ = ',';
  if (std::bit_cast<uint64_t>(job.start_s) == std::bit_cast<uint64_t>(job.submit_s)) {
    // NOTE: most jobs start on arrival; the same double has the same text.
    std::memmove(p, submit, submit_len);
    p += submit_len;
  } else if (std::isfinite(job.start_s)) {
    p = write_shortest(p, job.start_s);
  }
  *p++ = ',';
  if (std::isfinite(job.finish_s)) p = write_shortest(p, job.finish_s);
  *p++ = ',';
  const double wait = job.start_s - job.submit_s;
  if (std::isfinite(wait)) p = write_shortest(p, wait);
  *p++ = ',';
  if (std::isfinite(job.finish_s)) p = write_shortest(p, job.finish_s - job.submit_s);
  *p++ = '\n';
  return p;
}

void JobsCsv::append(std::span<const JobRecord> jobs, std::string& out) {
  const std::size_t at = out.size();
  out.resize(at + jobs.size() * row_max_);
  char* p = out.data() + at;
  for (const JobRecord& job : jobs) p = write_row(job, p);
  out.resize(std::size_t(p - out.data()));
}

void write_jobs_csv(std::span<const JobRecord> jobs, std::span<const std::string> class_names,
                    std::span<const std::string> pool_names, std::ostream& out) {
  JobsCsv csv(class_names, pool_names);
  std::string text(JobsCsv::header());
  csv.append(jobs, text);
  out << text;
}

}  // namespace gpuplan::reports
