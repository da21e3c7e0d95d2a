#!/usr/bin/env bash
# Installs and builds what is missing, then runs the bundled quickstart scenario as a Monte Carlo
# study: writes out/quickstart/report.html and out/quickstart/result.json.
set -euo pipefail
cd "$(dirname "$0")/.."
# Builds only the program it runs, configured as tools/test.sh configures it (so the tests after it
# build no library again); the CUDA and MPI modules and gpuplan-serve are left to tools/test.sh,
# and without the CUDA module `auto` runs the study on the CPU threads.
tools/setup.sh gpuplan
# NOTE: one replication is one random history, and this cluster's waits range from minutes to days
# between histories (docs/first-report.md, "One history or a hundred"); the first report a user
# reads gives the means over 100 of them, with their confidence intervals, and the verdicts
# those support.
./build/gpuplan mc scenarios/quickstart.json "$@"
