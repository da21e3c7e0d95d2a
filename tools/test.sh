#!/usr/bin/env bash
# Installs and builds what is missing, then runs every test (unit, validation, golden scenarios,
# headless-browser report checks, and the docs check: ctest's `docs` runs tools/docs.sh --check,
# `docs_tool` tests that check) with CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cd build
# The suites run side by side, one per core: the browser suites wait on Chromium much of the time
# (2 cores: 416 s against 513 s one after the other).
GPUPLAN_REQUIRE_BROWSER=${GPUPLAN_REQUIRE_BROWSER:-1} \
  GPUPLAN_REQUIRE_PROMTOOL=${GPUPLAN_REQUIRE_PROMTOOL:-1} ctest --output-on-failure -j"$(nproc)" "$@"
