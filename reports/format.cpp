#include "reports/format.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "models/input/input_file.h"

namespace gpuplan::reports {
namespace {

// Inserts a comma every three digits into a string of decimal digits.
std::string group_thousands(const std::string& digits) {
  std::string out;
  const std::size_t n = digits.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// Fixed-point text of `value` (finite) with `decimals` decimals and thousands separators.
std::string fixed_grouped(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, std::fabs(value));
  std::string text = buf;
  const std::size_t dot = text.find('.');
  std::string int_part = text.substr(0, dot);
  std::string frac_part = dot == std::string::npos ? "" : text.substr(dot);
  const bool negative = value < 0 && text.find_first_not_of("0.") != std::string::npos;
  std::string out = negative ? "-" : "";
  out += group_thousands(int_part);
  out += frac_part;
  return out;
}

}  // namespace

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    switch (c) {
      case '&':
        out += "&amp;";
        ++i;
        continue;
      case '<':
        out += "&lt;";
        ++i;
        continue;
      case '>':
        out += "&gt;";
        ++i;
        continue;
      case '"':
        out += "&quot;";
        ++i;
        continue;
      case '\'':
        out += "&#39;";
        ++i;
        continue;
      default:
        break;
    }
    const std::size_t n = utf8_sequence_length(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string json_for_script(const nlohmann::json& value) {
  return script_safe_json(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

std::string script_safe_json(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  append_script_safe_json(out, text);
  return out;
}

void append_script_safe_json(std::string& out, std::string_view text) {
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (!in_string) {
      // NOTE: outside strings only whitespace may be dropped: the text is then the compact form.
      if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
      if (c == '"') in_string = true;
      out += c;
      continue;
    }
    if (c == '\\' && i + 1 < text.size()) {
      // an escape: its next character never ends the string (nor is it <, >, & or U+2028/9)
      out += c;
      out += text[++i];
    } else if (c == '"') {
      in_string = false;
      out += c;
    } else if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else if (c == '\xE2' && i + 2 < text.size() && text[i + 1] == '\x80' &&
               (text[i + 2] == '\xA8' || text[i + 2] == '\xA9')) {
      // NOTE: U+2028/2029 end a line in older JavaScript parsers; escape them like the rest.
      out += text[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += c;
    }
  }
}

void append_script_safe(std::string& out, std::string_view js) {
  static constexpr std::string_view TAG = "/script";
  // NOTE: copied in runs between '<'s, so text without one (most of it) is a single append.
  std::size_t from = 0;
  for (std::size_t lt = js.find('<'); lt != std::string_view::npos; lt = js.find('<', lt + 1)) {
    if (lt + TAG.size() >= js.size()) break;
    bool is_end_tag = true;
    for (std::size_t k = 0; k < TAG.size() && is_end_tag; ++k) {
      is_end_tag = std::tolower(static_cast<unsigned char>(js[lt + 1 + k])) == TAG[k];
    }
    if (!is_end_tag) continue;
    out.append(js.substr(from, lt + 1 - from)).append(1, '\\');
    from = lt + 1;
  }
  out.append(js.substr(from));
}

std::string script_safe(std::string_view js) {
  std::string out;
  out.reserve(js.size() + 16);
  append_script_safe(out, js);
  return out;
}

std::string format_money(double usd) {
  if (!std::isfinite(usd)) return "n/a";
  const double cents = std::round(usd * 100.0);
  const std::string body = fixed_grouped(std::fabs(cents) / 100.0, 2);
  return (cents < 0 ? "-$" : "$") + body;
}

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds)) return "n/a";
  if (seconds < 0) {
    std::string out = "-";
    out += format_duration(-seconds);
    return out;
  }
  if (seconds == 0) return "0 s";
  struct Unit {
    double scale;  // [s] per unit
    double limit;  // the next unit takes over at this many of this unit
    const char* name;
  };
  static constexpr std::array<Unit, 5> UNITS{
      {{1e-3, 1000, "ms"},
       {1, 60, "s"},
       {60, 60, "min"},
       {3600, 24, "h"},
       {86400, std::numeric_limits<double>::infinity(), "d"}}};
  // About three significant digits: one decimal below 10, none above.
  const auto shown = [](double v) { return v < 9.95 ? std::round(v * 10) / 10 : std::round(v); };
  std::size_t k = 0;
  while (k + 1 < UNITS.size() && shown(seconds / UNITS[k].scale) >= UNITS[k].limit) ++k;
  const double v = shown(seconds / UNITS[k].scale);
  std::string text = fixed_grouped(v, v < 10 ? 1 : 0);
  if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0) text.resize(text.size() - 2);
  return text + " " + UNITS[k].name;
}

std::string format_percent(double fraction, int decimals) {
  if (!std::isfinite(fraction)) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f%%", decimals, fraction * 100.0);
  return buf;
}

std::string format_count(double count) {
  if (!std::isfinite(count)) return "n/a";
  return fixed_grouped(std::round(count), 0);
}

std::string format_number(double value, int decimals) {
  if (!std::isfinite(value)) return "n/a";
  return fixed_grouped(value, decimals);
}

std::string format_raw(double value) {
  if (!std::isfinite(value)) return "";
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, res.ptr);
}

std::string dur(const std::optional<double>& s) {
  return s ? format_duration(*s) : "n/a";
}

