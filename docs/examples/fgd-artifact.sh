#!/usr/bin/env bash
# docs/reproductions.md: the FGD paper's openb experiment (load 1.3, pods shuffled, ten seeds) under
# FGD, best-fit and random, as the ten-seed mean, lowest and highest allocation per policy.
# Runs under tools/docs.sh, which puts `gpuplan` on PATH.
set -euo pipefail
gpuplan pack openb --order shuffled --load 1.3 --seeds 10 --policy fgd,best-fit,random \
  --out out/fgd >/dev/null
python3 - out/fgd/result.json <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
print("| policy | gpuplan: mean allocation, ten seeds [%] | lowest – highest [%] |")
print("|---|---|---|")
for policy in ("fgd", "best-fit", "random"):
    a = [100 * r["allocation_ratio"] for r in runs if r["policy"] == policy]
    print(f"| {policy} | {sum(a) / len(a):.2f} | {min(a):.2f} – {max(a):.2f} |")
PY
