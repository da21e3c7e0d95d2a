#!/usr/bin/env bash
# Installs and builds what is missing, then runs the bundled quickstart scenario:
# writes out/quickstart/report.html and out/quickstart/result.json.
set -euo pipefail
cd "$(dirname "$0")/.."
# Builds only the program it runs, configured as tools/test.sh configures it (so the tests after it
# build no library again); the CUDA module for `gpuplan mc --backend cuda` is left to tools/test.sh,
# since a single run never uses it.
tools/setup.sh gpuplan
./build/gpuplan run scenarios/quickstart.json "$@"
