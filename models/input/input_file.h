#pragma once
//! Reading the files a user names (scenarios, traces, quote requests): regular files only, a
//! size cap, and UTF-8 text, so a device, a FIFO or a binary file fails fast with a clear message
//! that never quotes the file's contents.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "models/input/diagnostic.h"

namespace gpuplan {

//! Largest scenario or quote request file read [bytes] (a JSON document, not data).
inline constexpr uint64_t MAX_DOCUMENT_BYTES = 16ull << 20;
//! Largest trace CSV read [bytes]: the whole file and its rows are held in memory.
inline constexpr uint64_t MAX_TRACE_BYTES = 1ull << 30;

//! Byte offset of the first byte of `s` that is not part of well-formed UTF-8 (RFC 3629: no
//! overlong forms, surrogates or code points past U+10FFFF), or nullopt when all of it is.
[[nodiscard]] std::optional<size_t> invalid_utf8_at(std::string_view s);

//! Length of the valid UTF-8 sequence starting at s[i] (1 for ASCII), or 0 when the bytes there
//! are not one (overlong forms, surrogates and code points past U+10FFFF are not).
[[nodiscard]] size_t utf8_sequence_length(std::string_view s, size_t i);

//! `s` for a message: at most `max_chars` bytes, control and non-ASCII bytes as \xNN, with
//! "..." when cut; never more than 4 * max_chars + 3 bytes.
[[nodiscard]] std::string escape_for_message(std::string_view s, size_t max_chars = 40);

//! Contents of the file at `path`, which must be a regular file (no device, FIFO or folder) of at
//! most `max_bytes` holding UTF-8 text without NUL bytes. On failure returns nullopt and sets
//! `error` to one sentence (without the path) that names the rule and, for text problems, the
//! line; it never blocks on a FIFO.
[[nodiscard]] std::optional<std::string> read_input_file(const std::string& path,
                                                         uint64_t max_bytes, std::string& error);

//! read_input_file reporting a failure as an io_error at `pointer` (file `path` when the
//! pointer is ""): "cannot read the <what> <path>: <why>"; a path that is not UTF-8 is refused
//! too, since outputs record it.
[[nodiscard]] std::optional<std::string> read_input_file(const std::string& path,
                                                         uint64_t max_bytes, std::string_view what,
                                                         const std::string& pointer,
                                                         Diagnostics& diags);

}  // namespace gpuplan
