//! `gpuplan serve`'s handlers (reports/quote_service.h) without a socket: quotes answered with
//! the CLI's figures and messages, bad input refused with a 4xx naming the field, and file names
//! confined to the data folder with no file contents echoed.
#include "reports/quote_service.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "models/quote/quote.h"

namespace fs = std::filesystem;
using gpuplan::serve::confine_path;
using gpuplan::serve::QuoteService;
using gpuplan::serve::Reply;
using gpuplan::serve::ServeSettings;
using nlohmann::json;

namespace {

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::path(GPUPLAN_BINARY_DIR) / "test-serve" / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

//! A small training request as the page sends it (one instance type keeps it fast).
json training_fields() {
  return {{"/training/params", "7B"},
          {"/training/tokens", "200B"},
          {"/training/deadline", "30d"},
          {"/options/instances", "p5.48xlarge"}};
}

Reply post(QuoteService& s, const json& body) {
  return s.quote(body.dump());
}

}  // namespace

TEST_CASE("serve::confine_path") {
  const fs::path root = fresh_dir("confine");
  fs::create_directories(root / "data" / "sub");
  std::ofstream(root / "data" / "prices.json") << "{}";
  std::ofstream(root / "data" / "sub" / "more.json") << "{}";
  std::ofstream(root / "secret.txt") << "SECRET-CONTENT";
  fs::create_symlink(root / "secret.txt", root / "data" / "link.json");
  const std::optional<fs::path> data = root / "data";
  std::string why;

  SUBCASE("a file inside the data folder, directly or in a subfolder, resolves to its real path") {
    CHECK(confine_path(data, "prices.json", why) == fs::canonical(root / "data" / "prices.json"));
    CHECK(confine_path(data, "sub/more.json", why).has_value());
  }
  SUBCASE("without a data folder no name is allowed") {
    CHECK_FALSE(confine_path(std::nullopt, "prices.json", why));
    CHECK(why.find("--data-dir") != std::string::npos);
  }
  SUBCASE("absolute paths, .. and empty names are refused before the file system is asked") {
    CHECK_FALSE(confine_path(data, "/etc/passwd", why));
    CHECK_FALSE(confine_path(data, "../secret.txt", why));
    CHECK(why.find("..") != std::string::npos);
    CHECK_FALSE(confine_path(data, "sub/../../secret.txt", why));
    CHECK_FALSE(confine_path(data, "", why));
  }
  SUBCASE("a link inside the folder that points out of it is refused") {
    CHECK_FALSE(confine_path(data, "link.json", why));
    CHECK(why.find("outside") != std::string::npos);
  }
  SUBCASE("folders and missing files are refused") {
    CHECK_FALSE(confine_path(data, "sub", why));
    CHECK_FALSE(confine_path(data, "absent.json", why));
  }
}

