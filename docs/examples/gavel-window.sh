#!/usr/bin/env bash
# docs/scenario-gavel-heterogeneous.md: scenarios/gavel_long_tail.json at four arrival rates, each
# counted two ways: the default window (jobs submitted in weeks 1-4 that finish by week 4) and the
# scenario's own (the same arrivals followed to week 30). One row each.
# Runs under tools/docs.sh, which puts `gpuplan` and `docs-table` (tools/docs_table.py) on PATH.
set -euo pipefail
mkdir -p out  # the runs' warnings (offered load past capacity) go to out/warnings.txt
rows=()
for scale in 1 1.3333 1.6667 2; do
  gpuplan run scenarios/gavel_long_tail.json --set demand.load_scale=$scale \
    --set horizon=4w --set statistics.arrivals_until=4w --out out/gavel_window_$scale -q 2>>out/warnings.txt
  gpuplan run scenarios/gavel_long_tail.json --set demand.load_scale=$scale \
    --out out/gavel_followed_$scale -q 2>>out/warnings.txt
  rows+=("completed by week 4=out/gavel_window_$scale/result.json"
         "followed to week 30=out/gavel_followed_$scale/result.json")
done
docs-table "${rows[@]}" -- \
  'jobs counted={@dir}' \
  'offered load={/metrics/offered_load|f2}' \
  'submitted={/metrics/jobs_submitted|int}' \
  'unfinished at the horizon={/metrics/jobs_unfinished|int}' \
  'mean JCT of the finished [h]={/metrics/jct_s/mean|hours}' \
  'mean JCT, unfinished at their age (lower bound) [h]={/metrics/jct_mean_lower_bound_s|hours||n/a}'
