#include "models/input/jsonc.h"

#include <algorithm>
#include <unordered_map>

#include "models/input/input_file.h"

namespace gpuplan {
namespace {

// Appends the UTF-8 encoding of code point `cp`.
void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

//! A duplicate object key: where it is and where the first one was.
struct Duplicate {
  std::string pointer;
  int line;
  int first_line;
};

// Walks JSONC text once with an explicit stack (no recursion) and records the line of every
// value. It trusts that the text already parsed, so it never has to report syntax errors.
class LineScanner {
 public:
  explicit LineScanner(std::string_view text) : t_(text) {}

  void run() {
    if (t_.starts_with("\xEF\xBB\xBF")) i_ = 3;  // UTF-8 byte order mark, skipped by nlohmann too
    while (i_ < t_.size()) {
      const char c = t_[i_];
      if (c == '\n') {
        ++line_;
        ++i_;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++i_;
      } else if (c == '/' && i_ + 1 < t_.size() && (t_[i_ + 1] == '/' || t_[i_ + 1] == '*')) {
        skip_comment();
      } else if (c == '{' || c == '[') {
        std::string p = begin_value();
        stack_.push_back(Frame{c == '[', 0, c == '{', std::move(p), {}});
        ++i_;
      } else if (c == '}' || c == ']') {
        if (!stack_.empty()) stack_.pop_back();
        ++i_;
      } else if (c == ',') {
        if (!stack_.empty()) {
          if (stack_.back().array) {
            ++stack_.back().index;
          } else {
            stack_.back().expect_key = true;
          }
        }
        ++i_;
      } else if (c == ':') {
        ++i_;
      } else if (c == '"') {
        const int at = line_;
        std::string s = read_string();
        if (!stack_.empty() && !stack_.back().array && stack_.back().expect_key) {
          key(s, at);
        } else {
          begin_value();
        }
      } else {
        begin_value();
        // NOTE: always past the first byte, so no byte can stall the scan.
        ++i_;
        while (i_ < t_.size() &&
               std::string_view(",]}{[\": \t\r\n/").find(t_[i_]) == std::string_view::npos)
          ++i_;
      }
    }
  }

  LineTable lines;
  std::vector<Duplicate> duplicates;

 private:
  struct Frame {
    bool array;
    size_t index;
    bool expect_key;
    std::string pointer;
    std::unordered_map<std::string, int> keys;  // key -> line of its first occurrence
  };

  void record(const std::string& pointer, int line) {
    auto [it, inserted] = index_.try_emplace(pointer, lines.size());
    if (inserted) {
      lines.emplace_back(pointer, line);
    } else {
      // NOTE: nlohmann keeps the last of duplicate keys, so the table does too.
      lines[it->second].second = line;
    }
  }

  // Records the value starting here (array elements and the root; object members were recorded
  // at their key) and returns its pointer.
  std::string begin_value() {
    if (stack_.empty()) {
      record("", line_);
      return "";
    }
    Frame& f = stack_.back();
    if (f.array) {
      std::string p = f.pointer + '/' + std::to_string(f.index);
      record(p, line_);
      return p;
    }
    return member_;
  }

  void key(const std::string& k, int at) {
    Frame& f = stack_.back();
    f.expect_key = false;
    member_ = f.pointer + '/' + pointer_token(k);
    auto [it, inserted] = f.keys.try_emplace(k, at);
    if (!inserted) duplicates.push_back(Duplicate{member_, at, it->second});
    record(member_, at);
  }

  void skip_comment() {
    if (t_[i_ + 1] == '/') {
      while (i_ < t_.size() && t_[i_] != '\n') ++i_;
      return;
    }
    i_ += 2;
    while (i_ < t_.size() && !(t_[i_] == '*' && i_ + 1 < t_.size() && t_[i_ + 1] == '/')) {
      if (t_[i_] == '\n') ++line_;
      ++i_;
    }
    i_ = std::min(t_.size(), i_ + 2);
  }