TEST_CASE("serve::quote_service") {
  const fs::path root = fresh_dir("service");
  fs::create_directories(root / "data");
  std::ofstream(root / "secret.txt") << "SECRET-CONTENT line one\n";
  fs::create_symlink(root / "secret.txt", root / "data" / "escape.json");
  ServeSettings settings;
  settings.data_dir = root / "data";
  settings.version = "test";
  QuoteService service(settings);

  SUBCASE("a valid training request answers 200 with ranked options and its downloads") {
    const Reply r = post(service, {{"fields", training_fields()}});
    REQUIRE(r.status == 200);
    const json j = json::parse(r.body);
    CHECK(j["quote"]["training"].size() > 0);
    CHECK(j["quote"]["training"][0]["instance"] == "p5.48xlarge");
    const std::string id = j["id"];
    // 128 random bits as 32 hex digits
    CHECK(id.size() == 32);
    CHECK(id.find_first_not_of("0123456789abcdef") == std::string::npos);
    CHECK(j["downloads"]["json"] == "/api/quote/" + id + "/quote.json");
    const Reply dl = service.download(id, "quote.json");
    CHECK(dl.status == 200);
    CHECK(dl.attachment == "quote.json");
    // The download is the quote the page showed, figure for figure.
    CHECK(json::parse(dl.body)["training"] == j["quote"]["training"]);
    CHECK(service.download(id, "quote.html").body.find("<!DOCTYPE html>") == 0);
  }
  SUBCASE("a bad value answers 400 with the pointer and the message the CLI prints") {
    json fields = training_fields();
    fields["/training/tokens"] = "two";
    const Reply r = post(service, {{"fields", fields}});
    CHECK(r.status == 400);
    const json err = json::parse(r.body)["errors"][0];
    CHECK(err["pointer"] == "/training/tokens");
    // The CLI reads the same request through the same validator.
    gpuplan::Diagnostics diags;
    json doc = json::object();
    doc["training"] = {{"params", "7B"}, {"tokens", "two"}, {"deadline", "30d"}};
    doc["options"] = {{"instances", {"p5.48xlarge"}}};
    CHECK_FALSE(gpuplan::quote::parse_request(doc, diags));
    REQUIRE(diags.size() == 1);
    CHECK(err["message"] == diags.sorted()[0].message);
  }
  SUBCASE("targets no option meets answer 422 at the missed target with the nearest miss") {
    const json fields = {{"/inference/model", "llama-3-8b"}, {"/inference/requests_per_s", "20"},
                         {"/inference/tokens_in", "500"},    {"/inference/tokens_out", "200"},
                         {"/inference/ttft_p99", "1ms"},     {"/options/instances", "p5.48xlarge"}};
    const Reply r = post(service, {{"fields", fields}});
    CHECK(r.status == 422);
    const json err = json::parse(r.body)["errors"][0];
    CHECK(err["pointer"] == "/inference/ttft_p99");
    CHECK(err["message"].get<std::string>().find("nearest miss is p5.48xlarge") !=
          std::string::npos);
  }
  SUBCASE("a token trace is refused on the page (the CLI reads it)") {
    const json fields = {{"/inference/model", "llama-3-8b"},
                         {"/inference/requests_per_s", "20"},
                         {"/inference/tokens_trace", "azure_llm_inference_conv_2023.csv"},
                         {"/inference/ttft_p99", "1s"}};
    const Reply r = post(service, {{"fields", fields}});
    CHECK(r.status == 400);
    CHECK(json::parse(r.body)["errors"][0]["pointer"] == "/inference/tokens_trace");
  }
  SUBCASE("an unknown GPU gets the CLI's did-you-mean, on the field that named it") {
    json fields = training_fields();
    fields.erase("/options/instances");
    fields["/options/gpus"] = "H100-SMX";
    const Reply r = post(service, {{"fields", fields}});
    CHECK(r.status == 400);
    const json err = json::parse(r.body)["errors"][0];
    CHECK(err["pointer"].get<std::string>().rfind("/options/gpus", 0) == 0);
    CHECK(err["message"].get<std::string>().find("did you mean") != std::string::npos);
  }
  SUBCASE("malformed bodies, unknown fields and empty requests answer 400, never throw") {
    CHECK(service.quote("not json").status == 400);
    CHECK(service.quote("[1,2]").status == 400);
    CHECK(post(service, {{"fields", {{"/training/params", 7}}}}).status == 400);
    CHECK(post(service, {{"fields", {{"/training/0/0/999999999", "1"}}}}).status == 400);
    CHECK(post(service, {{"fields", {{"/scenario", "x"}}}}).status == 400);
    CHECK(post(service, {{"fields", json::object()}}).status == 400);
    CHECK(service.quote(std::string(1 << 20, '[')).status == 413);
    // just under the cap: 60,000 nested arrays are refused as malformed, not recursed into
    CHECK(service.quote(std::string(60000, '[')).status == 400);
    CHECK(service.quote(std::string(30000, '[') + std::string(30000, ']')).status == 400);
  }
  SUBCASE("a body that is not the request object says which part is wrong, quoting 40 bytes") {
    const Reply open = service.quote("{\"fields\": \"" + std::string(50000, 'a'));
    CHECK(open.status == 400);
    CHECK(open.body.size() < 1024);
    const std::string message = json::parse(open.body)["errors"][0]["message"];
    // the column is where the body ends with the string still open
    CHECK(message.rfind("the request body, line 1: invalid JSON at column 5001", 0) == 0);
    CHECK(message.find("missing closing quote") != std::string::npos);
    CHECK(message.find("last read: '\"" + std::string(39, 'a') + "...'") != std::string::npos);
    CHECK(json::parse(service.quote("[1,2]").body)["errors"][0]["message"] ==
          "the request body must be a JSON object {\"fields\": {...}}, not an array");
    const json missing = json::parse(service.quote("{}").body)["errors"][0];
    CHECK(missing["pointer"] == "/fields");
    CHECK(missing["code"] == "missing_key");
    const json unknown =
        json::parse(post(service, {{"fields", {{"/x" + std::string(5000, 'y'), "1"}}}}).body);
    // an unknown field's pointer is echoed cut too: 40 bytes and "..."
    CHECK(unknown["errors"][0]["pointer"].get<std::string>().size() == 43);
  }
  SUBCASE("random quote ids differ from one quote to the next") {
    const auto a = gpuplan::serve::random_quote_id(), b = gpuplan::serve::random_quote_id();
    REQUIRE(a);
    REQUIRE(b);
    CHECK(*a != *b);
    CHECK(a->size() == 32);
  }
  SUBCASE("a catalog overlay outside the data folder is refused with 403 and nothing of it read") {
    for (const char* name : {"/etc/passwd", "../secret.txt", "escape.json"}) {
      CAPTURE(name);
      const Reply r = post(service, {{"fields", training_fields()}, {"catalog_overlay", name}});
      CHECK(r.status == 403);
      CHECK(json::parse(r.body)["errors"][0]["pointer"] == "/catalog_overlay");
      CHECK(r.body.find("SECRET") == std::string::npos);
      CHECK(r.body.find("root:") == std::string::npos);
    }
  }
  SUBCASE("an overlay inside the data folder that is not an overlay answers 400 at its field") {
    std::ofstream(root / "data" / "bad.json") << "{\"hello\": 1}";
    const Reply r = post(service, {{"fields", training_fields()}, {"catalog_overlay", "bad.json"}});
    CHECK(r.status == 400);
    const json err = json::parse(r.body)["errors"][0];
    CHECK(err["pointer"] == "/catalog_overlay");
    // the message names the file as the request did, never the server's real path
    CHECK(err["message"].get<std::string>().rfind("bad.json", 0) == 0);
    CHECK(r.body.find(root.string()) == std::string::npos);
  }
  SUBCASE("a quote no longer kept, or an unknown file, answers 404") {
    CHECK(service.download("q999", "quote.json").status == 404);
    const json j = json::parse(post(service, {{"fields", training_fields()}}).body);
    CHECK(service.download(j["id"].get<std::string>(), "result.json").status == 404);
  }
  SUBCASE("the page and its scripts are served; other paths are not found") {
    CHECK(service.get("/").body.find("quote-form") != std::string::npos);
    CHECK(service.get("/serve.js").status == 200);
    CHECK(service.get("/common.js").status == 200);
    CHECK(service.get("/serve.css").status == 200);
    CHECK(service.get("/etc/passwd").status == 404);
  }
}
