#!/usr/bin/env bash
# Installs and builds what is missing, then runs the bundled quickstart scenario:
# writes out/quickstart/report.html and out/quickstart/result.json.
set -euo pipefail
cd "$(dirname "$0")/.."
# Builds only the program it runs; the CUDA device code (for `gpuplan mc --backend cuda`) is left
# to tools/setup.sh and tools/test.sh, since a single run never uses it.
GPUPLAN_CUDA=${GPUPLAN_CUDA:-OFF} tools/setup.sh gpuplan
./build/gpuplan run scenarios/quickstart.json "$@"
