#include "reports/quote_pdf.h"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

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

//! A string quoted for /bin/sh.
std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
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

PdfStatus print_pdf(const fs::path& html, const fs::path& pdf) {
  const std::string browser = find_chromium();
  if (browser.empty()) return PdfStatus::no_browser;
  std::string profile_tpl = (fs::temp_directory_path() / "gpuplan-chromium-XXXXXX").string();
  if (::mkdtemp(profile_tpl.data()) == nullptr) return PdfStatus::failed;
  const fs::path tmp = pdf.parent_path() / ".quote.pdf.tmp";
  const std::string cmd =
      "timeout 120 " + shell_quote(browser) +
      " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
      " --disable-background-networking --disable-component-update --disable-sync"
      " --user-data-dir=" +
      shell_quote(profile_tpl) + " --print-to-pdf=" + shell_quote(tmp.string()) +
      " --no-pdf-header-footer " + shell_quote(file_url(fs::absolute(html))) + " >/dev/null 2>&1";
  const int rc = std::system(cmd.c_str());
  std::error_code ec;
  fs::remove_all(profile_tpl, ec);
  std::ifstream f(tmp, std::ios::binary);
  char magic[4] = {};
  f.read(magic, 4);
  if (rc != 0 || !f || std::string(magic, 4) != "%PDF") {
    fs::remove(tmp, ec);
    return PdfStatus::failed;
  }
  fs::rename(tmp, pdf, ec);
  return ec ? PdfStatus::failed : PdfStatus::written;
}

std::optional<std::string> pdf_bytes(std::string_view html, PdfStatus& status) {
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
  if (status == PdfStatus::written) status = print_pdf(dir / "quote.html", dir / "quote.pdf");
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
