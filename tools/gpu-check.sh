#!/usr/bin/env bash
# GPU checks in one go, for a machine with a CUDA device: configure with CUDA, build, run the
# CUDA-vs-CPU agreement tests (the cluster engine's and the serving simulator's) and every Monte
# Carlo test, one CUDA Monte Carlo study and one serving study through the CLI on each backend,
# and the Monte Carlo benchmark on both backends. Figures go to $OUT (if
# set), else to build-gpu/gpu-check/: at most 8 files, none in folders.
#   tools/gpu-check.sh                     configure and build in build-gpu/, then check
#   GPU_CHECK_BIN=dir tools/gpu-check.sh   no build: gpuplan, test_sim, gpuplan_bench and
#                                          libgpuplan_cuda.so already built in dir (with
#                                          -DGPUPLAN_CUDA=ON), e.g. on a machine with nvcc and
#                                          no GPU; libraries they need may sit in dir/../lib
#   GPU_CHECK_QUICK=1 tools/gpu-check.sh   1,000 replications only in the benchmark
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
out="${OUT:-build-gpu/gpu-check}"
mkdir -p "$out"
scratch=$(mktemp -d)
log() { echo "gpu-check: $*" | tee -a "$out/summary.txt" >&2; }
timed() {  # timed LIMIT_S NAME CMD...: runs CMD under a time limit, logs its wall time and status
  local limit=$1 name=$2 start rc
  shift 2
  start=$(date +%s%N)
  timeout "$limit" "$@"
  rc=$?
  log "$name: exit $rc in $((($(date +%s%N) - start) / 1000000)) ms"
  return $rc
}

{ nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader
  nproc; } >"$scratch/gpu.txt" 2>&1
log "device: $(head -1 "$scratch/gpu.txt"); host cores: $(tail -1 "$scratch/gpu.txt")"
if [[ -n "${GPU_CHECK_BIN:-}" ]]; then
  bin=$(cd "$GPU_CHECK_BIN" && pwd)
  [[ -d "$bin/../lib" ]] && export LD_LIBRARY_PATH="$(cd "$bin/../lib" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
else
  bin=build-gpu
  cmake -S . -B "$bin" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUPLAN_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90}" >"$scratch/configure.log" 2>&1
  grep -q "CUDA module ON" "$scratch/configure.log" || { log "CUDA module not configured"; exit 1; }
  timed 1800 build cmake --build "$bin" -j"$(nproc)" \
    --target gpuplan gpuplan_cuda test_sim gpuplan_bench >"$out/build.log" 2>&1 || exit 1
fi

status=0
timed 300 "Monte Carlo tests" "$bin/test_sim" -tc="sim::mc*,sim::cuda_module*" -s \
  >"$out/test_mc.log" 2>&1 || status=1
grep -q "MESSAGE: skipped" "$out/test_mc.log" &&
  { status=1; log "a CUDA test was skipped: $(grep -m1 -A1 'MESSAGE: skipped' "$out/test_mc.log")"; }

for backend in cuda cpu; do
  timed 300 "gpuplan mc --backend $backend (1,000 replications)" "$bin/gpuplan" mc \
    scenarios/mc_quickstart.json --replications 1000 --backend "$backend" --quiet \
    --out "$scratch/mc_$backend" || status=1
  cp "$scratch/mc_$backend/result.json" "$out/mc_quickstart_$backend.json" 2>/dev/null
done

# The serving simulator: 1,000 replications of 2,000 requests, one per GPU thread or on the
# host's cores; the metrics must agree (tests/tools/serve_sim_test.cpp checks the same on 1).
for backend in cuda cpu; do
  timed 300 "gpuplan serve-sim --backend $backend (1,000 replications)" "$bin/gpuplan" serve-sim \
    scenarios/serving/chat_8b_h100.json --replications 1000 --requests 2000 \
    --backend "$backend" --quiet --out "$scratch/serve_$backend" || status=1
done
python3 - "$scratch/serve_cuda/result.json" "$scratch/serve_cpu/result.json" \
  >>"$out/summary.txt" 2>&1 <<'PY' || { status=1; log "serve-sim: the backends disagree"; }
import json, sys
a, b = (json.load(open(f))["metrics"] for f in sys.argv[1:])
def leaves(x, at=""):
    if isinstance(x, dict):
        for k, v in x.items():
            yield from leaves(v, at + "/" + k)
    elif isinstance(x, (int, float)) and not isinstance(x, bool):
        yield at, x
bad = [(k, x, y) for (k, x), (_, y) in zip(leaves(a), leaves(b)) if abs(x - y) > 1e-9 * max(1, abs(x))]
print("serve-sim cuda vs cpu: %d metrics differ%s" % (len(bad), "".join("\n  %s %r %r" % t for t in bad[:10])))
sys.exit(1 if bad else 0)
PY

# The 1,000-replication cases first, each size under its own limit, so one that runs long
# still leaves the other's figure.
sizes=(1000 10000 50000)
[[ -n "${GPU_CHECK_QUICK:-}" ]] && sizes=(1000)
for n in "${sizes[@]}"; do
  timed 240 "benchmark, $n replications" "$bin/gpuplan_bench" --benchmark_filter="bm_mc_.*/$n/" \
    --benchmark_out="$out/bench_mc_$n.json" --benchmark_out_format=json >>"$out/bench_mc.txt" 2>&1 ||
    status=1
done
cat "$out/bench_mc.txt" >&2
rm -rf "$scratch"
exit $status
