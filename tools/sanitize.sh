#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer: builds with clang into build-san/ (CUDA, MPI and
# benchmarks off) and runs test suites there. Any sanitizer report fails the suite that hit it.
#   tools/sanitize.sh            the library suites: sim, models, topologies, study, reports,
#                                acceptance (CI)
#   tools/sanitize.sh --all      also `gpuplan` and the tools suite (every bundled scenario through
#                                the sanitized CLI against its golden file; about 23 min more)
#   tools/sanitize.sh --build    build the library suites and the libFuzzer harnesses only
# NOTE: CI runs the default: the tools suite under ASan takes longer than the rest of the step
# together (docs/reliability.md, "Sanitizers"). The browser, metrics and mpi suites (Chromium,
# promtool, OpenMPI) are left to the Release run of tools/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/lib.sh
mode=${1:-}
case $mode in
  "" | --all | --build) ;;
  *)
    echo "tools/sanitize.sh: unknown argument \"$mode\"; use none, --all or --build" >&2
    exit 2
    ;;
esac
apt_install_missing sanitize clang libclang-rt-14-dev libomp-14-dev
suites=(sim sim_long models topologies study reports acceptance)
targets=(test_sim test_models test_topologies test_study test_reports test_acceptance fuzzers)
if [[ $mode == --all ]]; then
  suites+=(tools)
  targets+=(gpuplan test_tools)
fi
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
CC=clang CXX=clang++ cmake -S . -B build-san -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DGPUPLAN_CUDA=OFF -DGPUPLAN_MPI=OFF -DGPUPLAN_BENCH=OFF -DGPUPLAN_SANITIZE=ON \
  -DGPUPLAN_FUZZ=ON "${launcher[@]}" >/dev/null
cmake --build build-san -j"$(nproc)" --target "${targets[@]}"
[[ $mode == --build ]] && exit 0
cd build-san
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
pattern=$(IFS='|'; echo "${suites[*]}")
# The suites are independent processes: one per core.
ctest --output-on-failure -j"$(nproc)" -R "^($pattern)\$"
