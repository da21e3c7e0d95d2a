#!/usr/bin/env python3
"""Renders gpuplan HTML pages in one headless Chromium session, saves a PNG screenshot of each and
fails on any script or console error, blocked network request, chart canvas left empty, or markup
injected from the data.

    tests/reports/browser_pages.py HTML_FILE PNG_OUT [TEXT ...]
    tests/reports/browser_pages.py --list FILE     each line a JSON array [HTML_FILE, PNG_OUT, TEXT...]

Each TEXT given must appear in the rendered page (a section or column the report must show); a TEXT
starting with "!" must not (a section shown only when its keys are present).

The page checks itself when opened with "#selftest": it sets document.title to
"SELFTEST:OK charts=N" or "SELFTEST:FAIL <problems>" (reports/assets/common.js). It runs at the
screenshot's width, so what it finds cut off is what a reader at 1,280 px would miss.

Exit status: 0 every page passed, 1 a check failed, 2 usage error; 77 (ctest: skipped) when Selenium
or chromium-driver is absent, unless GPUPLAN_REQUIRE_BROWSER=1.
"""
import json
import os
import re
import shutil
import sys

import chromium

NAME = "browser_pages"
WIDTH, HEIGHT = 1280, 2400
VERDICT_TIMEOUT_S = 30


def pages_from(argv):
    if len(argv) == 2 and argv[0] == "--list":
        with open(argv[1], encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]
    if len(argv) >= 2 and not argv[0].startswith("--"):
        return [argv]
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    sys.exit(2)


def injected_markup(dom):
    """Elements (outside the page's own scripts) with an event-handler attribute: some name from
    the data was parsed as markup. Attribute values are data (the serializer escapes their quotes),
    so they are dropped before looking."""
    dom = re.sub(r"(?is)<script\b[^>]*>.*?</script>", "", dom)
    tags = (m.group(0) for m in re.finditer(r"(?i)<[a-z][^>]*>", dom))
    return [t[:120] for t in tags if re.search(r"(?i)\son[a-z]+\s*=", re.sub(r'"[^"]*"', '""', t))]


def console_errors(entries):
    """Console messages the page itself never saw (resource errors, CSP refusals) reach the
    browser log; the self-test's own message does not count."""
    bad = []
    for e in entries:
        message = e.get("message", "")
        if "SELFTEST" in message:
            continue
        if e.get("level") == "SEVERE" or re.search(r"(?i)error|uncaught|refused", message):
            bad.append(message)
    return bad


def check_page(driver, html, png, texts):
    """The problems found on one page (empty when it passes); writes its screenshot to png."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    if not os.path.isfile(html):
        return [f"no such file: {html}"]
    problems = []
    # A blank page between two loads of the same file makes the second a full load, not a jump
    # to its fragment.
    driver.get("about:blank")
    driver.get_log("browser")
    driver.get("file://" + os.path.abspath(html) + "#selftest")
    try:
        WebDriverWait(driver, VERDICT_TIMEOUT_S).until(lambda d: d.title.startswith("SELFTEST:"))
    except TimeoutException:
        pass
    verdict = driver.title
    if verdict.startswith("SELFTEST:OK"):
        print(f"{NAME}: {os.path.basename(os.path.dirname(html))}: {verdict}")
    elif verdict.startswith("SELFTEST:FAIL"):
        problems.append(verdict)
    else:
        problems.append(f"the page wrote no self-test verdict in {VERDICT_TIMEOUT_S} s (title: '{verdict}')")
    dom = driver.page_source
    injected = injected_markup(dom)
    if injected:
        problems.append("injected markup with an event handler in the DOM: " + " | ".join(injected[:3]))
    problems += ["console error: " + m for m in console_errors(driver.get_log("browser"))]
    # The rendered page without its scripts (whose source names every section it might build).
    shown = re.sub(r"(?is)<script\b[^>]*>.*?</script>", "", dom)
    for text in texts:
        if text.startswith("!"):
            if text[1:] in shown:
                problems.append(f"the page shows '{text[1:]}', which it must not")
        elif text not in shown:
            problems.append(f"the page does not show '{text}'")
    # The screenshot is the page as a reader sees it: without the self-test's verdict line.
    driver.execute_script("const v = document.getElementById('gp-selftest'); if (v) v.remove(); window.scrollTo(0, 0);")
    if not driver.save_screenshot(png) or not os.path.getsize(png):
        problems.append(f"no screenshot written to {png}")
    return problems


def main(argv):
    pages = pages_from(argv)
    driver, profile = chromium.start(NAME, WIDTH, HEIGHT)
    failed = 0
    try:
        driver.set_page_load_timeout(60)
        # The viewport itself at WIDTH x HEIGHT (a window of that size loses some to its frame).
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})
        for page in pages:
            html, png, texts = page[0], os.path.abspath(page[1]), page[2:]
            problems = check_page(driver, html, png, texts)
            for p in problems:
                print(f"{NAME}: {html}: {p}", file=sys.stderr)
            failed += bool(problems)
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
    if failed:
        print(f"{NAME}: {failed} of {len(pages)} pages failed", file=sys.stderr)
        return 1
    print(f"{NAME}: {len(pages)} pages rendered without errors")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
