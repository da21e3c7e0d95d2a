#!/usr/bin/env bash
# docs/scenario-serverless.md: scenarios/serverless_inference.json under five billing plans, one
# row each (seed and workload as bundled; only the billing and scale-in settings change).
# Runs under tools/docs.sh, which puts `gpuplan` and `docs-table` (tools/docs_table.py) on PATH.
set -euo pipefail
s=scenarios/serverless_inference.json
hour=(--set pools.0.billing.granularity=hour)
gpuplan run $s -q --out out/ms
gpuplan run $s -q --out out/second --set pools.0.billing.granularity=second --set pools.0.billing.minimum=60s
gpuplan run $s -q --out out/hour "${hour[@]}"
gpuplan run $s -q --out out/warm "${hour[@]}" --set pools.0.elastic.scale_in.idle_timeout=15m
gpuplan run $s -q --out out/never "${hour[@]}" --set pools.0.elastic.min=2 --set pools.0.count=2 \
  --set pools.0.elastic.scale_in.idle_timeout=1y
docs-table \
  'per ms, release at once (bundled)=out/ms/result.json' \
  'per second, 60 s minimum: `--set pools.0.billing.granularity=second --set pools.0.billing.minimum=60s`=out/second/result.json' \
  'per hour, release at once: `--set pools.0.billing.granularity=hour`=out/hour/result.json' \
  'per hour, keep warm 15 min: `... granularity=hour --set pools.0.elastic.scale_in.idle_timeout=15m`=out/warm/result.json' \
  'per hour, never release (min 2): `... granularity=hour --set pools.0.elastic.min=2 --set pools.0.count=2 --set pools.0.elastic.scale_in.idle_timeout=1y`=out/never/result.json' -- \
  'billing={@dir}' 'cost per day={/cost_usd/total|usd2}' 'per useful GPU-h={/cost_usd/per_useful_gpu_hour|usd2}' \
  'rounding={/cost_usd/billing_rounding|usd2}' 'provisioned GPU-h={/gpu_hours/provisioned|f1}' \
  'request JCT p99 [s]={/per_class/0/jct_s/p99|f1}' 'mean wait [s]={/metrics/wait_s/mean|f1}'
