//! `gpuplan serve`'s command line: refusals before listening exit 2 with the reason; a server on
//! a public address warns that it is reachable by others. Over loopback HTTP: only the user's own
//! browser on the server's own page may use it (Host, Origin, Content-Type), quote ids are random,
//! and every refusal says what was wrong, briefly, without the server's paths. (The handlers:
//! tests/reports/quote_service_test.cpp; the page: the browser test
//! tests/reports/serve_browser.py.)
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "tests/tools/cli.h"

using gpuplan_cli_test::CliRun;
using gpuplan_cli_test::fresh_dir;
using gpuplan_cli_test::gpuplan;
using gpuplan_cli_test::gpuplan_binary;
using nlohmann::json;

namespace {

//! A `gpuplan serve --port 0 ARGS` of this test's own on 127.0.0.1 (with the environment
//! variables `env`, "NAME=value ..."), stopped when it goes out of scope; `port` is 0 when it did
//! not print its address within 30 s.
class Served {
 public:
  explicit Served(const std::string& args = "", const std::string& env = "") {
    int fds[2];
    if (::pipe(fds) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(fds[1], 1);
      ::dup2(fds[1], 2);
      ::close(fds[0]);
      ::close(fds[1]);
      // NOTE: under `timeout`, so a test that dies before stopping it leaves no server behind.
      const std::string cmd = "exec " + (env.empty() ? "" : "env " + env + " ") + "timeout 300 " +
                              gpuplan_binary() + " serve --port 0 " + args;
      ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(fds[1]);
    out_ = fds[0];
    // The first line names the address: "gpuplan serve: quote page at http://127.0.0.1:PORT/ ...".
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    char c = 0;
    while (first_line.find('\n') == std::string::npos &&
           std::chrono::steady_clock::now() < deadline) {
      pollfd p{out_, POLLIN, 0};
      if (::poll(&p, 1, 1000) <= 0) continue;
      if (::read(out_, &c, 1) != 1) break;
      first_line += c;
    }
    const auto at = first_line.find("http://127.0.0.1:");
    if (at != std::string::npos) port = std::stoi(first_line.substr(at + 17));
  }
  Served(const Served&) = delete;
  Served& operator=(const Served&) = delete;
  ~Served() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      int status = 0;
      ::waitpid(pid_, &status, 0);
    }
    if (out_ >= 0) ::close(out_);
  }

  int port = 0;
  std::string first_line;

 private:
  pid_t pid_ = -1;
  int out_ = -1;
};

//! One HTTP answer as read off the socket.
struct HttpReply {
  int status = 0;    //!< 0 when nothing came back
  std::string head;  //!< status line and header fields
  std::string body;
};

//! A socket connected to 127.0.0.1:`port`, sends and receives timing out after 60 s; -1 when
//! the connection failed.
int connect_to(int port) {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  if (s < 0) return -1;
  timeval tv{60, 0};
  ::setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) return s;
  ::close(s);
  return -1;
}

//! Sends all of `bytes` on socket `s`; false when the connection failed first.
bool send_all(int s, const std::string& bytes) {
  for (size_t sent = 0; sent < bytes.size();) {
    const ssize_t n = ::send(s, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<size_t>(n);
  }
  return true;
}

//! The answer on socket `s`, read to the end of the connection (the server closes each one),
//! which it closes.
HttpReply read_reply(int s) {
  HttpReply r;
  std::string got;
  char buf[4096];
  for (ssize_t n; (n = ::recv(s, buf, sizeof buf, 0)) > 0;) got.append(buf, static_cast<size_t>(n));
  ::close(s);
  const size_t end = got.find("\r\n\r\n");
  if (got.rfind("HTTP/1.1 ", 0) != 0 || end == std::string::npos) return r;
  r.status = std::stoi(got.substr(9, 3));
  r.head = got.substr(0, end);
  r.body = got.substr(end + 4);
  return r;
}

//! Sends the raw `request` to 127.0.0.1:`port` and reads the answer to the end of the connection
//! (the server closes each one), within 60 s.
HttpReply http(int port, const std::string& request) {
  const int s = connect_to(port);
  if (s < 0) return {};
  send_all(s, request);
  return read_reply(s);
}

//! A request: `line` ("GET / HTTP/1.1"), then `fields` ("Name: value"), then `body` with its
//! Content-Length when it has one.
std::string request(const std::string& line, const std::vector<std::string>& fields,
                    const std::string& body = "") {
  std::string r = line + "\r\n";
  for (const std::string& f : fields) r += f + "\r\n";
  if (!body.empty()) r += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  return r + "\r\n" + body;
}

//! The message of the first error of a JSON error reply, "" when it has none.
std::string message_of(const HttpReply& r) {
  const json j = json::parse(r.body, nullptr, false);
  if (!j.is_object() || !j.contains("errors") || j["errors"].empty()) return "";
  return j["errors"][0].value("message", "");
}

//! A quote request as the page sends it (one instance type keeps it fast).
const std::string QUOTE_BODY =
    R"({"fields": {"/training/params": "7B", "/training/tokens": "200B", )"
    R"("/training/deadline": "30d", "/options/instances": "p5.48xlarge"}})";

}  // namespace