  uint32_t read_hex4() {
    uint32_t v = 0;
    for (int k = 0; k < 4 && i_ < t_.size(); ++k, ++i_) {
      const char h = t_[i_];
      v = v * 16 + static_cast<uint32_t>(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
    }
    return v;
  }

  std::string read_string() {
    std::string out;
    ++i_;  // opening quote
    while (i_ < t_.size() && t_[i_] != '"') {
      if (t_[i_] != '\\') {
        out += t_[i_++];
        continue;
      }
      ++i_;
      if (i_ >= t_.size()) break;
      const char e = t_[i_++];
      switch (e) {
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          uint32_t cp = read_hex4();
          if (cp >= 0xD800 && cp < 0xDC00 && i_ + 1 < t_.size() && t_[i_] == '\\' &&
              t_[i_ + 1] == 'u') {
            i_ += 2;
            const uint32_t lo = read_hex4();
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          append_utf8(out, cp);
          break;
        }
        default:
          out += e;
          break;  // \" \\ \/
      }
    }
    ++i_;  // closing quote
    return out;
  }

  std::string_view t_;
  size_t i_ = 0;
  int line_ = 1;
  std::vector<Frame> stack_;
  std::string member_;  // pointer of the object member whose value comes next
  std::unordered_map<std::string, size_t> index_;
};

// nlohmann's message without its "[json.exception...] parse error at line L, column C: " prefix.
std::string strip_prefix(std::string_view what) {
  const size_t col = what.find("column ");
  if (col != std::string_view::npos) {
    const size_t colon = what.find(": ", col);
    if (colon != std::string_view::npos) return std::string(what.substr(colon + 2));
  }
  const size_t bracket = what.find("] ");
  return std::string(bracket == std::string_view::npos ? what : what.substr(bracket + 2));
}

// The 1-based line where the nesting of `[` and `{` first exceeds `max_depth`, or 0 when it never
// does. One pass that skips strings and comments; malformed text is left to the parser.
int line_too_deep(std::string_view t, size_t max_depth) {
  size_t depth = 0;
  int line = 1;
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '\n') {
      ++line;
    } else if (c == '"') {
      for (++i; i < t.size() && t[i] != '"'; ++i) {
        if (t[i] == '\\')
          ++i;
        else if (t[i] == '\n')
          ++line;
      }
    } else if (c == '/' && i + 1 < t.size() && t[i + 1] == '/') {
      while (i + 1 < t.size() && t[i + 1] != '\n') ++i;
    } else if (c == '/' && i + 1 < t.size() && t[i + 1] == '*') {
      for (i += 2; i + 1 < t.size() && !(t[i] == '*' && t[i + 1] == '/'); ++i)
        if (t[i] == '\n') ++line;
      ++i;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return line;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return 0;
}

// The DOM builder of nlohmann::json::parse, keeping where and why parsing stopped: a number
// beyond double range (1e400, a 400-digit integer) is an out_of_range exception with no
// position, which the plain parse would throw past every file:line.
class PositionedDomParser : public nlohmann::detail::json_sax_dom_parser<nlohmann::json> {
 public:
  explicit PositionedDomParser(nlohmann::json& root)
      : json_sax_dom_parser(root, /*allow_exceptions_=*/false) {}

  template <class Exception>
  bool parse_error(size_t position, const std::string& token, const Exception& ex) {
    failed = true;
    byte = position;
    overflow = ex.id == 406;  // out_of_range.406: number overflow
    last_token = token;
    what = ex.what();
    return false;
  }

