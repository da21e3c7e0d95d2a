#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "models/catalog/catalog_overlay.h"
#include "models/load/load.h"
#include "models/catalog/price_import.h"

using namespace gpuplan;
namespace fs = std::filesystem;

namespace {

const fs::path FIXTURES = fs::path(GPUPLAN_SOURCE_DIR) / "tests" / "fixtures" / "prices";
const std::string AWS = (FIXTURES / "aws_ec2_offer.json").string();
const std::string AZURE = (FIXTURES / "azure_retail_prices.json").string();
const std::string GCP = (FIXTURES / "gcp_compute_skus.json").string();

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

const InstanceType* row(const CatalogOverlay& o, const std::string& id) {
  for (const InstanceType& it : o.instances)
    if (it.id == id) return &it;
  return nullptr;
}

// Whether the overlay lists an unmapped row naming `what` with a reason containing `reason`.
bool listed(const CatalogOverlay& o, const std::string& what, const std::string& reason) {
  for (const UnmappedPriceRow& u : o.unmapped)
    if (contains(u.what, what) && contains(u.reason, reason)) return true;
  return false;
}

CatalogOverlay import_ok(const std::vector<std::string>& files, ImportOptions opts = {}) {
  Diagnostics d;
  auto o = import_price_files(files, builtin_catalog(), opts, d);
  REQUIRE_MESSAGE(o.has_value(), d.to_text());
  CHECK(d.ok());
  return *o;
}

// A scratch folder for one test.
struct Scratch {
  fs::path dir = fs::path(GPUPLAN_BINARY_DIR) / ("price_import_test_" + std::to_string(getpid()));
  Scratch() { fs::create_directories(dir); }
  ~Scratch() { fs::remove_all(dir); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  }
};

}  // namespace

TEST_CASE("catalog::import_aws") {
  const CatalogOverlay o = import_ok({AWS});
  SUBCASE("the on-demand hourly rate of the Linux shared-tenancy row is taken") {
    const InstanceType* p5 = row(o, "p5.48xlarge");
    REQUIRE(p5 != nullptr);
    // terms.OnDemand: "55.0400000000" USD per Hrs (not the Windows row's 63.872).
    CHECK(*p5->price_per_hour.on_demand == doctest::Approx(55.04));
    // p4d: 21.96 per hour.
    CHECK(*row(o, "p4d.24xlarge")->price_per_hour.on_demand == doctest::Approx(21.96));
    CHECK(p5->region == "us-east-1");
    CHECK(p5->gpu == "H100-SXM");
    CHECK(p5->gpus_per_node == 8);
  }
  SUBCASE("reserved prices prefer the standard No Upfront offer, and amortise upfront fees") {
    const InstanceType* p5 = row(o, "p5.48xlarge");
    // 1yr: standard No Upfront 36.764/h wins over All Upfront 308,000 (35.16/h).
    CHECK(*p5->price_per_hour.reserved_1y == doctest::Approx(36.764));
    // 3yr: standard All Upfront 632,000 / 26,280 h = 24.0487/h wins over convertible 30/h.
    CHECK(*p5->price_per_hour.reserved_3y == doctest::Approx(632000.0 / 26280.0));
    // The bulk file has no spot prices.
    CHECK_FALSE(p5->price_per_hour.spot.has_value());
  }
  SUBCASE("as_of is the file's publication date and the source names file and rules") {
    CHECK(o.as_of == "2025-06-05");
    CHECK(row(o, "p5.48xlarge")->as_of == "2025-06-05");
    const std::string src = row(o, "p5.48xlarge")->source;
    CHECK(contains(src, "AWS Price List bulk offer file (AmazonEC2, version 20250605205255)"));
    CHECK(contains(src, "aws_ec2_offer.json"));
    CHECK(contains(src, "reserved_3y: terms.Reserved standard All Upfront 3yr"));
  }
  SUBCASE("an instance type the catalog does not have is listed, not guessed") {
    CHECK(listed(o, "m7i.large", "no catalog instance named m7i.large"));
    CHECK(row(o, "m7i.large") == nullptr);
  }
  SUBCASE("--region picks another region's rows, found by location name") {
    ImportOptions eu;
    eu.region = "eu-west-1";
    const CatalogOverlay e = import_ok({AWS}, eu);
    // The EU (Ireland) row: 61.65 per hour.
    CHECK(*row(e, "p5.48xlarge")->price_per_hour.on_demand == doctest::Approx(61.65));
    CHECK(row(e, "p5.48xlarge")->region == "eu-west-1");
  }
}

