#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <set>

#include <nlohmann/json.hpp>

#include "models/catalog/catalog.h"
#include "models/catalog/catalog_age.h"
#include "models/catalog/source_date.h"
#include "models/catalog/catalog_table.h"

using namespace gpuplan;
using namespace std::chrono;

TEST_CASE("models::catalog") {
  const Catalog& c = builtin_catalog();

  SUBCASE("the 12 GPU models of the scenario contract are present with DATA.md 5 figures") {
    // ARCHITECTURE.md 4 lists 12 GPU ids; K80 and P100-16GB follow for Gavel's cluster (issue 13);
    // A10, GH200, GB200, B300 and MI300X for the 2026 rows (issue 35).
    CHECK(c.gpus.size() == 19);
    for (const char* id : {"A100-40GB", "A100-80GB", "H100-SXM", "H100-PCIe", "H200", "B200", "L4",
                           "L40S", "T4", "A10G", "V100-16GB", "V100-32GB"})
      CHECK_MESSAGE(c.find_gpu(id) != nullptr, id);
    // H100 SXM: 989 dense BF16, 1979 FP8, 495 TF32 TFLOPS, 80 GB, 3.35 TB/s (DATA.md 5).
    const GpuSpec* h100 = c.find_gpu("h100-sxm");
    REQUIRE(h100);
    CHECK(h100->bf16_tflops == 989);
    CHECK(h100->fp8_tflops == 1979);
    CHECK(h100->tf32_tflops == 495);
    CHECK(h100->mem_gb == 80);
    CHECK(h100->mem_bw_tbps == doctest::Approx(3.35));
    // A100: 312 BF16, 600 GB/s NVLink3 bidirectional (DATA.md 5).
    CHECK(c.find_gpu("A100-80GB")->bf16_tflops == 312);
    CHECK(c.find_gpu("A100-80GB")->nvlink_gbps == 600);
    // B200: 2250 BF16, 180 GB usable (DATA.md 5).
    CHECK(c.find_gpu("B200")->bf16_tflops == 2250);
    CHECK(c.find_gpu("B200")->mem_gb == 180);
    // MI300X as AMD's data sheet gives it (quoted in alpharomercoma/MI300X-vs-H200
    // METHODOLOGY.md@6077fdc7): 1307.4 dense BF16 and 2614.9 FP8 TFLOPS, 192 GB at 5.3 TB/s,
    // 750 W; collectives on RCCL over Infinity Fabric (7 links x 128 GB/s = 896 GB/s).
    const GpuSpec* mi = c.find_gpu("mi300x");
    REQUIRE(mi);
    CHECK(mi->architecture == "cdna3");
    CHECK(mi->bf16_tflops == doctest::Approx(1307.4));
    CHECK(mi->fp8_tflops == doctest::Approx(2614.9));
    CHECK(mi->mem_gb == 192);
    CHECK(mi->mem_bw_tbps == doctest::Approx(5.3));
    CHECK(mi->tdp_w == 750);
    CHECK(mi->nvlink_gbps == 896);
    CHECK(mi->collectives == "RCCL");
    CHECK(c.find_gpu("H100-SXM")->collectives == "NCCL");
    // Figures not re-read in a primary source say so in the GPU's source.
    for (const char* id : {"GB200", "B300", "GH200", "MI300X"})
      CHECK_MESSAGE(c.find_gpu(id)->source.find("unverified") != std::string::npos, id);
  }
  SUBCASE("every GPU the catalog knows has an instance row or an on-prem template") {
    for (const GpuSpec& g : c.gpus) {
      // NOTE: K80 is in the table for Gavel's measured speeds only; no provider sells it now.
      if (g.id == "K80") continue;
      CHECK_MESSAGE(std::any_of(c.instances.begin(), c.instances.end(),
                                [&](const InstanceType& it) { return it.gpu == g.id; }),
                    g.id);
    }
  }
  SUBCASE("every instance is complete, names a known GPU and has a dated, tagged source") {
    std::set<std::string> ids;
    for (const InstanceType& it : c.instances) {
      CAPTURE(it.id);
      CHECK(ids.insert(it.id).second);
      CHECK(c.find_gpu(it.gpu) != nullptr);
      CHECK(it.gpus_per_node >= 1);
      CHECK(std::set<std::string>{"nvlink2", "nvlink3", "nvlink4", "nvlink5", "infinity_fabric",
                                  "pcie"}
                .count(it.intra_node_fabric));
      CHECK(std::set<std::string>{"", "1/2", "1/3", "1/6"}.count(it.gpu_fraction));
      // A priced row has a confidence by the source rule (docs/catalog.md) and a date, unless it
      // is a low-confidence undated capture that says so; a row without a price has neither and
      // says how to supply one.
      if (it.priced()) {
        CHECK(std::set<std::string>{"high", "medium", "low"}.count(it.confidence));
        if (it.as_of.empty()) {
          CHECK(it.confidence == "low");
          CHECK(it.source.find("undated") != std::string::npos);
        } else {
          CHECK(parse_as_of(it.as_of).has_value());
        }
      } else {
        CHECK(it.confidence.empty());
        CHECK(it.notes.find("supply") != std::string::npos);
      }
      // every row names its public source, in words a customer can read (no internal tags)
      CHECK_FALSE(it.source.empty());
      CHECK(it.source.find("DATA.md") == std::string::npos);
      CHECK(it.source.find("[") == std::string::npos);
      CHECK((!it.priced() || it.price_per_hour.on_demand || it.price_per_hour.on_prem));
      // Reserved and spot prices are discounts: never above on-demand.
      if (it.price_per_hour.on_demand) {
        CHECK(it.price_per_hour.reserved_1y.value_or(0) <= *it.price_per_hour.on_demand);
        CHECK(it.price_per_hour.reserved_3y.value_or(0) <=
              it.price_per_hour.reserved_1y.value_or(*it.price_per_hour.on_demand));
        CHECK(it.price_per_hour.spot.value_or(0) <= *it.price_per_hour.on_demand);
      }
    }
    // AWS 5 P-family + 8 g5 + 8 g6 + 8 g6e + 7 g4dn + p6-b200 + p6-b300 + p6e-gb200 = 39, GCP 7,
    // Azure 11, Lambda 7, Alibaba 5 (no price), on-prem 2 = 71.
    CHECK(c.instances.size() == 71);
  }
  SUBCASE("list prices match DATA.md 4 and derived prices state their derivation") {
    // p4d.24xlarge after the June-2025 cut: $21.957642/h on-demand, 1-yr reserved $13.921094
    // (instances.vantage.sh data of 2026-01-21, tsaol/aws-gpu), both published.
    const InstanceType* p4d = c.find_instance("p4d.24xlarge");
    REQUIRE(p4d);
    CHECK(*p4d->price_per_hour.on_demand == doctest::Approx(21.9576));
    CHECK(*p4d->price_per_hour.reserved_1y == doctest::Approx(13.9211));
    CHECK(p4d->derived_rule(Pricing::reserved_1y) == nullptr);
    CHECK(p4d->as_of == "2026-07-20");
    CHECK(p4d->confidence == "high");
    // p5en post-cut $63.296/h (dstack PR #4110 [V]).
    CHECK(*c.find_instance("p5en.48xlarge")->price_per_hour.on_demand == doctest::Approx(63.296));
    // p5 after the June-2025 cut: $55.04/h on-demand (was $98.32); its 1-yr price is derived
    // from the p5en Savings Plan ratio: 55.04 x 40.43 / 63.296 = 35.1565, with its rule.
    const InstanceType* p5 = c.find_instance("p5.48xlarge");
    CHECK(*p5->price_per_hour.on_demand == doctest::Approx(55.04));
    CHECK(*p5->price_per_hour.reserved_1y == doctest::Approx(35.1565));
    REQUIRE(p5->derived_rule(Pricing::reserved_1y) != nullptr);
    CHECK(p5->derived_rule(Pricing::reserved_1y)->find("x 0.6387") != std::string::npos);
    CHECK(p5->derived_rule(Pricing::on_demand) == nullptr);
    // T4 (g4dn.xlarge $0.526/h) and B200 (p6-b200.48xlarge $113.9328/h) rows, 2026-01-21.
    const InstanceType* g4dn = c.find_instance("g4dn.xlarge");
    REQUIRE(g4dn);
    CHECK(g4dn->gpu == "T4");
    CHECK(*g4dn->price_per_hour.on_demand == doctest::Approx(0.526));
    const InstanceType* b200 = c.find_instance("p6-b200.48xlarge");
    REQUIRE(b200);
    CHECK(b200->gpu == "B200");
    CHECK(b200->gpus_per_node == 8);
    CHECK(*b200->price_per_hour.on_demand == doctest::Approx(113.9328));
    // p5en 1-yr and 3-yr are the published Savings Plan rates $40.43 and $27.72, not derived.
    const InstanceType* p5en = c.find_instance("p5en.48xlarge");
    CHECK(*p5en->price_per_hour.reserved_3y == doctest::Approx(27.72));
    CHECK(p5en->derived_rule(Pricing::reserved_3y) == nullptr);
    // a3-highgpu-8g (Cyclenerd pricing.yml, 2026-07-30): spot $50.61 and 3-yr $38.86 are two
    // published figures, no longer one rule.
    const InstanceType* a3 = c.find_instance("a3-highgpu-8g");
    CHECK(*a3->price_per_hour.spot == doctest::Approx(50.6095));
    CHECK(*a3->price_per_hour.reserved_3y == doctest::Approx(38.8644));
    CHECK(a3->derived.empty());
    // Azure rows come from the Retail Prices API table of Azure/karpenter-provider-azure
    // (2026-06-18): ND H100 v5 $98.32, ND MI300X v5 $48.00, ND GB200 v6 $108.16 per node-hour.
    for (const auto& [id, od] : {std::pair{"Standard_ND96isr_H100_v5", 98.32},
                                 std::pair{"Standard_ND96isr_MI300X_v5", 48.0},
                                 std::pair{"Standard_ND128isr_NDR_GB200_v6", 108.16}}) {
      const InstanceType* az = c.find_instance(id);
      REQUIRE(az);
      CHECK(*az->price_per_hour.on_demand == doctest::Approx(od));
      CHECK(az->source.find("Azure/karpenter-provider-azure") != std::string::npos);
      CHECK(az->as_of == "2026-06-18");
    }
    // On-prem HGX H100: DATA.md 6.2 worked example, ~$1.42/GPU-h x 8 = ~$11.33/h.
    const InstanceType* hgx = c.find_instance("onprem.hgx-h100-8");
    REQUIRE(hgx);
    CHECK(*hgx->price_per_hour.on_prem / 8 == doctest::Approx(1.416).epsilon(0.01));
    CHECK(*hgx->price_per_hour.on_prem / 8 >= 1.4);
    CHECK(*hgx->price_per_hour.on_prem / 8 <= 1.5);
  }
}

