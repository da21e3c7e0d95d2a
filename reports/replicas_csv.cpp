#include "reports/replicas_csv.h"

#include "reports/csv.h"
#include "reports/format.h"

namespace gpuplan::reports {

void write_replicas_csv(const study::Summary& s, std::ostream& out) {
  out << "replica";
  for (const std::string& p : s.stats.paths) out << ',' << csv_text_field(p);
  out << ",saturation_cause\n";
  for (std::size_t k = 0; k < s.stats.rows.size(); ++k) {
    out << k;
    for (double v : s.stats.rows[k]) out << ',' << format_raw(v);
    out << ',' << saturation_name(s.saturation[k]) << '\n';
  }
}

}  // namespace gpuplan::reports
