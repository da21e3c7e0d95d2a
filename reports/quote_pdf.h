#pragma once
//! quote.pdf: a rendered quote page printed to PDF by headless Chromium (no network, a throwaway
//! profile). Used by `gpuplan quote --out` and by `gpuplan serve`'s quote.pdf download.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "models/quote/compute_budget.h"

namespace gpuplan::reports {

//! Longest Chromium print without a compute budget [s].
inline constexpr double PDF_PRINT_MAX_S = 120;

//! What printing a page to PDF came to; `stopped`: the compute budget ran out or was cancelled
//! (its stop_reason says which) and Chromium was killed.
enum class PdfStatus { written, no_browser, failed, stopped };

//! Chromium from $CHROMIUM or the PATH (chromium, chromium-browser), or "" when absent.
[[nodiscard]] std::string find_chromium();

//! Prints the page file `html` to `pdf` (written whole or not at all, via a temp file beside it).
//! Chromium runs in a process group of its own, killed whole after PDF_PRINT_MAX_S or as soon as
//! `budget` (nullptr = none) runs out or is cancelled (checked every 50 ms).
[[nodiscard]] PdfStatus print_pdf(const std::filesystem::path& html,
                                  const std::filesystem::path& pdf,
                                  const quote::ComputeBudget* budget = nullptr);

//! The PDF bytes of the page `html` (printed from a private temp folder, removed afterwards);
//! nullopt with `status` saying why when no PDF came out.
[[nodiscard]] std::optional<std::string> pdf_bytes(std::string_view html, PdfStatus& status,
                                                   const quote::ComputeBudget* budget = nullptr);

}  // namespace gpuplan::reports
