"""Headless Chromium for checking and photographing reports (tests and tools/screenshot.py).

Uses Debian's chromium and chromium-driver (/usr/bin/chromium, /usr/bin/chromedriver) through selenium,
naming both paths so that selenium never tries to download a browser: CI machines are offline.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from typing import Iterator, Optional, Tuple

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")


def find_chromium() -> Optional[Tuple[str, str]]:
    """(browser, chromedriver) paths, or None when either is not installed.
    VMMCHECK_CHROMIUM / VMMCHECK_CHROMEDRIVER override the search."""
    browser = os.environ.get("VMMCHECK_CHROMIUM") or next(
        (p for p in map(shutil.which, CHROMIUM_NAMES) if p), None)
    driver = os.environ.get("VMMCHECK_CHROMEDRIVER") or shutil.which("chromedriver")
    if not all(p and os.access(p, os.X_OK) for p in (browser, driver)):
        return None
    return browser, driver


def missing_reason() -> str:
    return ("headless Chromium not installed (apt-get install chromium chromium-driver, "
            "or set VMMCHECK_CHROMIUM and VMMCHECK_CHROMEDRIVER)")


@contextlib.contextmanager
def headless(width: int = 1400, height: int = 2000) -> Iterator["object"]:
    """A selenium WebDriver on headless Chromium with a fixed window, quit on exit."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    found = find_chromium()
    if found is None:
        raise RuntimeError(missing_reason())
    browser, driver_path = found
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--hide-scrollbars", f"--window-size={width},{height}", "--force-device-scale-factor=1"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    try:
        # The window size includes browser chrome; fix the viewport itself so pictures are width x height.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        yield driver
    finally:
        driver.quit()