TEST_CASE("catalog::import_azure") {
  const CatalogOverlay o = import_ok({AZURE});
  const InstanceType* nd = row(o, "Standard_ND96asr_v4");
  REQUIRE(nd != nullptr);
  SUBCASE("Consumption rows give on_demand and spot per hour; Windows rows are left out") {
    // 27.197 per "1 Hour" (not the Windows row's 31.613).
    CHECK(*nd->price_per_hour.on_demand == doctest::Approx(27.197));
    // skuName "ND96asr v4 Spot": 10.8788 per hour.
    CHECK(*nd->price_per_hour.spot == doctest::Approx(10.8788));
  }
  SUBCASE("a reservation's retailPrice is the whole term's, divided by its hours") {
    // 140,000 / 8,760 h and 270,000 / 26,280 h.
    CHECK(*nd->price_per_hour.reserved_1y == doctest::Approx(140000.0 / 8760.0));
    CHECK(*nd->price_per_hour.reserved_3y == doctest::Approx(270000.0 / 26280.0));
  }
  SUBCASE("Low Priority, Dev/Test and unknown SKUs are listed; other regions are left out") {
    CHECK(listed(o, "Standard_ND96asr_v4", "Low Priority"));
    CHECK(listed(o, "Standard_ND96asr_v4", "DevTestConsumption"));
    CHECK(listed(o, "Standard_D2s_v5", "no catalog instance named Standard_D2s_v5"));
    CHECK(row(o, "Standard_ND96isr_H100_v5") == nullptr);
    // 3 rows listed: Low Priority, Dev/Test, D2s v5.
    CHECK(o.unmapped.size() == 3);
  }
  SUBCASE("as_of is the newest effectiveStartDate of the prices used") {
    // The spot row's 2025-07-01 is the newest.
    CHECK(o.as_of == "2025-07-01");
  }
}

TEST_CASE("catalog::import_gcp") {
  const CatalogOverlay o = import_ok({GCP});
  const InstanceType* a2 = row(o, "a2-highgpu-8g");
  REQUIRE(a2 != nullptr);
  SUBCASE("a machine type is priced as its GPUs, vCPUs and memory") {
    // 8 x 2.933908 + 96 x 0.031611 + 680 GiB x 0.004237 = 29.38708 per hour.
    CHECK(*a2->price_per_hour.on_demand == doctest::Approx(29.38708));
    // Preemptible: 8 x 1.173563 + 96 x 0.012644 + 680 x 0.001695 = 11.754928.
    CHECK(*a2->price_per_hour.spot == doctest::Approx(11.754928));
    CHECK(a2->region == "us-central1");
    CHECK(o.as_of == "2025-08-01");
  }
  SUBCASE("a term with a missing part is listed, not priced") {
    // Commit1Yr has GPU and core SKUs but no A2 RAM commitment in the file.
    CHECK_FALSE(a2->price_per_hour.reserved_1y.has_value());
    CHECK(listed(o, "a2-highgpu-8g", "reserved_1y: no memory SKU"));
    // The H100 GPU SKU alone cannot price a3-highgpu-8g.
    CHECK(listed(o, "a3-highgpu-8g", "on_demand: no vCPU, memory SKU"));
    CHECK(row(o, "a3-highgpu-8g") == nullptr);
  }
  SUBCASE("a GPU SKU no known machine type uses is listed") {
    CHECK(listed(o, "Nvidia L4 GPU running in Americas", "no catalog machine type"));
  }
}

