#include "models/input/closest_names.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace gpuplan {
namespace {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (same ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::vector<std::string> closest_names(std::string_view got, const std::vector<std::string>& known,
                                       size_t n) {
  std::vector<std::pair<size_t, std::string>> scored;
  for (const auto& k : known) {
    // A prefix match ("p5.48xl" -> "p5.48xlarge") counts as close whatever its length.
    const bool prefix = k.size() > got.size() && iequals(k.substr(0, got.size()), got);
    const size_t limit = std::max<size_t>(2, std::max(got.size(), k.size()) / 3);
    // NOTE: the distance is at least the length difference, so a name far longer than every
    // candidate (a 2 MB id) is rejected here without the quadratic distance.
    const size_t gap = got.size() > k.size() ? got.size() - k.size() : k.size() - got.size();
    if (prefix) {
      scored.emplace_back(0, k);
    } else if (gap <= limit) {
      const size_t d = edit_distance(got, k);
      if (d <= limit) scored.emplace_back(d, k);
    }
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && i < n; ++i) out.push_back(scored[i].second);
  return out;
}

}  // namespace gpuplan