TEST_CASE("models::catalog::derived") {
  const Catalog& c = builtin_catalog();
  const Pricing terms[] = {Pricing::on_demand, Pricing::reserved_1y, Pricing::reserved_3y,
                           Pricing::spot, Pricing::on_prem};
  SUBCASE("every derived price exists and states its rule; no rule serves two terms of a row") {
    for (const InstanceType& it : c.instances) {
      CAPTURE(it.id);
      for (const DerivedPrice& d : it.derived) {
        CAPTURE(pricing_key(d.term));
        CHECK(price_of(it.price_per_hour, d.term).has_value());
        // a rule a customer can follow: it names a factor, a range or a formula
        CHECK(d.rule.size() >= 20);
        for (const DerivedPrice& e : it.derived)
          if (&e != &d) CHECK(e.rule != d.rule);
      }
    }
  }
  SUBCASE("no two pricing terms of a row carry the same price") {
    // Two different terms at one price means one rule set both (the a3-highgpu-8g spot price
    // once equalled its 3-year price, both "65 % off"); a real coincidence would need a note.
    for (const InstanceType& it : c.instances) {
      CAPTURE(it.id);
      for (size_t i = 0; i < 5; ++i) {
        for (size_t j = i + 1; j < 5; ++j) {
          const auto a = price_of(it.price_per_hour, terms[i]);
          const auto b = price_of(it.price_per_hour, terms[j]);
          if (a && b) CHECK(*a != *b);
        }
      }
    }
  }
  SUBCASE("the one rule copied from another instance says so") {
    // The Azure H100 v5 reservation discounts are the A100 v4's (no H100 figure was found).
    const InstanceType* az = c.find_instance("Standard_ND96isr_H100_v5");
    REQUIRE(az->derived_rule(Pricing::reserved_1y) != nullptr);
    CHECK(az->derived_rule(Pricing::reserved_1y)->find("A100 v4") != std::string::npos);
    CHECK(az->derived_rule(Pricing::reserved_1y)->find("copied") != std::string::npos);
  }
}

