#!/usr/bin/env bash
# `mpirun -n 4 gpuplan mc` writes the summary and CSVs of one process, with a fixed replica count
# and with --target-ci; `gpuplan sweep`, `recommend` and `compare` likewise; bad input makes every process exit 2 with one message.
#   usage: tests/tools/mpi_mc.sh GPUPLAN MPIEXEC WORKDIR
set -euo pipefail
gpuplan=$1 mpiexec=$2 work=$3
rm -rf "$work" && mkdir -p "$work"

# CI runs as root in a container: no ssh, no ptrace between processes.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_plm=isolated OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_hwloc_base_binding_policy=none
mpi() { "$mpiexec" -n 4 "$gpuplan" "$@"; }

# Same result apart from how it ran: monte_carlo (processes, device, rounds) and the clock.
same() {
  python3 - "$1" "$2" <<'PY'
import json, sys, pathlib
a, b = (pathlib.Path(p) for p in sys.argv[1:3])
ra, rb = (json.loads((d / "result.json").read_text()) for d in (a, b))
assert ra["monte_carlo"]["processes"] == 1, ra["monte_carlo"]["processes"]
assert rb["monte_carlo"]["processes"] == 4, rb["monte_carlo"]["processes"]
assert rb["monte_carlo"]["device"].startswith("4 processes x "), rb["monte_carlo"]["device"]
if ra["monte_carlo"]["target_ci"] != rb["monte_carlo"]["target_ci"]:
    sys.exit("--target-ci outcome differs between 1 and 4 processes")
# byte for byte: the summary as written, and the CSVs
if json.dumps(ra["summary"]) != json.dumps(rb["summary"]):
    sys.exit("summary differs between 1 and 4 processes")
for r in (ra, rb):
    for k in ("generated_at", "monte_carlo"):
        r.pop(k)
if ra != rb:
    sys.exit("result.json differs: " + ", ".join(k for k in ra if ra[k] != rb.get(k)))
for f in ("replicas.csv", "timeseries.csv", "classes.csv"):
    if (a / f).read_bytes() != (b / f).read_bytes():
        sys.exit(f + " differs between 1 and 4 processes")
print(f"{a.name}: {ra['replications']} replications, identical under 4 processes")
PY
}

# 14 replicas in rounds of 4 x 3: the last round splits 2 replicas over 4 processes.
args=(mc scenarios/mc_quickstart.json --replications 14 --batch 3 --threads 1 --quiet)
"$gpuplan" "${args[@]}" --out "$work/one"
mpi "${args[@]}" --out "$work/four"
same "$work/one" "$work/four"

# --target-ci grows by one batch at a time and stops at the same replica count (44 here, below
# the cap of 64, so rank 0's decision to stop is what ends the study on every process).
args=(mc scenarios/quickstart.json --replications 4 --batch 2 --target-ci 0.5 --max-replications 64
      --threads 1 --quiet)
"$gpuplan" "${args[@]}" --out "$work/one-ci"
mpi "${args[@]}" --out "$work/four-ci"
same "$work/one-ci" "$work/four-ci"

# A sweep splits each point's replicas the same way: identical sweep.json (clock aside) and
# identical per-point summaries; only rank 0 writes.
args=(sweep scenarios/mc_quickstart.json --vary pools.0.count=8,10 --replications 6 --batch 2
      --threads 1 --quiet)
"$gpuplan" "${args[@]}" --out "$work/one-sweep"
mpi "${args[@]}" --out "$work/four-sweep"
python3 - "$work/one-sweep" "$work/four-sweep" <<'PY'
import json, sys, pathlib
a, b = (pathlib.Path(p) for p in sys.argv[1:3])
sa, sb = (json.loads((d / "sweep.json").read_text()) for d in (a, b))
for s in (sa, sb):
    s.pop("generated_at")
if sa != sb:
    sys.exit("sweep.json differs between 1 and 4 processes")
for p in ("point-0", "point-1"):
    ra, rb = (json.loads((d / p / "result.json").read_text()) for d in (a, b))
    if json.dumps(ra["summary"]) != json.dumps(rb["summary"]):
        sys.exit(p + ": summary differs between 1 and 4 processes")
