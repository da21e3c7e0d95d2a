#!/usr/bin/env bash
# docs/teams.md: scenarios/four_teams_quota.json with NLP's nominal quota at 8, 16, 24 and 32
# GPUs, 20 replications each with the same seed (common random numbers), one row each.
# Runs under tools/docs.sh, which puts `gpuplan` and `docs-table` (tools/docs_table.py) on PATH.
set -euo pipefail
for n in 8 16 24 32; do
  gpuplan mc scenarios/four_teams_quota.json -n 20 --threads 2 -q --set teams.1.quota.A100-80GB.nominal=$n \
    --out out/four_teams_nlp_$n 2>/dev/null
done
docs-table 8=out/four_teams_nlp_8/result.json 16=out/four_teams_nlp_16/result.json \
  24=out/four_teams_nlp_24/result.json 32=out/four_teams_nlp_32/result.json -- \
  'NLP nominal GPUs={@dir}' 'NLP wait p90 [s]={/per_team/1/wait_s/p90|int}' \
  'NLP GPU-h borrowed={/per_team/1/gpu_hours_borrowed|int}' 'NLP runs reclaimed={/per_team/1/reclaim_preemptions|int}' \
  'vision wait p90 [s]={/per_team/0/wait_s/p90|int}' 'speech wait p90 [s]={/per_team/2/wait_s/p90|int}' \
  'platform wait p90 [s]={/per_team/3/wait_s/p90|int}'
