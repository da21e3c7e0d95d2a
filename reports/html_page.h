#pragma once
//! Assembling a report page from its template (reports/assets/*.html): the only place HTML is
//! produced in C++, by filling a fixed set of named slots; the page's script builds the DOM.
#include <nlohmann/json.hpp>

#include <initializer_list>
#include <string>
#include <string_view>

namespace gpuplan::reports {

//! The scripts of one page's {{page_js}} slot, in order: appended straight into the page, never
//! joined into a string of their own first (a report's are about 100 kB).
using PageScripts = std::initializer_list<std::string_view>;

//! Fills `tmpl`'s slots: {{css}} `css`, {{capture_js}} the error capture (capture.js),
//! {{page_name}} `page_name` (escaped), {{chartjs_script}} a script element with the embedded
//! Chart.js when `charts` (else nothing), {{page_js}} the scripts of `page_js` in order, each
//! followed by a line break (common.js, charts.js, then the page's), {{data}} `data` as a JSON data
//! island (json_for_script: `<`, `>`, `&`, U+2028/2029 escaped), and {{csp}} a
//! Content-Security-Policy that allows exactly the page's inline scripts and style element by
//! their SHA-256 hashes and fetches nothing. Unknown `{{…}}` text is left as it is.
[[nodiscard]] std::string render_page(std::string_view tmpl, std::string_view css,
                                      PageScripts page_js, const nlohmann::json& data,
                                      std::string_view page_name = {}, bool charts = false);

//! render_page with the data island given as JSON text already serialised (any indentation, e.g.
//! result.json as written): the island is script_safe_json(data_json), byte for byte what
//! render_page writes for the parsed value, without serialising the document again.
[[nodiscard]] std::string render_page_text(std::string_view tmpl, std::string_view css,
                                           PageScripts page_js, std::string_view data_json,
                                           std::string_view page_name = {}, bool charts = false);

}  // namespace gpuplan::reports
