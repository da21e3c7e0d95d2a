#pragma once
//! `gpuplan serve`'s checks on a request before its body is read: only the user's own browser,
//! on the page this server sent, may use it. The Host header must name this server (a page on
//! another site whose name was rebound to 127.0.0.1 sends its own name: DNS rebinding), an Origin
//! header must be this server's own origin, and a POST body must be declared application/json,
//! which a page on another origin cannot send without a CORS preflight the server never approves.
//! Free of HTTP plumbing, as reports/quote_service.h; tools/gpuplan/cmd_serve.cpp fills the head.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reports/quote_service.h"

namespace gpuplan::serve {

//! Longest request target (path and query) answered [bytes]; the page's longest is under 80.
inline constexpr std::size_t MAX_URL_BYTES = 2048;
//! Most bytes of request header fields answered, names and values with their ": " and CRLF.
inline constexpr std::size_t MAX_HEADER_BYTES = 16 * 1024;

//! What the checks read of a request: its request line and header fields (each field as often as
//! it was sent, so a doubled Host header is seen).
struct RequestHead {
  std::string_view method;
  std::string_view target;  //!< as sent, path and query
  std::string_view path;    //!< the path, percent-decoded
  std::size_t header_bytes = 0;
  std::vector<std::string_view> hosts;    //!< every Host header
  std::vector<std::string_view> origins;  //!< every Origin header
  std::vector<std::string_view> content_types;
  std::vector<std::string_view> content_lengths;
  std::vector<std::string_view> transfer_encodings;
};

//! The Host header values (lowercase "name:port") naming a server bound to `bound_host` (as given
//! to --host) on `port`: that address, localhost and, when the address is loopback, 127.0.0.1
//! and [::1]; the names alone too on port 80, where browsers leave the port out.
[[nodiscard]] std::vector<std::string> accepted_hosts(std::string_view bound_host, int port);

//! True when `host` ("127.0.0.1", "::1", "localhost", any 127.x.y.z) is a loopback address.
[[nodiscard]] bool is_loopback(std::string_view host);

//! Methods allowed on `path` ("GET, HEAD" for the page, its assets and the downloads, "POST" for
//! /api/quote), or "" when the server has no such path.
[[nodiscard]] std::string_view allowed_methods(std::string_view path);

//! The refusal of a request, or nullopt to answer it: 431 headers over MAX_HEADER_BYTES, 414 a
//! target over MAX_URL_BYTES, 403 a Host not in `hosts` (missing or doubled too), 403 an Origin
//! that is not http:// + one of `hosts`, 404 an unknown path, 405 a method the path does not
//! allow (with its Allow list), 415 a POST whose Content-Type is not application/json, 411 a
//! POST without one Content-Length (chunked bodies have no cap before they are read), 413 one
//! over MAX_REQUEST_BYTES (refused unread). Each reply says what was wrong; a value it quotes is
//! cut to 40 bytes.
[[nodiscard]] std::optional<Reply> guard_request(const RequestHead& head,
                                                 const std::vector<std::string>& hosts);

}  // namespace gpuplan::serve
