#pragma once
//! The page templates, style sheet and scripts under reports/assets/, embedded at build time
//! (cmake/embed.cmake, CMakeLists.txt `embed_files(gpuplan_embedded ...)`): no asset file is read
//! at run time.
#include <string_view>

extern const char gpuplan_embed_page_html[];
extern const unsigned long gpuplan_embed_page_html_size;
extern const char gpuplan_embed_style_css[];
extern const unsigned long gpuplan_embed_style_css_size;
extern const char gpuplan_embed_capture_js[];
extern const unsigned long gpuplan_embed_capture_js_size;
extern const char gpuplan_embed_common_js[];
extern const unsigned long gpuplan_embed_common_js_size;
extern const char gpuplan_embed_charts_js[];
extern const unsigned long gpuplan_embed_charts_js_size;
extern const char gpuplan_embed_report_js[];
extern const unsigned long gpuplan_embed_report_js_size;
extern const char gpuplan_embed_sweep_js[];
extern const unsigned long gpuplan_embed_sweep_js_size;
extern const char gpuplan_embed_compare_js[];
extern const unsigned long gpuplan_embed_compare_js_size;
extern const char gpuplan_embed_quote_html[];
extern const unsigned long gpuplan_embed_quote_html_size;
extern const char gpuplan_embed_quote_css[];
extern const unsigned long gpuplan_embed_quote_css_size;
extern const char gpuplan_embed_quote_js[];
extern const unsigned long gpuplan_embed_quote_js_size;
extern const char gpuplan_embed_serve_html[];
extern const unsigned long gpuplan_embed_serve_html_size;
extern const char gpuplan_embed_serve_css[];
extern const unsigned long gpuplan_embed_serve_css_size;
extern const char gpuplan_embed_serve_js[];
extern const unsigned long gpuplan_embed_serve_js_size;
extern const char gpuplan_embed_serving_js[];
extern const unsigned long gpuplan_embed_serving_js_size;

namespace gpuplan::reports::assets {

//! reports/assets/page.html: the skeleton of report.html, sweep.html and compare.html.
inline std::string_view page_html() {
  return {gpuplan_embed_page_html, gpuplan_embed_page_html_size};
}
//! reports/assets/style.css: the style sheet of every page, for screen and print (A4).
inline std::string_view style_css() {
  return {gpuplan_embed_style_css, gpuplan_embed_style_css_size};
}
//! reports/assets/capture.js: runs first, records script errors and blocked requests.
inline std::string_view capture_js() {
  return {gpuplan_embed_capture_js, gpuplan_embed_capture_js_size};
}
//! reports/assets/common.js: data island, formatting, DOM building, sorting, #selftest.
inline std::string_view common_js() {
  return {gpuplan_embed_common_js, gpuplan_embed_common_js_size};
}
//! reports/assets/charts.js: Chart.js defaults and chart figures shared by the pages.
inline std::string_view charts_js() {
  return {gpuplan_embed_charts_js, gpuplan_embed_charts_js_size};
}
//! reports/assets/report.js: builds report.html from the result.
inline std::string_view report_js() {
  return {gpuplan_embed_report_js, gpuplan_embed_report_js_size};
}
//! reports/assets/sweep.js: builds sweep.html from the sweep document.
inline std::string_view sweep_js() {
  return {gpuplan_embed_sweep_js, gpuplan_embed_sweep_js_size};
}
//! reports/assets/serving.js: builds the report.html of `gpuplan serve-sim` from its result.
inline std::string_view serving_js() {
  return {gpuplan_embed_serving_js, gpuplan_embed_serving_js_size};
}
inline std::string_view compare_js() {
  return {gpuplan_embed_compare_js, gpuplan_embed_compare_js_size};
}

//! reports/assets/quote.html: the template of quote.html (printed to quote.pdf).
inline std::string_view quote_html() {
  return {gpuplan_embed_quote_html, gpuplan_embed_quote_html_size};
}
//! reports/assets/quote.css: the quote's style sheet, one A4 page.
inline std::string_view quote_css() {
  return {gpuplan_embed_quote_css, gpuplan_embed_quote_css_size};
}
//! reports/assets/quote.js: builds quote.html from quote.json.
inline std::string_view quote_js() {
  return {gpuplan_embed_quote_js, gpuplan_embed_quote_js_size};
}

//! reports/assets/serve.html: the quote page `gpuplan serve` serves (form and live results).
inline std::string_view serve_html() {
  return {gpuplan_embed_serve_html, gpuplan_embed_serve_html_size};
}
//! reports/assets/serve.css: the serve page's style sheet.
inline std::string_view serve_css() {
  return {gpuplan_embed_serve_css, gpuplan_embed_serve_css_size};
}
//! reports/assets/serve.js: the serve page's form, requests and results table.
inline std::string_view serve_js() {
  return {gpuplan_embed_serve_js, gpuplan_embed_serve_js_size};
}

}  // namespace gpuplan::reports::assets
