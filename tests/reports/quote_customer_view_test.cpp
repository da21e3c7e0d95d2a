//! The customer view of a quote (issue 12 item 4): quote.json and quote.html (which quote.pdf
//! prints) carry no internal references or confidence tags; `--internal` adds them in an
//! appendix; a training quote whose spot options all miss the deadline says why.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "models/catalog/catalog_age.h"
#include "models/quote/quote.h"
#include "reports/format.h"
#include "reports/quote_render.h"
#include "study/quote_check.h"

using namespace gpuplan;
using namespace gpuplan::quote;

namespace {

//! Strings a customer must never see: data-file references, section marks, confidence tags,
//! notes on missing sources, and project paths.
const std::vector<std::string> INTERNAL_MARKS = {"DATA.md",
                                                 "§",
                                                 "[3P]",
                                                 "[V]",
                                                 "[M]",
                                                 "[D]",
                                                 "no primary source found",
                                                 "third-party",
                                                 "(derived)",
                                                 "docs/",
                                                 "tests/",
                                                 ".cpp",
                                                 "verify before quoting"};

//! The internal marks found in `text`.
std::vector<std::string> marks_in(const std::string& text) {
  std::vector<std::string> found;
  for (const std::string& m : INTERNAL_MARKS)
    if (text.find(m) != std::string::npos) found.push_back(m);
  return found;
}

//! `html` without its comments and page scripts (whose source comments name project files); the
//! data island, which the page shows, stays.
std::string shown_parts(std::string html) {
  for (std::size_t at; (at = html.find("<!--")) != std::string::npos;)
    html.erase(at, html.find("-->", at) + 3 - at);
  for (std::size_t at = 0; (at = html.find("<script", at)) != std::string::npos;) {
    const std::size_t body = html.find('>', at), end = html.find("</script>", at);
    if (html.compare(at, body - at, "<script type=\"application/json\" id=\"result\"") == 0) {
      at = end;
      continue;
    }
    html.erase(at, end + 9 - at);
  }
  return html;
}

//! A training and inference request over instances whose catalog rows carry internal notes.
QuoteRequest request() {
  Diagnostics d;
  auto req = parse_request_text(
      R"({"name": "Acme", "training": {"params": "13B", "tokens": "1T", "deadline": "3w"},
          "inference": {"params": "8B", "requests_per_s": 20, "tokens_in": 500, "tokens_out": 200,
                        "p99_latency": "20s"},
          "options": {"instances": ["a3-highgpu-8g", "p5.48xlarge"], "sim_requests": 20000}})",
      "request.json", d);
  REQUIRE(req);
  return *req;
}

}  // namespace

TEST_CASE("quote::customer_view") {
  const QuoteRequest req = request();
  const Quote q = make_quote(req, builtin_catalog(), today_utc());
  const auto checks = check_shown_inference(req, q);
  const auto serving = check_shown_serving(req, q);
  const QuoteReport customer{&req, &q, checks, serving, "test", false};
  const QuoteReport internal{&req, &q, checks, serving, "test", true};

  SUBCASE("quote.json and quote.html of the customer view carry no internal mark") {
    const std::string json_text = quote_json(customer).dump(2);
    const std::string html = shown_parts(render_quote_html(customer));
    REQUIRE(html.find("\"view\":\"customer\"") != std::string::npos);  // the island is kept
    CAPTURE(marks_in(json_text));
    CHECK(marks_in(json_text).empty());
    CAPTURE(marks_in(html));
    CHECK(marks_in(html).empty());
    CHECK(quote_json(customer)["view"] == "customer");
    CHECK_FALSE(quote_json(customer).contains("internal"));
  }
  SUBCASE("the internal view keeps the sources in an appendix, so the scan above can fail") {
    const nlohmann::json j = quote_json(internal);
    CHECK(j["view"] == "internal");
    REQUIRE(j.contains("internal"));
    // a3-highgpu-8g's price row names the GCP price file it comes from
    CHECK(j["internal"].dump().find("google-cloud-pricing-cost-calculator") != std::string::npos);
    CHECK_FALSE(marks_in(shown_parts(render_quote_html(internal))).empty());
  }
  SUBCASE("every spot option missing the deadline gets a note with the checkpoint interval") {
    const auto note = spot_deadline_note(req, q);
    REQUIRE(note);
    // the Daly interval of a cluster interrupted every few minutes is a few minutes
    CHECK(note->checkpoint_interval_s > 0);
    CHECK(note->interruption_every_s > 0);
    CHECK(note->text.find("No spot option meets the 21 d deadline") == 0);
    CHECK(note->text.find("checkpointing every") != std::string::npos);
    const nlohmann::json j = quote_json(customer);
    REQUIRE(j.contains("spot_note"));
    CHECK(j["spot_note"]["checkpoint_interval_s"] == doctest::Approx(note->checkpoint_interval_s));
    CHECK(format_quote_table(customer).find("No spot option meets") != std::string::npos);
  }
  SUBCASE("the table and page state the Monte Carlo's precision: the widest shown interval") {
    // A budget without a deadline: every option's time to finish comes from its Monte Carlo.
    Diagnostics d;
    const auto budget = parse_request_text(
        R"({"name": "Acme", "training": {"params": "13B", "tokens": "300B", "budget": "$400k"},
            "options": {"instances": ["a3-highgpu-8g", "p5.48xlarge"]}})",
        "request.json", d);
    REQUIRE(budget);
    const QuoteRequest& req = *budget;
    const Quote q = make_quote(req, builtin_catalog(), today_utc());
    const QuoteReport customer{&req, &q, {}, {}, "test", false};
    double widest = 0;
    uint32_t shown = 0;
    const TrainingOption* row = nullptr;
    for (const TrainingOption& o : q.training) {
      if (!o.feasible || shown++ >= req.options.top || !(o.timing.mc_mean_se_s > 0)) continue;
      // a standard error well under the mean (hundreds of runs or thousands of blocks)
      CHECK(o.timing.mc_mean_se_s < 0.05 * o.timing.mc_mean_s);
      if (1.96 * o.timing.mc_mean_se_s / o.timing.mc_mean_s >= widest) {
        widest = 1.96 * o.timing.mc_mean_se_s / o.timing.mc_mean_s;
        row = &o;
      }
    }
    REQUIRE(row != nullptr);  // spot rows are shown, each from its Monte Carlo
    const std::string table = format_quote_table(customer);
    CHECK(table.find("Monte Carlo precision: every row's mean time to finish is known to within ±" +
                     reports::format_percent(widest, 1)) != std::string::npos);
    const uint32_t n = row->timing.replicas > 0 ? row->timing.replicas : row->timing.sampled_blocks;
    CHECK(table.find("from " + reports::format_count(n) +
                     (row->timing.replicas > 0 ? " runs" : " sampled")) != std::string::npos);
    // the page computes the same from quote.json (reports/assets/quote.js)
    bool in_json = false;
    const nlohmann::json j = quote_json(customer);
    for (const auto& o : j.at("training"))
      in_json |= o.contains("time_s") &&
                 o.at("time_s").value("mean_mc_se", 0.0) == row->timing.mc_mean_se_s;
    CHECK(in_json);
  }
  SUBCASE("no note when a spot option meets the deadline") {
    QuoteRequest easy = req;
    easy.training->deadline_s = 400 * 86400.0;
    const Quote q2 = make_quote(easy, builtin_catalog(), today_utc());
    CHECK_FALSE(spot_deadline_note(easy, q2));
  }
}
