#include "reports/csv.h"

#include "reports/format.h"

#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace gpuplan::reports {
namespace {

// The process's umask, so the per-job file gets the permissions a plain create would give.
mode_t current_umask() {
  const mode_t m = ::umask(022);
  ::umask(m);
  return m;
}

using nlohmann::json;

// The number at `j[key]`, or "" when it is absent or not a number.
std::string number_cell(const json& j, std::string_view key) {
  if (!j.is_object()) return "";
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return "";
  return format_raw(it->get<double>());
}

// Element `i` of the numeric array `j[key]`, or "" when any part of it is absent.
std::string series_cell(const json& j, std::string_view key, std::size_t i) {
  if (!j.is_object()) return "";
  const auto it = j.find(key);
  if (it == j.end() || !it->is_array() || i >= it->size() || !(*it)[i].is_number()) return "";
  return format_raw((*it)[i].get<double>());
}

// Length of the array `j[key]`, or 0.
std::size_t series_size(const json& j, std::string_view key) {
  if (!j.is_object()) return 0;
  const auto it = j.find(key);
  return it != j.end() && it->is_array() ? it->size() : 0;
}

const json& member_or_null(const json& j, std::string_view key) {
  static const json NONE;
  if (!j.is_object()) return NONE;
  const auto it = j.find(key);
  return it == j.end() ? NONE : *it;
}

void write_row(std::ostream& out, const std::vector<std::string>& cells) {
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) out << ',';
    out << cells[i];
  }
  out << '\n';
}

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

}  // namespace

