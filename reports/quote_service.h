#pragma once
//! `gpuplan serve`'s handlers, free of HTTP plumbing: the quote page and its assets, a quote
//! request from the page's form answered with quote.json (or the CLI's messages, by field), and
//! the quote.json / quote.pdf downloads of recent quotes. The handlers call the library the CLI
//! calls (quote::parse_request, quote::make_quote, quote::check_shown_inference, quote_json,
//! render_quote_html, print to PDF), never the binary; tools/gpuplan/cmd_serve.cpp maps URLs to
//! them. Every handler is safe to call from several threads at once and never throws for bad
//! input.
#include <chrono>
#include <cstddef>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <semaphore>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/catalog/catalog.h"
#include "models/quote/compute_budget.h"

namespace gpuplan::serve {

//! Largest request body a quote request may have [bytes]; the server refuses longer ones unread.
inline constexpr std::size_t MAX_REQUEST_BYTES = 64 * 1024;
//! Random bytes of a quote id (128 bits, written as 32 hex digits).
inline constexpr std::size_t QUOTE_ID_BYTES = 16;
//! Recent quotes kept for their downloads; the oldest is dropped first.
inline constexpr std::size_t KEPT_QUOTES = 32;
//! Content-Security-Policy of the page: scripts, styles and fetches from the server only, no
//! frames, forms or other origins, so nothing on the page reaches the network.
inline constexpr std::string_view PAGE_CSP =
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

//! One HTTP answer.
struct Reply {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::string attachment;  //!< file name for Content-Disposition: attachment ("" = inline)
  std::string allow;       //!< methods for an Allow header (a 405), "" = none
  int retry_after_s = 0;   //!< [s] for a Retry-After header (a 503 when busy), 0 = none
};

//! The header fields of `r` besides its Content-Type and length, the same on every reply: the
//! page's security headers, then Content-Disposition, Allow and Retry-After when `r` has them.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> reply_headers(const Reply& r);

//! Chromium prints at once; a further PDF waits PDF_WAIT_S for one to end, then is answered 503.
inline constexpr int PDF_PRINTS_AT_ONCE = 2;
//! [s] how long a PDF waits for a print to end before its 503.
inline constexpr double PDF_WAIT_S = 1;
//! [s] Retry-After of a 503 for a busy server: about one quote's time.
inline constexpr int BUSY_RETRY_AFTER_S = 5;

//! What the server was started with.
struct ServeSettings {
  //! The one folder a request may name files in (catalog overlays); nullopt = none allowed.
  std::optional<std::filesystem::path> data_dir;
  bool internal = false;  //!< quotes carry the internal appendix (sources, confidence tags)
  std::string version;    //!< gpuplan version printed in the quote's footer
};

//! A file a request names, resolved inside `data_dir`: a relative path without ".." whose real
//! path (symbolic links followed) is a regular file inside the real `data_dir`. nullopt with
//! `why` (one sentence naming the rule, never the file's contents) otherwise.
[[nodiscard]] std::optional<std::filesystem::path> confine_path(
    const std::optional<std::filesystem::path>& data_dir, std::string_view name, std::string& why);

//! The quote page's handlers and the recent quotes they made.
class QuoteService {
 public:
  explicit QuoteService(ServeSettings settings);

  //! GET `path`: the page ("/"), its scripts and style sheet, 204 for /favicon.ico; 404 for
  //! anything else.
  [[nodiscard]] Reply get(std::string_view path) const;

  //! POST /api/quote: `body` is {"fields": {POINTER: TEXT, ...}, "catalog_overlay": NAME?},
  //! POINTER a request key as `gpuplan quote` flags set it ("/training/params") and TEXT as
  //! typed ("13B"; lists comma-separated). 200 with {"id" (32 hex digits, 128 random bits),
  //! "quote" (quote.json), "downloads", "elapsed_s" [s] wall, "cpu_s" [s] process CPU}; 400 with
  //! {"errors": [{"pointer", "code", "message", "candidates"}]} carrying the CLI's messages (a
  //! body that is not JSON: its line and column, the text there cut to 40 bytes; file names as
  //! the request gave them, never the server's path); 403 when the overlay is outside the data
  //! folder; 413 when too long; 503 when no random id can be drawn. The quote checks `budget`
  //! (nullptr = none): 504 when it ran out, 503 when it was cancelled (stopped_reply).
  [[nodiscard]] Reply quote(std::string_view body, const quote::ComputeBudget* budget = nullptr);

  //! GET /api/quote/ID/FILE: quote.json, quote.html or quote.pdf of a recent quote; 404 when
  //! the quote is no longer kept, 503 when Chromium cannot print the PDF. A PDF is printed once
  //! per quote and kept; at most PDF_PRINTS_AT_ONCE prints run at once (503 with Retry-After
  //! when a further one finds no turn within PDF_WAIT_S), each within `budget` (nullptr = none;
  //! Chromium is killed when it runs out: 504, or 503 when cancelled).
  [[nodiscard]] Reply download(std::string_view id, std::string_view file,
                               const quote::ComputeBudget* budget = nullptr);

  //! True when download(id, file) would print a PDF (the costly download: serve runs it on its
  //! compute pool); false for one already printed, any other file, or an unknown quote.
  [[nodiscard]] bool download_prints(std::string_view id, std::string_view file) const;

 private:
  struct Kept;
  [[nodiscard]] std::shared_ptr<Kept> find(std::string_view id) const;

  ServeSettings settings_;
  mutable std::mutex mutex_;                // guards kept_
  std::deque<std::shared_ptr<Kept>> kept_;  // newest last
  std::counting_semaphore<PDF_PRINTS_AT_ONCE> prints_{PDF_PRINTS_AT_ONCE};
};

//! The reply to a computation stopped by its budget: 504 `out_of_time` naming `what` ("the
//! quote") and the budget [s] it ran out of, with what to do; 503 `cancelled` when its client
//! closed the connection first (no one reads it; logs do).
[[nodiscard]] Reply stopped_reply(quote::StopReason reason, std::string_view what, double budget_s);

//! A new quote id: 128 bits from OpenSSL's RAND_bytes as 32 lowercase hex digits, so no id can
//! be guessed from another; nullopt when the generator fails.
[[nodiscard]] std::optional<std::string> random_quote_id();

//! A JSON error reply: {"errors": [{"pointer", "code", "message", "candidates": []}]}.
[[nodiscard]] Reply error_reply(int status, std::string_view pointer, std::string_view code,
                                std::string_view message);

}  // namespace gpuplan::serve
