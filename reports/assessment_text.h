#pragma once
//! Building the rich-text sentences of an assessment (reports/assessment.h): a JSON array of runs.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace gpuplan::reports {

//! A sentence under construction; adjacent plain runs merge, so tests read whole phrases.
class RichText {
 public:
  //! Appends plain text.
  RichText& operator<<(std::string_view s) {
    if (s.empty()) return *this;
    if (!runs_.empty() && runs_.back().is_string()) {
      runs_.back() = runs_.back().get<std::string>() + std::string(s);
    } else {
      runs_.push_back(std::string(s));
    }
    return *this;
  }
  //! Appends the runs of another sentence.
  RichText& operator<<(const RichText& other) {
    for (const nlohmann::json& r : other.runs_) {
      if (r.is_string()) {
        *this << r.get<std::string>();
      } else {
        runs_.push_back(r);
      }
    }
    return *this;
  }
  //! Appends a command or name shown in monospace.
  RichText& code(std::string_view s) {
    runs_.push_back({{"code", std::string(s)}});
    return *this;
  }
  //! Appends emphasised text.
  RichText& strong(std::string_view s) {
    runs_.push_back({{"strong", std::string(s)}});
    return *this;
  }
  //! Appends a link to an element of the page (`target` is "#id").
  RichText& link(std::string_view target, std::string_view s) {
    runs_.push_back({{"link", std::string(target)}, {"text", std::string(s)}});
    return *this;
  }
  [[nodiscard]] bool empty() const { return runs_.empty(); }
  [[nodiscard]] const nlohmann::json& json() const { return runs_; }

 private:
  nlohmann::json runs_ = nlohmann::json::array();
};

}  // namespace gpuplan::reports
