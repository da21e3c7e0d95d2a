#!/usr/bin/env bash
# Renders a gpuplan HTML report in headless Chromium, saves a PNG screenshot and fails on any
# script or console error, blocked network request, or chart canvas left empty.
#
#   tests/reports/browser_check.sh HTML_FILE PNG_OUT [TEXT ...]
#
# Each TEXT given must appear in the rendered page (a section or column the report must show);
# a TEXT starting with "!" must not (a section shown only when its keys are present).
#
# The page checks itself when opened with "#selftest": it sets document.title to
# "SELFTEST:OK charts=N" or "SELFTEST:FAIL <problems>" (reports/assets/common.js). Exit status:
# 0 pass, 1 check failed, 2 usage error or Chromium missing.
set -euo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: $0 HTML_FILE PNG_OUT [TEXT ...]" >&2
  exit 2
fi
html=$(realpath "$1")
png=$(realpath -m "$2")
shift 2
expected=("$@")
browser=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [[ ! -f "$html" ]]; then
  echo "browser_check: no such file: $1" >&2
  exit 2
fi
if [[ -z "$browser" ]]; then
  echo "browser_check: chromium not found (apt-get install -y chromium, or set CHROMIUM)" >&2
  exit 2
fi

profile=$(mktemp -d)
logs=$(mktemp -d)
trap 'rm -rf "$profile" "$logs"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
       --disable-background-networking --disable-component-update --disable-sync
       --disable-default-apps --hide-scrollbars --user-data-dir="$profile"
       --virtual-time-budget=5000 --enable-logging=stderr --v=0)

# NOTE: the self-test runs at the screenshot's width, so what it finds cut off is what a reader at
# 1,280 px would miss.
timeout 120 "$browser" "${flags[@]}" --window-size=1280,2400 --dump-dom "file://$html#selftest" >"$logs/dom.html" 2>"$logs/dom.err" || true
timeout 120 "$browser" "${flags[@]}" --window-size=1280,2400 --screenshot="$png" "file://$html" \
  >/dev/null 2>"$logs/shot.err" || true

status=0
# The first <title> is the page's.
verdict=$(grep -o '<title>[^<]*</title>' "$logs/dom.html" | head -n 1 | sed -e 's/<title>//' -e 's/<\/title>//' || true)
case "$verdict" in
  SELFTEST:OK*) echo "browser_check: $verdict" ;;
  SELFTEST:FAIL*) echo "browser_check: $verdict" >&2; status=1 ;;
  *) echo "browser_check: the page wrote no self-test verdict (title: '${verdict}')" >&2; status=1 ;;
esac

# Data reaches the DOM as text only: an element with an event-handler attribute (outside the
# page's own scripts) means some name from the data was parsed as markup.
injected=$(python3 - "$logs/dom.html" <<'PY'
import re, sys
dom = open(sys.argv[1], encoding='utf-8', errors='replace').read()
dom = re.sub(r'(?is)<script\b[^>]*>.*?</script>', '', dom)  # the page's own scripts
tags = (m.group(0) for m in re.finditer(r'(?i)<[a-z][^>]*>', dom))
# attribute values are data (the serializer escapes their quotes), so drop them before looking
print('\n'.join(t[:120] for t in tags if re.search(r'(?i)\son[a-z]+\s*=', re.sub(r'"[^"]*"', '""', t))))
PY
)
if [[ -n "$injected" ]]; then
  echo "browser_check: injected markup with an event handler in the DOM:" >&2
  echo "$injected" | head -n 3 >&2
  status=1
fi

# Console messages the page itself never saw (e.g. resource errors) still reach Chromium's log.
if grep -E ':CONSOLE[(:]|Uncaught|Refused to' "$logs/dom.err" "$logs/shot.err" | grep -viE ':INFO:CONSOLE\(.*"SELFTEST' >"$logs/console.txt"; then
  if grep -qiE 'error|Uncaught|Refused' "$logs/console.txt"; then
    echo "browser_check: console errors:" >&2
    cat "$logs/console.txt" >&2
    status=1
  fi
fi

# The rendered page without its scripts (whose source names every section it might build).
python3 -c 'import re, sys; print(re.sub(r"(?is)<script\b[^>]*>.*?</script>", "", open(sys.argv[1], encoding="utf-8", errors="replace").read()))' \
  "$logs/dom.html" >"$logs/shown.html"
for text in "${expected[@]}"; do
  if [[ "$text" == '!'* ]]; then
    if grep -qF -- "${text#!}" "$logs/shown.html"; then
      echo "browser_check: the page shows '${text#!}', which it must not" >&2
      status=1
    fi
  elif ! grep -qF -- "$text" "$logs/shown.html"; then
    echo "browser_check: the page does not show '$text'" >&2
    status=1
  fi
done

if [[ ! -s "$png" ]]; then
  echo "browser_check: no screenshot written to $png" >&2
  status=1
else
  echo "browser_check: screenshot $png"
fi
exit $status
