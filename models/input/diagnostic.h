#pragma once
//! User-facing input errors: every one carries a JSON pointer (or file:line), a code, a message
//! that states the rule, the value and a fix, and "did you mean" candidates where they exist.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan {

//! Closed set of error codes; the string table is diag_code_name().
enum class DiagCode : uint8_t {
  parse_error,     //!< not valid JSON(C) / CSV
  unknown_key,     //!< a key the format does not define
  missing_key,     //!< a required key is absent
  wrong_type,      //!< e.g. a string where a number is required
  out_of_range,    //!< a number outside its allowed range
  unknown_name,    //!< a reference to a GPU, instance, pool, ... that does not exist
  bad_unit,        //!< a duration/rate/size string that cannot be read
  infeasible,      //!< valid on its own, impossible in context (e.g. job larger than any pool)
  bad_override,    //!< a --set PATH=VALUE that cannot be applied
  io_error,        //!< a file that cannot be read or written
  bad_flag,        //!< a command-line flag or value
  limit_exceeded,  //!< more work or memory than a limit allows (docs/reliability.md, "Limits")
};

//! `s` in double quotes, as messages show values and names.
std::string in_quotes(std::string_view s);

//! Stable lowercase name of a code ("unknown_name"), used by --errors=json.
std::string_view diag_code_name(DiagCode c);

//! `; did you mean "x"?` naming the closest candidate, or "" when there is none.
std::string did_you_mean(const std::vector<std::string>& candidates);

//! One input error.
struct Diagnostic {
  std::string file;     //!< scenario or trace file ("" = command line)
  int line = 0;         //!< 1-based line in `file`, 0 = unknown
  std::string pointer;  //!< JSON pointer of the offending value ("" for CSV rows / flags)
  DiagCode code = DiagCode::parse_error;
  std::string message;                  //!< one sentence: rule, value, suggestion
  std::vector<std::string> candidates;  //!< "did you mean" names, closest first

  //! `file:line: /pointer: message` (parts omitted when unknown).
  [[nodiscard]] std::string format() const;
};

//! A collection of diagnostics, capped at MAX so a broken file does not flood the terminal.
class Diagnostics {
 public:
  static constexpr size_t MAX = 50;

  //! Records `d` as given (no file or line filled in); counts it as dropped past MAX.
  void add(Diagnostic d);
  //! Unknown reference: names the value and suggests the closest known names.
  void unknown_name(const std::string& pointer, std::string_view what, std::string_view got,
                    const std::vector<std::string>& known);
  //! Number outside [lo, hi].
  void out_of_range(const std::string& pointer, double got, double lo, double hi,
                    std::string_view unit = "");
  void error(const std::string& pointer, DiagCode code, std::string message);
  //! Same, with "did you mean" candidates (closest first) for --errors=json.
  void error(const std::string& pointer, DiagCode code, std::string message,
             std::vector<std::string> candidates);
  //! A key the format does not define: names it and suggests the closest allowed key.
  void unknown_key(const std::string& pointer, std::string_view key,
                   const std::vector<std::string>& allowed);

  //! Sets the file and line resolver used for pointers added from now on.
  void set_file(std::string file) { file_ = std::move(file); }
  //! Sets a function-free line table: pointer -> line (filled by the JSONC reader).
  void set_lines(const std::vector<std::pair<std::string, int>>* lines) { lines_ = lines; }

  [[nodiscard]] bool ok() const { return items_.empty(); }
  [[nodiscard]] size_t size() const { return items_.size(); }
  [[nodiscard]] size_t dropped() const { return dropped_; }
  //! Diagnostics in the order they were recorded (flags in the order a command reads them).
  [[nodiscard]] const std::vector<Diagnostic>& recorded() const { return items_; }
  //! Diagnostics sorted by (file, pointer, line).
  [[nodiscard]] std::vector<Diagnostic> sorted() const;
  //! Human form, one per line, sorted; notes how many were dropped past MAX.
  [[nodiscard]] std::string to_text() const;
  //! Machine form: a JSON array of {"file","line","pointer","code","message","candidates"}.
  [[nodiscard]] std::string to_json() const;

 private:
  int line_of(const std::string& pointer) const;
  std::vector<Diagnostic> items_;
  size_t dropped_ = 0;
  std::string file_;
  const std::vector<std::pair<std::string, int>>* lines_ = nullptr;
};

//! Thrown (only) from the loading stage to abort with diagnostics already recorded.
struct InputError {
  Diagnostics diags;
};

}  // namespace gpuplan