TEST_CASE("catalog::import_errors") {
  const Scratch s;
  SUBCASE("an unknown format names the file and the formats gpuplan reads") {
    const std::string f = s.write("other.json", R"({"prices": []})");
    Diagnostics d;
    CHECK_FALSE(import_price_files({f}, builtin_catalog(), {}, d));
    REQUIRE(d.size() == 1);
    CHECK(d.sorted()[0].file == f);
    CHECK(contains(d.sorted()[0].message, "unknown price file format"));
    // A file that is not JSON is read as the plain CSV, whose lines need 4 columns.
    const std::string csv = s.write("prices.csv", "sku,price\n");
    Diagnostics d2;
    CHECK_FALSE(import_price_files({csv}, builtin_catalog(), {}, d2));
    CHECK(d2.sorted()[0].line == 1);
    CHECK(contains(d2.sorted()[0].message, "expected 4 columns"));
  }
  SUBCASE("a region the file does not have is named with the regions it has") {
    ImportOptions o;
    o.region = "us-east-9";
    Diagnostics d;
    CHECK_FALSE(import_price_files({AWS}, builtin_catalog(), o, d));
    REQUIRE(d.size() == 1);
    CHECK(d.sorted()[0].file == AWS);
    CHECK(contains(d.sorted()[0].message, "--region \"us-east-9\""));
    CHECK(contains(d.sorted()[0].message, "did you mean \"us-east-1\""));
  }
  SUBCASE("a currency the file does not have is an error") {
    ImportOptions o;
    o.currency = "EUR";
    Diagnostics d;
    CHECK_FALSE(import_price_files({AZURE}, builtin_catalog(), o, d));
    CHECK(contains(d.to_text(), "--currency \"EUR\""));
    CHECK(contains(d.to_text(), "it has USD"));
  }
}

TEST_CASE("catalog::import_csv") {
  const Scratch s;
  SUBCASE("instance, term, price, date lines price catalog rows, each with its own date") {
    const std::string f = s.write("quotes.csv",
                                  "instance,term,price,date\n"
                                  "ecs.gn7-c13g1.26xlarge,on_demand,14.27,2026-11-20\n"
                                  "\n"
                                  "P4D.24XLARGE,reserved_1y,12.5,2026-10-01\n"
                                  "p4d.24xlarge,on_demand,20.0,2026-11-02\n");
    const CatalogOverlay o = import_ok({f});
    const InstanceType* ali = row(o, "ecs.gn7-c13g1.26xlarge");
    REQUIRE(ali);
    CHECK(*ali->price_per_hour.on_demand == doctest::Approx(14.27));
    CHECK(ali->as_of == "2026-11-20");
    CHECK(contains(ali->source, "line 2 of the CSV"));
    const InstanceType* p4d = row(o, "p4d.24xlarge");
    REQUIRE(p4d);
    CHECK(*p4d->price_per_hour.reserved_1y == doctest::Approx(12.5));
    CHECK(*p4d->price_per_hour.on_demand == doctest::Approx(20.0));
    // a row's date is its oldest price's
    CHECK(p4d->as_of == "2026-10-01");
    CHECK(o.sources[0]["format"] == "price_csv");
    // The overlay gives the Alibaba row the price it lacked.
    Catalog c = builtin_catalog();
    apply_overlay(c, o);
    CHECK(c.find_instance("ecs.gn7-c13g1.26xlarge")->priced());
  }
  SUBCASE("each bad line is reported at file:line with its column") {
    const std::string f = s.write("bad.csv",
                                  "ecs.gn7-c13g1.26xlarg,on_demand,14.27,2026-11-20\n"
                                  "p4d.24xlarge,ondemand,20,2026-11-02\n"
                                  "p4d.24xlarge,on_demand,-3,2026-11-02\n"
                                  "p4d.24xlarge,on_demand,20,Nov 2026\n"
                                  "p4d.24xlarge,on_demand\n");
    Diagnostics d;
    CHECK_FALSE(import_price_files({f}, builtin_catalog(), {}, d));
    const auto all = d.sorted();
    REQUIRE(all.size() == 5);
    CHECK(all[0].format().find("bad.csv:1: column \"instance\"") != std::string::npos);
    CHECK(contains(all[0].message, "did you mean \"ecs.gn7-c13g1.26xlarge\""));
    CHECK(all[1].line == 2);
    CHECK(contains(all[1].message, "column \"term\""));
    CHECK(contains(all[1].message, "did you mean \"on_demand\""));
    CHECK(all[2].line == 3);
    CHECK(contains(all[2].message, "column \"price\""));
    CHECK(all[3].line == 4);
    CHECK(contains(all[3].message, "column \"date\""));
    CHECK(all[4].line == 5);
    CHECK(contains(all[4].message, "expected 4 columns"));
  }
}