TEST_CASE("models::catalog_age") {
  const year_month_day today = 2026y / November / 29d;
  SUBCASE("as_of dates parse in full, year-month and year forms") {
    CHECK(parse_as_of("2024-01-29") == 2024y / January / 29d);
    // A missing day means the first of the month.
    CHECK(parse_as_of("2025-01") == 2025y / January / 1d);
    CHECK(parse_as_of("2022") == 2022y / January / 1d);
    CHECK_FALSE(parse_as_of("2025-13-01").has_value());
    CHECK_FALSE(parse_as_of("Jan 2025").has_value());
    CHECK_FALSE(parse_as_of("").has_value());
  }
  SUBCASE("a price is stale when dated more than one year before today") {
    // One year and one day old.
    CHECK(is_stale("2025-11-28", today));
    // Exactly one year old is not yet stale.
    CHECK_FALSE(is_stale("2025-11-29", today));
    CHECK_FALSE(is_stale("2026-08-06", today));
    // An unreadable date is never trusted.
    CHECK(is_stale("unknown", today));
    // 2026-08-06 to 2026-11-29 = 115 days.
    CHECK(price_age_days("2026-08-06", today) == 115);
  }
  SUBCASE("SOURCE_DATE_EPOCH pins today's date; anything but whole seconds is ignored") {
    // 1,764,374,400 s = 20,421 days after 1970-01-01 = 2025-11-29 00:00 UTC; a second less is
    // still the 28th.
    CHECK(date_of_epoch("1764374400") == 2025y / November / 29d);
    CHECK(date_of_epoch("1764374399") == 2025y / November / 28d);
    CHECK(date_of_epoch("0") == 1970y / January / 1d);
    CHECK_FALSE(date_of_epoch("").has_value());
    CHECK_FALSE(date_of_epoch("-1").has_value());
    CHECK_FALSE(date_of_epoch("2025-11-29").has_value());
    CHECK_FALSE(date_of_epoch("17e8").has_value());
    const char* before = std::getenv("SOURCE_DATE_EPOCH");
    const std::string saved = before ? before : "";
    setenv("SOURCE_DATE_EPOCH", "1764374400", 1);
    CHECK(today_utc() == 2025y / November / 29d);
    setenv("SOURCE_DATE_EPOCH", "not a number", 1);
    const auto clock = year_month_day{floor<days>(system_clock::now())};
    CHECK(sys_days{today_utc()} >= sys_days{clock});
    if (before) {
      setenv("SOURCE_DATE_EPOCH", saved.c_str(), 1);
    } else {
      unsetenv("SOURCE_DATE_EPOCH");
    }
  }
}

