#!/usr/bin/env bash
# Whole-process comparison of gpuplan with two peer simulators on one queue: the 1 M-customer
# M/M/64 of tools/bench/scenarios/mm64_1m.json (Poisson arrivals at 50/s, exponential service with
# mean 1.024 s, 64 servers, load 0.8, 20,000 simulated seconds, waits counted after 100 s).
#   gpuplan run      tools/bench/scenarios/mm64_1m.json --quiet
#   SimPy 3          tools/bench/peers/mm64_simpy.py    (Debian python3-simpy3, /usr/bin/python3)
#   SimGrid S4U      tools/bench/peers/mm64_simgrid.cpp (mailbox, detached puts) and
#                    tools/bench/peers/mm64_simgrid_semaphore.cpp (counting semaphore and a plain
#                    queue: the faster idiomatic program), Debian libsimgrid-dev, built here
# Each is timed from spawn to reap (wall, and CPU and peak RSS from wait4); the table gives wall time, CPU time (user + system: steadier
# than wall on a shared machine), peak RSS and mean wait (checked against Erlang C), and gpuplan's
# speed-up over each peer (issue 10 targets: >= 40x SimPy 3, >= 10x SimGrid S4U), against the
# faster of the two SimGrid programs.
#
# Usage: tools/bench/compare_peers.sh [RUNS]   (default 1; with more, each program's fastest run)
# Environment: GPUPLAN_BUILD, the build folder (default build/; gpuplan is built there if absent).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${GPUPLAN_BUILD:-$root/build}
runs=${1:-1}
horizon=20000 # [s], as in mm64_1m.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ---- what it needs: Debian packages (idempotent), gpuplan, the SimGrid peer ------------------
missing=()
for pkg in python3-simpy3 libsimgrid-dev g++; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if ((${#missing[@]})); then
  sudo_cmd=()
  [ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
  echo "installing ${missing[*]}" >&2
  "${sudo_cmd[@]}" apt-get install -y "${missing[@]}" >&2 ||
    { "${sudo_cmd[@]}" apt-get update >&2 && "${sudo_cmd[@]}" apt-get install -y "${missing[@]}" >&2; }
fi

if [ ! -x "$build/gpuplan" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUPLAN_CUDA=OFF >&2
  cmake --build "$build" --target gpuplan >&2
fi

for peer in mm64_simgrid mm64_simgrid_semaphore; do
  src=$root/tools/bench/peers/$peer.cpp
  if [ ! -x "$build/peers/$peer" ] || [ "$src" -nt "$build/peers/$peer" ]; then
    mkdir -p "$build/peers"
    g++ -O3 -DNDEBUG -std=c++17 "$src" -o "$build/peers/$peer" -lsimgrid
  fi
done

# ---- the runs ---------------------------------------------------------------------------------
echo "machine: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
load1=$(cut -d' ' -f1 /proc/loadavg)
if awk -v l="$load1" 'BEGIN { exit !(l > 1.5) }'; then
  echo "warning: 1-minute load average $load1 > 1.5; figures will be slower than on an idle machine" >&2
fi

# measure NAME RUN CMD...: runs CMD (an absolute path first) with output to $work/NAME.RUN.out and
# its wall time, CPU time and peak RSS to $work/NAME.RUN.time. Timed from the spawn to the reap,
# to the microsecond (/usr/bin/time rounds to 10 ms, 5 % of gpuplan's run).
measure() {
  local name=$1 run=$2
  shift 2
  /usr/bin/python3 -c '
import os, sys, time
out, argv = sys.argv[1], sys.argv[2:]
t0 = time.perf_counter()
pid = os.posix_spawn(argv[0], argv, os.environ)
_, status, ru = os.wait4(pid, 0)
wall = time.perf_counter() - t0
with open(out, "w") as f:
    f.write("wall_s=%.6f user_s=%.6f sys_s=%.6f maxrss_kb=%d\n"
            % (wall, ru.ru_utime, ru.ru_stime, ru.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))' "$work/$name.$run.time" "$@" >"$work/$name.$run.out" 2>&1 ||
    { echo "$name failed:" >&2; cat "$work/$name.$run.out" >&2; exit 1; }
}

for ((r = 1; r <= runs; r++)); do # interleaved, so slow phases of the machine hit all three
  measure gpuplan "$r" "$build/gpuplan" run "$root/tools/bench/scenarios/mm64_1m.json" --quiet \
    --out "$work/gpuplan_out"
  /usr/bin/python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["metrics"]
print("mean_wait_s=%.6g customers=%d" % (m["wait_s"]["mean"], m["jobs_submitted"]))' \
    "$work/gpuplan_out/result.json" >"$work/gpuplan.$r.out"
  measure simpy "$r" /usr/bin/python3 "$root/tools/bench/peers/mm64_simpy.py" "$horizon"
  measure simgrid "$r" "$build/peers/mm64_simgrid" "$horizon"
  measure simgrid_semaphore "$r" "$build/peers/mm64_simgrid_semaphore" "$horizon"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# ---- the table --------------------------------------------------------------------------------
/usr/bin/python3 - "$work" "$runs" <<'EOF'
import math, re, sys

work, runs = sys.argv[1], int(sys.argv[2])

def measured(name):
    best = None
    for r in range(1, runs + 1):
        t = dict(kv.split("=") for kv in open(f"{work}/{name}.{r}.time").read().split())
        out = open(f"{work}/{name}.{r}.out").read()
        row = {
            "wall": float(t["wall_s"]),
            "cpu": float(t["user_s"]) + float(t["sys_s"]),
            "rss": int(t["maxrss_kb"]) / 1024,
            "wait": float(re.search(r"mean_wait_s=(\S+)", out).group(1)),
            "n": int(re.search(r"customers=(\d+)", out).group(1)),
        }
        best = row if best is None or row["wall"] < best["wall"] else best
    return best

# Erlang C for M/M/c: P(wait) = (a^c/c!) (c/(c-a)) / (sum_{k<c} a^k/k! + (a^c/c!) (c/(c-a))).
lam, mean_s, c = 50.0, 1.024, 64
a = lam * mean_s
terms = [1.0]
for k in range(1, c + 1):
    terms.append(terms[-1] * a / k)
top = terms[c] * c / (c - a)
p_wait = top / (sum(terms[:c]) + top)
erlang_wait = p_wait / (c / mean_s - lam)

rows = [("gpuplan run", measured("gpuplan")), ("SimPy 3", measured("simpy")),
        ("SimGrid S4U, mailbox", measured("simgrid")),
        ("SimGrid S4U, semaphore", measured("simgrid_semaphore"))]
print(f"M/M/64, load {a / c:.2f}, 1 M customers; {'fastest of %d runs' % runs if runs > 1 else '1 run'} each")
print("| program | wall [s] | CPU [s] | peak RSS [MB] | mean wait [ms] | customers counted |")
print("|---|---|---|---|---|---|")
for name, m in rows:
    print(f"| {name} | {m['wall']:.3f} | {m['cpu']:.3f} | {m['rss']:.0f} | {1e3 * m['wait']:.3f} | {m['n']:,} |")
print(f"| Erlang C | | | | {1e3 * erlang_wait:.3f} | |")
for what in ("wall", "cpu"):
    g = rows[0][1][what]
    fastest = min(rows[2:], key=lambda r: r[1][what])
    print(f"gpuplan vs SimPy 3 ({what}): {rows[1][1][what] / g:.1f}x (target >= 40x); "
          f"vs {fastest[0]} ({what}), the faster SimGrid program: "
          f"{fastest[1][what] / g:.1f}x (target >= 10x)")
# NOTE: the waits are ~94 % zeros and correlated over busy periods, so one run's mean of 1 M
# waits scatters: 0.29 ms (6.5 %) standard deviation over 12 seeds of the bare loop. 20 % (3
# standard deviations) off Erlang C means a different queue, not noise.
for name, m in rows:
    if abs(m["wait"] / erlang_wait - 1) > 0.20:
        print(f"warning: {name}'s mean wait is {100 * (m['wait'] / erlang_wait - 1):+.1f} % off Erlang C")
EOF