// The head and one region of aws/karpenter-provider-aws
// pkg/providers/pricing/zz_generated.pricing_aws.go as generated on 2026-07-20, with a second
// region as the us-gov table has; the p5 line is line 19.
const std::string KARPENTER_AWS =
    "//go:build !ignore_autogenerated\n"
    "\n"
    "/*\n"
    "Licensed under the Apache License, Version 2.0 (the \"License\");\n"
    "*/\n"
    "\n"
    "package pricing\n"
    "\n"
    "// generated at 2026-07-20T13:44:30Z for us-east-1\n"
    "\n"
    "import ec2types \"github.com/aws/aws-sdk-go-v2/service/ec2/types\"\n"
    "\n"
    "var InitialOnDemandPricesAWS = map[string]map[ec2types.InstanceType]float64{\n"
    "\t// us-east-1\n"
    "\t\"us-east-1\": {\n"
    "\t\t// m7i family\n"
    "\t\t\"m7i.large\": 0.100800, \"m7i.xlarge\": 0.201600,\n"
    "\t\t// p5 family\n"
    "\t\t\"p5.48xlarge\": 55.040000, \"p5.4xlarge\": 6.880000,\n"
    "\t},\n"
    "\t// eu-west-1\n"
    "\t\"eu-west-1\": {\n"
    "\t\t\"p5.48xlarge\": 61.650000,\n"
    "\t},\n"
    "}\n";

// Azure/karpenter-provider-azure pkg/providers/pricing/zz_generated.pricing.go as generated on
// 2026-06-18, two regions cut to a few SKUs (the MI300X price in eastus is made up, to show that a
// row takes its own region's price).
const std::string KARPENTER_AZURE =
    "//go:build !ignore_autogenerated\n"
    "\n"
    "package pricing\n"
    "\n"
    "import \"time\"\n"
    "\n"
    "// generated at 2026-06-18T03:43:41Z\n"
    "\n"
    "var InitialPriceUpdate, _ = time.Parse(time.RFC3339, \"2026-06-18T03:43:41Z\")\n"
    "var initialOnDemandPrices = map[string]map[string]float64{}\n"
    "\n"
    "func init() {\n"
    "\t// eastus\n"
    "\tinitialOnDemandPrices[\"eastus\"] = map[string]float64{\n"
    "\t\t\"Standard_D2s_v5\":            0.096000,\n"
    "\t\t\"Standard_ND96isr_H100_v5\":   98.320000,\n"
    "\t\t\"Standard_ND96isr_MI300X_v5\": 52.000000,\n"
    "\t}\n"
    "\t// eastus2\n"
    "\tinitialOnDemandPrices[\"eastus2\"] = map[string]float64{\n"
    "\t\t\"Standard_ND96isr_MI300X_v5\": 48.000000,\n"
    "\t}\n"
    "}\n";

