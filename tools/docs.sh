#!/usr/bin/env bash
# Executable docs: runs every example a page marks (<!-- docs:run ... cmd: ... --> ... <!-- docs:end -->)
# from a clean folder with the built gpuplan on PATH, and checks that the page shows what the
# command prints (--check, the default; CI) or rewrites the blocks in place (--update).
#   tools/docs.sh [--check|--update|--list] [-j N] [--only ID_REGEX] [PAGE.md ...]
# GPUPLAN_BIN: the binary to run (default build/gpuplan). GPUPLAN_DOCS_JOBS: parallel examples (2).
# How to mark an example: docs/architecture.md, "How to add an example to a page".
set -euo pipefail
exec python3 "$(dirname "$0")/docs.py" "$@"
