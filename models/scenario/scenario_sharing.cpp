#include "models/scenario/scenario_sharing.h"

#include <strings.h>

namespace gpuplan {

uint32_t serving_entries(const PoolSharing& pool, const ClassSharing& share) {
  if (pool.kind != share.kind) return 0;
  if (share.kind != ShareKind::mig) return 1;
  if (pool.mig == nullptr) return 0;
  uint32_t mask = 0;
  for (uint32_t i = 0; i < pool.layout.n; ++i) {
    const char* name = pool.mig->profiles[pool.layout.instances[i].profile_idx].name;
    if (strcasecmp(name, share.mig_profile.c_str()) == 0) mask |= 1u << i;
  }
  return mask;
}

}  // namespace gpuplan
