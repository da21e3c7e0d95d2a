#!/usr/bin/env bash
# docs/scenario-gavel-heterogeneous.md: scenarios/gavel_mixed.json under three policies, 20
# replications each with the same seed (common random numbers), one row each.
# Runs under tools/docs.sh, which puts `gpuplan` and `docs-table` (tools/docs_table.py) on PATH.
set -euo pipefail
for p in fifo fifo_perf max_min_fairness_perf; do
  gpuplan mc scenarios/gavel_mixed.json --replications 20 --threads 2 --set scheduler.policy=$p --out out/gavel_$p -q
done
m=/summary/metrics.jct_s.mean
docs-table \
  'fifo (type-oblivious: lowest-indexed free GPU, K80 pool first)=out/gavel_fifo/result.json' \
  'fifo_perf (fastest type with room)=out/gavel_fifo_perf/result.json' \
  'max_min_fairness_perf (6 min rounds)=out/gavel_max_min_fairness_perf/result.json' -- \
  'policy (20 replications)={@dir}' \
  "JCT mean [95 % CI] / p50 / p90 [s]={$m/mean|int} [{$m/ci95_low|int}, {$m/ci95_high|int}] / {/metrics/jct_s/p50|int} / {/metrics/jct_s/p90|int}" \
  'wait mean / p90 [s]={/metrics/wait_s/mean|int} / {/metrics/wait_s/p90|int}' \
  'GPU utilization (K80 / P100 / V100)={/metrics/gpu_utilization|f3} ({/per_pool/0/gpu_utilization|f2} / {/per_pool/1/gpu_utilization|f2} / {/per_pool/2/gpu_utilization|f2})' \
  'restarts per job={/preemption/restarts_per_job|f1}' \
  'checkpoint + reload GPU-h={/gpu_hours/checkpoint_overhead|int} + {/gpu_hours/restart_overhead|int}'
