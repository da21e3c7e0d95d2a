#!/usr/bin/env python3
"""tools/docs.sh cannot pass silently: it fills a fixture page with --update, then breaks the page
the ways a stale page is broken and expects --check to fail naming page:line and both values, and
to pass where the example declares the difference allowed (a CI, today's date).

    python3 tests/tools/docs_tool_test.py [GPUPLAN_BIN]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "tools" / "docs_fixture" / "page.md"
failures = []


def docs(*args, page):
    env = dict(os.environ)
    if len(sys.argv) > 1:
        env["GPUPLAN_BIN"] = sys.argv[1]
    proc = subprocess.run([str(ROOT / "tools" / "docs.sh"), *args, str(page)], env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return proc.returncode, proc.stderr


def expect(name, condition, detail=""):
    if not condition:
        failures.append(f"{name}: {detail}")
    print(f"{'ok  ' if condition else 'FAIL'} {name}")


def line_of(text, needle):
    return next(n for n, line in enumerate(text.split("\n"), 1) if needle in line)


def main():
    work = Path(tempfile.mkdtemp(prefix="docs-tool-test-"))
    try:
        page = work / "page.md"
        shutil.copy(FIXTURE, page)
        rc, err = docs("--update", page=page)
        expect("update fills every block", rc == 0 and "5 example(s)" in err, err)
        good = page.read_text()
        expect("the run's output is on the page", re.search(r"quickstart: [\d,]+ jobs submitted", good), good)
        expect("the table is plain Markdown", "| jobs | utilization |\n|---|---|" in good, good)
        rc, err = docs("--check", page=page)
        expect("check passes on the updated page", rc == 0, err)

        # a deterministic number off by one: page:line and both values
        m = re.search(r"quickstart: ([\d,]+) jobs submitted", good)
        shown = m.group(1)
        broken_value = f"{int(shown.replace(',', '')) + 1:,}"
        page.write_text(good.replace(f"quickstart: {shown} jobs", f"quickstart: {broken_value} jobs", 1))
        rc, err = docs("--check", page=page)
        where = f"page.md:{line_of(good, 'quickstart: ' + shown)}:"
        expect("a broken number fails", rc == 1, err)
        expect("the failure names page:line", where in err, err)
        expect("the failure names both values", f"'{broken_value}'" in err and f"'{shown}'" in err, err)

        # a broken table cell
        cell = re.search(r"\| ([\d,]+) \| ([\d.]+)% \|", good)
        page.write_text(good.replace(cell.group(0), f"| {cell.group(1)} | 99.9% |"))
        rc, err = docs("--check", page=page)
        expect("a broken table cell fails with its line",
               rc == 1 and f"page.md:{line_of(good, cell.group(0))}:" in err and "'99.9'" in err, err)

        # Monte Carlo: within the printed CI passes, outside fails
        mc = "wait 100.0 s [90.0 s, 110.0 s]; cost $5 ± 1"
        page.write_text(good.replace(f"\n{mc}\n", "\nwait 95.0 s [88.0 s, 104.0 s]; cost $5.5 ± 1.2\n")
                       .replace("wait is 100.0 s", "wait is 95.0 s"))
        rc, err = docs("--check", page=page)
        expect("a CI example passes when the output lies within the page's CI", rc == 0, err)
        page.write_text(good.replace(f"\n{mc}\n", "\nwait 120.0 s [110.0 s, 130.0 s]; cost $5 ± 1\n")
                       .replace("wait is 100.0 s", "wait is 120.0 s"))
        rc, err = docs("--check", page=page)
        expect("a CI example fails outside the page's CI", rc == 1 and "example 'mc': page shows '120.0'" in err, err)

        # mask=today masks today's date only
        today = datetime.now(timezone.utc).strftime("%Y-%m-%d")
        page.write_text(good.replace(f"Quote, {today}", "Quote, 2020-01-01"))
        rc, err = docs("--check", page=page)
        expect("mask=today accepts another day's date", rc == 0, err)
        page.write_text(good.replace("price as of 2026-01-21\n", "price as of 2026-01-22\n"))
        rc, err = docs("--check", page=page)
        expect("mask=today still compares other dates", rc == 1 and "2026-01-22" in err, err)

        # a line too many or too few
        page.write_text(good.replace("wrote out/quickstart/", "extra line\nwrote out/quickstart/", 1))
        rc, err = docs("--check", page=page)
        expect("an extra line fails", rc == 1 and "example 'run'" in err, err)

        # a declared exit status that is not met, and an undeclared failure
        page.write_text(good.replace("id=error exit=2", "id=error exit=0"))
        rc, err = docs("--check", page=page)
        expect("an unexpected exit status fails", rc == 1 and "exit status 2, expected 0" in err, err)

        # prose: a number neither a marked block of its section nor docs:numbers shows
        page.write_text(good.replace("The mean wait is 100.0 s.", "The mean wait is 101.0 s."))
        rc, err = docs("--check", page=page)
        expect("an unsourced prose number fails with its line",
               rc == 1 and f"page.md:{line_of(good, 'The mean wait is')}: prose quotes 101.0" in err, err)
        page.write_text(good.replace("The mean wait is 100.0 s.",
                                     "The mean wait is 101.0 s ([a source](https://example.org))."))
        rc, err = docs("--check", page=page)
        expect("a prose number with a link passes", rc == 0, err)

        # a table's command must be visible beside it
        page.write_text(good.replace("that `gpuplan run scenarios/quickstart.json` writes", "that the run writes"))
        rc, err = docs("--check", page=page)
        expect("a table whose command the page does not show fails",
               rc == 1 and "does not show the command `gpuplan run scenarios/quickstart.json`" in err, err)

        # malformed markers are errors, not silent passes
        page.write_text(good.replace("<!-- docs:end -->", "", 1))
        rc, err = docs("--check", page=page)
        expect("a missing docs:end is an error", rc == 2 and "has no <!-- docs:end -->" in err, err)
        page.write_text(good.replace("id=mc tolerance=ci", "id=mc tolerance=lots"))
        rc, err = docs("--check", page=page)
        expect("an unknown tolerance is an error", rc == 2 and "tolerance must be" in err, err)
        page.write_text(good.replace("id=dated mask=today", "id=dated mask=everything"))
        rc, err = docs("--check", page=page)
        expect("an unknown mask is an error", rc == 2 and "unknown mask" in err, err)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print("\n".join(failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
