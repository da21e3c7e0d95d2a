//! `gpuplan quote`: size training and/or inference across the instance catalog for a sales
//! engineer; prints a ranked table and, with --out, writes quote.html, quote.json and quote.pdf.
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "models/catalog/catalog_age.h"
#include "models/input/data_files.h"
#include "models/input/input_file.h"
#include "models/input/jsonc.h"
#include "models/quote/quote.h"
#include "reports/quote_pdf.h"
#include "reports/quote_render.h"
#include "study/quote_check.h"
#include "tools/gpuplan/commands.h"
#include "tools/gpuplan/common.h"

namespace gpuplan::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

//! Command-line flags; every value is written into the request at its JSON pointer, so flags and
//! files share one validator and one set of messages.
struct QuoteFlags {
  std::string request_file;
  std::string out_dir;  //!< "" = print only
  std::string errors = "text";
  bool quiet = false;
  bool no_pdf = false;
  bool internal = false;  //!< add the internal appendix (sources, confidence notes)
  //! (JSON pointer, value as typed) for each flag given, in a fixed order.
  std::vector<std::pair<std::string, std::string>> values;
  std::vector<std::string> providers, gpus, instances;
  std::vector<std::string> overlays;  //!< --catalog-overlay FILE: applied over the built-in rows
};

//! A flag value as JSON: a number or an object when it reads as one, else the string.
json flag_value(const std::string& text) {
  try {
    const json j = json::parse(text);
    // A number, or an object such as a length distribution ('{"lognormal": {...}}').
    if (j.is_number() || j.is_object()) return j;
  } catch (const json::exception&) {
  }
  return text;
}

//! The request JSON from --request and the flags; nullopt with diagnostics on failure.
std::optional<quote::QuoteRequest> read_request(const QuoteFlags& f, Diagnostics& diags) {
  json j = json::object();
  LineTable lines;
  std::string label = "(command line)";
  if (!f.request_file.empty()) {
    const auto text =
        read_input_file(f.request_file, MAX_DOCUMENT_BYTES, "request file", "", diags);
    if (!text) return std::nullopt;
    auto doc = parse_jsonc(*text, f.request_file, diags);
    if (!doc) return std::nullopt;
    j = std::move(doc->value);
    lines = std::move(doc->lines);
    label = f.request_file;
  } else if (f.values.empty()) {
    diags.error("", DiagCode::missing_key,
                "nothing to quote: give --request FILE, or --params and --tokens with --deadline "
                "or --budget (training), or --model, --rps or --streams, --tokens-out and --ttft, "
                "--tpot or --p99 (inference)");
    return std::nullopt;
  }
  if (!j.is_object()) {
    diags.set_file(label);
    diags.error("", DiagCode::wrong_type, "a quote request must be a JSON object");
    return std::nullopt;
  }
  // NOTE: a flag value lands in quote.json, which must be UTF-8; refuse other bytes here.
  bool flags_ok = true;
  const auto check_utf8 = [&](const std::string& ptr, const std::string& value) {
    if (!invalid_utf8_at(value)) return;
    diags.error(ptr, DiagCode::bad_flag,
                "the value " + in_quotes(escape_for_message(value)) + " is not UTF-8 text");
    flags_ok = false;
  };
  for (const auto& [ptr, value] : f.values) check_utf8(ptr, value);
  for (const auto* list : {&f.providers, &f.gpus, &f.instances})
    for (const auto& value : *list) check_utf8("/options", value);
  if (!flags_ok) return std::nullopt;
  for (const auto& [ptr, value] : f.values) j[json::json_pointer(ptr)] = flag_value(value);
  const auto put_list = [&](const char* ptr, const std::vector<std::string>& v) {
    if (!v.empty()) j[json::json_pointer(ptr)] = v;
  };
  put_list("/options/providers", f.providers);
  put_list("/options/gpus", f.gpus);
  put_list("/options/instances", f.instances);
  diags.set_file(f.request_file);
  diags.set_lines(&lines);
  auto req = quote::parse_request(j, diags);
  diags.set_lines(nullptr);
  // A token trace is found beside the request file, then on the data path (docs/data-files.md).
  const std::string base =
      f.request_file.empty() ? "" : fs::path(f.request_file).parent_path().string();
  if (req && !quote::load_token_trace(*req, base, default_data_path(), diags)) return std::nullopt;
  return req;
}

