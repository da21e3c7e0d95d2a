#!/usr/bin/env bash
# docs/scenario-sharing-fleet.md: scenarios/sharing_fleet.json's four fleets at their bundled
# sizes and each with one GPU fewer (16 replications, same seed), one row per fleet.
# Runs under tools/docs.sh, which puts `gpuplan` and `docs-table` (tools/docs_table.py) on PATH.
set -euo pipefail
s=scenarios/sharing_fleet.json
gpuplan mc $s -n 16 --threads 2 -q --out out/bundled 2>/dev/null
for i in 0 1 2 3; do
  n=$(docs-table --lines out/bundled/result.json -- "{/per_pool/$i/gpus}")
  gpuplan mc $s -n 16 --threads 2 -q --out out/fewer_$i --set pools.$i.count=$((n - 1)) 2>/dev/null
done
row() {  # row POOL_INDEX LABEL CLASS_SUFFIX
  docs-table --lines out/bundled/result.json -- \
    "| $2 | {/per_pool/$1/gpus} | {/per_class/$((2 * $1))/wait_s/p90|int} s / {/per_class/$((2 * $1 + 1))/wait_s/p90|int} s | $(docs-table --lines out/fewer_$1/result.json -- "{/per_pool/$1/gpus}: {/per_class/$((2 * $1))/wait_s/p90|int} s / {/per_class/$((2 * $1 + 1))/wait_s/p90|int} s") | {/per_pool/$1/gpu_utilization|pct1} | {/per_pool/$1/compute_used|pct1} | {/per_class/$((2 * $1))/jct_s/mean|int} s / {/per_class/$((2 * $1 + 1))/jct_s/mean|int} s |"
}
echo '| fleet | GPUs | p90 wait inference / notebook | one fewer GPU | allocated (gpu_utilization) | compute used | mean JCT inference / notebook |'
echo '|---|---:|---|---|---:|---:|---|'
row 0 whole; row 1 MIG; row 2 time-sliced; row 3 'milli-GPU (best-fit)'
