//! The quote's assumptions state the training model's accuracy as the calibration table gives it
//! now (models/perf/training/calibration.h), not a figure copied by hand.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "models/perf/training/calibration.h"
#include "models/quote/quote.h"
#include "reports/format.h"
#include "reports/quote_render.h"

using namespace gpuplan;
using namespace gpuplan::quote;

namespace {

QuoteRequest training_request(const std::string& mfu) {
  Diagnostics d;
  auto req = parse_request_text(R"({"name": "A", "training": {"params": "13B", "tokens": "1T",
                                    "deadline": "3w")" +
                                    mfu + R"(}})",
                                "request.json", d);
  REQUIRE_MESSAGE(req, d.to_text());
  return *req;
}

std::string mfu_text(const QuoteRequest& req) {
  const auto all = quote_assumptions(req);
  const auto it =
      std::find_if(all.begin(), all.end(), [](const Assumption& a) { return a.topic == "MFU"; });
  REQUIRE(it != all.end());
  return it->text;
}

}  // namespace

TEST_CASE("reports::quote_assumptions::training_accuracy") {
  const auto& rows = training::calibration_rows();
  const training::CalibrationErrors fit = training::calibration_errors(rows, true);
  const training::CalibrationErrors held = training::calibration_errors(rows, false);
  SUBCASE("a modelled MFU states the median errors of both sets and the worst") {
    const std::string text = mfu_text(training_request(""));
    CAPTURE(text);
    CHECK(text.find("median error " + reports::format_percent(fit.median_abs, 1) + " fitted (" +
                    std::to_string(fit.rows) + " runs)") != std::string::npos);
    CHECK(text.find(reports::format_percent(held.median_abs, 1) + " held out (" +
                    std::to_string(held.rows) + ")") != std::string::npos);
    CHECK(text.find("worst " + reports::format_percent(std::max(fit.worst_abs, held.worst_abs),
                                                       1)) != std::string::npos);
  }
  SUBCASE("an MFU the request states claims no model accuracy") {
    CHECK(mfu_text(training_request(R"(, "mfu": 0.4)")).find("median error") == std::string::npos);
  }
}
