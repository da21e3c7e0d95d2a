//! `gpuplan serve`'s command line: refusals before listening exit 2 with the reason; a server on
//! a public address warns that it is reachable by others. (The page itself: tests/reports/
//! quote_service_test.cpp and the browser test tests/reports/serve_browser.py.)
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/tools/cli.h"

using gpuplan_cli_test::CliRun;
using gpuplan_cli_test::fresh_dir;
using gpuplan_cli_test::gpuplan;

TEST_CASE("tools::serve") {
  SUBCASE("a --data-dir that is not a folder exits 2 naming it, before listening") {
    const CliRun r =
        gpuplan("serve --port 0 --data-dir " + fresh_dir("serve-none").string(), {}, 20);
    CHECK(r.status == 2);
    CHECK(r.output.find("is not a folder") != std::string::npos);
    CHECK(r.output.find("quote page at") == std::string::npos);
  }
  SUBCASE("a port outside 0-65535 exits 2") {
    const CliRun r = gpuplan("serve --port 70000", {}, 20);
    CHECK(r.status == 2);
    CHECK(r.output.find("--port 70000") != std::string::npos);
  }
  SUBCASE("a port another server listens on exits 2, even when that server allows port sharing") {
    // The other server sets SO_REUSEPORT, as httplib's default does: a serve that set it too
    // would bind beside it and split the connections (it would run until the timeout here).
    const int other = socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(other >= 0);
    int yes = 1;
    setsockopt(other, SOL_SOCKET, SO_REUSEPORT, &yes, sizeof yes);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(bind(other, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    REQUIRE(listen(other, 4) == 0);
    socklen_t len = sizeof a;
    REQUIRE(getsockname(other, reinterpret_cast<sockaddr*>(&a), &len) == 0);
    const std::string port = std::to_string(ntohs(a.sin_port));
    const CliRun r = gpuplan("serve --port " + port, {}, 20);
    close(other);
    CHECK(r.status == 2);
    CHECK(r.output.find("cannot listen on 127.0.0.1:" + port) != std::string::npos);
    CHECK(r.output.find("quote page at") == std::string::npos);
  }
  SUBCASE("an address that is not loopback is warned about; one not on this machine exits 2") {
    // 192.0.2.1 (TEST-NET-1, RFC 5737) is never an address of this machine, so the bind fails
    // after the warning and the command exits instead of serving.
    const CliRun r = gpuplan("serve --host 192.0.2.1 --port 8470", {}, 20);
    CHECK(r.status == 2);
    CHECK(r.output.find("not on loopback") != std::string::npos);
    CHECK(r.output.find("cannot listen on 192.0.2.1:8470") != std::string::npos);
  }
}

TEST_CASE("tools::json_parse_errors") {
  const auto dir = fresh_dir("parse-open-string");
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "open.json") << '"' << std::string(1 << 20, 'a');
  SUBCASE("validate and quote --request quote 40 bytes of a 1 MB unterminated string and exit 2") {
    for (const std::string cmd : {"validate open.json", "quote --request open.json"}) {
      CAPTURE(cmd);
      const CliRun r = gpuplan(cmd, dir, 60);
      CHECK(r.status == 2);
      CHECK(r.output.size() < 1024);
      CHECK(r.output.find("open.json:1: invalid JSON at column ") != std::string::npos);
      // the quoted text: the opening quote and 39 "a", then "..."
      CHECK(r.output.find("last read: '\"" + std::string(39, 'a') + "...'") != std::string::npos);
    }
  }
}
