#include "reports/serve_guard.h"

#include <algorithm>
#include <cctype>
#include <regex>

#include "models/input/diagnostic.h"
#include "models/input/input_file.h"

namespace gpuplan::serve {

namespace {

std::string lowercase(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string trimmed_header(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return "";
  return std::string(s.substr(first, s.find_last_not_of(" \t") - first + 1));
}

//! `s` quoted for a message, cut to 40 bytes.
std::string shown(std::string_view s) {
  return in_quotes(escape_for_message(s));
}

//! "The page is at http://HOST:PORT/": the first accepted host is the bound address.
std::string page_address(const std::vector<std::string>& hosts) {
  return hosts.empty() ? std::string("this server's address") : "http://" + hosts.front() + "/";
}

bool accepted(const std::vector<std::string>& hosts, const std::string& host) {
  return std::find(hosts.begin(), hosts.end(), host) != hosts.end();
}

}  // namespace

bool is_loopback(std::string_view host) {
  return host == "127.0.0.1" || host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

std::vector<std::string> accepted_hosts(std::string_view bound_host, int port) {
  const std::string bound = lowercase(bound_host);
  std::vector<std::string> names{bound.find(':') != std::string::npos ? "[" + bound + "]" : bound,
                                 "localhost"};
  if (is_loopback(bound)) {
    names.push_back("127.0.0.1");
    names.push_back("[::1]");
  }
  std::vector<std::string> out;
  const auto add = [&out](const std::string& h) {
    if (!accepted(out, h)) out.push_back(h);
  };
  for (const std::string& n : names) add(n + ":" + std::to_string(port));
  // NOTE: a browser leaves the default port out of the Host header.
  if (port == 80)
    for (const std::string& n : names) add(n);
  return out;
}

std::string_view allowed_methods(std::string_view path) {
  if (path == "/" || path == "/index.html" || path == "/serve.js" || path == "/common.js" ||
      path == "/serve.css" || path == "/favicon.ico")
    return "GET, HEAD";
  if (path == "/api/quote") return "POST";
  static const std::regex download("^/api/quote/[0-9a-f]{" + std::to_string(2 * QUOTE_ID_BYTES) +
                                   R"(}/quote\.(json|html|pdf)$)");
  if (std::regex_match(path.begin(), path.end(), download)) return "GET, HEAD";
  return "";
}

std::optional<Reply> guard_request(const RequestHead& head, const std::vector<std::string>& hosts) {
  if (head.header_bytes > MAX_HEADER_BYTES)
    return error_reply(431, "", "limit_exceeded",
                       "request headers too large (" + std::to_string(head.header_bytes) +
                           " bytes, limit " + std::to_string(MAX_HEADER_BYTES) + ")");
  if (head.target.size() > MAX_URL_BYTES)
    return error_reply(414, "", "limit_exceeded",
                       "URL too long (" + std::to_string(head.target.size()) + " bytes, limit " +
                           std::to_string(MAX_URL_BYTES) + ")");
  // NOTE: the Host header is checked before anything else is read, so a page on another site
  // whose name now resolves to this machine learns nothing, not even which paths exist.
  if (head.hosts.size() != 1)
    return error_reply(
        403, "", "wrong_host",
        head.hosts.empty()
            ? "the request has no Host header; open the page at " + page_address(hosts)
            : "the request has " + std::to_string(head.hosts.size()) + " Host headers; send one");
  if (!accepted(hosts, lowercase(trimmed_header(head.hosts.front()))))
    return error_reply(403, "", "wrong_host",
                       "the Host header " + shown(head.hosts.front()) +
                           " does not name this server (a page on another site may only use "
                           "it under this server's own name); open the page at " +
                           page_address(hosts));
  if (head.origins.size() > 1)
    return error_reply(403, "", "wrong_origin", "the request has several Origin headers");
  if (!head.origins.empty()) {
    const std::string origin = lowercase(trimmed_header(head.origins.front()));
    if (origin.rfind("http://", 0) != 0 || !accepted(hosts, origin.substr(7)))
      return error_reply(403, "", "wrong_origin",
                         "a request from the page " + shown(head.origins.front()) +
                             " is refused: only this server's own page (" + page_address(hosts) +
                             ") may use it");
  }
  const std::string_view allowed = allowed_methods(head.path);
  if (allowed.empty())
    return error_reply(404, "", "not_found", "no such page: " + shown(head.path));
  const std::string method(head.method);
  const bool method_allowed =
      allowed == "POST" ? method == "POST" : (method == "GET" || method == "HEAD");
  if (!method_allowed) {
    Reply r = error_reply(405, "", "method_not_allowed",
                          "the method " + shown(head.method) + " is not allowed on " +
                              shown(head.path) + "; it allows " + std::string(allowed));
    r.allow = std::string(allowed);
    return r;
  }
  if (method == "POST") {
    const std::string type = head.content_types.size() == 1
                                 ? lowercase(trimmed_header(head.content_types.front().substr(
                                       0, head.content_types.front().find(';'))))
                                 : "";
    if (type != "application/json")
      return error_reply(
          415, "", "wrong_content_type",
          "a request body must be sent with Content-Type: application/json (this one has " +
              (head.content_types.empty() ? std::string("none")
               : head.content_types.size() > 1
                   ? std::to_string(head.content_types.size()) + " Content-Type headers"
                   : shown(head.content_types.front())) +
              ")");
    // NOTE: httplib caps a body by its Content-Length only; a chunked body, or one read to the
    // end of the connection, would be held whole whatever its size.
    if (!head.transfer_encodings.empty() || head.content_lengths.size() != 1)
      return error_reply(411, "", "length_required",
                         "a request body must give its length in one Content-Length header "
                         "(chunked bodies are not accepted)");
    const std::string_view length = head.content_lengths.front();
    const bool digits = !length.empty() && length.size() <= 18 &&
                        length.find_first_not_of("0123456789") == std::string_view::npos;
    if (!digits)
      return error_reply(400, "", "parse_error",
                         "the Content-Length " + shown(length) + " is not a number of bytes");
    if (std::stoull(std::string(length)) > MAX_REQUEST_BYTES)
      return error_reply(413, "", "limit_exceeded",
                         "request body too long (" + std::string(length) + " bytes, limit " +
                             std::to_string(MAX_REQUEST_BYTES) + ")");
  }
  return std::nullopt;
}

}  // namespace gpuplan::serve