TEST_CASE("catalog::import_karpenter") {
  const Scratch s;
  SUBCASE("the AWS table prices catalog rows on-demand, dated by its generation time") {
    const CatalogOverlay o = import_ok({s.write("zz_generated.pricing_aws.go", KARPENTER_AWS)});
    const InstanceType* p5 = row(o, "p5.48xlarge");
    REQUIRE(p5 != nullptr);
    // "p5.48xlarge": 55.040000 in the us-east-1 map literal (the catalog row's region).
    CHECK(*p5->price_per_hour.on_demand == doctest::Approx(55.04));
    CHECK(*row(o, "p5.4xlarge")->price_per_hour.on_demand == doctest::Approx(6.88));
    CHECK(p5->region == "us-east-1");
    CHECK_FALSE(p5->price_per_hour.reserved_1y.has_value());
    // "generated at 2026-07-20T13:44:30Z" is the date of every price.
    CHECK(p5->as_of == "2026-07-20");
    CHECK(o.as_of == "2026-07-20");
    CHECK(contains(p5->source, "aws/karpenter-provider-aws"));
    CHECK(contains(p5->source, "generated at 2026-07-20T13:44:30Z"));
    CHECK(contains(p5->source, "zz_generated.pricing_aws.go (as of 2026-07-20)"));
    CHECK(contains(p5->source, "on_demand: line 19, Linux on-demand"));
    CHECK(o.sources[0]["format"] == "karpenter_price_table");
    CHECK(listed(o, "m7i.large", "no catalog instance named m7i.large"));
    // The eu-west-1 price is in no selected region: neither used nor listed.
    CHECK_FALSE(listed(o, "p5.48xlarge", ""));
  }
  SUBCASE("--region takes another region's map literal") {
    ImportOptions eu;
    eu.region = "eu-west-1";
    const CatalogOverlay o = import_ok({s.write("zz_generated.pricing_aws.go", KARPENTER_AWS)}, eu);
    // "p5.48xlarge": 61.650000 under "eu-west-1".
    CHECK(*row(o, "p5.48xlarge")->price_per_hour.on_demand == doctest::Approx(61.65));
    CHECK(row(o, "p5.48xlarge")->region == "eu-west-1");
  }
  SUBCASE("the Azure table prices each row in its own region") {
    const CatalogOverlay o = import_ok({s.write("zz_generated.pricing.go", KARPENTER_AZURE)});
    // ND96isr_H100_v5 is an eastus row: 98.32.
    CHECK(*row(o, "Standard_ND96isr_H100_v5")->price_per_hour.on_demand == doctest::Approx(98.32));
    // ND96isr_MI300X_v5 is an eastus2 row: 48.00 there, not eastus's 52.00 read first.
    const InstanceType* mi = row(o, "Standard_ND96isr_MI300X_v5");
    REQUIRE(mi != nullptr);
    CHECK(*mi->price_per_hour.on_demand == doctest::Approx(48.0));
    CHECK(mi->region == "eastus2");
    CHECK(listed(o, "Standard_ND96isr_MI300X_v5", "the catalog row is priced in eastus2"));
    CHECK(mi->as_of == "2026-06-18");
    CHECK(contains(mi->source, "Azure/karpenter-provider-azure"));
    CHECK(listed(o, "Standard_D2s_v5", "no catalog instance named Standard_D2s_v5"));
  }
  SUBCASE("a malformed entry is reported at file:line and nothing is imported") {
    const std::string f = s.write("karpenter_bad.go",
                                  "package pricing\n"
                                  "\n"
                                  "// generated at 2026-07-20T13:44:30Z for us-east-1\n"
                                  "\n"
                                  "var InitialOnDemandPricesAWS = "
                                  "map[string]map[ec2types.InstanceType]float64{\n"
                                  "\t\"us-east-1\": {\n"
                                  "\t\t\"p5.48xlarge\": 55.040000, \"p5.4xlarge\" 6.880000,\n"
                                  "\t\t\"p5en.48xlarge\": -63.296000,\n"
                                  "\t\t\"p4d.24xlarge\": 21.957642,\n"
                                  "\t},\n"
                                  "}\n");
    Diagnostics d;
    CHECK_FALSE(import_price_files({f}, builtin_catalog(), {}, d));
    const auto all = d.sorted();
    REQUIRE(all.size() == 2);
    CHECK(contains(all[0].format(), "karpenter_bad.go:7: no ':' after \"p5.4xlarge\""));
    CHECK(all[1].line == 8);
    CHECK(contains(all[1].message, "\"-63.296000\", not a number >= 0"));
  }
  SUBCASE("an unreadable generation time and an unclosed map literal name their lines") {
    const std::string f = s.write("karpenter_cut.go",
                                  "package pricing\n"
                                  "// generated at yesterday\n"
                                  "var InitialOnDemandPricesAWS = "
                                  "map[string]map[ec2types.InstanceType]float64{\n"
                                  "\t\"us-east-1\": {\n"
                                  "\t\t\"p5.48xlarge\": 55.040000,\n");
    Diagnostics d;
    CHECK_FALSE(import_price_files({f}, builtin_catalog(), {}, d));
    const auto all = d.sorted();
    REQUIRE(all.size() == 2);
    CHECK(all[0].line == 2);
    CHECK(contains(all[0].message, "\"// generated at\" gives \"yesterday\""));
    CHECK(all[1].line == 4);
    CHECK(contains(all[1].message, "region \"us-east-1\" opened here is not closed"));
  }
}

