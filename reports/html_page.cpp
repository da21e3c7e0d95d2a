#include "reports/html_page.h"

#include "models/embedded.h"
#include "reports/format.h"
#include "reports/html_assets.h"

#include <openssl/evp.h>

#include <stdexcept>
#include <vector>

namespace gpuplan::reports {
namespace {

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
      sources.append(" 'sha256-")
          .append(sha256_base64(std::string_view(html.data() + body + 1, end - body - 1)))
          .append("'");
    }
    at = end + close.size();
  }
  return sources;
}

}  // namespace

std::string sha256_base64(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &n, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("OpenSSL could not compute a SHA-256 digest");
  std::vector<unsigned char> buf(4 * ((n + 2) / 3) + 1);  // base64 and the NUL it writes
  const int len = EVP_EncodeBlock(buf.data(), digest, static_cast<int>(n));
  return std::string(reinterpret_cast<const char*>(buf.data()), static_cast<std::size_t>(len));
}

std::string join_scripts(std::initializer_list<std::string_view> scripts) {
  std::string js;
  for (const std::string_view s : scripts) js.append(s).append("\n");
  return js;
}

std::string render_page(std::string_view tmpl, std::string_view css, std::string_view page_js,
                        const nlohmann::json& data, std::string_view page_name, bool charts) {
  return render_page_text(tmpl, css, page_js,
                          data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                          page_name, charts);
}

std::string render_page_text(std::string_view tmpl, std::string_view css, std::string_view page_js,
                             std::string_view data_json, std::string_view page_name, bool charts) {
  // NOTE: Chart.js (about 200 kB) is the same on every page: made script-safe once per process
  // (a sweep writes a page per point); only pages with charts carry it.
  static const std::string chartjs_element = std::string("<script id=\"gp-chartjs\">\n")
                                                 .append(script_safe(gpuplan::embedded::chartjs()))
                                                 .append("\n</script>\n");
  const std::string capture = script_safe(assets::capture_js()), name_text = html_escape(page_name),
                    js = script_safe(page_js), island = script_safe_json(data_json);
  const std::pair<std::string_view, std::string_view> slots[] = {
      {"css", css},
      {"capture_js", capture},
      {"page_name", name_text},
      {"chartjs_script", charts ? std::string_view(chartjs_element) : std::string_view()},
      {"page_js", js},
      {"data", island}};
  std::string out;
  out.reserve(tmpl.size() + css.size() + chartjs_element.size() + js.size() + island.size() +
              capture.size() + 1024);
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
