//! Reading user-named files: regular files only, capped, UTF-8 text; failures never quote the
//! file and never block.
#include "models/input/input_file.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;
using namespace gpuplan;

namespace {

fs::path write_file(const fs::path& p, const std::string& content) {
  std::ofstream(p, std::ios::binary) << content;
  return p;
}

}  // namespace

TEST_CASE("models::input_file") {
  const fs::path tmp = fs::temp_directory_path() / ("gpuplan-input-" + std::to_string(getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  std::string error;

  SUBCASE("a regular UTF-8 file is read whole") {
    const auto p = write_file(tmp / "ok.json", "{\"name\": \"caf\xC3\xA9\"}\n");
    const auto text = read_input_file(p.string(), 1024, error);
    REQUIRE(text);
    // 18 bytes: the file as written, the two-byte é included.
    CHECK(text->size() == 18);
  }
  SUBCASE("a FIFO is refused at once instead of waiting for a writer") {
    const fs::path fifo = tmp / "fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    CHECK_FALSE(read_input_file(fifo.string(), 1024, error));
    CHECK(error.find("not a regular file") != std::string::npos);
  }
  SUBCASE("a device such as /dev/zero is refused") {
    CHECK_FALSE(read_input_file("/dev/zero", 1024, error));
    CHECK(error.find("not a regular file") != std::string::npos);
  }
  SUBCASE("a folder is refused") {
    CHECK_FALSE(read_input_file(tmp.string(), 1024, error));
    CHECK(error.find("folder") != std::string::npos);
  }
  SUBCASE("a file over the cap is refused with its size and the limit") {
    const auto p = write_file(tmp / "big.csv", std::string(3'000'000, 'x'));
    CHECK_FALSE(read_input_file(p.string(), 1'000'000, error));
    CHECK(error.find("3.0 MB") != std::string::npos);
    CHECK(error.find("1.0 MB") != std::string::npos);
  }
  SUBCASE("a file that reports size 0 is still capped (/proc)") {
    // /proc/self/maps has st_size 0 but holds text; a cap of 10 bytes must stop it.
    CHECK_FALSE(read_input_file("/proc/self/maps", 10, error));
    CHECK(error.find("limit") != std::string::npos);
  }
  SUBCASE("bytes that are not UTF-8 name the line and do not quote the text") {
    const auto p = write_file(tmp / "latin1.csv", "submit,gpus\nsecret\xE9value,1\n");
    CHECK_FALSE(read_input_file(p.string(), 1024, error));
    CHECK(error.find("line 2") != std::string::npos);
    CHECK(error.find("\\xE9") != std::string::npos);
    CHECK(error.find("secret") == std::string::npos);
  }
  SUBCASE("a NUL byte marks a binary file (/proc/self/environ is NUL-separated)") {
    const auto p = write_file(tmp / "env", std::string("A=1\0B=2", 7));
    CHECK_FALSE(read_input_file(p.string(), 1024, error));
    CHECK(error.find("NUL") != std::string::npos);
    CHECK(error.find("A=1") == std::string::npos);
  }
  SUBCASE("a missing file says so") {
    CHECK_FALSE(read_input_file((tmp / "nope").string(), 1024, error));
    CHECK(error == "no such file");
  }
  SUBCASE("the diagnostic form names the path and refuses a path that is not UTF-8") {
    Diagnostics d;
    CHECK_FALSE(read_input_file((tmp / "x\xFF.json").string(), 1024, "scenario file", "", d));
    REQUIRE(d.size() == 1);
    CHECK(d.to_text().find("not UTF-8") != std::string::npos);
    // The JSON form never throws on the odd byte of the path.
    CHECK(d.to_json().find("io_error") != std::string::npos);
  }
  fs::remove_all(tmp);
}

TEST_CASE("models::input_file::invalid_utf8_at") {
  SUBCASE("well-formed text, 2-, 3- and 4-byte forms included, passes") {
    CHECK_FALSE(invalid_utf8_at("plain, caf\xC3\xA9, \xE2\x82\xAC, \xF0\x9F\x98\x80"));
  }
  SUBCASE("overlong forms, surrogates, code points past U+10FFFF and cut sequences fail") {
    // Each fails at its first byte, offset 1 after the leading 'a'.
    CHECK(invalid_utf8_at("a\xC0\xAF") == 1u);          // overlong '/'
    CHECK(invalid_utf8_at("a\xED\xA0\x80") == 1u);      // U+D800, a surrogate
    CHECK(invalid_utf8_at("a\xF4\x90\x80\x80") == 1u);  // U+110000
    CHECK(invalid_utf8_at("a\xE2\x82") == 1u);          // cut short
    CHECK(invalid_utf8_at("a\xFF") == 1u);
  }
  SUBCASE("messages escape control and non-ASCII bytes and cut long text") {
    CHECK(escape_for_message("a\nb\xFF") == "a\\x0Ab\\xFF");
    CHECK(escape_for_message(std::string(100, 'x'), 10) == "xxxxxxxxxx...");
  }
}