TEST_CASE("catalog::overlay") {
  const Scratch s;
  SUBCASE("an imported overlay reads back with the same rows and prices") {
    const CatalogOverlay o = import_ok({AWS, AZURE, GCP});
    const std::string f = s.write("o.json", overlay_to_json(o).dump(2));
    Diagnostics d;
    const auto back = read_catalog_overlay(f, builtin_catalog(), "", d);
    REQUIRE_MESSAGE(back, d.to_text());
    // p5, p4d, ND96asr v4, a2-highgpu-8g.
    CHECK(back->instances.size() == 4);
    CHECK(*row(*back, "p5.48xlarge")->price_per_hour.on_demand == doctest::Approx(55.04));
    // The newest file date of the three: GCP's 2025-08-01.
    CHECK(back->as_of == "2025-08-01");
  }
  SUBCASE("a row without as_of names the overlay file, its line and the field") {
    const std::string f = s.write("bad.json",
                                  "{\"gpuplan_catalog_overlay\": 1, \"currency\": \"USD\",\n"
                                  " \"instances\": [\n"
                                  "  {\"id\": \"p5.48xlarge\", \"source\": \"x\",\n"
                                  "   \"price_per_hour\": {\"on_demand\": 50}}]}\n");
    Diagnostics d;
    CHECK_FALSE(read_catalog_overlay(f, builtin_catalog(), "", d));
    REQUIRE(d.size() == 1);
    const Diagnostic x = d.sorted()[0];
    CHECK(x.file == f);
    CHECK(x.pointer == "/instances/0/as_of");
    // The row it is missing from starts on line 3.
    CHECK(x.line == 3);
    CHECK(x.code == DiagCode::missing_key);
    CHECK(contains(x.message, "as_of"));
  }
  SUBCASE("a new instance needs its GPU; a negative price is out of range") {
    const std::string f =
        s.write("new.json",
                R"({"gpuplan_catalog_overlay": 1, "currency": "USD", "instances": [
            {"id": "my.box", "source": "x", "as_of": "2025-01-01",
             "price_per_hour": {"on_demand": -1}}]})");
    Diagnostics d;
    CHECK_FALSE(read_catalog_overlay(f, builtin_catalog(), "", d));
    CHECK(contains(d.to_text(), "/instances/0/gpu: missing required key \"gpu\""));
    CHECK(contains(d.to_text(), "/instances/0/price_per_hour/on_demand"));
  }
  SUBCASE("a row's derived rules are read, written back and applied with its prices") {
    const std::string f =
        s.write("derived.json",
                R"({"gpuplan_catalog_overlay": 1, "currency": "USD", "instances": [
            {"id": "p5.48xlarge", "source": "AWS Price List, 2026-09-01", "as_of": "2026-09-01",
             "price_per_hour": {"on_demand": 55.04, "reserved_1y": 38.53},
             "derived": {"reserved_1y": "on-demand x 0.70: the p5en 1-yr Savings Plan ratio"}}]})");
    Diagnostics d;
    const auto o = read_catalog_overlay(f, builtin_catalog(), "", d);
    REQUIRE_MESSAGE(o, d.to_text());
    const InstanceType* p5 = row(*o, "p5.48xlarge");
    REQUIRE(p5);
    REQUIRE(p5->derived_rule(Pricing::reserved_1y) != nullptr);
    CHECK(contains(*p5->derived_rule(Pricing::reserved_1y), "x 0.70"));
    // on-demand has no rule: it is the published figure.
    CHECK(p5->derived_rule(Pricing::on_demand) == nullptr);
    // The written overlay carries the rule, so an overlay round-trips through a file.
    const nlohmann::json j = overlay_to_json(*o);
    CHECK(j["instances"][0]["derived"]["reserved_1y"] ==
          "on-demand x 0.70: the p5en 1-yr Savings Plan ratio");

    // Applied to a catalog whose row derives its spot and 1-yr prices: the overlay's 1-yr rule
    // replaces the built-in one, the kept spot price keeps its own rule.
    Catalog c;
    c.gpus = builtin_catalog().gpus;
    InstanceType base = *builtin_catalog().find_instance("p5.48xlarge");
    base.price_per_hour = {90.0, 60.0, 40.0, 25.0, std::nullopt};
    base.derived = {{Pricing::reserved_1y, "on-demand x 0.59: an older rule of the built-in row"},
                    {Pricing::spot, "midpoint of the spot prices $20-30 of the built-in row"}};
    c.upsert(base);
    apply_overlay(c, *o);
    const InstanceType* merged = c.find_instance("p5.48xlarge");
    // The overlay's 1-yr price 38.53 with its rule, not the built-in 60 and its "x 0.59".
    CHECK(*merged->price_per_hour.reserved_1y == doctest::Approx(38.53));
    CHECK(contains(*merged->derived_rule(Pricing::reserved_1y), "x 0.70"));
    // Spot (not in the overlay) stays 25 with the built-in rule; 3-yr stays 40, published.
    CHECK(*merged->price_per_hour.spot == doctest::Approx(25.0));
    REQUIRE(merged->derived_rule(Pricing::spot) != nullptr);
    CHECK(contains(*merged->derived_rule(Pricing::spot), "midpoint"));
    CHECK(merged->derived_rule(Pricing::reserved_3y) == nullptr);
    CHECK(merged->derived.size() == 2);
  }
  SUBCASE("a derived rule for a price the row lacks, or an empty rule, is an input error") {
    const std::string f =
        s.write("bad_derived.json",
                R"({"gpuplan_catalog_overlay": 1, "currency": "USD", "instances": [
            {"id": "p5.48xlarge", "source": "x", "as_of": "2026-09-01",
             "price_per_hour": {"on_demand": 55.04},
             "derived": {"spot": "midpoint of observed spot prices", "on_demand": "",
                         "weekly": "x"}}]})");
    Diagnostics d;
    CHECK_FALSE(read_catalog_overlay(f, builtin_catalog(), "", d));
    const std::string text = d.to_text();
    CHECK(contains(text, "/instances/0/derived/spot"));
    CHECK(contains(text, "price_per_hour has no such price"));
    CHECK(contains(text, "/instances/0/derived/on_demand"));
    CHECK(contains(text, "the rule is empty"));
    // An unknown term is an unknown key, as in price_per_hour.
    CHECK(contains(text, "/instances/0/derived/weekly"));
  }
  SUBCASE("applying an overlay replaces the terms it gives and notes the ones it keeps") {
    Catalog c = builtin_catalog();
    const double spot_before = *c.find_instance("p5.48xlarge")->price_per_hour.spot;
    CatalogOverlay o = import_ok({AWS});
    o.file = "aws.json";
    apply_overlay(c, o);
    const InstanceType* p5 = c.find_instance("p5.48xlarge");
    CHECK(*p5->price_per_hour.on_demand == doctest::Approx(55.04));
    // Spot is not in the AWS bulk file, so the built-in spot price stays, noted as such.
    CHECK(*p5->price_per_hour.spot == spot_before);
    CHECK(contains(p5->notes, "spot from the built-in catalog (as of "));
    CHECK(p5->as_of == "2025-06-05");
  }
  SUBCASE("a scenario's catalog.overlays change its pool's price") {
    const std::string f = s.write("aws.json", overlay_to_json(import_ok({AWS})).dump());
    const std::string text = R"({"horizon": "1h", "catalog": {"overlays": ["aws.json"]},
      "pools": [{"name": "p", "instance": "p5.48xlarge", "count": 1}],
      "workload": [{"name": "c", "arrival": {"poisson": {"rate": "1/h"}}, "gpus": 1,
                    "duration": "1m"}]})";
    Diagnostics d;
    const auto sc = load_scenario_text(text, (s.dir / "s.json").string(), s.dir.string(), {}, d);
    REQUIRE_MESSAGE(sc, d.to_text());
    // The overlay's on-demand 55.04 per node-hour, not the built-in price.
    CHECK(sc->pools[0].price_per_node_hour == doctest::Approx(55.04));
    CHECK(sc->instances[sc->pools[0].instance_idx].as_of == "2025-06-05");
    Diagnostics missing;
    CHECK_FALSE(load_scenario_text(R"({"horizon": "1h", "catalog": {"overlays": ["nope.json"]},
      "pools": [{"name": "p", "instance": "p5.48xlarge", "count": 1}],
      "workload": [{"name": "c", "arrival": {"poisson": {"rate": "1/h"}}, "gpus": 1,
                    "duration": "1m"}]})",
                                   (s.dir / "s.json").string(), s.dir.string(), {}, missing));
    CHECK(contains(missing.to_text(), "/catalog/overlays/0: catalog overlay \"nope.json\""));
  }
}
