#!/usr/bin/env bash
# Runs every libFuzzer harness of tools/fuzz/ for SECONDS each (default 60), starting from seeds
# referenced in place (bundled scenarios, quote requests and traces) plus a small generated
# --set corpus. A crash, a leak, an input slower than 10 s (-timeout) or a process above 2 GB
# (-rss_limit_mb, -malloc_limit_mb) fails it; the input is kept under $GPUPLAN_FUZZ_ARTIFACTS.
#   tools/fuzz/run.sh [SECONDS] [HARNESS...]      HARNESS: scenario trace quote set
# Needs the harnesses built (tools/sanitize.sh builds them into build-san/); see
# docs/reliability.md for the longer command.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-60}
shift || true
harnesses=("$@")
((${#harnesses[@]})) || harnesses=(scenario trace quote set)
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
link_seeds quote scenarios/quotes/*.json
link_seeds trace scenarios/data/*.csv
mkdir -p "$work/seeds-set"
printf 'pools.0.count=16\n' >"$work/seeds-set/count"
printf 'horizon="2d"\nseed=7\n' >"$work/seeds-set/horizon"
printf 'workload.0.gpus={"choice": {"1": 0.5, "8": 0.5}}\n' >"$work/seeds-set/gpus"
printf 'scheduler.queue=backfill\nname=x\n' >"$work/seeds-set/queue"
printf 'workload.0.duration.lognormal.p90=12h\n' >"$work/seeds-set/p90"

status=0
for h in "${harnesses[@]}"; do
  mkdir -p "$work/corpus-$h"
  echo "fuzz: $h for ${secs}s" >&2
  # NOTE: the first folder is the working corpus (new inputs go there), the second the seeds.
  if ! "$build/fuzz_$h" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
      -malloc_limit_mb=2048 -dict="tools/fuzz/$h.dict" -artifact_prefix="$artifacts/$h-" \
      -print_final_stats=1 "$work/corpus-$h" "$work/seeds-$h" 2>"$work/log-$h"; then
    status=1
    tail -n 60 "$work/log-$h" >&2
    echo "fuzz: $h FAILED; the input is in $artifacts/" >&2
  fi
  grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "$work/log-$h" | sed "s/^/fuzz: $h /" >&2 || true
done
exit $status