TEST_CASE("tools::serve") {
  SUBCASE("a --data-dir that is not a folder exits 2 naming it, before listening") {
    const CliRun r =
        gpuplan("serve --port 0 --data-dir " + fresh_dir("serve-none").string(), {}, 20);
    CHECK(r.status == 2);
    CHECK(r.output.find("is not a folder") != std::string::npos);
    CHECK(r.output.find("quote page at") == std::string::npos);
  }
  SUBCASE("a --budget or --read-timeout outside its range exits 2 naming it, before listening") {
    for (const std::string flag : {"--budget 0", "--read-timeout 1000"}) {
      CAPTURE(flag);
      const CliRun r = gpuplan("serve --port 0 " + flag, {}, 20);
      CHECK(r.status == 2);
      CHECK(r.output.find(flag) != std::string::npos);
      CHECK(r.output.find("quote page at") == std::string::npos);
    }
  }
  SUBCASE("a port outside 0-65535 exits 2") {
    const CliRun r = gpuplan("serve --port 70000", {}, 20);
    CHECK(r.status == 2);
    CHECK(r.output.find("--port 70000") != std::string::npos);
  }
  SUBCASE("serve is its own program beside gpuplan; without it, gpuplan says so and exits 1") {
    // only the server links the HTTP library (tools/gpuplan/main.cpp execs gpuplan-serve)
    const CliRun libs = gpuplan_cli_test::run_shell("ldd " + gpuplan_binary());
    CHECK(libs.output.find("libc.so") != std::string::npos);
    CHECK(libs.output.find("httplib") == std::string::npos);
    const std::filesystem::path alone = fresh_dir("serve-alone");
    std::filesystem::create_directories(alone);
    std::filesystem::copy_file(gpuplan_binary(), alone / "gpuplan");
    const CliRun r =
        gpuplan_cli_test::run_shell((alone / "gpuplan").string() + " serve --port 0 2>&1");
    CHECK(r.status == 1);
    CHECK(r.output.find("gpuplan serve: cannot start " + (alone / "gpuplan-serve").string()) !=
          std::string::npos);
    std::filesystem::remove_all(alone);
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

TEST_CASE("tools::serve::http") {
  Served server;
  REQUIRE_MESSAGE(server.port > 0, server.first_line);
  const std::string own = "127.0.0.1:" + std::to_string(server.port);
  const std::string host = "Host: " + own;
  const std::string json_type = "Content-Type: application/json";

  SUBCASE("a Host header naming another site, or none, is refused with 403 and the reason") {
    // A page on evil.example whose name was rebound to 127.0.0.1 sends its own name as Host.
    const HttpReply r =
        http(server.port,
             request("GET / HTTP/1.1", {"Host: evil.example:" + std::to_string(server.port)}));
    CHECK(r.status == 403);
    CHECK(message_of(r).find("the Host header \"evil.example:") != std::string::npos);
    CHECK(r.body.find("quote-form") == std::string::npos);
    CHECK(http(server.port, request("GET / HTTP/1.0", {})).status == 403);
    CHECK(http(server.port, request("GET / HTTP/1.1", {host, host})).status == 403);
  }
  SUBCASE("the bound address, localhost and the other loopback name are accepted as Host") {
    const std::string port = std::to_string(server.port);
    for (const std::string& h : {own, "localhost:" + port, "LOCALHOST:" + port, "[::1]:" + port}) {
      CAPTURE(h);
      const HttpReply r = http(server.port, request("GET / HTTP/1.1", {"Host: " + h}));
      CHECK(r.status == 200);
      CHECK(r.body.find("quote-form") != std::string::npos);
    }
  }
  SUBCASE(
      "a request from another origin is refused with 403; one from the server's own page is "
      "answered") {
    for (const std::string& origin :
         {std::string("http://evil.example"), std::string("null"), "https://" + own,
          "http://127.0.0.1:" + std::to_string(server.port + 1)}) {
      CAPTURE(origin);
      const HttpReply r = http(server.port, request("POST /api/quote HTTP/1.1",
                                                    {host, json_type, "Origin: " + origin}, "{}"));
      CHECK(r.status == 403);
      CHECK(message_of(r).find("only this server's own page") != std::string::npos);
    }
    const HttpReply same =
        http(server.port, request("POST /api/quote HTTP/1.1",
                                  {host, json_type, "Origin: http://" + own}, QUOTE_BODY));
    CHECK(same.status == 200);
    CHECK(json::parse(same.body).contains("quote"));
  }
  SUBCASE(
      "a POST body not declared application/json is refused with 415 (it would need no CORS "
      "preflight)") {
    for (const char* type :
         {"text/plain", "application/x-www-form-urlencoded", "application/jsonx"}) {
      CAPTURE(type);
      const HttpReply r =
          http(server.port, request("POST /api/quote HTTP/1.1",
                                    {host, std::string("Content-Type: ") + type}, QUOTE_BODY));
      CHECK(r.status == 415);
      CHECK(message_of(r).find("Content-Type: application/json") != std::string::npos);
    }
    CHECK(http(server.port, request("POST /api/quote HTTP/1.1", {host}, QUOTE_BODY)).status == 415);
    // a client that waits for "100 Continue" hears the refusal instead and sends no body
    const HttpReply asked = http(server.port, "POST /api/quote HTTP/1.1\r\n" + host +
                                                  "\r\nContent-Type: text/plain\r\nContent-Length: "
                                                  "100\r\nExpect: 100-continue\r\n\r\n");
    CHECK(asked.status == 415);
    // parameters are allowed: the request passes on to the quote (an empty one: nothing to quote)
    const HttpReply r =
        http(server.port,
             request("POST /api/quote HTTP/1.1",
                     {host, "Content-Type: Application/JSON; charset=utf-8"}, R"({"fields": {}})"));
    CHECK(r.status == 400);
    CHECK(message_of(r).find("nothing to quote") != std::string::npos);
  }
  SUBCASE("two quotes get different random 128-bit ids, and their downloads answer under them") {
    std::vector<std::string> ids;
    for (int i = 0; i < 2; ++i) {
      const HttpReply r =
          http(server.port, request("POST /api/quote HTTP/1.1", {host, json_type}, QUOTE_BODY));
      REQUIRE(r.status == 200);
      ids.push_back(json::parse(r.body)["id"].get<std::string>());
    }
    for (const std::string& id : ids) {
      CAPTURE(id);
      // 32 hex digits = 128 bits
      CHECK(id.size() == 32);
      CHECK(id.find_first_not_of("0123456789abcdef") == std::string::npos);
    }
    CHECK(ids[0] != ids[1]);
    // not a counter: the ids differ in their high half, and their low halves are not neighbours
    CHECK(ids[0].substr(0, 16) != ids[1].substr(0, 16));
    const uint64_t lo0 = std::stoull(ids[0].substr(16), nullptr, 16);
    const uint64_t lo1 = std::stoull(ids[1].substr(16), nullptr, 16);
    CHECK(lo1 - lo0 != 1);
    CHECK(http(server.port, request("GET /api/quote/" + ids[1] + "/quote.json HTTP/1.1", {host}))
              .status == 200);
  }
  SUBCASE("a URL over the limit is refused with 414 naming its length and the limit") {
    // "/" and 2,999 "a": 3,000 bytes
    const HttpReply r =
        http(server.port, request("GET /" + std::string(2999, 'a') + " HTTP/1.1", {host}));
    CHECK(r.status == 414);
    CHECK(message_of(r) == "URL too long (3000 bytes, limit 2048)");
    // past httplib's own request-line limit (8,192 bytes), its length is no longer known
    const HttpReply longer =
        http(server.port, request("GET /" + std::string(10000, 'a') + " HTTP/1.1", {host}));
    CHECK(longer.status == 414);
    CHECK(message_of(longer) == "URL too long (over 8177 bytes, limit 2048)");
  }
  SUBCASE("request headers over the limit are refused with 431 saying so") {
    const std::string big(7000, 'x');
    const HttpReply r =
        http(server.port,
             request("GET / HTTP/1.1", {host, "X-A: " + big, "X-B: " + big, "X-C: " + big}));
    CHECK(r.status == 431);
    CHECK(message_of(r).rfind("request headers too large (", 0) == 0);
    CHECK(message_of(r).find("limit 16384)") != std::string::npos);
    const HttpReply line =
        http(server.port, request("GET / HTTP/1.1", {host, "X-A: " + big + big}));
    CHECK(line.status == 431);
    CHECK(message_of(line) == "request headers too large (a header line over 8192 bytes)");
  }
  SUBCASE("an unknown path answers 404; a known path with another method 405 with its Allow list") {
    const HttpReply missing = http(server.port, request("GET /nothing.html HTTP/1.1", {host}));
    CHECK(missing.status == 404);
    CHECK(message_of(missing) == "no such page: \"/nothing.html\"");
    const HttpReply get = http(server.port, request("GET /api/quote HTTP/1.1", {host}));
    CHECK(get.status == 405);
    CHECK(get.head.find("\r\nAllow: POST") != std::string::npos);
    const HttpReply post = http(server.port, request("POST / HTTP/1.1", {host, json_type}, "{}"));
    CHECK(post.status == 405);
    CHECK(post.head.find("\r\nAllow: GET, HEAD") != std::string::npos);
    CHECK(message_of(post).find("the method \"POST\" is not allowed on \"/\"") !=
          std::string::npos);
    CHECK(http(server.port, request("OPTIONS /api/quote HTTP/1.1", {host})).status == 405);
  }
  SUBCASE(
      "a body that is not JSON answers 400 at its line and column, briefly; a long one 413 "
      "unread") {
    // an unterminated string just under the 64 KiB cap: the message quotes 40 bytes of it
    const HttpReply r = http(server.port, request("POST /api/quote HTTP/1.1", {host, json_type},
                                                  "{\n\"fields\": \"" + std::string(60000, 'a')));
    CHECK(r.status == 400);
    CHECK(r.body.size() < 1024);
    CHECK(message_of(r).rfind("the request body, line 2: invalid JSON at column ", 0) == 0);
    CHECK(message_of(r).find("missing closing quote") != std::string::npos);
    // 1 MiB announced: refused from its Content-Length, before a byte of it is sent
    const HttpReply big = http(server.port, "POST /api/quote HTTP/1.1\r\n" + host + "\r\n" +
                                                json_type + "\r\nContent-Length: 1048576\r\n\r\n");
    CHECK(big.status == 413);
    CHECK(message_of(big) == "request body too long (1048576 bytes, limit 65536)");
    const HttpReply chunked =
        http(server.port, "POST /api/quote HTTP/1.1\r\n" + host + "\r\n" + json_type +
                              "\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n");
    CHECK(chunked.status == 411);
    const HttpReply fields = http(
        server.port, request("POST /api/quote HTTP/1.1", {host, json_type}, R"({"field": {}})"));
    CHECK(fields.status == 400);
    CHECK(message_of(fields).find("has no \"fields\" object") != std::string::npos);
  }
}

TEST_CASE("tools::serve::overlay_messages") {
  const auto dir = fresh_dir("serve-overlay");
  std::filesystem::create_directories(dir);
  // 1 MB that opens a string and never closes it; a file over the 16 MiB cap (sparse)
  std::ofstream(dir / "open.json") << '"' << std::string(1 << 20, 'a');
  {
    std::ofstream(dir / "huge.json") << "{}";
    std::filesystem::resize_file(dir / "huge.json", 17u << 20);
  }
  Served server("--data-dir " + dir.string());
  REQUIRE_MESSAGE(server.port > 0, server.first_line);
  const std::string host = "Host: 127.0.0.1:" + std::to_string(server.port);
  const std::string real = std::filesystem::canonical(dir).string();

  SUBCASE(
      "an overlay that opens an unterminated string answers 400, briefly, by the name it was "
      "given") {
    const std::string body =
        R"({"fields": {"/training/params": "7B"}, "catalog_overlay": "open.json"})";
    const HttpReply r = http(server.port, request("POST /api/quote HTTP/1.1",
                                                  {host, "Content-Type: application/json"}, body));
    CHECK(r.status == 400);
    CHECK(r.body.size() < 1024);
    CHECK(r.body.find(real) == std::string::npos);
    CHECK(r.body.find("open.json:1: invalid JSON") != std::string::npos);
  }
  SUBCASE(
      "an overlay over the size cap is refused by the name it was given, not the server's path") {
    const std::string body =
        R"({"fields": {"/training/params": "7B"}, "catalog_overlay": "huge.json"})";
    const HttpReply r = http(server.port, request("POST /api/quote HTTP/1.1",
                                                  {host, "Content-Type: application/json"}, body));
    CHECK(r.status == 400);
    CHECK(r.body.find(real) == std::string::npos);
    CHECK(message_of(r).find("cannot read the catalog overlay \"huge.json\": it is ") !=
          std::string::npos);
  }
}

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

//! The budget-only training quote of issue 38 over the whole catalog (about 1 s of CPU).
const std::string BUDGET_ONLY_BODY =
    R"({"fields": {"/training/params": "70B", "/training/tokens": "2T", )"
    R"("/training/budget": "$5M"}})";

//! A stand-in for Chromium in `dir` (given to serve as CHROMIUM): it appends its process id and
//! its sleep's to dir/pids, sleeps `seconds`, then writes a small PDF where --print-to-pdf= says.
std::string fake_chromium(const std::filesystem::path& dir, double seconds) {
  std::filesystem::create_directories(dir);
  const std::string pids = (dir / "pids").string();
  const std::filesystem::path exe = dir / "chromium";
  std::ofstream(exe) << "#!/bin/sh\n"
                     << "for a in \"$@\"; do case \"$a\" in --print-to-pdf=*) "
                        "out=\"${a#--print-to-pdf=}\";; esac; done\n"
                     << "echo $$ >> '" << pids << "'\n"
                     << "sleep " << seconds << " &\n"
                     << "echo $! >> '" << pids << "'\n"
                     << "wait\n"
                     << "printf '%%PDF-1.4 fake\\n' > \"$out\"\n";
  std::filesystem::permissions(exe, std::filesystem::perms::owner_all);
  return exe.string();
}

//! The process ids fake_chromium wrote to dir/pids (two per print: the script, its sleep).
std::vector<pid_t> fake_pids(const std::filesystem::path& dir) {
  std::vector<pid_t> out;
  std::ifstream f(dir / "pids");
  for (pid_t p; f >> p;) out.push_back(p);
  return out;
}

//! The Host field that names `s`'s own address and port.
std::string host_of(const Served& s) {
  return "Host: 127.0.0.1:" + std::to_string(s.port);
}

//! Asks `server` for quote `id`'s PDF on a connection of its own and waits (up to 2.5 s) until
//! fake_chromium in `dir` has written `pids` process ids; returns the open connection.
int start_print(const Served& server, const std::string& id, const std::filesystem::path& dir,
                size_t pids) {
  const int printing = connect_to(server.port);
  REQUIRE(send_all(printing,
                   request("GET /api/quote/" + id + "/quote.pdf HTTP/1.1", {host_of(server)})));
  for (int tries = 0; tries < 50 && fake_pids(dir).size() < pids; ++tries)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return printing;
}

//! A well-formed quote request to `server`: its own Host, JSON content type, QUOTE_BODY.
HttpReply post_quote(const Served& server) {
  return http(server.port,
              request("POST /api/quote HTTP/1.1",
                      {host_of(server), "Content-Type: application/json"}, QUOTE_BODY));
}

//! True when process `pid` runs (a zombie, ended and not yet reaped, does not).
bool running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const size_t close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}

}  // namespace

