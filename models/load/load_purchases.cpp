#include "models/load/loader.h"

namespace gpuplan::loading {

//! Most nodes one pool may have, purchases included (as "count" alone).
constexpr uint64_t MAX_POOL_NODES = 1000000;

// A fixed pool's staged purchases, `[{"at": "90d", "add": 8}, ...]`, strictly increasing in time
// inside (0, horizon); on success `count` becomes the pool's size after every purchase.
void Loader::load_purchases(const json& v, const std::string& p, double horizon_s, bool elastic,
                            std::optional<uint64_t>& count, Pool& pool) {
  if (elastic) {
    d_.error(p, DiagCode::out_of_range,
             "\"purchases\" stage the nodes of a fixed-size pool; an elastic pool scales by "
             "itself between its min and max, so remove one of the two");
    return;
  }
  if (!v.is_array()) {
    return wrong_type(v, p, "an array of purchases, e.g. [{\"at\": \"90d\", \"add\": 8}]");
  }
  std::vector<PoolPurchase> out;
  uint64_t total = count.value_or(0);
  bool ok = count.has_value();
  for (size_t k = 0; k < v.size(); ++k) {
    const std::string ip = child(p, k);
    const json& o = v[k];
    if (!object(o, ip, "a purchase, e.g. {\"at\": \"90d\", \"add\": 8}")) {
      ok = false;
      continue;
    }
    check_keys(o, ip, {"at", "add"});
    const json* at = need(o, ip, "at", "when the nodes come online, e.g. \"90d\"");
    const json* add = need(o, ip, "add", "nodes bought then, e.g. 8");
    std::optional<double> t;
    std::optional<uint64_t> n;
    if (at != nullptr) t = duration(*at, ip + "/at", true);
    if (add != nullptr) n = integer(*add, ip + "/add", 1, MAX_POOL_NODES);
    if (!t || !n) {
      ok = false;
      continue;
    }
    if (horizon_s > 0 && *t >= horizon_s) {
      d_.error(ip + "/at", DiagCode::out_of_range,
               "a purchase at " + num(*t) + " s is not before the horizon (" + num(horizon_s) +
                   " s), so its nodes would never come online; buy earlier or lengthen "
                   "\"horizon\"");
      ok = false;
      continue;
    }
    if (!out.empty() && !(*t > out.back().at_s)) {
      d_.error(ip + "/at", DiagCode::out_of_range,
               "purchases must be in increasing time order; " + num(*t) + " s is not after " +
                   num(out.back().at_s) + " s");
      ok = false;
      continue;
    }
    total += *n;
    out.push_back(PoolPurchase{*t, static_cast<uint32_t>(*n)});
  }
  if (!ok) return;
  if (total > MAX_POOL_NODES) {
    d_.error(p, DiagCode::out_of_range,
             "\"count\" plus every purchase is " + std::to_string(total) +
                 " nodes; a pool may have at most " + std::to_string(MAX_POOL_NODES));
    count.reset();
    return;
  }
  count = total;
  pool.purchases = std::move(out);
}

}  // namespace gpuplan::loading