  bool failed = false;
  size_t byte = 0;  //!< characters read when parsing stopped (1-based position of the last)
  bool overflow = false;
  std::string last_token;
  std::string what;
};

}  // namespace

std::string pointer_token(std::string_view key) {
  std::string out;
  out.reserve(key.size());
  for (const char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string json_error_text(std::string_view what) {
  static constexpr std::string_view LAST_READ = "; last read: '";
  const size_t at = what.find(LAST_READ);
  if (at == std::string_view::npos) return std::string(what);
  const std::string_view rest = what.substr(at + LAST_READ.size());
  // NOTE: nlohmann closes the text with ' and may add "; expected <token>" (a short name of its
  // own); the quoted text itself may hold both, so the last match that leaves a short tail wins.
  std::string_view token = rest, tail;
  if (const size_t e = rest.rfind("'; expected ");
      e != std::string_view::npos && rest.size() - e < 64) {
    token = rest.substr(0, e);
    tail = rest.substr(e + 1);
  } else if (!rest.empty() && rest.back() == '\'') {
    token = rest.substr(0, rest.size() - 1);
  }
  return std::string(what.substr(0, at + LAST_READ.size())) + escape_for_message(token) + "'" +
         std::string(tail);
}

LineTable jsonc_line_table(std::string_view text) {
  LineScanner s(text);
  s.run();
  return std::move(s.lines);
}

std::optional<JsoncDocument> parse_jsonc(std::string_view text, const std::string& file,
                                         Diagnostics& diags) {
  // NOTE: nlohmann's lexer takes a NUL byte for the end of input and would accept what follows
  // unread; JSON text never holds one (a string writes it as \u0000).
  if (const size_t nul = text.find('\0'); nul != std::string_view::npos) {
    const std::string_view before = text.substr(0, nul);
    const int line = 1 + static_cast<int>(std::count(before.begin(), before.end(), '\n'));
    diags.add(Diagnostic{file,
                         line,
                         "",
                         DiagCode::parse_error,
                         "invalid JSON: a NUL byte (JSON text is UTF-8 without NUL bytes)",
                         {}});
    return std::nullopt;
  }
  JsoncDocument doc;
  // NOTE: checked before parsing: the line table keeps one pointer per value, whose length grows
  // with the depth, so 100 k nested "[" (200 KB of text) would need gigabytes.
  if (const int line = line_too_deep(text, MAX_JSON_DEPTH)) {
    diags.add(Diagnostic{file,
                         line,
                         "",
                         DiagCode::limit_exceeded,
                         "arrays and objects nest deeper than " + std::to_string(MAX_JSON_DEPTH) +
                             " levels (a fixed limit: no scenario or request needs more than 8); "
                             "remove the extra brackets",
                         {}});
    return std::nullopt;
  }
  PositionedDomParser sax(doc.value);
  nlohmann::json::sax_parse(text.begin(), text.end(), &sax, nlohmann::json::input_format_t::json,
                            /*strict=*/true, /*ignore_comments=*/true);
  if (sax.failed) {
    // NOTE: sax.byte is the 1-based position of the last character read.
    const size_t offset = std::min(sax.byte == 0 ? 0 : sax.byte - 1, text.size());
    const std::string_view before = text.substr(0, offset);
    const int line = 1 + static_cast<int>(std::count(before.begin(), before.end(), '\n'));
    if (sax.overflow) {
      // The text up to the number is valid JSON so far: its last value is the number.
      LineScanner prefix(text.substr(0, std::min(offset + 1, text.size())));
      prefix.run();
      const std::string ptr = prefix.lines.empty() ? "" : prefix.lines.back().first;
      std::string token = sax.last_token;
      if (token.size() > 40) token = token.substr(0, 37) + "...";
      diags.add(Diagnostic{file,
                           line,
                           ptr,
                           DiagCode::out_of_range,
                           "the number " + token +
                               " is beyond the range of a double (about 1.8e308); write a "
                               "smaller number",
                           {}});
      return std::nullopt;
    }
    const size_t nl = before.rfind('\n');
    const size_t column = offset - (nl == std::string_view::npos ? 0 : nl + 1) + 1;
    std::string msg = "invalid JSON at column " + std::to_string(column) + ": " +
                      json_error_text(strip_prefix(sax.what));
    // A trailing comma is the most common JSONC slip; nlohmann's message does not name it.
    const size_t last = before.find_last_not_of(" \t\r\n");
    if (offset < text.size() && (text[offset] == '}' || text[offset] == ']') &&
        last != std::string_view::npos && before[last] == ',') {
      msg += " (trailing commas are not allowed)";
    }
    diags.add(Diagnostic{file, line, "", DiagCode::parse_error, std::move(msg), {}});
    return std::nullopt;
  }
  LineScanner s(text);
  s.run();
  doc.lines = std::move(s.lines);
  for (const auto& dup : s.duplicates) {
    diags.add(Diagnostic{file,
                         dup.line,
                         dup.pointer,
                         DiagCode::parse_error,
                         "duplicate key (first at line " + std::to_string(dup.first_line) +
                             "); JSON keeps only the last one, so remove one of them",
                         {}});
  }
  return doc;
}

}  // namespace gpuplan