std::string csv_text_field(std::string_view text) {
  std::string value;
  if (!text.empty() && (text[0] == '=' || text[0] == '+' || text[0] == '-' || text[0] == '@' ||
                        text[0] == '\t' || text[0] == '\r')) {
    value += '\'';
  }
  value.append(text);
  if (value.find_first_of(",\"\r\n") == std::string::npos) return value;
  std::string quoted = "\"";
  for (const char c : value) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

void write_timeseries_csv(const json& result, std::ostream& out) {
  static constexpr std::array<const char*, 4> SERIES{"busy_gpus", "provisioned_gpus", "queued_jobs",
                                                     "spend_usd"};
  static constexpr std::array<const char*, 3> BANDS{"busy_gpus", "queued_jobs",
                                                    "cumulative_spend_usd"};
  static constexpr std::array<const char*, 3> LEVELS{"p10", "p50", "p90"};
  const json& ts = member_or_null(result, "timeseries");
  const json& bands = member_or_null(result, "bands");
  const bool with_bands = bands.is_object();

  std::vector<std::string> header{"t_s"};
  for (const char* s : SERIES) header.emplace_back(s);
  header.emplace_back("cumulative_spend_usd");
  if (with_bands) {
    for (const char* b : BANDS) {
      for (const char* level : LEVELS) header.push_back(std::string(b) + "_" + level);
    }
  }
  write_row(out, header);

  std::size_t n_rows = series_size(ts, "t_s");
  for (const char* s : SERIES) n_rows = std::max(n_rows, series_size(ts, s));
  const bool have_t = series_size(ts, "t_s") > 0;
  const json& bin = member_or_null(ts, "bin_s");
  double cumulative = 0;
  for (std::size_t i = 0; i < n_rows; ++i) {
    std::vector<std::string> row;
    if (have_t) {
      row.push_back(series_cell(ts, "t_s", i));
    } else {
      row.push_back(bin.is_number() ? format_raw(static_cast<double>(i) * bin.get<double>()) : "");
    }
    for (const char* s : SERIES) row.push_back(series_cell(ts, s, i));
    const std::string spend = series_cell(ts, "spend_usd", i);
    if (!spend.empty()) cumulative += ts["spend_usd"][i].get<double>();
    row.push_back(i < series_size(ts, "spend_usd") ? format_raw(cumulative) : "");
    if (with_bands) {
      for (const char* b : BANDS) {
        for (const char* level : LEVELS)
          row.push_back(series_cell(member_or_null(bands, b), level, i));
      }
    }
    write_row(out, row);
  }
}

void write_per_class_csv(const json& result, std::ostream& out) {
  static constexpr std::array<const char*, 4> STATS{"mean", "p50", "p90", "p99"};
  std::vector<std::string> header{"class", "jobs_submitted", "jobs_completed", "jobs_unfinished"};
  for (const char* what : {"wait", "jct"}) {
    for (const char* s : STATS) header.push_back(std::string(what) + "_" + s + "_s");
  }
  write_row(out, header);
  const json& classes = member_or_null(result, "per_class");
  if (!classes.is_array()) return;
  for (const json& c : classes) {
    const json& name = member_or_null(c, "name");
    std::vector<std::string> row{csv_text_field(name.is_string() ? name.get<std::string>() : ""),
                                 number_cell(c, "jobs_submitted"), number_cell(c, "jobs_completed"),
                                 number_cell(c, "jobs_unfinished")};
    for (const char* what : {"wait_s", "jct_s"}) {
      for (const char* s : STATS) row.push_back(number_cell(member_or_null(c, what), s));
    }
    write_row(out, row);
  }
}

JobsCsv::JobsCsv(std::span<const std::string> class_names,
                 std::span<const std::string> pool_names) {
  for (const std::string& c : class_names) classes_.push_back(csv_text_field(c));
  for (const std::string& p : pool_names) pools_.push_back(csv_text_field(p));
}

std::string_view JobsCsv::header() {
  return "job,class,class_job,pool,gpus,submit_s,start_s,finish_s,wait_s,jct_s\n";
}

void JobsCsv::append(std::span<const JobRecord> jobs, std::string& out) {
  // NOTE: a row is at most 5 doubles (24 chars each), 4 integers (20 each) and the two names.
  constexpr std::size_t NUMBERS_MAX = 5 * 24 + 4 * 20 + 10;
  for (const JobRecord& job : jobs) {
    const std::string& cls = name_at(classes_, job.class_idx, "class", next_row_);
    const std::string& pool =
        job.pool_idx == NO_POOL ? NO_NAME : name_at(pools_, job.pool_idx, "pool", next_row_);
    const std::size_t at = out.size();
    out.resize(at + cls.size() + pool.size() + NUMBERS_MAX);
    char* p = out.data() + at;
    const auto text = [&p](const std::string& t) {
      std::memcpy(p, t.data(), t.size());
      p += t.size();
    };
    const auto number = [&p](auto v) { p = std::to_chars(p, p + 24, v).ptr; };
    const auto time = [&p, &number](double v) {
      if (std::isfinite(v)) number(v);
      *p++ = ',';
    };
    number(next_row_++);
    *p++ = ',';
    text(cls);
    *p++ = ',';
    number(job.job_idx);
    *p++ = ',';
    text(pool);
    *p++ = ',';
    number(job.gpus);
    *p++ = ',';
    time(job.submit_s);
    time(job.start_s);
    time(job.finish_s);
    time(job.start_s - job.submit_s);
    if (std::isfinite(job.finish_s)) number(job.finish_s - job.submit_s);
    *p++ = '\n';
    out.resize(std::size_t(p - out.data()));
  }
}

void write_jobs_csv(std::span<const JobRecord> jobs, std::span<const std::string> class_names,
                    std::span<const std::string> pool_names, std::ostream& out) {
  JobsCsv csv(class_names, pool_names);
  std::string text(JobsCsv::header());
  csv.append(jobs, text);
  out << text;
}

JobsCsvFile::JobsCsvFile(std::filesystem::path path, std::span<const std::string> class_names,
                         std::span<const std::string> pool_names)
    : path_(std::move(path)), csv_(class_names, pool_names) {
  std::error_code ec;
  if (path_.filename().empty() || std::filesystem::is_directory(path_, ec)) {
    error_ = "is a folder; name a file, e.g. " + (path_ / "jobs.csv").string();
    return;
  }
  // NOTE: mkstemp: a fresh name opened O_EXCL, so a planted file or symlink is never written.
  std::string tmpl =
      (path_.parent_path() / std::string(".").append(path_.filename().string()).append(".XXXXXX"))
          .string();
  const int fd = ::mkstemp(tmpl.data());
  tmp_ = tmpl;
  if (fd >= 0) {
    ::fchmod(fd, 0666 & ~current_umask());
    file_ = ::fdopen(fd, "wb");
    if (file_ == nullptr) ::close(fd);
  }
  if (file_ == nullptr) {
    const std::filesystem::path dir = path_.parent_path().empty() ? "." : path_.parent_path();
    const int why = errno;
    error_ = std::filesystem::is_directory(dir, ec)
                 ? "cannot write into " + dir.string() + ": " + std::strerror(why)
             : std::filesystem::exists(dir, ec) ? dir.string() + " is not a folder"
                                                : "the folder " + dir.string() + " does not exist";
    return;
  }
  buffer_.assign(JobsCsv::header());
}

JobsCsvFile::~JobsCsvFile() {
  if (file_ == nullptr) return;
  std::fclose(file_);
  std::error_code ec;
  std::filesystem::remove(tmp_, ec);
}

void JobsCsvFile::write(const JobRecord* records, std::size_t n) {
  csv_.append(std::span<const JobRecord>(records, n), buffer_);
  rows_ += n;
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size())
    throw std::runtime_error(tmp_.string() + ": cannot write: " + std::strerror(errno));
  buffer_.clear();
}

bool JobsCsvFile::commit() {
  if (file_ == nullptr) return false;
  const bool written = std::fwrite(buffer_.data(), 1, buffer_.size(), file_) == buffer_.size() &&
                       std::fflush(file_) == 0 && ::fsync(::fileno(file_)) == 0;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  std::error_code ec;
  if (written && closed) std::filesystem::rename(tmp_, path_, ec);
  if (written && closed && !ec) return true;
  error_ = "cannot write: " + (ec ? ec.message() : std::string(std::strerror(errno)));
  std::filesystem::remove(tmp_, ec);
  return false;
}

}  // namespace gpuplan::reports
