#include "reports/html_page.h"

#include "models/input/embedded.h"
#include "models/input/sha256.h"
#include "reports/format.h"
#include "reports/html_assets.h"

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

std::string render_page(std::string_view tmpl, std::string_view css, PageScripts page_js,
                        const nlohmann::json& data, std::string_view page_name, bool charts) {
  return render_page_text(tmpl, css, page_js,
                          data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                          page_name, charts);
}

std::string render_page_text(std::string_view tmpl, std::string_view css, PageScripts page_js,
                             std::string_view data_json, std::string_view page_name, bool charts) {
  static constexpr std::string_view CHARTJS_OPEN = "<script id=\"gp-chartjs\">\n",
                                    CHARTJS_CLOSE = "\n</script>\n";
  const std::string_view chartjs = charts ? gpuplan::embedded::chartjs() : std::string_view();
  const std::string_view capture = assets::capture_js();
  // NOTE: every slot is appended straight into the one page buffer, never copied on the way: a
  // report carries Chart.js (about 200 kB) and the result, and on this project's machines each
  // page of fresh memory costs more to touch than to fill.
  std::size_t scripts_size = 0;
  for (const std::string_view js : page_js) scripts_size += js.size() + 1;
  std::string out;
  out.reserve(tmpl.size() + css.size() + capture.size() + page_name.size() + scripts_size +
              CHARTJS_OPEN.size() + chartjs.size() + CHARTJS_CLOSE.size() + data_json.size() +
              2048);
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
    } else if (name == "css") {
      out.append(css);
    } else if (name == "capture_js") {
      append_script_safe(out, capture);
    } else if (name == "page_name") {
      out.append(html_escape(page_name));
    } else if (name == "chartjs_script") {
      if (charts) {
        out.append(CHARTJS_OPEN);
        append_script_safe(out, chartjs);
        out.append(CHARTJS_CLOSE);
      }
    } else if (name == "page_js") {
      for (const std::string_view js : page_js) {
        append_script_safe(out, js);
        out.append("\n");
      }
    } else if (name == "data") {
      append_script_safe_json(out, data_json);
    } else {
      out.append(tmpl.substr(open, close + 2 - open));
    }
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
