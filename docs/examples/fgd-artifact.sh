#!/usr/bin/env bash
# docs/reproductions.md: the FGD paper's openb experiment (load 1.3, pods shuffled, ten seeds) under
# FGD, best-fit and random: the ten-seed mean, lowest and highest allocation per policy, then the
# mean along the way (at 80-130 % of the GPUs arrived) against the artifact's. Exits 1 when a mean
# is more than 0.3 points from the artifact's.
# Runs under tools/docs.sh, which puts `gpuplan` on PATH.
set -euo pipefail
gpuplan pack openb --order shuffled --load 1.3 --seeds 10 --policy fgd,best-fit,random \
  --out out/fgd >/dev/null
python3 - out/fgd/result.json <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
# The artifact's own results: hkust-adsl/kubernetes-scheduler-simulator,
# experiments/analysis/expected_results/analysis_allo_discrete.csv, workload
# openb_pod_list_default, tune 1.3, the mean over seeds 42-51 of the allocation [%] at each
# arrived load [% of the GPUs].
ARTIFACT = {
    "fgd": {80: 80.015, 90: 89.981, 100: 95.227, 110: 95.296, 120: 95.347, 130: 95.391},
    "best-fit": {80: 80.015, 90: 89.994, 100: 92.862, 110: 92.935, 120: 93.001, 130: 93.076},
    "random": {80: 78.661, 90: 85.017, 100: 86.303, 110: 86.881, 120: 87.278, 130: 87.470},
}
TOLERANCE = 0.3
print("| policy | gpuplan: mean allocation, ten seeds [%] | lowest – highest [%] |")
print("|---|---|---|")
for policy in ARTIFACT:
    a = [100 * r["allocation_ratio"] for r in runs if r["policy"] == policy]
    print(f"| {policy} | {sum(a) / len(a):.2f} | {min(a):.2f} – {max(a):.2f} |")
print()
print("| arrived [% of the GPUs] | " + " | ".join(
    f"{p}: artifact [%] | {p}: gpuplan [%]" for p in ARTIFACT) + " |")
print("|---|" + "---|---|" * len(ARTIFACT))
failed = []
for load in sorted(ARTIFACT["fgd"]):
    cells = []
    for policy, published in ARTIFACT.items():
        rs = [r for r in runs if r["policy"] == policy]
        ours = sum(100 * r["curve"][load]["allocation_ratio"] for r in rs) / len(rs)
        cells += [f"{published[load]:.2f}", f"{ours:.2f}"]
        if abs(ours - published[load]) > TOLERANCE:
            failed.append(f"{policy} at {load} %: {ours:.2f} against {published[load]:.2f}")
    print(f"| {load} | " + " | ".join(cells) + " |")
if failed:
    print("more than 0.3 points from the artifact: " + "; ".join(failed), file=sys.stderr)
    sys.exit(1)
PY
