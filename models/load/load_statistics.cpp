// The `statistics` section: which jobs the wait and completion-time figures count. An arrival
// window closing before the horizon (by time or by submission index) is followed to completion.
#include "models/load/loader.h"

namespace gpuplan::loading {

void Loader::load_statistics(const json& o, Scenario& sc) {
  const std::string p = "/statistics";
  if (!object(o, p, "which jobs count, e.g. {\"arrivals_until\": \"3w\"}")) return;
  check_keys(o, p, {"arrivals_until", "job_ids"});
  StatisticsConfig& st = sc.statistics;
  if (const json* v = get(o, "arrivals_until")) {
    if (auto t = duration(*v, p + "/arrivals_until", true)) {
      if (*t <= sc.warmup_s || *t > sc.horizon_s) {
        d_.error(p + "/arrivals_until", DiagCode::out_of_range,
                 "arrivals_until (" + num(*t) + " s) must lie after the warmup (" +
                     num(sc.warmup_s) + " s) and no later than the horizon (" + num(sc.horizon_s) +
                     " s): the jobs submitted between them are counted and followed until the "
                     "horizon");
      } else {
        st.arrivals_until_s = *t;
      }
    }
  }
  if (const json* v = get(o, "job_ids")) {
    const std::string q = p + "/job_ids";
    if (!v->is_array() || v->size() != 2) {
      wrong_type(*v, q, "[first, end): submission indices over all classes, e.g. [4000, 5000]");
      return;
    }
    // NOTE: indices count every arrival; 2^53 keeps them exact as JSON numbers.
    const uint64_t most = uint64_t(1) << 53;
    const auto first = integer((*v)[0], q + "/0", 0, most);
    const auto end = integer((*v)[1], q + "/1", 1, most);
    if (first && end) {
      if (*first >= *end) {
        d_.error(q, DiagCode::out_of_range,
                 "job_ids [" + num(double(*first)) + ", " + num(double(*end)) +
                     ") is empty: the first index must be below the end, e.g. [4000, 5000]");
      } else {
        st.first_job = *first;
        st.end_job = *end;
      }
    }
  }
}

}  // namespace gpuplan::loading
