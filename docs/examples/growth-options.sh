#!/usr/bin/env bash
# docs/scenario-growth-buy-reserve-burst.md, "When each option stops keeping up": each option of
# scenarios/growth_buy_reserve_burst.json on its own for a year (seed 11), one row each.
# Runs under tools/docs.sh, which puts `gpuplan` and `docs-table` (tools/docs_table.py) on PATH.
set -euo pipefail
s=scenarios/growth_buy_reserve_burst.json
gpuplan run $s -q --out out/keep --set 'workload.0.pools=["owned"]' --set 'pools.0.purchases=[]' 2>/dev/null
gpuplan run $s -q --out out/buy --set 'workload.0.pools=["owned"]' --set 'pools.0.purchases=[]' --set pools.0.count=40 2>/dev/null
gpuplan run $s -q --out out/reserve --set 'workload.0.pools=["owned","reserved"]' --set 'pools.0.purchases=[]' 2>/dev/null
gpuplan run $s -q --out out/burst --set 'workload.0.pools=["owned","burst_spot","burst_on_demand"]' --set 'pools.0.purchases=[]' 2>/dev/null
gpuplan run $s -q --out out/staged --set 'workload.0.pools=["owned"]' 2>/dev/null
gpuplan run $s -q --out out/all 2>/dev/null
docs-table \
  'keep the 32 servers=out/keep/result.json' \
  'buy 8 more now=out/buy/result.json' \
  'reserve 4 p5.48xlarge=out/reserve/result.json' \
  'burst to spot / on-demand=out/burst/result.json' \
  'buy in stages (+8 in month 5, +8 in month 8)=out/staged/result.json' \
  'all of it (the bundled file)=out/all/result.json' -- \
  'option={@dir}' 'GPUs at the end={/metrics/peak_offered_load_pool_gpus|int}' \
  'offered load: mean, busiest week={/metrics/offered_load|f2}, {/metrics/peak_offered_load|f2}' \
  'load check: reaches capacity in month={/metrics/reaches_capacity_month|f1|keeps up}' \
  'jobs unfinished at the horizon={/metrics/jobs_unfinished|int}' \
  'mean wait [h]={/metrics/wait_s/mean|hours}' 'mean queued jobs={/metrics/mean_queued_jobs|f1}'
