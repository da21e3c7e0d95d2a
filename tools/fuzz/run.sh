#!/usr/bin/env bash
# Runs every libFuzzer harness of tools/fuzz/ for SECONDS each (default 60), starting from seeds
# referenced in place (bundled scenarios, quote requests and traces) plus a small generated
# --set corpus. A crash, a leak, an input slower than 10 s (-timeout) or a process above 2 GB
# (-rss_limit_mb, -malloc_limit_mb) fails it; the input is kept under $GPUPLAN_FUZZ_ARTIFACTS.
#   tools/fuzz/run.sh [SECONDS] [HARNESS...]      HARNESS: scenario serving trace quote set
#   GPUPLAN_FUZZ_RUNS=1000000 tools/fuzz/run.sh 0 set     1 M executions, no time limit
# Harnesses run one per core at a time (GPUPLAN_FUZZ_JOBS, default nproc), each for its full
# SECONDS on a core of its own: the same fuzzing as one after the other, in less wall time.
# Needs the harnesses built (tools/sanitize.sh builds them into build-san/); see
# docs/reliability.md for the longer command.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-60}
shift || true
harnesses=("$@")
((${#harnesses[@]})) || harnesses=(scenario serving trace quote set)
build=${GPUPLAN_FUZZ_BUILD:-build-san}
artifacts=${GPUPLAN_FUZZ_ARTIFACTS:-$build/fuzz-artifacts}
mkdir -p "$artifacts"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Seeds are symbolic links to the bundled files: referenced in place, never copied.
link_seeds() {
  local dir=$work/seeds-$1
  shift
  mkdir -p "$dir"
  local f
  for f in "$@"; do [[ -f $f ]] && ln -s "$PWD/$f" "$dir/$(echo "$f" | tr / _)"; done
  return 0
}
link_seeds scenario $(ls scenarios/*.json tools/bench/scenarios/*.json 2>/dev/null | grep -v '\.expected\.json$')
link_seeds serving $(ls scenarios/serving/*.json | grep -v '\.expected\.json$')
link_seeds quote scenarios/quotes/*.json
link_seeds trace scenarios/data/*.csv
mkdir -p "$work/seeds-set"
printf 'pools.0.count=16\n' >"$work/seeds-set/count"
printf 'horizon="2d"\nseed=7\n' >"$work/seeds-set/horizon"
printf 'workload.0.gpus={"choice": {"1": 0.5, "8": 0.5}}\n' >"$work/seeds-set/gpus"
printf 'scheduler.queue=backfill\nname=x\n' >"$work/seeds-set/queue"
printf 'workload.0.duration.lognormal.p90=12h\n' >"$work/seeds-set/p90"

runs=()
[[ -n ${GPUPLAN_FUZZ_RUNS:-} ]] && runs=(-runs="$GPUPLAN_FUZZ_RUNS")

# One harness: a crash, leak, timeout or memory run-away fails it (exit status 1).
fuzz_one() {
  local h=$1
  mkdir -p "$work/corpus-$h"
  echo "fuzz: $h for ${secs}s${runs:+, ${runs[*]}}" >&2
  # NOTE: the first folder is the working corpus (new inputs go there), the second the seeds.
  local rc=0
  "$build/fuzz_$h" -max_total_time="$secs" "${runs[@]}" -timeout=10 -rss_limit_mb=2048 \
    -malloc_limit_mb=2048 -dict="tools/fuzz/$h.dict" -artifact_prefix="$artifacts/$h-" \
    -print_final_stats=1 "$work/corpus-$h" "$work/seeds-$h" 2>"$work/log-$h" || rc=1
  if ((rc)); then
    tail -n 60 "$work/log-$h" >&2
    echo "fuzz: $h FAILED; the input is in $artifacts/" >&2
  fi
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|^Done ' \
    "$work/log-$h" | sed "s/^/fuzz: $h /" >&2 || true
  return $rc
}

jobs=${GPUPLAN_FUZZ_JOBS:-$(nproc)}
status=0
running=0
for h in "${harnesses[@]}"; do
  if ((running >= jobs)); then
    wait -n || status=1
    running=$((running - 1))
  fi
  fuzz_one "$h" &
  running=$((running + 1))
done
while ((running > 0)); do
  wait -n || status=1
  running=$((running - 1))
done
exit $status
