#!/usr/bin/env bash
# Installs what gpuplan needs on Debian 12 (idempotent) and builds it into build/.
#   tools/setup.sh                  dependencies + Release build of everything (tests, benchmarks)
#   tools/setup.sh gpuplan          dependencies to build + only the `gpuplan` program (quickstart)
#   GPUPLAN_CUDA=OFF tools/setup.sh skip the CUDA module (libgpuplan_cuda.so) even where nvcc exists
# Every call configures build/ alike, so `tools/setup.sh gpuplan` (quickstart) and `tools/setup.sh`
# (tests) share their objects: the second builds only what the first left out.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=("$@")

# To build gpuplan itself (cpp-httplib: `gpuplan serve`, configured with the rest).
packages=(build-essential cmake ninja-build ccache git python3
          nlohmann-json3-dev librandom123-dev libcli11-dev doctest-dev libbenchmark-dev
          libeigen3-dev libboost-graph-dev libthrust-dev libjs-chart.js libssl-dev
          libcpp-httplib-dev)
# A full build and its tests add what the quickstart's `gpuplan` does without (83 packages of
# its 290, about 12 s of apt): Graphviz (`dot` draws switch trees; the quickstart has none),
# OpenMPI (the module libgpuplan_mpi.so for `mpirun -n N gpuplan mc`, a file gpuplan looks for
# when a launcher starts it, so adding it later recompiles nothing), a browser (headless report
# checks; the quote page through Selenium) and promtool (the OpenMetrics export).
((${#targets[@]})) || packages+=(graphviz libopenmpi-dev openmpi-bin
                                 chromium chromium-driver python3-selenium prometheus)

source tools/lib.sh
apt_install_missing setup "${packages[@]}"

# nvcc is optional: with it the core is also compiled as CUDA device code, in the module
# libgpuplan_cuda.so; nothing else depends on the choice (docs/performance.md, "Build time").
if [[ -z "${GPUPLAN_CUDA:-}" ]]; then
  if command -v nvcc >/dev/null || [[ -x /usr/local/cuda/bin/nvcc ]]; then GPUPLAN_CUDA=ON; else GPUPLAN_CUDA=OFF; fi
fi
export PATH="$PATH:/usr/local/cuda/bin"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUPLAN_CUDA="$GPUPLAN_CUDA" \
  "${launcher[@]}" >/dev/null
if ((${#targets[@]})); then
  cmake --build build -j"$(nproc)" --target "${targets[@]}"
else
  cmake --build build -j"$(nproc)"
fi