TEST_CASE("tools::serve::limits") {
  const std::string json_type = "Content-Type: application/json";
  const auto quote_id = [&](const Served& s) {
    const HttpReply r = post_quote(s);
    REQUIRE(r.status == 200);
    return json::parse(r.body)["id"].get<std::string>();
  };

  SUBCASE("20 connections trickling their headers do not delay a quote") {
    Served server;
    REQUIRE_MESSAGE(server.port > 0, server.first_line);
    const std::string host = host_of(server);
    std::vector<int> slow;
    for (int k = 0; k < 20; ++k) {
      const int s = connect_to(server.port);
      REQUIRE(s >= 0);
      REQUIRE(send_all(s, "POST /api/quote HTTP/1.1\r\n" + host + "\r\nX-Trickle: "));
      slow.push_back(s);
    }
    // A byte per connection every 200 ms while the quote is asked, for at most 8 s: a server
    // that gave each connection a thread and waited for it byte by byte (httplib's own model,
    // 8 threads) would answer the quote only once the trickling stopped.
    std::atomic<bool> answered{false};
    std::thread trickle([&] {
      const auto t0 = Clock::now();
      while (!answered.load() && seconds_since(t0) < 8) {
        for (const int s : slow) send_all(s, "a");
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
      }
    });
    const auto t0 = Clock::now();
    const HttpReply r = post_quote(server);
    const double waited = seconds_since(t0);
    answered.store(true);
    trickle.join();
    for (const int s : slow) ::close(s);
    CHECK(r.status == 200);
    // the quote alone takes well under 1 s; 5 s leaves room for a loaded 2-core machine
    CHECK(waited < 5);
  }
  SUBCASE("a request still trickling at --read-timeout is answered 408, timed from its connect") {
    Served server("--read-timeout 1");
    REQUIRE_MESSAGE(server.port > 0, server.first_line);
    const int silent = connect_to(server.port);
    const int s = connect_to(server.port);
    REQUIRE(silent >= 0);
    REQUIRE(s >= 0);
    const auto t0 = Clock::now();
    REQUIRE(send_all(s, "GET / HTTP/1.1\r\n" + host_of(server) + "\r\nX-Trickle: "));
    // a byte every 100 ms until the answer comes (or 10 s): each byte would restart a per-read
    // timeout, never this deadline
    for (pollfd p{s, POLLIN, 0}; ::poll(&p, 1, 100) == 0 && seconds_since(t0) < 10;)
      send_all(s, "a");
    const double waited = seconds_since(t0);
    const HttpReply r = read_reply(s);
    CHECK(r.status == 408);
    CHECK(message_of(r).find("did not arrive whole within 1 s of connecting") != std::string::npos);
    // the 1 s deadline, plus the reader's wake-up and a loaded machine's delays
    CHECK(waited < 3);
    // a connection that never sent a byte is closed without an answer, at the same deadline
    const HttpReply quiet = read_reply(silent);
    CHECK(quiet.status == 0);
    CHECK(seconds_since(t0) < 3);
  }
  SUBCASE("past --max-connections a connection is answered 503 with Retry-After at once") {
    Served server("--max-connections 3");
    REQUIRE_MESSAGE(server.port > 0, server.first_line);
    const std::string get = request("GET / HTTP/1.1", {host_of(server)});
    std::vector<int> idle;
    for (int k = 0; k < 3; ++k) {
      idle.push_back(connect_to(server.port));
      REQUIRE(send_all(idle.back(), "GET / HTTP/1.1\r\n"));
    }
    const HttpReply r = http(server.port, get);
    CHECK(r.status == 503);
    CHECK(r.head.find("\r\nRetry-After: 5") != std::string::npos);
    CHECK(message_of(r).find("3 connections open (its limit, --max-connections 3)") !=
          std::string::npos);
    // once they close, the server answers again (it notices each close within milliseconds)
    for (const int s : idle) ::close(s);
    int status = 0;
    for (int tries = 0; tries < 50 && status != 200; ++tries) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      status = http(server.port, get).status;
    }
    CHECK(status == 200);
  }
  SUBCASE("12 keep-alive clients, each holding two spare idle connections, are all answered") {
    Served server;
    REQUIRE_MESSAGE(server.port > 0, server.first_line);
    const std::string host = host_of(server);
    // NOTE: a browser keeps spare connections open. httplib's own model held a thread (of 8)
    // per idle connection for its 5 s keep-alive wait: 24 of them made requests wait 10-15 s.
    constexpr int CLIENTS = 12;
    std::vector<int> spare;
    for (int k = 0; k < 2 * CLIENTS; ++k) {
      spare.push_back(connect_to(server.port));
      REQUIRE(spare.back() >= 0);
    }
    std::vector<HttpReply> replies(3 * CLIENTS);
    std::vector<double> waits(3 * CLIENTS);
    std::vector<std::thread> clients;
    for (int k = 0; k < CLIENTS; ++k)
      clients.emplace_back([&, k] {
        for (int round = 0; round < 3; ++round) {
          const auto t0 = Clock::now();
          replies[3 * k + round] =
              http(server.port, request("GET / HTTP/1.1", {host, "Connection: keep-alive"}));
          waits[3 * k + round] = seconds_since(t0);
        }
      });
    for (std::thread& t : clients) t.join();
    for (const int s : spare) ::close(s);
    for (size_t i = 0; i < replies.size(); ++i) {
      CAPTURE(i);
      CHECK(replies[i].status == 200);
      // one request per connection, said and done: the server closed it after the reply
      CHECK(replies[i].head.find("\r\nConnection: close") != std::string::npos);
      // a page is answered in milliseconds; 5 s leaves room for a loaded machine
      CHECK(waits[i] < 5);
    }
  }
  SUBCASE("with the worker busy and no queue, a quote is answered 503 with Retry-After at once") {
    const auto dir = fresh_dir("serve-busy");
    Served server("--workers 1 --queue 0", "CHROMIUM=" + fake_chromium(dir, 5));
    REQUIRE_MESSAGE(server.port > 0, server.first_line);
    const std::string id = quote_id(server);
    // the one worker prints a PDF (5 s) while the quote is asked
    const int printing = start_print(server, id, dir, 1);
    REQUIRE(!fake_pids(dir).empty());
    const auto t0 = Clock::now();
    const HttpReply r = post_quote(server);
    const double waited = seconds_since(t0);
    CHECK(r.status == 503);
    CHECK(r.head.find("\r\nRetry-After: 5") != std::string::npos);
    CHECK(message_of(r).find("the server is busy") != std::string::npos);
    // at once: not after the print's 5 s
    CHECK(waited < 2);
    ::close(printing);
  }
  SUBCASE("a PDF whose client has gone is stopped, its Chromium killed and its worker freed") {
    const auto dir = fresh_dir("serve-gone");
    Served server("--workers 1 --queue 0", "CHROMIUM=" + fake_chromium(dir, 5));
    REQUIRE_MESSAGE(server.port > 0, server.first_line);
    const std::string id = quote_id(server);
    const int printing = start_print(server, id, dir, 2);
    REQUIRE(fake_pids(dir).size() == 2);
    ::close(printing);
    // the server notices within 50 ms and kills the print's process group within 50 ms more
    bool stopped = false;
    for (int tries = 0; tries < 40 && !stopped; ++tries) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      stopped = !running(fake_pids(dir)[0]) && !running(fake_pids(dir)[1]);
    }
    CHECK(stopped);
    // the worker is free (once the print's temporary files are removed, milliseconds later): a
    // quote is answered within 1 s, where an unstopped print would hold it 5 s (503 meanwhile)
    int status = 0;
    for (int tries = 0; tries < 20 && status != 200; ++tries) {
      status = post_quote(server).status;
      if (status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    CHECK(status == 200);
  }
  SUBCASE("a PDF print over --budget is killed and answered 504 with the reason") {
    const auto dir = fresh_dir("serve-pdf-budget");
    Served server("--budget 1", "CHROMIUM=" + fake_chromium(dir, 5));
    REQUIRE_MESSAGE(server.port > 0, server.first_line);
    const std::string id = quote_id(server);
    const auto t0 = Clock::now();
    const HttpReply r = http(
        server.port, request("GET /api/quote/" + id + "/quote.pdf HTTP/1.1", {host_of(server)}));
    const double waited = seconds_since(t0);
    CHECK(r.status == 504);
    CHECK(message_of(r).find("printing the PDF took longer than its budget of 1 s") !=
          std::string::npos);
    // the 1 s budget and the 50 ms checks, not the print's 5 s
    CHECK(waited < 4);
    // NOTE: the server reaps the group's leader before it answers; the kill reaches the rest of
    // the group (the print's `sleep`) at once, but it ends a moment later, under load after the
    // reply: so the check waits for it, well inside the print's 5 s.
    bool stopped = false;
    for (int tries = 0; tries < 40 && !stopped; ++tries) {
      stopped = true;
      for (const pid_t p : fake_pids(dir)) stopped = stopped && !running(p);
      if (!stopped) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    CHECK(stopped);
  }
  SUBCASE("a quote over --budget is stopped and answered 504 with the reason") {
    Served server("--budget 0.05");
    REQUIRE_MESSAGE(server.port > 0, server.first_line);
    // the budget-only quote takes about 1 s of CPU, twenty times the budget
    const HttpReply r = http(server.port, request("POST /api/quote HTTP/1.1",
                                                  {host_of(server), json_type}, BUDGET_ONLY_BODY));
    CHECK(r.status == 504);
    CHECK(message_of(r).find("the quote took longer than its budget of 0.05 s and was stopped") !=
          std::string::npos);
  }
  SUBCASE("two PDFs print at once, a third is answered 503 after a short wait; prints are kept") {
    const auto dir = fresh_dir("serve-pdf-limit");
    Served server("--workers 3", "CHROMIUM=" + fake_chromium(dir, 1.5));
    REQUIRE_MESSAGE(server.port > 0, server.first_line);
    std::vector<std::string> ids;
    for (int k = 0; k < 3; ++k) ids.push_back(quote_id(server));
    std::vector<HttpReply> pdfs(3);
    std::vector<std::thread> clients;
    for (int k = 0; k < 3; ++k)
      clients.emplace_back([&, k] {
        pdfs[k] = http(server.port, request("GET /api/quote/" + ids[k] + "/quote.pdf HTTP/1.1",
                                            {host_of(server)}));
      });
    for (std::thread& t : clients) t.join();
    int printed = 0, busy = 0;
    for (const HttpReply& r : pdfs) {
      printed += r.status == 200 && r.body.rfind("%PDF", 0) == 0;
      busy += r.status == 503 && r.head.find("\r\nRetry-After: 5") != std::string::npos &&
              message_of(r).find("2 PDFs are being printed") != std::string::npos;
    }
    CHECK(printed == 2);
    CHECK(busy == 1);
    // two prints, two processes each
    CHECK(fake_pids(dir).size() == 4);
    // a printed PDF is served again from memory: no third print, and faster than one (1.5 s)
    for (size_t k = 0; k < 3; ++k) {
      if (pdfs[k].status != 200) continue;
      const auto t0 = Clock::now();
      const HttpReply again =
          http(server.port,
               request("GET /api/quote/" + ids[k] + "/quote.pdf HTTP/1.1", {host_of(server)}));
      CHECK(again.status == 200);
      CHECK(again.body == pdfs[k].body);
      CHECK(seconds_since(t0) < 1);
    }
    CHECK(fake_pids(dir).size() == 4);
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
