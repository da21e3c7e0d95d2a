#include "reports/html_report.h"

#include <optional>

#include "reports/format.h"
#include "reports/html_assets.h"
#include "reports/html_page.h"

namespace gpuplan::reports {

using nlohmann::json;

namespace {

// The result with an unsanitized topology drawing replaced by its sanitized form, or nullopt
// when there is nothing to replace. The drawing is sanitized where it is drawn (network_json);
// one that is not (a result from elsewhere) is sanitized here, so the page never carries it.
std::optional<json> with_safe_drawing(const json& result) {
  const json* topo = result.contains("topology") ? &result["topology"] : nullptr;
  if (topo == nullptr || !topo->is_object() || !topo->contains("svg") ||
      !(*topo)["svg"].is_string())
    return std::nullopt;
  const std::string& svg = (*topo)["svg"].get_ref<const std::string&>();
  std::string safe = sanitize_svg(svg);
  if (safe == svg) return std::nullopt;
  json copy = result;
  copy["topology"]["svg"] = std::move(safe);
  return copy;
}

}  // namespace

std::string render_html_report(const json& result, std::string_view result_text) {
  if (!result.is_object()) return render_html_report(json::object());
  if (const auto safe = with_safe_drawing(result)) return render_html_report(*safe);
  return render_page_text(assets::page_html(), assets::style_css(),
                          {assets::common_js(), assets::charts_js(), assets::report_js()},
                          result_text, "capacity report", true);
}

std::string render_html_report(const json& result) {
  if (!result.is_object()) return render_html_report(json::object());
  if (const auto safe = with_safe_drawing(result)) return render_html_report(*safe);
  return render_page(assets::page_html(), assets::style_css(),
                     {assets::common_js(), assets::charts_js(), assets::report_js()}, result,
                     "capacity report", true);
}

}  // namespace gpuplan::reports
