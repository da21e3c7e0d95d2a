#include "reports/quote_pdf.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>
#include <vector>

namespace gpuplan::reports {
namespace {

namespace fs = std::filesystem;

//! A file:// URL for an absolute path, percent-encoding everything but unreserved bytes and '/'.
std::string file_url(const fs::path& p) {
  std::string out = "file://";
  for (unsigned char c : p.string()) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

//! How a child process ended.
enum class ChildEnd { exited_ok, failed, stopped, timed_out };

//! Runs `argv` (argv[0] a path) in a process group of its own, stdin, stdout and stderr on
//! /dev/null, and waits for it; the whole group is killed after `max_s` [s] or once `budget`
//! (nullptr = none) says stop, so no Chromium helper outlives its print.
ChildEnd run_in_own_group(const std::vector<std::string>& argv, double max_s,
                          const quote::ComputeBudget* budget) {
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&files, 1, 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);  // a new group led by the child
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int spawned = ::posix_spawn(&pid, args[0], &files, &attr, args.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&files);
  if (spawned != 0) return ChildEnd::failed;
  const auto give_up = std::chrono::steady_clock::now() +
                       std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                           std::chrono::duration<double>(max_s));
  while (true) {
    int status = 0;
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid)
      return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? ChildEnd::exited_ok : ChildEnd::failed;
    if (done < 0 && errno != EINTR) return ChildEnd::failed;
    const bool stop = budget && budget->stop_reason();
    if (stop || std::chrono::steady_clock::now() >= give_up) {
      ::kill(-pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      return stop ? ChildEnd::stopped : ChildEnd::timed_out;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

}  // namespace

std::string find_chromium() {
  if (const char* env = std::getenv("CHROMIUM"); env && *env) return env;
  const char* path = std::getenv("PATH");
  if (!path) return "";
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    for (const char* name : {"chromium", "chromium-browser"}) {
      const fs::path p = fs::path(dir) / name;
      if (::access(p.c_str(), X_OK) == 0) return p.string();
    }
  }
  return "";
}

PdfStatus print_pdf(const fs::path& html, const fs::path& pdf, const quote::ComputeBudget* budget) {
  const std::string browser = find_chromium();
  if (browser.empty()) return PdfStatus::no_browser;
  std::string profile_tpl = (fs::temp_directory_path() / "gpuplan-chromium-XXXXXX").string();
  if (::mkdtemp(profile_tpl.data()) == nullptr) return PdfStatus::failed;
  const fs::path tmp = pdf.parent_path() / ".quote.pdf.tmp";
  const ChildEnd end = run_in_own_group(
      {browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
       "--disable-background-networking", "--disable-component-update", "--disable-sync",
       "--user-data-dir=" + profile_tpl, "--print-to-pdf=" + tmp.string(), "--no-pdf-header-footer",
       file_url(fs::absolute(html))},
      PDF_PRINT_MAX_S, budget);
  std::error_code ec;
  fs::remove_all(profile_tpl, ec);
  std::ifstream f(tmp, std::ios::binary);
  char magic[4] = {};
  f.read(magic, 4);
  if (end != ChildEnd::exited_ok || !f || std::string(magic, 4) != "%PDF") {
    fs::remove(tmp, ec);
    return end == ChildEnd::stopped ? PdfStatus::stopped : PdfStatus::failed;
  }
  fs::rename(tmp, pdf, ec);
  return ec ? PdfStatus::failed : PdfStatus::written;
}

std::optional<std::string> pdf_bytes(std::string_view html, PdfStatus& status,
                                     const quote::ComputeBudget* budget) {
  std::string dir_tpl = (fs::temp_directory_path() / "gpuplan-pdf-XXXXXX").string();
  if (::mkdtemp(dir_tpl.data()) == nullptr) {
    status = PdfStatus::failed;
    return std::nullopt;
  }
  const fs::path dir = dir_tpl;
  std::optional<std::string> out;
  {
    std::ofstream page(dir / "quote.html", std::ios::binary);
    page.write(html.data(), static_cast<std::streamsize>(html.size()));
    status = page.good() ? PdfStatus::written : PdfStatus::failed;
  }
  if (status == PdfStatus::written)
    status = print_pdf(dir / "quote.html", dir / "quote.pdf", budget);
  if (status == PdfStatus::written) {
    std::ifstream f(dir / "quote.pdf", std::ios::binary);
    out = std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    if (!f.good() && !f.eof()) {
      status = PdfStatus::failed;
      out.reset();
    }
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  return out;
}

}  // namespace gpuplan::reports
