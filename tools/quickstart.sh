#!/usr/bin/env bash
# Installs and builds what is missing, then runs the bundled quickstart scenario:
# writes out/quickstart/report.html and out/quickstart/result.json.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh gpuplan  # builds only the program it runs
./build/gpuplan run scenarios/quickstart.json "$@"
