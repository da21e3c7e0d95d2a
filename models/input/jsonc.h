#pragma once
//! JSON with comments (JSONC): the parsed value plus the file line of every value in it, so
//! diagnostics can say `scenario.json:14: /pools/0/instance: ...`.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/input/diagnostic.h"

namespace gpuplan {

//! Deepest nesting of arrays and objects parse_jsonc accepts (the bundled files need 6).
inline constexpr size_t MAX_JSON_DEPTH = 64;

//! JSON pointer -> 1-based line of the value (of its key, for object members), in document order.
using LineTable = std::vector<std::pair<std::string, int>>;

//! One parsed JSONC document.
struct JsoncDocument {
  nlohmann::json value;
  LineTable lines;
};

//! Parses JSONC text (`//` and `/* */` comments allowed); on invalid JSON returns nullopt with a
//! parse_error diagnostic at `file:line` (limit_exceeded past MAX_JSON_DEPTH, checked before
//! parsing); duplicate keys are reported but the document is kept.
std::optional<JsoncDocument> parse_jsonc(std::string_view text, const std::string& file,
                                         Diagnostics& diags);

//! nlohmann's parse error text `what` with the input it quotes ("last read: '...'") cut to 40
//! bytes and escaped as escape_for_message does: an unterminated string would quote the rest of
//! the file. Every message built from a parse error goes through here.
[[nodiscard]] std::string json_error_text(std::string_view what);

//! The line table of JSONC text that is already known to be valid (no diagnostics, never throws).
LineTable jsonc_line_table(std::string_view text);

//! Escapes one key as a JSON pointer reference token (RFC 6901: "~" -> "~0", "/" -> "~1").
std::string pointer_token(std::string_view key);

}  // namespace gpuplan
