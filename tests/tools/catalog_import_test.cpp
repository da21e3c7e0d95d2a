//! `gpuplan catalog import` through the real CLI (docs/catalog-import.md): each provider's fixture
//! imports into an overlay; the overlay changes a quote's and the catalog listing's prices; bad
//! price files and bad overlays exit 2, name the file and write nothing.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/tools/cli.h"

namespace fs = std::filesystem;
using gpuplan_cli_test::CliRun;
using gpuplan_cli_test::gpuplan;
using nlohmann::json;

namespace {

const fs::path FIXTURES = fs::path(GPUPLAN_SOURCE_DIR) / "tests" / "fixtures" / "prices";

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// The price per node-hour behind a training option: its hourly cost / its nodes.
double node_hour_usd(const json& option) {
  return option["hourly_usd"].get<double>() / option["nodes"].get<double>();
}

}  // namespace

TEST_CASE("tools::catalog_import") {
  const fs::path tmp = gpuplan_cli_test::fresh_dir("catalog-import");
  fs::create_directories(tmp);
  const fs::path overlay = tmp / "prices.json";

  SUBCASE("each provider's price file imports into an overlay of catalog rows") {
    for (const auto& row : {std::pair{"aws_ec2_offer.json", "p5.48xlarge"},
                            std::pair{"azure_retail_prices.json", "Standard_ND96asr_v4"},
                            std::pair{"gcp_compute_skus.json", "a2-highgpu-8g"}}) {
      // NOTE: named, not bound: clang 14 cannot capture a structured binding in CAPTURE.
      const char* const file = row.first;
      const char* const id = row.second;
      CAPTURE(file);
      fs::remove(overlay);
      const CliRun r =
          gpuplan("catalog import " + (FIXTURES / file).string() + " --out " + overlay.string());
      REQUIRE_MESSAGE(r.status == 0, r.output);
      CHECK(contains(r.output, id));
      CHECK(contains(r.output, "not mapped"));
      const json o = gpuplan_cli_test::read_json(overlay);
      CHECK(o["gpuplan_catalog_overlay"] == 1);
      CHECK(o["instances"][0].contains("as_of"));
      CHECK(!o["unmapped"].empty());
    }
  }

  SUBCASE("an overlay changes a quote's price and the catalog listing") {
    REQUIRE(gpuplan("catalog import " + (FIXTURES / "aws_ec2_offer.json").string() + " --out " +
                    overlay.string())
                .status == 0);
    const std::string request =
        "quote --params 70B --tokens 2T --deadline 30d --instance p5.48xlarge --no-pdf -q ";
    const CliRun before = gpuplan(request + "--out " + (tmp / "q0").string());
    const CliRun after = gpuplan(request + "--catalog-overlay " + overlay.string() + " --out " +
                                 (tmp / "q1").string());
    REQUIRE_MESSAGE(before.status == 0, before.output);
    REQUIRE_MESSAGE(after.status == 0, after.output);
    const json q0 = json::parse(gpuplan_cli_test::read_text(tmp / "q0" / "quote.json"));
    const json q1 = json::parse(gpuplan_cli_test::read_text(tmp / "q1" / "quote.json"));
    // The cheapest option meeting the deadline, on demand in both quotes.
    const json& best0 = q0["training"][0];
    const json& best1 = q1["training"][0];
    REQUIRE(best1["pricing"] == "on_demand");
    REQUIRE(best0["pricing"] == "on_demand");
    // The overlay's on-demand $55.04 per node-hour, dated as the price file.
    CHECK(node_hour_usd(best1) == doctest::Approx(55.04));
    CHECK(best1["price_as_of"] == "2025-06-05");
    // Without the overlay the built-in row holds: the same post-cut $55.04 on-demand since the
    // catalog's 2026-07-20 refresh (aws/karpenter-provider-aws), dated as the built-in row.
    CHECK(best0["price_as_of"] == "2026-07-20");
    CHECK(best0["price_as_of"] != best1["price_as_of"]);
    const CliRun listing = gpuplan("catalog --provider aws --json --overlay " + overlay.string());
    REQUIRE_MESSAGE(listing.status == 0, listing.output);
    CHECK(contains(listing.output, "55.04"));
    CHECK(contains(listing.output, "2025-06-05"));
  }

  SUBCASE("an unknown format or region exits 2 naming the file, writing nothing") {
    std::ofstream(tmp / "other.json") << R"({"prices": []})";
    const CliRun unknown =
        gpuplan("catalog import " + (tmp / "other.json").string() + " --out " + overlay.string());
    CHECK(unknown.status == 2);
    CHECK(contains(unknown.output, (tmp / "other.json").string() + ": unknown price file format"));
    CHECK_FALSE(fs::exists(overlay));
    const CliRun region =
        gpuplan("catalog import " + (FIXTURES / "gcp_compute_skus.json").string() +
                " --region us-centrl1 --out " + overlay.string());
    CHECK(region.status == 2);
    CHECK(contains(region.output, "--region \"us-centrl1\""));
    CHECK(contains(region.output, "did you mean \"us-central1\""));
    CHECK_FALSE(fs::exists(overlay));
  }

  SUBCASE("a quote naming an overlay with a missing field exits 2 naming file and field") {
    std::ofstream(overlay) << "{\"gpuplan_catalog_overlay\": 1, \"currency\": \"USD\",\n"
                              " \"instances\": [{\"id\": \"p5.48xlarge\", \"as_of\": "
                              "\"2025-06-05\",\n  \"price_per_hour\": {\"on_demand\": 50}}]}\n";
    const CliRun r =
        gpuplan("quote --params 70B --tokens 2T --deadline 30d --no-pdf -q --catalog-overlay " +
                overlay.string() + " --out " + (tmp / "q").string());
    CHECK(r.status == 2);
    CHECK(contains(r.output, overlay.string() + ":2: /instances/0/source: missing required key"));
    CHECK_FALSE(fs::exists(tmp / "q"));
  }
  fs::remove_all(tmp);
}
