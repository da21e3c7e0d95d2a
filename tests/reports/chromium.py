"""Headless Chromium driven through Selenium and chromium-driver, as the browser tests use it.

    driver, profile = chromium.start("name", width, height)   # ... driver.quit(); rmtree(profile)

When Selenium or chromedriver is absent the calling test is skipped (exit 77, ctest's skip code)
with the reason, unless GPUPLAN_REQUIRE_BROWSER=1 (CI sets it; tools/setup.sh installs both).
"""
import os
import shutil
import sys
import tempfile

SKIP = 77


def missing(name, reason):
    if os.environ.get("GPUPLAN_REQUIRE_BROWSER") == "1":
        print(f"{name}: {reason}, and GPUPLAN_REQUIRE_BROWSER=1", file=sys.stderr)
        sys.exit(1)
    print(f"{name}: skipped: {reason} (tools/setup.sh installs it)", file=sys.stderr)
    sys.exit(SKIP)


def ensure_selenium(name):
    """Imports Selenium, re-running the script under the system interpreter if that has it."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        # NOTE: python3-selenium is a Debian package: it lives in the system interpreter, which a
        # pyenv or venv python3 first on the PATH does not see.
        system = "/usr/bin/python3"
        if os.path.exists(system) and os.path.realpath(sys.executable) != os.path.realpath(system):
            os.execv(system, [system] + sys.argv)
        missing(name, "python3-selenium is not installed")


def start(name, width, height):
    """A headless Chromium window of width x height CSS px with its browser log kept; returns
    (driver, profile folder)."""
    ensure_selenium(name)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    driver_bin = shutil.which("chromedriver") or (
        "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None)
    if not driver_bin:
        missing(name, "chromium-driver (chromedriver) is not installed")
    profile = tempfile.mkdtemp(prefix=f"gpuplan-{name}-")
    opts = webdriver.ChromeOptions()
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              f"--window-size={width},{height}", "--no-first-run", "--disable-quic",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--disable-default-apps", "--hide-scrollbars", f"--user-data-dir={profile}"]:
        opts.add_argument(a)
    if os.environ.get("CHROMIUM"):
        opts.binary_location = os.environ["CHROMIUM"]
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        driver = webdriver.Chrome(service=Service(executable_path=driver_bin), options=opts)
    except Exception:
        shutil.rmtree(profile, ignore_errors=True)
        raise
    return driver, profile
