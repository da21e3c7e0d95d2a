//! `gpuplan serve`: the quote page on a local HTTP server (cpp-httplib, its connections read by
//! tools/gpuplan_serve/serve_connections.h). The routes map onto reports/quote_service.h's
//! handlers, the costly ones through reports/serve_pool.h's compute pool; nothing here computes a
//! quote.
#include <httplib.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <iostream>
#include <memory>
#include <new>
#include <string>
#include <thread>

#include "reports/quote_service.h"
#include "reports/serve_guard.h"
#include "reports/serve_pool.h"
#include "tools/gpuplan/commands.h"
#include "tools/gpuplan_serve/serve_connections.h"

namespace gpuplan::cli {
namespace {

namespace fs = std::filesystem;

//! Default compute workers: the cores, 2 to 8 (a quote runs on one thread).
unsigned default_workers() {
  return std::clamp(std::thread::hardware_concurrency(), 2u, 8u);
}

struct ServeFlags {
  std::string host = "127.0.0.1";
  int port = 8470;
  std::string data_dir;  //!< "" = requests may name no file
  bool internal = false;
  double budget_s = 20;  //!< [s] wall (so also CPU) per quote or PDF print
  unsigned workers = default_workers();
  unsigned queue = 0;  //!< set to twice the workers unless given
  unsigned max_connections = 512;
  double read_timeout_s = 10;
};

//! Writes `r` into the httplib response, with the page's security headers on every reply.
void send(const serve::Reply& r, httplib::Response& res) {
  res.status = r.status;
  for (const auto& [name, value] : serve::reply_headers(r)) res.set_header(name, value);
  res.set_content(r.body, r.content_type);
}

// NOTE: the guard's limit lies below httplib's, so a URL refused is mostly refused with its length.
static_assert(serve::MAX_URL_BYTES < CPPHTTPLIB_REQUEST_URI_MAX_LENGTH - 15);

//! Header fields httplib adds to a request itself (the peer's and its own address).
bool added_by_httplib(const std::string& name) {
  return name == "REMOTE_ADDR" || name == "REMOTE_PORT" || name == "LOCAL_ADDR" ||
         name == "LOCAL_PORT";
}

//! What the guard reads of `req`; views into it.
serve::RequestHead request_head(const httplib::Request& req) {
  serve::RequestHead h;
  h.method = req.method;
  h.target = req.target;
  h.path = req.path;
  for (const auto& [name, value] : req.headers)
    if (!added_by_httplib(name)) h.header_bytes += name.size() + value.size() + 4;  // ": ", CRLF
  // NOTE: httplib's header map compares names without case, and keeps each field sent.
  const auto all = [&req](const char* name, std::vector<std::string_view>& out) {
    const auto [first, last] = req.headers.equal_range(name);
    for (auto it = first; it != last; ++it) out.push_back(it->second);
  };
  all("Host", h.hosts);
  all("Origin", h.origins);
  all("Content-Type", h.content_types);
  all("Content-Length", h.content_lengths);
  all("Transfer-Encoding", h.transfer_encodings);
  return h;
}

//! The reply to a request httplib refused itself (`res.status`, no body yet): says what was
//! wrong, as the guard's replies do. httplib (Debian's build, its limits compiled in) refuses a
//! request line over CPPHTTPLIB_REQUEST_URI_MAX_LENGTH with 414 and a header line over
//! CPPHTTPLIB_HEADER_MAX_LENGTH with 400, before any handler runs and with nothing of the
//! request kept; a body over the payload cap with 413.
serve::Reply httplib_refusal(const httplib::Request& req, int status) {
  if (status == 414)
    // NOTE: the request line holds at least "GET ", " HTTP/1.1" and CRLF (15 bytes) besides
    // the URL.
    return serve::error_reply(414, "", "limit_exceeded",
                              "URL too long (over " +
                                  std::to_string(CPPHTTPLIB_REQUEST_URI_MAX_LENGTH - 15) +
                                  " bytes, limit " + std::to_string(serve::MAX_URL_BYTES) + ")");
  if (status == 413) {
    const std::string length = req.get_header_value("Content-Length");
    return serve::error_reply(
        413, "", "limit_exceeded",
        "request body too long (" +
            (length.empty() ? "over " + std::to_string(serve::MAX_REQUEST_BYTES) : length) +
            " bytes, limit " + std::to_string(serve::MAX_REQUEST_BYTES) + ")");
  }
  if (status == 400 && !req.has_header("REMOTE_ADDR")) {
    // httplib adds REMOTE_ADDR once the header fields are read: without it, the request line or
    // a header line was refused. A request line it read has its method, path and version.
    const bool line_read =
        !req.path.empty() && (req.version == "HTTP/1.1" || req.version == "HTTP/1.0");
    if (line_read)
      return serve::error_reply(431, "", "limit_exceeded",
                                "request headers too large (a header line over " +
                                    std::to_string(CPPHTTPLIB_HEADER_MAX_LENGTH) + " bytes)");
    return serve::error_reply(400, "", "parse_error",
                              "malformed request line (expected METHOD /path HTTP/1.1)");
  }
  if (status == 400)
    return serve::error_reply(400, "", "parse_error",
                              "the request body could not be read (it ended early, or its chunked "
                              "encoding is malformed)");
  if (status == 404) return serve::error_reply(404, "", "not_found", "no such page");
  return serve::error_reply(status, "", "internal",
                            "the request was refused (HTTP " + std::to_string(status) + ")");
}

serve::Reply failure_reply(std::exception_ptr ep) {
  try {
    if (ep) std::rethrow_exception(ep);
  } catch (const std::bad_alloc&) {
    return serve::error_reply(503, "", "limit_exceeded", "the server ran out of memory");
  } catch (...) {
  }
  return serve::error_reply(500, "", "internal", "internal error");
}

int run_serve(const ServeFlags& f) {
  if (f.port < 0 || f.port > 65535) {
    std::cerr << "gpuplan serve: --port " << f.port << " is not a port (0-65535)\n";
    return 2;
  }
  // NOTE: CLI11's range checks name the flag too; these state the unit and the reason.
  if (!(f.budget_s >= 0.01 && f.budget_s <= 3600)) {
    std::cerr << "gpuplan serve: --budget " << f.budget_s
              << " is not a time budget per request (0.01-3600 s)\n";
    return 2;
  }
  if (!(f.read_timeout_s >= 0.1 && f.read_timeout_s <= 600)) {
    std::cerr << "gpuplan serve: --read-timeout " << f.read_timeout_s
              << " is not a time to send a request in (0.1-600 s)\n";
    return 2;
  }
  serve::ServeSettings settings;
  settings.internal = f.internal;
  settings.version = GPUPLAN_VERSION;
  if (!f.data_dir.empty()) {
    std::error_code ec;
    if (!fs::is_directory(f.data_dir, ec)) {
      std::cerr << "gpuplan serve: --data-dir " << f.data_dir << " is not a folder\n";
      return 2;
    }
    settings.data_dir = fs::canonical(f.data_dir, ec);
  }
  if (!serve::is_loopback(f.host))
    std::cerr << "gpuplan serve: warning: listening on " << f.host
              << ", not on loopback: anyone who can reach this address can make quotes and read "
                 "the files of --data-dir; there is no authentication or TLS\n";

  auto service = std::make_shared<serve::QuoteService>(settings);
  auto pool = std::make_shared<serve::ComputePool>(f.workers, f.queue, f.budget_s);
  ConnectionLimits limits;
  limits.max_connections = f.max_connections;
  limits.read_timeout_s = f.read_timeout_s;
  // NOTE: a handler thread waits beside each running or queued computation; the rest answer the
  // page, its downloads and refusals meanwhile.
  limits.handlers = f.workers + f.queue + 8;
  ServeServer server(limits);
  // NOTE: a request body over the cap is refused (413) before any of it is parsed.
  server.set_payload_max_length(serve::MAX_REQUEST_BYTES);
  server.set_exception_handler([](const httplib::Request&, httplib::Response& res,
                                  std::exception_ptr ep) { send(failure_reply(ep), res); });
  // The accepted Host names hold the port, known only once bound (--port 0): set below.
  auto hosts = std::make_shared<std::vector<std::string>>();
  server.set_pre_routing_handler([hosts](const httplib::Request& req, httplib::Response& res) {
    if (auto refusal = serve::guard_request(request_head(req), *hosts)) {
      send(*refusal, res);
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  // NOTE: a client that asks before sending its body (Expect: 100-continue) hears the refusal
  // instead of "100 Continue", so it never sends a body that would be refused unread.
  server.set_expect_100_continue_handler(
      [hosts](const httplib::Request& req, httplib::Response& res) {
        if (auto refusal = serve::guard_request(request_head(req), *hosts)) {
          send(*refusal, res);
          return refusal->status;
        }
        return 100;
      });
  const std::string id_digits = std::to_string(2 * serve::QUOTE_ID_BYTES);
  // NOTE: the work of a job owns copies of what it reads (the body, the id): a job whose client
  // has gone may run on until its next budget check, after the request is freed.
  server.Get("/api/quote/([0-9a-f]{" + id_digits + R"(})/(quote\.(json|html|pdf)))",
             [service, pool](const httplib::Request& req, httplib::Response& res) {
               const std::string id = req.matches[1].str(), file = req.matches[2].str();
               if (!service->download_prints(id, file)) {
                 send(service->download(id, file), res);
                 return;
               }
               send(pool->run(
                        [service, id, file](const quote::ComputeBudget& budget) {
                          return service->download(id, file, &budget);
                        },
                        ServeServer::client_gone),
                    res);
             });
  server.Post("/api/quote", [service, pool](const httplib::Request& req, httplib::Response& res) {
    send(
        pool->run([service, body = req.body](
                      const quote::ComputeBudget& budget) { return service->quote(body, &budget); },
                  ServeServer::client_gone),
        res);
  });
  server.Get(R"(/[a-z.]*)", [service](const httplib::Request& req, httplib::Response& res) {
    send(service->get(req.path), res);
  });
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    // NOTE: called for every status >= 400; the handlers' own replies already have a body.
    if (res.body.empty()) send(httplib_refusal(req, res.status), res);
  });

  // httplib's default sets SO_REUSEPORT, which lets a second server bind a port already served
  // (the kernel then splits the connections between the two). SO_REUSEADDR alone still lets a
  // restart bind over connections in TIME_WAIT, but a port in use is refused.
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  const int port = server.bind_port(f.host, f.port);
  if (port != 0) *hosts = serve::accepted_hosts(f.host, port);
  if (port == 0) {
    std::cerr << "gpuplan serve: cannot listen on " << f.host << ":" << f.port
              << " (in use, or not an address of this machine); choose another --port\n";
    return 2;
  }
  const std::string shown_host =
      f.host.find(':') != std::string::npos ? "[" + f.host + "]" : f.host;
  std::cout << "gpuplan serve: quote page at http://" << shown_host << ":" << port
            << "/ (Ctrl-C stops)" << std::endl;
  return server.listen_after_bind() ? 0 : 1;
}

}  // namespace

CLI::App* add_serve_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("serve", SERVE_SUMMARY);
  auto f = std::make_shared<ServeFlags>();
  cmd->add_option("--port", f->port, "TCP port (0 = any free port, printed on start)")
      ->capture_default_str();
  cmd->add_option("--host", f->host,
                  "Address to listen on; anything but loopback is reachable by others (a warning "
                  "says so)")
      ->capture_default_str();
  cmd->add_option("--data-dir", f->data_dir,
                  "The one folder whose files (catalog overlays) a request may name; without it "
                  "a request may name none")
      ->type_name("DIR");
  cmd->add_flag("--internal", f->internal,
                "Quotes carry the internal appendix (price sources, confidence tags)");
  cmd->add_option("--budget", f->budget_s,
                  "Seconds each quote or PDF print may compute (wall clock, so CPU too); past "
                  "it the request is stopped and answered 504")
      ->capture_default_str()
      ->type_name("SECONDS");
  cmd->add_option("--workers", f->workers,
                  "Threads that compute quotes and print PDFs (default: the cores, 2 to 8)")
      ->check(CLI::Range(1u, 64u));
  auto* queue =
      cmd->add_option("--queue", f->queue,
                      "Requests that may wait for a worker; beyond them a request is answered 503 "
                      "with Retry-After at once (default: twice the workers)")
          ->check(CLI::Range(0u, 256u));
  cmd->add_option("--max-connections", f->max_connections,
                  "Connections open at once; the next is answered 503 with Retry-After")
      ->capture_default_str()
      ->check(CLI::Range(1u, 900u));
  cmd->add_option("--read-timeout", f->read_timeout_s,
                  "Seconds from connecting to the request's last byte (line, headers and body "
                  "together); a slower request is answered 408")
      ->capture_default_str()
      ->type_name("SECONDS");
  cmd->callback([f, queue, &exit_code] {
    if (queue->count() == 0) f->queue = 2 * f->workers;
    exit_code = run_serve(*f);
  });
  return cmd;
}

}  // namespace gpuplan::cli
