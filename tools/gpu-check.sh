#!/usr/bin/env bash
# GPU checks in one go, for a machine with a CUDA device: configure with CUDA, build, run the
# CUDA-vs-CPU agreement test and every Monte Carlo test, one CUDA Monte Carlo study through the
# CLI, and the Monte Carlo benchmark on both backends. Figures go to $OUT (if set), else to
# build-gpu/gpu-check/.
#   tools/gpu-check.sh            full run (about 5 minutes on an H100/H200 after the build)
#   GPU_CHECK_QUICK=1 tools/gpu-check.sh   1,000 replications only in the benchmark
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
build=build-gpu
out="${OUT:-$build/gpu-check}"
mkdir -p "$out"
log() { echo "gpu-check: $*" | tee -a "$out/summary.txt" >&2; }

nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader >"$out/gpu.txt" 2>&1 || true
log "device: $(head -1 "$out/gpu.txt")"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUPLAN_CUDA=ON \
  -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90}" >"$out/configure.log" 2>&1
grep -q "CUDA module ON" "$out/configure.log" || { log "CUDA module not configured"; exit 1; }
cmake --build "$build" -j"$(nproc)" --target gpuplan gpuplan_cuda test_sim gpuplan_bench >"$out/build.log" 2>&1 ||
  { tail -40 "$out/build.log" >&2; log "build failed"; exit 1; }

status=0
"$build/test_sim" -tc="sim::mc*,sim::cuda_module*" -s >"$out/test_mc.log" 2>&1 && log "Monte Carlo tests: pass" ||
  { status=1; log "Monte Carlo tests: FAIL (see test_mc.log)"; }
grep -q "skipped" "$out/test_mc.log" && { status=1; log "the CUDA agreement test was skipped"; }

"$build/gpuplan" mc scenarios/mc_quickstart.json --replications 1000 --backend cuda --quiet \
  --out "$out/mc_quickstart_cuda" && log "gpuplan mc --backend cuda: ok" ||
  { status=1; log "gpuplan mc --backend cuda: FAIL"; }
"$build/gpuplan" mc scenarios/mc_quickstart.json --replications 1000 --backend cpu --quiet \
  --out "$out/mc_quickstart_cpu" && log "gpuplan mc --backend cpu: ok" || status=1

filter='bm_mc_.*'
[[ -n "${GPU_CHECK_QUICK:-}" ]] && filter='bm_mc_.*/1000/'
"$build/gpuplan_bench" --benchmark_filter="$filter" --benchmark_out="$out/bench_mc.json" \
  --benchmark_out_format=json | tee "$out/bench_mc.txt" || status=1
log "benchmark: $out/bench_mc.txt"
exit $status
