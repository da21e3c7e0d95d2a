#include "reports/html_parts.h"

#include <cmath>

#include "reports/format.h"

namespace gpuplan::reports {

std::string esc(std::string_view s) {
  return html_escape(s);
}

std::string code(std::string_view s) {
  return "<code>" + esc(s) + "</code>";
}

std::string dur(const std::optional<double>& s) {
  return s ? format_duration(*s) : "n/a";
}

std::string pct(const std::optional<double>& f, int decimals) {
  return f ? format_percent(*f, decimals) : "n/a";
}

std::string money(const std::optional<double>& usd) {
  return usd ? format_money(*usd) : "n/a";
}

std::string plural(double n, std::string_view one, std::string_view many) {
  return format_count(n) + " " + std::string(std::llround(n) == 1 ? one : many);
}

std::string readable_timestamp(const std::string& iso) {
  if (iso.size() == 20 && iso[4] == '-' && iso[7] == '-' && iso[10] == 'T' && iso[13] == ':' &&
      iso[19] == 'Z') {
    return iso.substr(0, 10) + " " + iso.substr(11, 5) + " UTC";
  }
  return iso;
}

std::string pill(std::string_view kind, std::string_view text) {
  return "<span class=\"pill pill-" + std::string(kind) + "\">" + std::string(text) + "</span>";
}

std::string sort_th(std::string_view label, bool numeric) {
  return "<th scope=\"col\" aria-sort=\"none\"" + std::string(numeric ? " class=\"num\"" : "") +
         "><button type=\"button\" class=\"sort\">" + std::string(label) + "</button></th>";
}

}  // namespace gpuplan::reports
