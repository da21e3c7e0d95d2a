#!/usr/bin/env bash
# Loads the OpenMetrics export of one run and one Monte Carlo study into a Prometheus TSDB with
# Debian's promtool (the way docs/metrics.md tells users to), and checks that every sample
# arrived, that the alert rules parse and fire as stated, and that the Grafana dashboard queries
# only series the export holds.
#
#   tests/reports/promtool_check.sh GPUPLAN_BINARY OUT_DIR
#
# Exit 77 (ctest: skipped) when promtool is absent, unless GPUPLAN_REQUIRE_PROMTOOL=1 (the
# README's test command sets it; tools/setup.sh installs the `prometheus` package).
set -euo pipefail
bin=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v promtool >/dev/null; then
  if [[ "${GPUPLAN_REQUIRE_PROMTOOL:-0}" == 1 ]]; then
    echo "promtool_check: promtool is required but not installed (Debian package prometheus)" >&2
    exit 1
  fi
  echo "promtool_check: promtool not installed; skipping (tools/setup.sh installs it)" >&2
  exit 77
fi
rm -rf "$out"
mkdir -p "$out"
"$bin" run scenarios/quickstart.json --quiet --openmetrics --metrics-start 2027-03-01 \
  --out "$out/run"
"$bin" mc scenarios/quickstart.json --quiet --replications 8 --backend cpu --openmetrics \
  --out "$out/mc"

for kind in run mc; do
  dir="$out/$kind"
  promtool tsdb create-blocks-from openmetrics --max-block-duration=720h "$dir/metrics.om" \
    "$out/tsdb-$kind" >"$out/$kind.log"
  # Every sample line of the export is one sample in the database (dump reads a server's folder,
  # which has a write-ahead log; a backfilled one has none yet).
  mkdir -p "$out/tsdb-$kind/wal"
  written=$(grep -vc '^#' "$dir/metrics.om")
  stored=$(promtool tsdb dump "$out/tsdb-$kind" | grep -c '^{')
  if [[ "$written" != "$stored" ]]; then
    echo "promtool_check: $kind: $written samples written, $stored in the TSDB" >&2
    exit 1
  fi
  promtool check rules "$dir/prometheus_rules.yml" >/dev/null
  python3 - "$dir" <<'PY'
import json, re, sys
d = sys.argv[1]
families = set(re.findall(r"^# TYPE (\S+)", open(d + "/metrics.om").read(), re.M))
dash = json.load(open(d + "/grafana_dashboard.json"))
for panel in dash["panels"]:
    for t in panel["targets"]:
        names = {n[:-len("_total")] if n.endswith("_total") else n
                 for n in re.findall(r"gpuplan_[a-z_]+", t["expr"])}
        missing = names - families
        assert not missing, (panel["title"], missing)
assert dash["time"]["from"] < dash["time"]["to"], dash["time"]
PY
  echo "$kind: $written samples in the TSDB, rules and dashboard checked"
done
# Facility power is exported as a gauge in watts: one series for a run, mean and p10/p50/p90 for a
# Monte Carlo study, each with a sample per bin.
bins=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["timeseries"]["t_s"]))' "$out/run/result.json")
if [[ $(grep -c '^gpuplan_power_watts{' "$out/run/metrics.om") != "$bins" ]]; then
  echo "promtool_check: run: expected $bins gpuplan_power_watts samples" >&2
  exit 1
fi
for stat in mean p10 p50 p90; do
  if [[ $(grep -c "^gpuplan_power_watts{.*statistic=\"$stat\"" "$out/mc/metrics.om") != "$bins" ]]; then
    echo "promtool_check: mc: expected $bins gpuplan_power_watts samples with statistic=$stat" >&2
    exit 1
  fi
done
grep -q '^# UNIT gpuplan_power_watts watts$' "$out/run/metrics.om"
# The run's first sample is stamped at the requested start plus one bin.
first=$(grep -m1 '^gpuplan_busy_gpus' "$out/run/metrics.om" | awk '{print $3}')
bin_s=$(python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["timeseries"]["bin_s"]))' "$out/run/result.json")
if [[ "$first" != $((1803859200 + bin_s)) ]]; then
  echo "promtool_check: first sample at $first, expected 2027-03-01 + $bin_s s" >&2
  exit 1
fi
# The alert rules fire on low utilization and a standing queue, and stay quiet otherwise.
cp "$out/run/prometheus_rules.yml" "$out/prometheus_rules.yml"
cp "$here/fixtures/prometheus_rules_test.yml" "$out/"
(cd "$out" && promtool test rules prometheus_rules_test.yml)
