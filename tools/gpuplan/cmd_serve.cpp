//! `gpuplan serve`: the quote page on a local HTTP server (cpp-httplib). The routes map onto
//! reports/quote_service.h's handlers; nothing here computes a quote.
#include <httplib.h>

#include <exception>
#include <filesystem>
#include <iostream>
#include <memory>
#include <new>
#include <string>

#include "reports/quote_service.h"
#include "tools/gpuplan/commands.h"

namespace gpuplan::cli {
namespace {

namespace fs = std::filesystem;

struct ServeFlags {
  std::string host = "127.0.0.1";
  int port = 8470;
  std::string data_dir;  //!< "" = requests may name no file
  bool internal = false;
};

bool is_loopback(const std::string& host) {
  return host == "127.0.0.1" || host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

//! Writes `r` into the httplib response, with the page's security headers on every reply.
void send(const serve::Reply& r, httplib::Response& res) {
  res.status = r.status;
  res.set_header("Content-Security-Policy", std::string(serve::PAGE_CSP));
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_header("Referrer-Policy", "no-referrer");
  res.set_header("Cache-Control", "no-store");
  if (!r.attachment.empty())
    res.set_header("Content-Disposition", "attachment; filename=\"" + r.attachment + "\"");
  res.set_content(r.body, r.content_type);
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
  if (!is_loopback(f.host))
    std::cerr << "gpuplan serve: warning: listening on " << f.host
              << ", not on loopback: anyone who can reach this address can make quotes and read "
                 "the files of --data-dir; there is no authentication or TLS\n";

  auto service = std::make_shared<serve::QuoteService>(settings);
  httplib::Server server;
  // NOTE: a request body over the cap is refused (413) before any of it is parsed.
  server.set_payload_max_length(serve::MAX_REQUEST_BYTES);
  server.set_read_timeout(10, 0);
  server.set_write_timeout(30, 0);
  server.set_exception_handler([](const httplib::Request&, httplib::Response& res,
                                  std::exception_ptr ep) { send(failure_reply(ep), res); });
  server.Get(R"(/api/quote/(q[0-9]{1,12})/(quote\.(json|html|pdf)))",
             [service](const httplib::Request& req, httplib::Response& res) {
               send(service->download(req.matches[1].str(), req.matches[2].str()), res);
             });
  server.Post("/api/quote", [service](const httplib::Request& req, httplib::Response& res) {
    send(service->quote(req.body), res);
  });
  server.Get(R"(/[a-z.]*)", [service](const httplib::Request& req, httplib::Response& res) {
    send(service->get(req.path), res);
  });
  server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    // NOTE: httplib's own refusals (unknown route, 413 over the body cap) get a JSON body too.
    if (res.body.empty())
      send(serve::error_reply(
               res.status, "", res.status == 413 ? "limit_exceeded" : "not_found",
               res.status == 413 ? "the request body is too long" : "no such page or method"),
           res);
  });

  // httplib's default sets SO_REUSEPORT, which lets a second server bind a port already served
  // (the kernel then splits the connections between the two). SO_REUSEADDR alone still lets a
  // restart bind over connections in TIME_WAIT, but a port in use is refused.
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  int port = f.port;
  if (port == 0) {
    port = server.bind_to_any_port(f.host);
    if (port < 0) port = 0;
  } else if (!server.bind_to_port(f.host, port)) {
    port = 0;
  }
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
  auto* cmd =
      app.add_subcommand("serve", "Serve the quote page (a form, live results, downloads) locally");
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
  cmd->callback([f, &exit_code] { exit_code = run_serve(*f); });
  return cmd;
}

}  // namespace gpuplan::cli
