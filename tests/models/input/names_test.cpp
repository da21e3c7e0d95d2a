//! One name table per closed set (models/input/names.h), used to parse and to name.
#include <doctest/doctest.h>

#include <string>

#include "models/input/field_reader.h"
#include "models/input/engine_names.h"

using namespace gpuplan;

namespace {

// Every enumerator of E names itself and parses back to itself; names are unique.
template <class E>
void check_round_trip() {
  CAPTURE(EnumTraits<E>::what);
  const auto& names = enum_names<E>();
  REQUIRE(names.size() == enum_count<E>);
  for (size_t k = 0; k < enum_count<E>; ++k) {
    const E e = static_cast<E>(k);
    CAPTURE(names[k]);
    CHECK(parse_enum<E>(enum_name(e)) == e);
    CHECK(std::string(enum_name(e)) == names[k]);
  }
}

}  // namespace

TEST_CASE("names::tables") {
  SUBCASE("every enumerator of every closed set round-trips through its name") {
    check_round_trip<Pricing>();
    check_round_trip<Upfront>();
    check_round_trip<TimeFormat>();
    check_round_trip<TopologyKind>();
    check_round_trip<CustomVertexKind>();
    check_round_trip<TcoOption>();
    check_round_trip<FallbackTarget>();
    check_round_trip<QueuePolicy>();
    check_round_trip<Placement>();
    check_round_trip<DistKind>();
    check_round_trip<Precision>();
    check_round_trip<economics::BillingGranularity>();
    check_round_trip<economics::SpotAdvisorBand>();
    check_round_trip<economics::CostBasis>();
  }
  SUBCASE("the tables keep the scenario's spelling") {
    CHECK(enum_name(Pricing::reserved_3y) == "reserved_3y");
    CHECK(enum_name(Placement::topology_aware) == "topology_aware");
    CHECK(enum_name(CustomVertexKind::network_switch) == "switch");
    CHECK(enum_name(economics::BillingGranularity::per_hour) == "hour");
    CHECK(enum_name(economics::SpotAdvisorBand::from_5_to_10) == "5-10%");
    CHECK(enum_name(Precision::fp16) == "fp16");
  }
  SUBCASE("an unknown name parses to nothing and is case-sensitive") {
    CHECK_FALSE(parse_enum<Pricing>("ondemand"));
    CHECK_FALSE(parse_enum<Placement>("Best_Fit"));
  }
  SUBCASE("an unknown name read from a scenario suggests the closest name of its set") {
    Diagnostics d;
    FieldReader r(d);
    CHECK_FALSE(r.enumerator<Placement>(nlohmann::json("best_fitt"), "/scheduler/placement"));
    CHECK_FALSE(r.enumerator<TopologyKind>(nlohmann::json("leaf-spine"), "/topology/kind"));
    REQUIRE(d.size() == 2);
    const auto all = d.sorted();
    CHECK(all[0].pointer == "/scheduler/placement");
    CHECK(all[0].candidates.at(0) == "best_fit");
    CHECK(all[0].message.find("unknown placement \"best_fitt\"") != std::string::npos);
    CHECK(all[1].candidates.at(0) == "leaf_spine");
  }
}
