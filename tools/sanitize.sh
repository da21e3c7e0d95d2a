#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer: builds the test suites, gpuplan and the libFuzzer
# harnesses with clang into build-san/ (CUDA and MPI off) and runs the sim, models, topologies,
# study, reports and tools suites there. Any sanitizer report fails the suite that hit it.
#   tools/sanitize.sh            install clang if missing, build, test
#   tools/sanitize.sh --build    build only (e.g. before tools/fuzz/run.sh)
# NOTE: the browser suite (Chromium rendering the same HTML) and the mpi suite (OpenMPI is not
# built with ASan and reports its own leaks) are left to the Release run of tools/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/lib.sh
apt_install_missing sanitize clang libclang-rt-14-dev libomp-14-dev
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
CC=clang CXX=clang++ cmake -S . -B build-san -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DGPUPLAN_CUDA=OFF -DGPUPLAN_MPI=OFF -DGPUPLAN_BENCH=OFF -DGPUPLAN_SANITIZE=ON \
  -DGPUPLAN_FUZZ=ON "${launcher[@]}" >/dev/null
cmake --build build-san -j"$(nproc)" --target gpuplan test_sim test_models test_topologies \
  test_study test_reports test_tools fuzzers
[[ ${1:-} == --build ]] && exit 0
cd build-san
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
ctest --output-on-failure -R '^(sim|models|topologies|study|reports|tools)$'
