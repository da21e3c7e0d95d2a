#pragma once
//! Assembling a report page from its template (reports/assets/*.html): the only place HTML is
//! produced in C++, by filling a fixed set of named slots; the page's script builds the DOM.
#include <nlohmann/json.hpp>

#include <initializer_list>
#include <string>
#include <string_view>

namespace gpuplan::reports {

//! Fills `tmpl`'s slots: {{css}} `css`, {{capture_js}} the error capture (capture.js),
//! {{page_name}} `page_name` (escaped), {{chartjs_script}} a script element with the embedded
//! Chart.js when `charts` (else nothing), {{page_js}} `page_js`, {{data}} `data` as a JSON data
//! island (json_for_script: `<`, `>`, `&`, U+2028/2029 escaped), and {{csp}} a
//! Content-Security-Policy that allows exactly the page's inline scripts and style element by
//! their SHA-256 hashes and fetches nothing. Unknown `{{…}}` text is left as it is.
[[nodiscard]] std::string render_page(std::string_view tmpl, std::string_view css,
                                      std::string_view page_js, const nlohmann::json& data,
                                      std::string_view page_name = {}, bool charts = false);

//! render_page with the data island given as JSON text already serialised (any indentation, e.g.
//! result.json as written): the island is script_safe_json(data_json), byte for byte what
//! render_page writes for the parsed value, without serialising the document again.
[[nodiscard]] std::string render_page_text(std::string_view tmpl, std::string_view css,
                                           std::string_view page_js, std::string_view data_json,
                                           std::string_view page_name = {}, bool charts = false);

//! The scripts joined into one, each on its own lines (common.js, charts.js, then the page's).
[[nodiscard]] std::string join_scripts(std::initializer_list<std::string_view> scripts);

//! Base64 of the SHA-256 digest of `bytes`, as a CSP source expression uses it.
[[nodiscard]] std::string sha256_base64(std::string_view bytes);

}  // namespace gpuplan::reports
