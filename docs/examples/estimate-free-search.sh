#!/usr/bin/env bash
# docs/estimate.md, "Free search on the issue's cases": five `gpuplan estimate training` searches
# (BF16), one row each, from their --json output.
# Runs under tools/docs.sh, which puts `gpuplan` and `docs-table` (tools/docs_table.py) on PATH.
set -euo pipefail
run() { local label=$1; shift; mkdir -p "out/$label"; gpuplan estimate training "$@" --json > "out/$label/estimate.json"; }
run 1 --params 13B --gpus 64 --gpu H100-SXM --tokens-per-step 4194304
run 2 --model llama-3-70b --gpus 64 --gpu H100-SXM --tokens-per-step 4194304
run 3 --model llama-3-70b --gpus 64 --gpu A100-80GB --tokens-per-step 4194304
run 4 --model megatron-gpt-175b --gpus 128 --gpu A100-80GB --tokens-per-step 3145728
run 5 --model llama-3-405b --gpus 16384 --gpu H100-SXM
docs-table \
  '`--params 13B --gpus 64 --gpu H100-SXM --tokens-per-step 4194304`=out/1/estimate.json' \
  '`--model llama-3-70b --gpus 64 --gpu H100-SXM --tokens-per-step 4194304`=out/2/estimate.json' \
  '`--model llama-3-70b --gpus 64 --gpu A100-80GB --tokens-per-step 4194304`=out/3/estimate.json' \
  '`--model megatron-gpt-175b --gpus 128 --gpu A100-80GB --tokens-per-step 3145728`=out/4/estimate.json' \
  '`--model llama-3-405b --gpus 16384 --gpu H100-SXM`=out/5/estimate.json' -- \
  'command (`gpuplan estimate training ...`)={@dir}' 'instance={/cluster/instance}' 'chosen layout={/plan/text}' \
  'MFU={/mfu|pct1}' 'best published MFU of the GPU={/best_published_mfu|pct1}' \
  'nearest published run={/nearest_published_run/run}: {/nearest_published_run/mfu|pct0}'
