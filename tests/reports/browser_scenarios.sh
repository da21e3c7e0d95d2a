#!/usr/bin/env bash
# Runs every bundled scenario through `gpuplan run` and checks each report in headless Chromium
# (tests/reports/browser_pages.py, one browser for all the pages): no console error, no empty
# chart, a PNG screenshot per report.
# Then does the same for the sweep.html of one small `gpuplan sweep` (screenshot: sweep.png), the
# compare.html of one `gpuplan compare`, a report whose scenario name tries to inject markup, and
# the quote pages (plus one quote.pdf), and the serving simulation's pages.
#
#   tests/reports/browser_scenarios.sh GPUPLAN_BINARY OUT_DIR
#
# Exit 77 (ctest: skipped) when Chromium is absent, unless GPUPLAN_REQUIRE_BROWSER=1 (CI sets it).
set -euo pipefail
bin=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v chromium >/dev/null && [[ -z "${CHROMIUM:-}" ]]; then
  if [[ "${GPUPLAN_REQUIRE_BROWSER:-0}" == 1 ]]; then
    echo "browser_scenarios: chromium is required but not installed" >&2
    exit 1
  fi
  echo "browser_scenarios: chromium not installed; skipping (tools/setup.sh installs it)" >&2
  exit 77
fi
mkdir -p "$out"
n=0
pages="$out/pages.jsonl"
: >"$pages"
# page HTML PNG [TEXT...]: a page to check once every output is written (browser_pages.py).
page() {
  python3 -c 'import json, sys; print(json.dumps(sys.argv[1:]))' "$@" >>"$pages"
}
for scenario in scenarios/*.json scenarios/reproduce/*.json; do
  case "$scenario" in *.expected.json) continue ;; esac
  name=$(basename "$scenario" .json)
  args=(run)
  golden="${scenario%.json}.expected.json"
  if [[ -f "$golden" ]]; then
    # the golden file names the subcommand and flags the scenario is meant to run with
    mapfile -t args < <(python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["command"]))' "$golden")
  fi
  # A scenario whose public data file is absent (a fresh clone without ../shared/data) is skipped
  # by name, unless GPUPLAN_REQUIRE_DATA=1 (CI), as the trace tests are.
  status=0
  "$bin" "${args[@]}" "$scenario" --quiet --out "$out/$name" 2>"$out/$name.err" || status=$?
  if ((status != 0)); then
    if ((status == 2)) && [[ "${GPUPLAN_REQUIRE_DATA:-0}" != 1 ]] &&
      grep -q "not found on the data path" "$out/$name.err"; then
      echo "browser_scenarios: skipped: $name: $(grep -o '"[^"]*" not found on the data path' "$out/$name.err" | head -1)" >&2
      continue
    fi
    cat "$out/$name.err" >&2
    exit "$status"
  fi
  must_show=()
  # The planner's options: each one's simulated run-out month beside the projected one.
  [[ "$name" == growth_buy_reserve_burst ]] && must_show=("In the simulation" "reserve_3y" "burst")
  # Sections shown only when their keys are present: failures with a failure model, allocation
  # beside compute used with shared pools; neither on a plain fleet.
  [[ "$name" == llama3_failures ]] && must_show=("Hardware failures" "failures-causes-table"
    "Effective training time" "Interruptions and lost work" "!Spot reclaims" "!Shared GPUs")
  [[ "$name" == sharing_fleet ]] && must_show=("Shared GPUs: allocation and compute used"
    "sharing-table" "Compute used" "Allocation and compute used per pool" "!Hardware failures")
  [[ "$name" == quickstart ]] && must_show=("!Hardware failures" "!Shared GPUs" "!Compute used")
  page "$out/$name/report.html" "$out/$name.png" "${must_show[@]}"
  n=$((n + 1))
done
# One small sweep's sweep.html (6 nodes saturate, 8 and 10 make the cost-wait front, 12 is
# dominated by 10), so both Pareto charts, the saturated band and the table render.
"$bin" sweep scenarios/mc_quickstart.json --replications 8 --vary pools.0.count=6,8,10,12 \
  --set limits.max_active_jobs=1000 --quiet --out "$out/sweep"
page "$out/sweep/sweep.html" "$out/sweep.png" \
  "Total cost against useful work" "Useful work" "Utilization and useful work"
n=$((n + 1))
# A Monte Carlo study of a TCO scenario: the projection's p10-p90 bands and NPV intervals.
"$bin" mc scenarios/hybrid_burst.json --replications 4 --quiet --out "$out/hybrid_burst-mc"
page "$out/hybrid_burst-mc/report.html" "$out/hybrid_burst-mc.png"
n=$((n + 1))
# A paired comparison (8 vs 10 nodes, common random numbers): compare.html from the shared skeleton.
"$bin" compare scenarios/mc_quickstart.json scenarios/mc_quickstart.json --replications 8 \
  --set-a pools.0.count=8 --set-b pools.0.count=10 --quiet --out "$out/compare"
page "$out/compare/compare.html" "$out/compare.png" \
  "What was compared" "--set-b pools.0.count=10" "--set-a pools.0.count=8" "(95% CI " "!TCO options"
n=$((n + 1))
# A comparison of two TCO projections (discount rate 8 % against 12 %): NPV and total per option.
"$bin" compare scenarios/hybrid_burst.json scenarios/hybrid_burst.json --replications 3 \
  --set-b tco.discount_rate=0.12 --quiet --out "$out/compare-tco"
page "$out/compare-tco/compare.html" "$out/compare-tco.png" \
  "TCO: net present value and total per option" "tco.options.hybrid.npv_usd" \
  "--set-b tco.discount_rate=0.12"
n=$((n + 1))
# Names that try to break out of the data island: the page must show them as text (a scenario
# name names the output folder, so only the pool name carries the "/" of "</script>").
evil='</script><img src=x onerror=alert(1)>"<b onmouseover=alert(2)>'
"$bin" run scenarios/quickstart.json --set "name=<img src=x onerror=alert(1)><b onmouseover=alert(2)>" \
  --set "pools.0.name=$evil" --quiet --out "$out/xss"
page "$out/xss/report.html" "$out/xss.png"
n=$((n + 1))
# The quote pages of the bundled requests (training and inference), and one quote.pdf.
for request in scenarios/quotes/*.json; do
  name=$(basename "$request" .json)
  "$bin" quote --request "$request" --quiet --no-pdf --out "$out/quote-$name"
  page "$out/quote-$name/quote.html" "$out/quote-$name.png"
  n=$((n + 1))
done
# The serving simulation's page of each bundled serving scenario (fewer requests: the page, not
# the figures, is under test), and a saturated one, which must say so.
for scenario in scenarios/serving/*.json; do
  name=$(basename "$scenario" .json)
  [[ "$name" == *.expected ]] && continue
  "$bin" serve-sim "$scenario" --requests 3000 --quiet --out "$out/serving-$name"
  page "$out/serving-$name/report.html" "$out/serving-$name.png" \
    "Goodput" "Latency percentiles" "KV cache and batching" "KV cache over time" "What ran" \
    "!Saturated"
  n=$((n + 1))
done
# A replayed trace says so where the workload is described, and a priced cluster shows its cost.
page "$out/serving-chat_8b_h100_replay/report.html" \
  "$out/serving-replay-check.png" "arrivals replayed at" "!Poisson arrivals"
n=$((n + 1))
# Staged rates are described as such, each stage with its rate and length.
page "$out/serving-chat_8b_h100_stages/report.html" \
  "$out/serving-stages-check.png" "Poisson arrivals at staged rates" "80.00/s for"
n=$((n + 1))
page "$out/serving-chat_8b_h100_streams/report.html" \
  "$out/serving-streams-check.png" "a closed loop of 256 streams" "!Poisson arrivals"
n=$((n + 1))
# A search's page leads with its ranked configurations, the cheapest first.
page "$out/serving-chat_8b_search/report.html" \
  "$out/serving-search-check.png" "Configuration search" "Configurations, cheapest first" \
  "and one fewer does not" "Costlier"
n=$((n + 1))
"$bin" serve-sim scenarios/serving/chat_8b_h100.json --requests 3000 --set instance=p5.48xlarge \
  --quiet --out "$out/serving-priced"
page "$out/serving-priced/report.html" "$out/serving-priced.png" \
  "p5.48xlarge, on_demand" "per million output tokens"
n=$((n + 1))
"$bin" serve-sim scenarios/serving/chat_8b_h100.json --requests 20000 --set workload.rate=2000/s \
  --set queue_capacity=64 --quiet --out "$out/serving-saturated"
page "$out/serving-saturated/report.html" "$out/serving-saturated.png" \
  "Saturated" "cannot keep up" "!Meets its SLOs" "!Latency percentiles"
n=$((n + 1))
"$bin" serve-sim scenarios/serving/long_context_70b_a100.json --set workload.rate=2/s \
  --quiet --out "$out/serving-growing"
page "$out/serving-growing/report.html" "$out/serving-growing.png" \
  "Saturated" "admission wait grows" "!Meets its SLOs" "!Latency percentiles"
n=$((n + 1))
"$bin" quote --request scenarios/quotes/llm_70b_2t.json --quiet --out "$out/quote-pdf"
if [[ ! -s "$out/quote-pdf/quote.pdf" ]]; then
  echo "browser_scenarios: gpuplan quote wrote no quote.pdf" >&2
  exit 1
fi
python3 "$here/browser_pages.py" --list "$pages"
# The checker fails a broken page, naming each problem: a failed self-test, an uncaught error, a
# handler injected into the DOM, a text the page must show and does not.
cat >"$out/broken.html" <<'HTML'
<html><head><title>broken</title></head><body><b onmouseover="steal()">name</b>
<script>document.title = 'SELFTEST:FAIL empty chart: demo'; throw new Error('broken on purpose');</script>
</body></html>
HTML
status=0
python3 "$here/browser_pages.py" "$out/broken.html" "$out/broken.png" "Key figures" \
  2>"$out/broken.err" >/dev/null || status=$?
for problem in "SELFTEST:FAIL empty chart: demo" "Uncaught Error: broken on purpose" \
  'injected markup with an event handler in the DOM: <b onmouseover="steal()">' \
  "the page does not show 'Key figures'"; do
  if ((status != 1)) || ! grep -qF -- "$problem" "$out/broken.err"; then
    echo "browser_scenarios: browser_pages.py (exit $status) did not report: $problem" >&2
    cat "$out/broken.err" >&2
    exit 1
  fi
done
echo "browser_scenarios: $n pages rendered without errors; screenshots in $out/"
