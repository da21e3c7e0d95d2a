#!/usr/bin/env bash
# Clean-build time by target and by step kind, in CPU seconds (user + sys of each compiler and
# linker process), which a shared machine's load barely moves, plus the wall time and load.
#   tools/build_times.sh DIR [TARGET...] [-- CMAKE_ARG...]
#   tools/build_times.sh build-times gpuplan -- -DGPUPLAN_PCH=OFF     the quickstart build, no PCH
# Removes DIR first; builds with ninja -j2 and without ccache (docs/performance.md, "Build time").
set -euo pipefail
if [[ ${1:-} == --launch ]]; then  # as the compiler launcher: LOG COMMAND...
  log=$2
  shift 2
  out="" prev=""
  for a in "$@"; do
    [[ $prev == -o ]] && out=$a
    prev=$a
  done
  exec /usr/bin/time -f "%U %S %e $out" -a -o "$log" "$@"
fi
cd "$(dirname "$0")/.."
dir=${1:?usage: tools/build_times.sh DIR [TARGET...] [-- CMAKE_ARG...]}
shift
targets=()
while (($#)) && [[ $1 != -- ]]; do
  targets+=("$1")
  shift
done
[[ ${1:-} == -- ]] && shift
rm -rf "$dir"
log=$PWD/$dir.steps
rm -f "$log"
launcher="$PWD/tools/build_times.sh;--launch;$log"
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUPLAN_CUDA=OFF \
  -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" -DCMAKE_CXX_LINKER_LAUNCHER="$launcher" "$@" >/dev/null
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
start=$SECONDS
nice -n 5 ninja -C "$dir" -j2 "${targets[@]}" >/dev/null
echo "wall: $((SECONDS - start)) s; load after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '{
  cpu = $1 + $2; out = $4
  kind = out ~ /\.gch$|\.pch$/ ? "precompiled header" : out ~ /\.o$/ ? "compile" : "link"
  target = out
  if (match(out, /CMakeFiles\/[^\/]+\.dir/)) target = substr(out, RSTART + 11, RLENGTH - 15)
  by_kind[kind] += cpu; n_kind[kind]++; by_target[target] += cpu; total += cpu
} END {
  for (k in by_kind) printf "kind   %-20s %4d steps %8.1f CPU s\n", k, n_kind[k], by_kind[k]
  for (t in by_target) printf "target %-28s %8.1f CPU s\n", t, by_target[t]
  printf "total  %8.1f CPU s\n", total
}' "$log" | sort
