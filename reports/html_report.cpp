#include "reports/html_report.h"

#include "reports/format.h"
#include "reports/html_assets.h"
#include "reports/html_page.h"

namespace gpuplan::reports {

using nlohmann::json;

std::string render_html_report(const json& result) {
  // The data island: the result as written, with its assessment computed afresh (so the page
  // never shows verdicts that disagree with its figures) and the topology drawing sanitized.
  json data = result.is_object() ? result : json::object();
  data["assessment"] = assess(data);
  if (json* topo = data.contains("topology") ? &data["topology"] : nullptr;
      topo != nullptr && topo->is_object() && topo->contains("svg") && (*topo)["svg"].is_string()) {
    (*topo)["svg"] = sanitize_svg((*topo)["svg"].get<std::string>());
  }
  return render_page(assets::page_html(), assets::style_css(),
                     join_scripts({assets::common_js(), assets::charts_js(), assets::report_js()}),
                     data, "capacity report", true);
}

}  // namespace gpuplan::reports