TEST_CASE("models::catalog_table") {
  const Catalog& c = builtin_catalog();
  const year_month_day today = 2026y / November / 29d;

  SUBCASE("an unknown GPU is an input error that suggests the closest ids") {
    const CatalogSelection sel = select_instances(c, {"H100-SMX", ""});
    CHECK(sel.instances.empty());
    CHECK(sel.error.find("--gpu: unknown GPU \"H100-SMX\"") == 0);
    REQUIRE_FALSE(sel.candidates.empty());
    CHECK(sel.candidates.front() == "H100-SXM");
    CHECK(sel.error.find("did you mean \"H100-SXM\"") != std::string::npos);
  }
  SUBCASE("an unknown provider suggests a known one") {
    const CatalogSelection sel = select_instances(c, {"", "azur"});
    REQUIRE_FALSE(sel.candidates.empty());
    CHECK(sel.candidates.front() == "azure");
  }
  SUBCASE("filters combine and match case-insensitively") {
    const CatalogSelection sel = select_instances(c, {"h100-sxm", "AWS"});
    REQUIRE(sel.error.empty());
    // p5.48xlarge and p5.4xlarge carry H100-SXM at AWS.
    REQUIRE(sel.instances.size() == 2);
    CHECK(sel.instances[0]->id == "p5.48xlarge");
    CHECK(sel.instances[1]->id == "p5.4xlarge");
  }
  SUBCASE("the table aligns columns and flags old prices as stale") {
    const CatalogSelection sel = select_instances(c, {"", ""});
    const std::string table = format_catalog_table(c, sel.instances, today);
    // p5en and p4d are dated 2026-07-20 (fresh on 2026-11-29); the on-prem templates 2025-01 and
    // the undated a4-highgpu-8g are stale.
    const auto line_of = [&](const std::string& id) {
      std::string key = "\n";
      key += id;
      key += ' ';
      const size_t at = table.find(key) + 1;
      return table.substr(at, table.find('\n', at) - at);
    };
    CHECK(line_of("onprem.hgx-h100-8").find("stale") != std::string::npos);
    CHECK(line_of("a4-highgpu-8g").find("stale") != std::string::npos);
    CHECK(line_of("p4d.24xlarge").find("stale") == std::string::npos);
    CHECK(line_of("p5en.48xlarge").find("stale") == std::string::npos);
    // $/GPU-h of p4d: 21.9576 / 8 = 2.74.
    CHECK(line_of("p4d.24xlarge").find("2.74") != std::string::npos);
    CHECK(line_of("p4d.24xlarge").find("8xA100-40GB") != std::string::npos);
    CHECK(line_of("p4d.24xlarge").find("4x100G") != std::string::npos);
    // p5's reserved prices are derived, marked '~' and explained under the table.
    CHECK(line_of("p5.48xlarge").find("35.16~") != std::string::npos);
    CHECK(line_of("p5en.48xlarge").find("40.43 ") != std::string::npos);
    CHECK(table.find("~ derived: not published") != std::string::npos);
    // Aligned: the as_of column starts at the same offset on every row.
    CHECK(line_of("p4d.24xlarge").find("2026-07-20") == line_of("g6e.48xlarge").find("2026-01-21"));
    CHECK(line_of("p4d.24xlarge").find("2026-07-20") ==
          line_of("Standard_ND96asr_v4").find("2026-06-18"));
    // The summary line counts the stale rows and the rows without a price.
    CHECK(table.find(std::to_string(sel.instances.size()) + " instance types, 3 stale") !=
          std::string::npos);
    CHECK(table.find("6 without a price") != std::string::npos);
  }
  SUBCASE("hardware sits next to the prices: the MI300X row of Azure") {
    const CatalogSelection sel = select_instances(c, {"MI300X", ""});
    REQUIRE(sel.error.empty());
    REQUIRE(sel.instances.size() == 1);
    CHECK(sel.instances[0]->id == "Standard_ND96isr_MI300X_v5");
    const std::string table = format_catalog_table(c, sel.instances, today);
    const std::string row = table.substr(table.find("Standard_ND96isr_MI300X_v5"));
    // 8 GPUs of 192 GB, 1307.4 dense BF16 and 2614.9 FP8 TFLOPS, 5.3 TB/s, Infinity Fabric,
    // 8 x 400G NDR; $48.00 per node-hour = $6.00 per GPU-hour, dated 2026-06-18, high confidence.
    for (const char* x : {"8xMI300X", "192", "1307.4", "2614.9", "5.3", "infinity_fabric", "8x400G",
                          "48.00", "6.00", "2026-06-18", "high"})
      CHECK_MESSAGE(row.substr(0, row.find('\n')).find(x) != std::string::npos, x);
  }
  SUBCASE("GB200, Lambda and Alibaba rows list with sources and dates, or price required") {
    const CatalogSelection gb = select_instances(c, {"GB200", ""});
    REQUIRE(gb.error.empty());
    CHECK(gb.instances.size() == 2);  // Azure ND GB200 v6 (priced) and AWS p6e (no price)
    const CatalogSelection lambda = select_instances(c, {"", "lambda"});
    REQUIRE(lambda.error.empty());
    CHECK(lambda.instances.size() == 7);
    for (const InstanceType* it : lambda.instances) {
      CHECK(it->as_of == "2026-09-20");
      CHECK(it->source.find("api-evangelist/lambda-labs") != std::string::npos);
    }
    const CatalogSelection ali = select_instances(c, {"", "alibaba"});
    REQUIRE(ali.error.empty());
    REQUIRE(ali.instances.size() == 5);
    const std::string table = format_catalog_table(c, ali.instances, today);
    for (const InstanceType* it : ali.instances) {
      CHECK_FALSE(it->priced());
      CHECK_FALSE(row_stale(*it, today));
      const std::string row = table.substr(table.find(it->id));
      CHECK(row.substr(0, row.find('\n')).find("price required") != std::string::npos);
    }
    CHECK(table.find("0 stale") != std::string::npos);
    CHECK(table.find("\"price_per_hour\" for this id") != std::string::npos);
  }
  SUBCASE("a fractional vGPU's per-GPU price is per whole GPU") {
    const InstanceType* nv6 = c.find_instance("Standard_NV6ads_A10_v5");
    REQUIRE(nv6 != nullptr);
    // $0.454 per hour for 1/6 of an A10 = $2.724 per whole-A10 hour.
    CHECK(nv6->gpus_held() == doctest::Approx(1.0 / 6));
    CHECK(*per_gpu_hour(nv6->price_per_hour.on_demand, nv6->gpus_held()) == doctest::Approx(2.724));
    const std::string table = format_catalog_table(c, {nv6}, today);
    CHECK(table.find("1/6xA10") != std::string::npos);
    CHECK(table.find("2.72") != std::string::npos);
  }
  SUBCASE("the JSON output carries sources, per-GPU prices and the stale flag") {
    const CatalogSelection sel = select_instances(c, {"", "on_prem"});
    const auto j = nlohmann::json::parse(format_catalog_json(c, sel.instances, today));
    // Two on-prem templates, dated 2025-01 and so stale on 2026-11-29 like a cloud row.
    REQUIRE(j.size() == 2);
    CHECK(j[0]["source"].get<std::string>().find("(derived)") != std::string::npos);
    CHECK(j[0]["stale"].get<bool>());
    CHECK(j[0]["confidence"] == "low");
    CHECK(j[0]["gpu_spec"]["bf16_tflops"].get<double>() == 989);
    // the amortised on-prem cost is derived; the JSON gives its rule
    CHECK(j[0]["derived"].contains("on_prem"));
    // HGX H100: ~$1.42 per GPU-hour.
    CHECK(j[0]["price_per_gpu_hour"]["on_prem"].get<double>() ==
          doctest::Approx(1.416).epsilon(0.01));
  }
}
