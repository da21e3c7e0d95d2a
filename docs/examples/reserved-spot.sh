#!/usr/bin/env bash
# docs/scenario-reserved-spot.md: scenarios/reserved_spot_split.json paid four ways (seed 7 as
# bundled), one row each, then the spot variant's risk from its result.json.
# Runs under tools/docs.sh, which puts `gpuplan` and `docs-table` (tools/docs_table.py) on PATH.
set -euo pipefail
s=scenarios/reserved_spot_split.json
gpuplan run $s -q --out out/on_demand --set pools.0.pricing=on_demand 2>/dev/null
gpuplan run $s -q --out out/reserved --set pools.1.pricing=reserved_1y 2>/dev/null
gpuplan run $s -q --out out/mixed 2>/dev/null
gpuplan run $s -q --out out/spot --set pools.1.pricing=spot \
  --set 'pools.1.spot={"interruptions_per_node_hour":0.1,"waves":{"rate":"0.2/h"}}' 2>/dev/null
docs-table \
  'all on-demand: `--set pools.0.pricing=on_demand`=out/on_demand/result.json' \
  'all reserved 1y: `--set pools.1.pricing=reserved_1y`=out/reserved/result.json' \
  'mixed (bundled)=out/mixed/result.json' \
  'mixed + spot flex: `--set pools.1.pricing=spot --set '"'"'pools.1.spot={"interruptions_per_node_hour":0.1,"waves":{"rate":"0.2/h"}}'"'"'`=out/spot/result.json' -- \
  'variant={@dir}' 'cost (28 d)={/cost_usd/total|usd0}' 'per useful GPU-h={/cost_usd/per_useful_gpu_hour|usd2}' \
  'JCT p90 (all) [s]={/metrics/jct_s/p90|int}' 'training JCT p90 [s]={/per_class/0/jct_s/p90|int}' \
  'mean wait [s]={/metrics/wait_s/mean|int}' 'GPU utilization={/metrics/gpu_utilization|pct1}'
echo
docs-table --lines out/spot/result.json -- \
  'Risk of the spot variant: {/preemption/preemptions|int} preemptions and {/preemption/reclaimed_nodes|int} reclaimed nodes over the window, {/preemption/restarts_per_job|f3} restarts per completed job, {/preemption/checkpoint_overhead_gpu_hours|int} GPU-h of checkpoint writes, {/preemption/restart_overhead_gpu_hours|int} GPU-h of reloads and {/preemption/lost_gpu_hours|f1} GPU-h of lost compute; the flex pool is provisioned {/per_pool/1/mean_nodes|f2} nodes on average.'
