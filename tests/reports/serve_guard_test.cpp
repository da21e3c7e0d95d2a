//! `gpuplan serve`'s checks before a request is read (reports/serve_guard.h), without a socket;
//! the same checks over loopback HTTP: tests/tools/serve_test.cpp.
#include "reports/serve_guard.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using gpuplan::serve::accepted_hosts;
using gpuplan::serve::guard_request;
using gpuplan::serve::RequestHead;

namespace {

//! A GET of `path` from the page at 127.0.0.1:8470.
RequestHead get(std::string_view path) {
  RequestHead h;
  h.method = "GET";
  h.target = path;
  h.path = path;
  h.hosts = {"127.0.0.1:8470"};
  return h;
}

}  // namespace

TEST_CASE("serve::accepted_hosts") {
  using V = std::vector<std::string>;
  SUBCASE("loopback accepts its address, localhost and both loopback names") {
    CHECK(accepted_hosts("127.0.0.1", 8470) == V{"127.0.0.1:8470", "localhost:8470", "[::1]:8470"});
    CHECK(accepted_hosts("::1", 8470) == V{"[::1]:8470", "localhost:8470", "127.0.0.1:8470"});
  }
  SUBCASE("another address accepts itself and localhost only; port 80 also without the port") {
    CHECK(accepted_hosts("192.0.2.1", 80) ==
          V{"192.0.2.1:80", "localhost:80", "192.0.2.1", "localhost"});
  }
}

TEST_CASE("serve::guard_request") {
  const auto hosts = accepted_hosts("127.0.0.1", 8470);
  SUBCASE("the page from its own address passes") {
    CHECK_FALSE(guard_request(get("/"), hosts).has_value());
  }
  SUBCASE("a Host header of another name is refused, its value cut to 40 bytes") {
    RequestHead h = get("/");
    const std::string name = std::string(5000, 'e') + ".example:8470";
    h.hosts = {name};
    const auto r = guard_request(h, hosts);
    REQUIRE(r);
    CHECK(r->status == 403);
    CHECK(r->body.size() < 1024);
  }
  SUBCASE("a method the path does not allow is 405 even when it is a prefix of an allowed one") {
    RequestHead h = get("/");
    h.method = "GE";
    const auto r = guard_request(h, hosts);
    REQUIRE(r);
    CHECK(r->status == 405);
    CHECK(r->allow == "GET, HEAD");
  }
  SUBCASE("only ids of 32 hex digits are download paths") {
    CHECK_FALSE(
        guard_request(get("/api/quote/" + std::string(32, 'a') + "/quote.pdf"), hosts).has_value());
    const auto old = guard_request(get("/api/quote/q1/quote.pdf"), hosts);
    REQUIRE(old);
    CHECK(old->status == 404);
  }
}
