#include "reports/serving_html.h"

#include "reports/html_assets.h"
#include "reports/html_page.h"

namespace gpuplan::reports {

std::string render_serving_html(const nlohmann::json& result) {
  return render_page(assets::page_html(), assets::style_css(),
                     {assets::common_js(), assets::charts_js(), assets::serving_js()}, result,
                     "serving simulation", true);
}

}  // namespace gpuplan::reports