std::string pct(const std::optional<double>& f, int decimals) {
  return f ? format_percent(*f, decimals) : "n/a";
}

std::string money(const std::optional<double>& usd) {
  return usd ? format_money(*usd) : "n/a";
}

std::string plural(double n, std::string_view one, std::string_view many) {
  return format_count(n) + " " + std::string(std::llround(n) == 1 ? one : many);
}

}  // namespace gpuplan::reports

namespace gpuplan::reports {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == ':' ||
         c == '.';
}

// Skips past the element `name` whose start tag ends at `from`, to just after its end tag (or to
// the end of the text when it has none).
std::size_t skip_element(const std::string& low, std::string_view name, std::size_t from) {
  const std::size_t end = low.find("</" + std::string(name), from);
  if (end == std::string::npos) return low.size();
  const std::size_t close = low.find('>', end);
  return close == std::string::npos ? low.size() : close + 1;
}

}  // namespace

std::string sanitize_svg(std::string_view svg) {
  const std::string low = lower(svg);
  const std::size_t start = low.find("<svg");
  if (start == std::string::npos) return "";
  std::string out;
  out.reserve(svg.size());
  std::size_t i = start;
  while (i < svg.size()) {
    if (svg[i] != '<') {
      out += svg[i++];
      continue;
    }
    if (low.compare(i, 4, "<!--") == 0) {  // comment
      const std::size_t end = low.find("-->", i + 4);
      i = end == std::string::npos ? svg.size() : end + 3;
      continue;
    }
    if (i + 1 < svg.size() && (svg[i + 1] == '!' || svg[i + 1] == '?')) {  // DOCTYPE, CDATA, PI
      const std::size_t end = low.find('>', i);
      i = end == std::string::npos ? svg.size() : end + 1;
      continue;
    }
    std::size_t k = i + 1;
    const bool closing = k < svg.size() && svg[k] == '/';
    if (closing) ++k;
    const std::size_t name_begin = k;
    while (k < svg.size() && is_name_char(svg[k])) ++k;
    const std::string name = low.substr(name_begin, k - name_begin);
    if (name.empty()) {  // a stray '<': keep it as text
      out += "&lt;";
      ++i;
      continue;
    }
    // Read the attributes up to the end of the tag.
    std::string tag = closing ? "</" : "<";
    tag += std::string(svg.substr(name_begin, k - name_begin));
    bool self_closing = false;
    while (k < svg.size() && svg[k] != '>') {
      if (std::isspace(static_cast<unsigned char>(svg[k])) != 0) {
        ++k;
        continue;
      }
      if (svg[k] == '/') {
        self_closing = true;
        ++k;
        continue;
      }
      const std::size_t an = k;
      while (k < svg.size() && svg[k] != '=' && svg[k] != '>' && svg[k] != '/' &&
             std::isspace(static_cast<unsigned char>(svg[k])) == 0)
        ++k;
      const std::string attr_name(svg.substr(an, k - an));
      std::string value;
      bool has_value = false;
      std::size_t m = k;
      while (m < svg.size() && std::isspace(static_cast<unsigned char>(svg[m])) != 0) ++m;
      if (m < svg.size() && svg[m] == '=') {
        has_value = true;
        k = m + 1;
        while (k < svg.size() && std::isspace(static_cast<unsigned char>(svg[k])) != 0) ++k;
        if (k < svg.size() && (svg[k] == '"' || svg[k] == '\'')) {
          const char q = svg[k];
          const std::size_t end = svg.find(q, k + 1);
          const std::size_t stop = end == std::string_view::npos ? svg.size() : end;
          value = std::string(svg.substr(k + 1, stop - k - 1));
          k = stop == svg.size() ? stop : stop + 1;
        } else {
          const std::size_t vb = k;
          while (k < svg.size() && svg[k] != '>' &&
                 std::isspace(static_cast<unsigned char>(svg[k])) == 0)
            ++k;
          value = std::string(svg.substr(vb, k - vb));
        }
      }
      if (attr_name.empty()) {
        ++k;
        continue;
      }
      const std::string an_low = lower(attr_name);
      const bool event = an_low.size() >= 2 && an_low.compare(0, 2, "on") == 0;
      const bool href = an_low == "href" || (an_low.size() > 5 && an_low.ends_with(":href"));
      const bool external = href && (value.empty() || value.front() != '#');
      const bool bad_name = !std::all_of(attr_name.begin(), attr_name.end(), is_name_char);
      if (event || external || bad_name) continue;
      tag += " " + attr_name;
      if (has_value) {
        // The value is already XML text (entities included): only quotes and angle brackets need
        // care so it stays one attribute.
        tag += "=\"";
        for (const char c : value) {
          if (c == '"')
            tag += "&quot;";
          else if (c == '<')
            tag += "&lt;";
          else if (c == '>')
            tag += "&gt;";
          else
            tag += c;
        }
        tag += '"';
      }
    }
    const std::size_t tag_end = k < svg.size() ? k + 1 : svg.size();
    if (name == "script" || name == "foreignobject" || name == "iframe" || name == "style") {
      i = closing || self_closing ? tag_end : skip_element(low, name, tag_end);
      continue;
    }
    tag += self_closing ? "/>" : ">";
    out += tag;
    i = tag_end;
  }
  return out;
}

}  // namespace gpuplan::reports
