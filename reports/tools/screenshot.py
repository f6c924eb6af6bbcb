#!/usr/bin/env python3
"""Render a results file and photograph the top of its HTML report in headless Chromium.

    python3 reports/tools/screenshot.py RESULTS.json -o reports/screenshots/NAME.png [--width 1400 --height 2000]

Every family is expanded (render --open-all) so the picture shows case rows and plots, not only the
summary. The PNG is the top width x height pixels of the page, which keeps it well under 1 MB.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # reports/, for vmmcheck_report

from vmmcheck_report import browser, load, render  # noqa: E402


def screenshot(results: Path, output: Path, width: int = 1400, height: int = 2000) -> Path:
    doc = load.load(results)
    with tempfile.TemporaryDirectory(prefix="vmmcheck-shot-") as tmp:
        page = Path(tmp) / "report.html"
        page.write_text(render.render_html(doc, open_all=True), encoding="utf-8")
        with browser.headless(width, height) as driver:
            driver.get(page.as_uri())
            output.parent.mkdir(parents=True, exist_ok=True)
            driver.save_screenshot(str(output))
    return output


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--height", type=int, default=2000)
    args = parser.parse_args()
    if browser.find_chromium() is None:
        print(browser.missing_reason(), file=sys.stderr)
        return 2
    try:
        out = screenshot(args.results, args.output, args.width, args.height)
    except load.LoadError as e:
        print(e, file=sys.stderr)
        return 2
    print(f"{out}: {out.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