for f in ("sweep.csv",):
    if (a / f).read_bytes() != (b / f).read_bytes():
        sys.exit(f + " differs between 1 and 4 processes")
print("sweep: 2 points, identical under 4 processes")
PY

# Bad input: every process exits 2 and only rank 0 prints the message.
set +e
mpi mc "$work/missing.json" --out "$work/bad" >"$work/bad.out" 2>"$work/bad.err"
rc=$?
set -e
if [[ $rc -ne 2 ]]; then
  echo "mpirun with a missing scenario exited $rc, expected 2" >&2
  cat "$work/bad.err" >&2
  exit 1
fi
n=$(grep -c "missing.json" "$work/bad.err" || true)
if [[ $n -ne 1 ]]; then
  echo "expected the message once, got $n times:" >&2
  cat "$work/bad.err" >&2
  exit 1
fi
echo "bad input: exit 2, one message"

# recommend: every probe's study is split, rank 0's outcome steers every process's bisection,
# so the recommendation and the winner's summary are those of one process.
args=(recommend scenarios/instance_selection.json --replications 8 --quiet)
"$gpuplan" "${args[@]}" --out "$work/one-rec"
mpi "${args[@]}" --out "$work/four-rec"
python3 - "$work/one-rec" "$work/four-rec" <<'PY'
import json, sys, pathlib
a, b = (pathlib.Path(p) for p in sys.argv[1:3])
ra, rb = (json.loads((d / "recommendation.json").read_text()) for d in (a, b))
if ra != rb:
    sys.exit("recommendation.json differs between 1 and 4 processes")
sa, sb = (json.loads((d / "result.json").read_text())["summary"] for d in (a, b))
if json.dumps(sa) != json.dumps(sb):
    sys.exit("the winner's summary differs between 1 and 4 processes")
print(f"recommend: {ra['recommended']['instance']} x {ra['recommended']['nodes']}, identical under 4 processes")
PY

# compare: both sides' studies are split the same way: identical compare.json (clock aside).
args=(compare scenarios/mc_quickstart.json scenarios/mc_quickstart.json --set-b pools.0.count=10
      --replications 6 --batch 2 --threads 1 --quiet)
"$gpuplan" "${args[@]}" --out "$work/one-cmp"
mpi "${args[@]}" --out "$work/four-cmp"
python3 - "$work/one-cmp" "$work/four-cmp" <<'PY'
import json, sys, pathlib
a, b = (pathlib.Path(p) for p in sys.argv[1:3])
ca, cb = (json.loads((d / "compare.json").read_text()) for d in (a, b))
for c in (ca, cb):
    c.pop("generated_at")
if ca != cb:
    sys.exit("compare.json differs between 1 and 4 processes")
print(f"compare: {len(ca['differences'])} differences, identical under 4 processes")
PY

# A command that does not split its work refuses mpirun before doing any, with exit 2.
set +e
mpi run scenarios/quickstart.json --out "$work/run" >"$work/run.out" 2>"$work/run.err"
rc=$?
set -e
if [[ $rc -ne 2 ]] || ! grep -q "does not split its work across MPI processes" "$work/run.err" ||
   [[ -e "$work/run" ]]; then
  echo "mpirun gpuplan run: expected exit 2, the message and no output (rc $rc)" >&2
  cat "$work/run.err" >&2
  exit 1
fi
echo "run under mpirun: refused with exit 2"

# Whether MPI is there is a file beside gpuplan (libgpuplan_mpi.so), looked for at run time: a
# gpuplan copied without it refuses mpirun with exit 2, says why, and writes nothing.
mkdir -p "$work/lonely" && cp "$gpuplan" "$work/lonely/gpuplan"
set +e
"$mpiexec" -n 2 "$work/lonely/gpuplan" mc scenarios/mc_quickstart.json --replications 4 \
  --out "$work/lonely/out" >"$work/lonely.out" 2>"$work/lonely.err"
rc=$?
set -e
if [[ $rc -ne 2 ]] || ! grep -q "built without MPI" "$work/lonely.err" || [[ -e "$work/lonely/out" ]]; then
  echo "mpirun of a gpuplan without its MPI module: expected exit 2, the message and no output (rc $rc)" >&2
  cat "$work/lonely.err" >&2
  exit 1
fi
echo "no MPI module beside gpuplan: refused with exit 2"
