//! Bundled files a customer reads (scenarios, quote requests, docs, the catalog, the schema) cite
//! public sources only: never the internal reference document or its confidence tags.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "tests/tools/cli.h"

namespace fs = std::filesystem;
using gpuplan_cli_test::internal_citation;
using gpuplan_cli_test::read_text;

TEST_CASE("tools::public_sources") {
  SUBCASE("no bundled scenario, doc page, catalog or schema cites DATA.md or its tags") {
    const fs::path src = GPUPLAN_SOURCE_DIR;
    int n = 0;
    for (const char* dir :
         {"scenarios", "scenarios/quotes", "scenarios/reproduce", "docs", "models/catalog"}) {
      for (const auto& entry : fs::directory_iterator(src / dir)) {
        const std::string ext = entry.path().extension().string();
        if (!entry.is_regular_file() || (ext != ".json" && ext != ".md")) continue;
        CAPTURE(entry.path());
        CHECK(internal_citation(read_text(entry.path())) == "");
        ++n;
      }
    }
    CHECK(internal_citation(read_text(src / "README.md")) == "");
    // 32 scenario and golden files, 2 quote requests, 17 doc pages, the schema, 2 catalogs today
    CHECK(n >= 50);
  }
  SUBCASE("the helper finds each tag, so the check above can fail") {
    CHECK(internal_citation("per DATA.md 6.2") == "DATA.md");
    CHECK(internal_citation("a price [3P]") == "[3P]");
    CHECK(internal_citation("derived [D] here") == "[D]");
    CHECK(internal_citation("plain words (derived)") == "");
  }
}
