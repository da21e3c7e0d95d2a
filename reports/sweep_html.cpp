#include "reports/sweep_html.h"

#include "reports/html_assets.h"
#include "reports/html_page.h"

namespace gpuplan::reports {

std::string render_sweep_html(const nlohmann::json& sweep) {
  static const nlohmann::json empty = nlohmann::json::object();
  const nlohmann::json& data = sweep.is_object() ? sweep : empty;
  return render_page(assets::page_html(), assets::style_css(),
                     {assets::common_js(), assets::charts_js(), assets::sweep_js()}, data,
                     "sweep report", true);
}

}  // namespace gpuplan::reports
