#include "models/input/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace gpuplan {
namespace {

// A size for messages: "17.2 MB" (decimal megabytes, as file managers show them).
std::string megabytes(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(bytes) / 1e6);
  return buf;
}

// Closes a file descriptor on every way out.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

size_t utf8_sequence_length(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    n = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    n = 3;
    if (lead == 0xE0) lo = 0xA0;  // no overlong forms
    if (lead == 0xED) hi = 0x9F;  // no UTF-16 surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    n = 4;
    if (lead == 0xF0) lo = 0x90;  // no overlong forms
    if (lead == 0xF4) hi = 0x8F;  // nothing past U+10FFFF
  } else {
    return 0;
  }
  if (i + n > s.size() || byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return n;
}

std::optional<size_t> invalid_utf8_at(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    // NOTE: ASCII inline: traces of up to 1 GB pass through here.
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    const size_t n = utf8_sequence_length(s, i);
    if (n == 0) return i;
    i += n;
  }
  return std::nullopt;
}

std::string escape_for_message(std::string_view s, size_t max_chars) {
  std::string out;
  const size_t n = std::min(s.size(), max_chars);
  for (size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    }
  }
  if (s.size() > max_chars) out += "...";
  return out;
}

std::optional<std::string> read_input_file(const std::string& path, uint64_t max_bytes,
                                           std::string& error) {
  // NOTE: O_NONBLOCK so that opening a FIFO returns at once instead of waiting for a writer;
  // the type check below then refuses it.
  Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
  if (f.fd < 0) {
    const int why = errno;
    error = why == ENOENT ? "no such file" : std::string("cannot open it: ") + std::strerror(why);
    return std::nullopt;
  }
  struct stat st {};
  if (::fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    error = S_ISDIR(st.st_mode) ? "it is a folder, not a file"
                                : "it is not a regular file (a device, FIFO or socket); gpuplan "
                                  "reads only regular files";
    return std::nullopt;
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    error = "it is " + megabytes(static_cast<uint64_t>(st.st_size)) + ", over the limit of " +
            megabytes(max_bytes) + " for this kind of file";
    return std::nullopt;
  }
  // NOTE: read until end of file, not st_size bytes: files under /proc report size 0, and a
  // file may grow while it is read; the cap holds either way.
  std::string text;
  text.resize(static_cast<size_t>(std::min<uint64_t>(max_bytes + 1, st.st_size + 4096)));
  size_t got = 0;
  for (;;) {
    if (got == text.size()) {
      if (got > max_bytes) break;
      text.resize(static_cast<size_t>(std::min<uint64_t>(max_bytes + 1, 2 * text.size())));
    }
    const ssize_t r = ::read(f.fd, text.data() + got, text.size() - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      error = std::string("cannot read it: ") + std::strerror(errno);
      return std::nullopt;
    }
    if (r == 0) break;
    got += static_cast<size_t>(r);
  }
  if (got > max_bytes) {
    error = "it grew past the limit of " + megabytes(max_bytes) + " while it was read";
    return std::nullopt;
  }
  text.resize(got);
  const size_t nul = text.find('\0');
  const std::optional<size_t> bad = invalid_utf8_at(text);
  if (nul != std::string::npos || bad) {
    const size_t at = std::min(nul, bad.value_or(std::string::npos));
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<ptrdiff_t>(at), '\n');
    error =
        "line " + std::to_string(line) + " is not UTF-8 text (" +
        (at == nul ? std::string("a NUL byte") : "byte " + escape_for_message(text.substr(at, 1))) +
        "); gpuplan reads text files saved as UTF-8";
    return std::nullopt;
  }
  return text;
}

std::optional<std::string> read_input_file(const std::string& path, uint64_t max_bytes,
                                           std::string_view what, const std::string& pointer,
                                           Diagnostics& diags) {
  std::string error;
  std::optional<std::string> text;
  if (invalid_utf8_at(path)) {
    error = "the path is not UTF-8 text (outputs record it); rename the file or its folder";
  } else {
    text = read_input_file(path, max_bytes, error);
  }
  if (text) return text;
  const std::string shown = escape_for_message(path, 200);
  const std::string msg =
      "cannot read the " + std::string(what) + " " + in_quotes(shown) + ": " + error;
  if (pointer.empty()) {
    diags.add(Diagnostic{shown, 0, "", DiagCode::io_error, msg, {}});
  } else {
    diags.error(pointer, DiagCode::io_error, msg);  // file:line of the value naming the path
  }
  return std::nullopt;
}

}  // namespace gpuplan
