#include "reports/quote_service.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <new>
#include <regex>

#include <nlohmann/json.hpp>
#include <openssl/rand.h>

#include "models/catalog/catalog_age.h"
#include "models/catalog/catalog_overlay.h"
#include "models/input/input_file.h"
#include "models/input/jsonc.h"
#include "models/quote/quote.h"
#include "reports/html_assets.h"
#include "reports/quote_pdf.h"
#include "reports/quote_render.h"
#include "study/quote_check.h"

namespace gpuplan::serve {
namespace fs = std::filesystem;
using nlohmann::json;

//! One quote made by the page, kept for its downloads.
struct QuoteService::Kept {
  std::string id;
  std::string quote_json;  //!< quote.json as the CLI writes it
  std::string quote_html;  //!< quote.html as the CLI writes it
  std::mutex pdf_mutex;    //!< one Chromium print per quote at a time
  std::optional<std::string> pdf;
};

namespace {

//! "a string", "an array", ... for a message.
std::string a_type(const json& j) {
  const std::string t = j.type_name();
  return (t == "array" || t == "object" ? "an " : "a ") + t;
}

//! Request keys the form may set, as JSON pointers: a section and one key, as the CLI's flags.
bool allowed_pointer(const std::string& p) {
  static const std::regex shape(
      R"(^/(name|customer|(training|inference|options)/[a-z_0-9]{1,40})$)");
  return std::regex_match(p, shape);
}

//! Pointers whose value is a list, typed comma-separated (the CLI's repeatable flags).
bool list_pointer(const std::string& p) {
  return p == "/options/providers" || p == "/options/gpus" || p == "/options/instances";
}

//! A typed value as JSON: a number when it reads as one, else the string (as the CLI's flags).
json typed_value(const std::string& text) {
  const json j = json::parse(text, nullptr, false);
  return j.is_number() ? j : json(text);
}

std::string trimmed(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return "";
  return std::string(s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1));
}

//! `message` with every mention of the server's path `real` (as read_input_file quotes a path,
//! or whole) replaced by `name`, the name the request gave.
std::string without_path(std::string message, const std::string& real, const std::string& name) {
  for (const std::string& p : {escape_for_message(real, 200), real}) {
    for (size_t at = message.find(p); at != std::string::npos;
         at = message.find(p, at + name.size()))
      message.replace(at, p.size(), name);
  }
  return message;
}

//! The diagnostics as the page shows them. A problem inside the overlay file (`overlay_file`,
//! named `overlay_name` in the request) belongs to the overlay's field: its message starts with
//! `name:line: /pointer:` as the CLI prints it, with the name the request gave, not the real path.
//! No message names the real path (a file too large to read names it as read_input_file does).
json diagnostics_json(const Diagnostics& diags, const std::string& overlay_file,
                      const std::string& overlay_name) {
  json errors = json::array();
  for (const Diagnostic& d : diags.sorted()) {
    std::string pointer = d.pointer, message = d.message;
    if (!overlay_file.empty() && d.file == overlay_file) {
      Diagnostic shown = d;
      shown.file = overlay_name;
      pointer = "/catalog_overlay";
      message = shown.format();
    }
    if (!overlay_file.empty())
      message = without_path(std::move(message), overlay_file, overlay_name);
    errors.push_back({{"pointer", pointer},
                      {"code", diag_code_name(d.code)},
                      {"message", message},
                      {"candidates", d.candidates}});
  }
  return errors;
}

Reply json_reply(int status, const json& j) {
  return Reply{status, "application/json",
               j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n", "", ""};
}

//! The request JSON built from the form's fields; nullopt with a 400 reply in `bad`.
std::optional<json> request_from_fields(const json& fields, Reply& bad) {
  json j = json::object();
  for (const auto& [pointer, value] : fields.items()) {
    if (!allowed_pointer(pointer)) {
      // NOTE: the pointer is echoed cut too: the page shows an unknown one under the form.
      bad = error_reply(400, escape_for_message(pointer), "unknown_key",
                        "the page has no field " + in_quotes(escape_for_message(pointer)));
      return std::nullopt;
    }
    if (!value.is_string()) {
      bad = error_reply(400, pointer, "wrong_type",
                        "a field's value must be text, not " + a_type(value));
      return std::nullopt;
    }
    const std::string text = trimmed(value.get<std::string>());
    if (text.empty()) continue;  // a field left blank is not given, as a flag left out
    if (invalid_utf8_at(text)) {
      bad = error_reply(400, pointer, "bad_flag",
                        "the value " + in_quotes(escape_for_message(text)) + " is not UTF-8 text");
      return std::nullopt;
    }
    json v;
    if (list_pointer(pointer)) {
      v = json::array();
      std::string_view rest = text;
      while (!rest.empty()) {
        const auto comma = rest.find(',');
        const std::string item = trimmed(rest.substr(0, comma));
        if (!item.empty()) v.push_back(item);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      }
    } else {
      v = typed_value(text);
    }
    j[json::json_pointer(pointer)] = std::move(v);
  }
  return j;
}

//! The built-in catalog with the overlay `path` applied; nullopt with diagnostics.
std::optional<Catalog> catalog_with(const std::optional<fs::path>& overlay, Diagnostics& diags) {
  Catalog catalog = builtin_catalog();
  if (!overlay) return catalog;
  const auto rows = read_catalog_overlay(overlay->string(), catalog, "/catalog_overlay", diags);
  if (!rows) return std::nullopt;
  if (rows->currency != "USD") {
    diags.error("/catalog_overlay", DiagCode::bad_flag,
                "the overlay is priced in " + rows->currency +
                    "; gpuplan's money is USD, so import the price file with --currency USD");
    return std::nullopt;
  }
  apply_overlay(catalog, *rows);
  return catalog;
}

//! Text of an embedded asset.
std::string text(std::string_view s) {
  return std::string(s);
}

}  // namespace

std::vector<std::pair<std::string, std::string>> reply_headers(const Reply& r) {
  std::vector<std::pair<std::string, std::string>> h{
      {"Content-Security-Policy", std::string(PAGE_CSP)},
      {"X-Content-Type-Options", "nosniff"},
      {"Referrer-Policy", "no-referrer"},
      {"Cache-Control", "no-store"}};
  if (!r.attachment.empty())
    h.emplace_back("Content-Disposition", "attachment; filename=\"" + r.attachment + "\"");
  if (!r.allow.empty()) h.emplace_back("Allow", r.allow);
  if (r.retry_after_s > 0) h.emplace_back("Retry-After", std::to_string(r.retry_after_s));
  return h;
}

Reply stopped_reply(quote::StopReason reason, std::string_view what, double budget_s) {
  if (reason == quote::StopReason::cancelled)
    return error_reply(
        503, "", "cancelled",
        "the client closed the connection, so " + std::string(what) + " was stopped");
  char budget[32];
  std::snprintf(budget, sizeof budget, "%g s", budget_s);
  return error_reply(504, "", "out_of_time",
                     std::string(what) + " took longer than its budget of " + budget +
                         " and was stopped; narrow the request (fewer providers, GPU models, "
                         "instance types or pricing plans), or start the server with a larger "
                         "--budget");
}

Reply error_reply(int status, std::string_view pointer, std::string_view code,
                  std::string_view message) {
  return json_reply(status, {{"errors",
                              {{{"pointer", pointer},
                                {"code", code},
                                {"message", message},
                                {"candidates", json::array()}}}}});
}

std::optional<std::string> random_quote_id() {
  unsigned char bits[QUOTE_ID_BYTES];
  if (RAND_bytes(bits, sizeof bits) != 1) return std::nullopt;
  static constexpr char HEX[] = "0123456789abcdef";
  std::string id;
  for (const unsigned char b : bits) {
    id += HEX[b >> 4];
    id += HEX[b & 15];
  }
  return id;
}

std::optional<fs::path> confine_path(const std::optional<fs::path>& data_dir, std::string_view name,
                                     std::string& why) {
  if (!data_dir) {
    why = "this server was started without --data-dir, so a request may name no file";
    return std::nullopt;
  }
  const fs::path given(name);
  if (name.empty() || name.find('\0') != std::string_view::npos || given.is_absolute()) {
    why = "name a file inside the server's data folder by a relative path";
    return std::nullopt;
  }
  for (const fs::path& part : given) {
    if (part == "..") {
      why = "a file name may not climb out of the server's data folder with \"..\"";
      return std::nullopt;
    }
  }
  std::error_code ec;
  const fs::path root = fs::canonical(*data_dir, ec);
  if (ec) {
    why = "the server's data folder cannot be opened";
    return std::nullopt;
  }
  // NOTE: canonical() follows every link, so a link inside the folder pointing out is caught by
  // the containment check below, not trusted for its name.
  const fs::path real = fs::canonical(root / given, ec);
  if (ec) {
    why = "no such file in the server's data folder";
    return std::nullopt;
  }
  const fs::path rel = real.lexically_relative(root);
  if (rel.empty() || *rel.begin() == "..") {
    why = "the file lies outside the server's data folder";
    return std::nullopt;
  }
  if (!fs::is_regular_file(real, ec)) {
    why = "only regular files in the server's data folder may be named";
    return std::nullopt;
  }
  return real;
}

QuoteService::QuoteService(ServeSettings settings) : settings_(std::move(settings)) {}

Reply QuoteService::get(std::string_view path) const {
  if (path == "/" || path == "/index.html")
    return Reply{200, "text/html; charset=utf-8", text(reports::assets::serve_html()), "", ""};
  if (path == "/serve.js")
    return Reply{200, "text/javascript; charset=utf-8", text(reports::assets::serve_js()), "", ""};
  if (path == "/common.js")
    return Reply{200, "text/javascript; charset=utf-8", text(reports::assets::common_js()), "", ""};
  // NOTE: browsers ask for an icon by themselves; "no content" keeps their consoles clean.
  if (path == "/favicon.ico") return Reply{204, "image/x-icon", "", "", ""};
  if (path == "/serve.css")
    return Reply{200, "text/css; charset=utf-8", text(reports::assets::serve_css()), "", ""};
  return error_reply(404, "", "not_found", "no such page");
}

Reply QuoteService::quote(std::string_view body, const quote::ComputeBudget* budget) {
  if (body.size() > MAX_REQUEST_BYTES)
    return error_reply(
        413, "", "limit_exceeded",
        "a quote request may be at most " + std::to_string(MAX_REQUEST_BYTES) + " bytes");
  try {
    const auto started = std::chrono::steady_clock::now();
    const std::clock_t cpu_started = std::clock();
    Diagnostics parsed;
    const auto body_doc = parse_jsonc(body, "", parsed);
    if (!body_doc) {
      // NOTE: parse_jsonc says where (line, column) and cuts the text it quotes to 40 bytes.
      const Diagnostic& d = parsed.recorded().front();
      return error_reply(400, "", diag_code_name(d.code),
                         "the request body, line " + std::to_string(d.line) + ": " + d.message);
    }
    const json& in = body_doc->value;
    if (!in.is_object())
      return error_reply(
          400, "", "wrong_type",
          "the request body must be a JSON object {\"fields\": {...}}, not " + a_type(in));
    if (!in.contains("fields"))
      return error_reply(400, "/fields", "missing_key",
                         "the request body has no \"fields\" object (the form's fields by "
                         "pointer: {\"fields\": {\"/training/params\": \"13B\", ...}})");
    if (!in["fields"].is_object())
      return error_reply(400, "/fields", "wrong_type",
                         "\"fields\" must be an object of the form's fields by pointer, not " +
                             a_type(in["fields"]));
    Reply bad;
    auto request_doc = request_from_fields(in["fields"], bad);
    if (!request_doc) return bad;

    std::optional<fs::path> overlay;
    std::string overlay_name;
    if (const auto it = in.find("catalog_overlay");
        it != in.end() && !(it->is_string() && trimmed(it->get<std::string>()).empty())) {
      if (!it->is_string())
        return error_reply(400, "/catalog_overlay", "wrong_type", "a file name must be text");
      overlay_name = trimmed(it->get<std::string>());
      std::string why;
      overlay = confine_path(settings_.data_dir, overlay_name, why);
      if (!overlay) return error_reply(403, "/catalog_overlay", "io_error", why);
    }

    Diagnostics diags;
    if (request_doc->empty())
      diags.error("", DiagCode::missing_key,
                  "nothing to quote: give the parameters and tokens with a deadline or a budget "
                  "(training), or the model, requests per second or concurrent streams, output "
                  "tokens and a TTFT, TPOT or end-to-end p99 target (inference)");
    const auto req = diags.ok() ? quote::parse_request(*request_doc, diags) : std::nullopt;
    if (req && req->inference && !req->inference->tokens_trace.empty())
      diags.error("/inference/tokens_trace", DiagCode::infeasible,
                  "the quote page takes prompt and output tokens as numbers; a token trace is "
                  "read by `gpuplan quote --request FILE`");
    const auto catalog = catalog_with(overlay, diags);
    if (!req || !catalog || !diags.ok())
      return json_reply(400, {{"errors", diagnostics_json(diags, overlay ? overlay->string() : "",
                                                          escape_for_message(overlay_name))}});

    if (!quote::options_available(*req, *catalog, diags))
      return json_reply(422, {{"errors", diagnostics_json(diags, "", "")}});
    const quote::Quote q = quote::make_quote(*req, *catalog, today_utc(), budget);
    if (!quote::inference_servable(*req, q, diags))
      return json_reply(422, {{"errors", diagnostics_json(diags, "", "")}});
    const quote::QuoteReport report{&*req,
                                    &q,
                                    quote::check_shown_inference(*req, q, budget),
                                    quote::check_shown_serving(*req, q, budget),
                                    settings_.version,
                                    settings_.internal};
    auto kept = std::make_shared<Kept>();
    auto id = random_quote_id();
    if (!id) return error_reply(503, "", "internal", "the server could not draw a random quote id");
    kept->id = std::move(*id);
    json doc = quote::quote_json(report);
    kept->quote_json = doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
    kept->quote_html = quote::render_quote_html(report);
    {
      const std::lock_guard lock(mutex_);
      kept_.push_back(kept);
      if (kept_.size() > KEPT_QUOTES) kept_.pop_front();
    }
    const std::string base = "/api/quote/" + kept->id + "/";
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return json_reply(200, {{"id", kept->id},
                            {"quote", std::move(doc)},
                            {"downloads",
                             {{"json", base + "quote.json"},
                              {"pdf", base + "quote.pdf"},
                              {"html", base + "quote.html"}}},
                            {"elapsed_s", elapsed},
                            {"cpu_s", double(std::clock() - cpu_started) / CLOCKS_PER_SEC}});
  } catch (const quote::Stopped& stop) {
    return stopped_reply(stop.reason, "the quote", budget ? budget->seconds() : 0);
  } catch (const std::bad_alloc&) {
    return error_reply(503, "", "limit_exceeded", "the server ran out of memory for this quote");
  } catch (const std::exception&) {
    // NOTE: the library's message may quote internals; the page gets a fixed sentence.
    return error_reply(500, "", "internal", "internal error while making the quote");
  }
}

std::shared_ptr<QuoteService::Kept> QuoteService::find(std::string_view id) const {
  const std::lock_guard lock(mutex_);
  for (const auto& k : kept_)
    if (k->id == id) return k;
  return nullptr;
}

bool QuoteService::download_prints(std::string_view id, std::string_view file) const {
  if (file != "quote.pdf") return false;
  const auto kept = find(id);
  if (!kept) return false;
  const std::lock_guard lock(kept->pdf_mutex);
  return !kept->pdf;
}

Reply QuoteService::download(std::string_view id, std::string_view file,
                             const quote::ComputeBudget* budget) {
  const auto kept = find(id);
  if (!kept) return error_reply(404, "", "not_found", "this quote is no longer kept; quote again");
  if (file == "quote.json")
    return Reply{200, "application/json", kept->quote_json, "quote.json", ""};
  if (file == "quote.html")
    return Reply{200, "text/html; charset=utf-8", kept->quote_html, "quote.html", ""};
  if (file != "quote.pdf") return error_reply(404, "", "not_found", "no such file");
  // NOTE: one print per quote (a second download of it waits here and gets the kept bytes).
  const std::lock_guard lock(kept->pdf_mutex);
  if (!kept->pdf) {
    // NOTE: each print is a whole Chromium (about 0.2 GB and a core for seconds): a few at once.
    if (!prints_.try_acquire_for(std::chrono::duration<double>(PDF_WAIT_S))) {
      Reply busy = error_reply(503, "", "busy",
                               std::to_string(PDF_PRINTS_AT_ONCE) +
                                   " PDFs are being printed; try again in a few seconds");
      busy.retry_after_s = BUSY_RETRY_AFTER_S;
      return busy;
    }
    reports::PdfStatus status = reports::PdfStatus::failed;
    try {
      kept->pdf = reports::pdf_bytes(kept->quote_html, status, budget);
    } catch (...) {
      prints_.release();
      throw;
    }
    prints_.release();
    if (status == reports::PdfStatus::stopped && budget && budget->stop_reason())
      return stopped_reply(*budget->stop_reason(), "printing the PDF", budget->seconds());
    if (!kept->pdf)
      return error_reply(503, "", "io_error",
                         status == reports::PdfStatus::no_browser
                             ? "chromium is not installed on the server; download quote.html "
                               "and print it instead"
                             : "chromium could not print the quote; download quote.html instead");
  }
  return Reply{200, "application/pdf", *kept->pdf, "quote.pdf", ""};
}

}  // namespace gpuplan::serve
