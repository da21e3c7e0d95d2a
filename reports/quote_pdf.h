#pragma once
//! quote.pdf: a rendered quote page printed to PDF by headless Chromium (no network, a throwaway
//! profile). Used by `gpuplan quote --out` and by `gpuplan serve`'s quote.pdf download.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace gpuplan::reports {

//! What printing a page to PDF came to.
enum class PdfStatus { written, no_browser, failed };

//! Chromium from $CHROMIUM or the PATH (chromium, chromium-browser), or "" when absent.
[[nodiscard]] std::string find_chromium();

//! Prints the page file `html` to `pdf` (written whole or not at all, via a temp file beside it);
//! Chromium gets at most 120 s.
[[nodiscard]] PdfStatus print_pdf(const std::filesystem::path& html,
                                  const std::filesystem::path& pdf);

//! The PDF bytes of the page `html` (printed from a private temp folder, removed afterwards);
//! nullopt with `status` saying why when no PDF came out.
[[nodiscard]] std::optional<std::string> pdf_bytes(std::string_view html, PdfStatus& status);

}  // namespace gpuplan::reports
