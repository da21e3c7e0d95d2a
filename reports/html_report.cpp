#include "reports/html_report.h"

#include "reports/format.h"
#include "reports/html_assets.h"
#include "reports/html_page.h"

namespace gpuplan::reports {

using nlohmann::json;

std::string render_html_report(const json& result) {
  static const json empty = json::object();
  const json& data = result.is_object() ? result : empty;
  const std::string scripts =
      join_scripts({assets::common_js(), assets::charts_js(), assets::report_js()});
  // The topology drawing is sanitized where it is drawn (network_json); a drawing that is not
  // (a result from elsewhere) is sanitized here, on a copy, so the page never carries it as is.
  const json* topo = data.contains("topology") ? &data["topology"] : nullptr;
  if (topo != nullptr && topo->is_object() && topo->contains("svg") && (*topo)["svg"].is_string()) {
    const std::string& svg = (*topo)["svg"].get_ref<const std::string&>();
    std::string safe = sanitize_svg(svg);
    if (safe != svg) {
      json copy = data;
      copy["topology"]["svg"] = std::move(safe);
      return render_page(assets::page_html(), assets::style_css(), scripts, copy, "capacity report",
                         true);
    }
  }
  return render_page(assets::page_html(), assets::style_css(), scripts, data, "capacity report",
                     true);
}

}  // namespace gpuplan::reports
