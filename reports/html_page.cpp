#include "reports/html_page.h"

#include "models/embedded.h"
#include "reports/format.h"
#include "reports/html_assets.h"

#include <array>
#include <cstdint>
#include <vector>

namespace gpuplan::reports {
namespace {

// ---- SHA-256 (FIPS 180-4), for the CSP hashes of the inline scripts ---------------------------

constexpr std::array<uint32_t, 64> K = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

constexpr uint32_t rotr(uint32_t x, int n) {
  return (x >> n) | (x << (32 - n));
}

std::array<uint8_t, 32> sha256(std::string_view bytes) {
  std::array<uint32_t, 8> h = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::vector<uint8_t> msg(bytes.begin(), bytes.end());
  const uint64_t n_bits = static_cast<uint64_t>(bytes.size()) * 8;
  msg.push_back(0x80);
  while (msg.size() % 64 != 56) msg.push_back(0);
  for (int i = 7; i >= 0; --i) msg.push_back(static_cast<uint8_t>(n_bits >> (8 * i)));
  std::array<uint32_t, 64> w{};
  for (std::size_t block = 0; block < msg.size(); block += 64) {
    for (int i = 0; i < 16; ++i) {
      const uint8_t* p = &msg[block + 4 * static_cast<std::size_t>(i)];
      w[i] = uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | uint32_t{p[3]};
    }
    for (int i = 16; i < 64; ++i) {
      const uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      const uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    auto [a, b, c, d, e, f, g, hh] = h;
    for (int i = 0; i < 64; ++i) {
      const uint32_t t1 =
          hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
      const uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    const std::array<uint32_t, 8> add = {a, b, c, d, e, f, g, hh};
    for (int i = 0; i < 8; ++i) h[i] += add[i];
  }
  std::array<uint8_t, 32> out{};
  for (int i = 0; i < 32; ++i) out[i] = static_cast<uint8_t>(h[i / 4] >> (24 - 8 * (i % 4)));
  return out;
}

std::string base64(const uint8_t* data, std::size_t n) {
  static constexpr char ALPHABET[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < n; i += 3) {
    const uint32_t v = uint32_t{data[i]} << 16 | (i + 1 < n ? uint32_t{data[i + 1]} << 8 : 0) |
                       (i + 2 < n ? uint32_t{data[i + 2]} : 0);
    out += ALPHABET[v >> 18 & 63];
    out += ALPHABET[v >> 12 & 63];
    out += i + 1 < n ? ALPHABET[v >> 6 & 63] : '=';
    out += i + 2 < n ? ALPHABET[v & 63] : '=';
  }
  return out;
}

// ---- the page ----------------------------------------------------------------------------------

// The CSP source list of every inline element named `tag` in `html` whose opening tag does not
// mark it as data (type="application/json"): one 'sha256-…' per element.
std::string element_hashes(const std::string& html, std::string_view tag) {
  // NOTE: built by append: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string here.
  const std::string open = std::string("<").append(tag);
  const std::string close = std::string("</").append(tag);
  std::string sources;
  for (std::size_t at = html.find(open); at != std::string::npos; at = html.find(open, at)) {
    const std::size_t body = html.find('>', at);
    const std::size_t end = body == std::string::npos ? body : html.find(close, body);
    if (end == std::string::npos) break;
    const std::string_view head(html.data() + at, body - at);
    if (head.find("application/json") == std::string_view::npos) {
      const auto digest = sha256(std::string_view(html.data() + body + 1, end - body - 1));
      sources.append(" 'sha256-").append(base64(digest.data(), digest.size())).append("'");
    }
    at = end + close.size();
  }
  return sources;
}

}  // namespace

std::string sha256_base64(std::string_view bytes) {
  const auto digest = sha256(bytes);
  return base64(digest.data(), digest.size());
}

std::string join_scripts(std::initializer_list<std::string_view> scripts) {
  std::string js;
  for (const std::string_view s : scripts) js.append(s).append("\n");
  return js;
}

std::string render_page(std::string_view tmpl, std::string_view css, std::string_view page_js,
                        const nlohmann::json& data) {
  const std::pair<std::string_view, std::string> slots[] = {
      {"css", std::string(css)},
      {"capture_js", script_safe(assets::capture_js())},
      // NOTE: only pages with charts carry Chart.js (the quote page has none).
      {"chartjs", tmpl.find("{{chartjs}}") == std::string_view::npos
                      ? std::string()
                      : script_safe(gpuplan::embedded::chartjs())},
      {"page_js", script_safe(page_js)},
      {"data", json_for_script(data)}};
  std::string out;
  out.reserve(tmpl.size() + gpuplan::embedded::chartjs().size() + page_js.size() + 64 * 1024);
  std::size_t csp_at = std::string::npos;
  // NOTE: one pass over the template, so text inserted into a slot is never scanned for slots.
  std::size_t pos = 0;
  while (pos < tmpl.size()) {
    const std::size_t open = tmpl.find("{{", pos);
    const std::size_t close = open == std::string_view::npos ? open : tmpl.find("}}", open);
    if (close == std::string_view::npos) break;
    const std::string_view name = tmpl.substr(open + 2, close - open - 2);
    out.append(tmpl.substr(pos, open - pos));
    pos = close + 2;
    if (name == "csp") {
      csp_at = out.size();
      continue;
    }
    bool filled = false;
    for (const auto& [slot, text] : slots) {
      if (slot != name) continue;
      out += text;
      filled = true;
    }
    if (!filled) out.append(tmpl.substr(open, close + 2 - open));
  }
  out.append(tmpl.substr(pos));
  if (csp_at != std::string::npos) {
    // NOTE: no fetch of any kind is allowed, so the page provably works offline and leaks nothing;
    // images only from data: URLs (the topology drawing).
    const std::string csp = "default-src 'none'; script-src" + element_hashes(out, "script") +
                            "; style-src" + element_hashes(out, "style") +
                            "; img-src data:; base-uri 'none'; form-action 'none'";
    out.insert(csp_at, csp);
  }
  return out;
}

}  // namespace gpuplan::reports