int run_quote(const QuoteFlags& f) {
  Diagnostics diags;
  const auto req = read_request(f, diags);
  const auto catalog = catalog_with_overlays(f.overlays, "--catalog-overlay", diags);
  if (!req || !catalog) {
    print_diagnostics(diags, f.errors);
    return 2;
  }
  if (!quote::options_available(*req, *catalog, diags)) {
    print_diagnostics(diags, f.errors);
    return 2;
  }
  if (!f.out_dir.empty() && !output_folder_ok(f.out_dir)) return 2;
  const quote::Quote q = quote::make_quote(*req, *catalog, today_utc());
  if (!quote::inference_servable(*req, q, diags)) {
    print_diagnostics(diags, f.errors);
    return 2;
  }

  // The engine checks the shown inference rows (study/quote_check.h, the slot queue;
  // study/quote_serving_check.h, step by step), as `gpuplan serve` does.
  const quote::QuoteReport report{&*req,
                                  &q,
                                  quote::check_shown_inference(*req, q),
                                  quote::check_shown_serving(*req, q),
                                  GPUPLAN_VERSION,
                                  f.internal};

  if (!f.quiet) std::cout << quote::format_quote_table(report);
  if (f.out_dir.empty()) return 0;
  const fs::path dir = f.out_dir;
  const auto out = stage_outputs(dir);
  if (!out || !write_files(*out, {{"quote.html", quote::render_quote_html(report)},
                                  {"quote.json", quote::quote_json(report).dump(2) + "\n"}}))
    return 1;
  if (f.no_pdf) {
    if (!publish(*out)) return 1;
    if (!f.quiet) std::cout << "\nwrote " << dir.string() << "/{quote.html,quote.json}\n";
    return 0;
  }
  const reports::PdfStatus pdf =
      reports::print_pdf(out->staged("quote.html"), out->staged("quote.pdf"));
  // NOTE: without the PDF the quote is still complete (quote.html prints the same page).
  if (!publish(*out)) return 1;
  switch (pdf) {
    case reports::PdfStatus::written:
      if (!f.quiet)
        std::cout << "\nwrote " << dir.string() << "/{quote.html,quote.json,quote.pdf}\n";
      return 0;
    case reports::PdfStatus::no_browser:
      // NOTE: the PDF is a convenience copy of quote.html; a machine without Chromium still
      // gets the complete quote, so this is a warning, not a failure.
      std::cerr << "gpuplan quote: warning: chromium not found (install it or set CHROMIUM); "
                   "quote.pdf skipped, open quote.html and print it instead\n";
      if (!f.quiet) std::cout << "\nwrote " << dir.string() << "/{quote.html,quote.json}\n";
      return 0;
    case reports::PdfStatus::failed:
    case reports::PdfStatus::stopped:  // only under a compute budget, which the CLI never sets
      std::cerr << "gpuplan quote: chromium failed to print " << (dir / "quote.html").string()
                << " to PDF; quote.html and quote.json are written\n";
      return 1;
  }
  return 1;
}

}  // namespace

CLI::App* add_quote_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "quote", "Size and price training and/or inference across the instance catalog");
  auto f = std::make_shared<QuoteFlags>();
  cmd->add_option("--request", f->request_file,
                  "Quote request file (JSON with comments; docs/quote.md)");
  cmd->add_option("--out", f->out_dir,
                  "Write quote.html, quote.json and quote.pdf into this folder");
  // Each value flag sets one request key; flags override the file.
  const struct {
    const char* flag;
    const char* pointer;
    const char* help;
  } value_flags[] = {
      {"--name", "/name", "Quote title"},
      {"--customer", "/customer", "Customer the quote is prepared for"},
      {"--params", "/training/params", "Training: model parameters, e.g. 70B"},
      {"--tokens", "/training/tokens", "Training: tokens, e.g. 2T"},
      {"--deadline", "/training/deadline", "Training: finish within, e.g. 30d"},
      {"--budget", "/training/budget", "Training: total budget, e.g. $5M"},
      {"--precision", "/training/precision", "Training: bf16 | fp8 (default bf16)"},
      {"--mfu", "/training/mfu",
       "Training: fixed model FLOPs utilisation (default: the step-time model's, per instance)"},
      {"--mfu-floor", "/training/mfu_floor",
       "Training: options below this modelled MFU are not recommended (default 0.2)"},
      {"--model", "/inference/model",
       "Inference: model preset (llama-3-8b, ...) or parameter count (8B)"},
      {"--rps", "/inference/requests_per_s", "Inference: requests per second, e.g. 2000"},
      {"--streams", "/inference/concurrent_streams",
       "Inference: concurrent streams instead of a request rate, e.g. 3000"},
      {"--tokens-in", "/inference/tokens_in", "Inference: prompt tokens per request"},
      {"--tokens-out", "/inference/tokens_out", "Inference: generated tokens per request"},
      {"--tokens-trace", "/inference/tokens_trace",
       "Inference: prompt and output lengths from a trace (ContextTokens, GeneratedTokens)"},
      {"--ttft", "/inference/ttft_p99", "Inference: p99 time to first token, e.g. 500ms"},
      {"--tpot", "/inference/tpot_p99", "Inference: p99 time per output token, e.g. 50ms"},
      {"--p99", "/inference/p99_latency", "Inference: p99 end-to-end latency target, e.g. 10s"},
      {"--spares", "/inference/spares", "Inference: spare replicas for redundancy (default 1)"},
      {"--top", "/options/top", "Rows shown per table (default 10)"},
      {"--seed", "/options/seed", "Random seed of the Monte Carlo and the engine check"},
      {"--stale-after", "/options/stale_after_months",
       "Flag prices dated more than this many months before the quote as stale (default 12)"},
  };
  for (const auto& vf : value_flags) {
    const std::string pointer = vf.pointer;
    cmd->add_option_function<std::string>(
        vf.flag, [f, pointer](const std::string& v) { f->values.emplace_back(pointer, v); },
        vf.help);
  }
  cmd->add_option("--provider", f->providers, "Only these providers (repeatable)");
  cmd->add_option("--gpu", f->gpus, "Only these GPU models (repeatable)");
  cmd->add_option("--instance", f->instances, "Only these instance types (repeatable)");
  cmd->add_option("--catalog-overlay", f->overlays,
                  "Catalog overlay from `gpuplan catalog import`; its rows replace the built-in "
                  "prices (repeatable, later files win)")
      ->type_name("FILE");
  cmd->add_option("--errors", f->errors, "Format of input errors")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->add_flag("--no-pdf", f->no_pdf, "Do not print quote.pdf");
  cmd->add_flag("--internal", f->internal,
                "Add an internal appendix (price sources, confidence notes); without it the "
                "quote is the customer view");
  cmd->add_flag("--quiet,-q", f->quiet, "No table on stdout");
  cmd->callback([f, &exit_code] { exit_code = run_quote(*f); });
  return cmd;
}

}  // namespace gpuplan::cli
