#!/usr/bin/env python3
"""Generate the handbook and photograph three of its pages in headless Chromium: the first page, one rule
page and one family heatmap.

    python3 reports/tools/handbook_screenshots.py --cases-json LIST.json RESULTS.json... \
        -o reports/screenshots [--rule alias.mp-4] [--family alias.mp] [--width 1200 --height 1500]

Writes OUT/handbook-index.png, OUT/handbook-rule.png and OUT/handbook-heatmap.png: the top width x height
pixels of each page (the heatmap page scrolled to its picture), small enough to commit.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # reports/, for vmmcheck_report

from vmmcheck_report import browser, handbook  # noqa: E402


def screenshots(cases_json: Path, results, out: Path, rule: str, family: str, width: int = 1200,
                height: int = 1500) -> list:
    shots = []
    with tempfile.TemporaryDirectory(prefix="vmmcheck-handbook-") as tmp:
        site = Path(tmp)
        handbook.generate(cases_json, results, site)
        pages = [("handbook-index.png", "index.html", None), ("handbook-rule.png", f"rule-{rule}.html", None),
                 ("handbook-heatmap.png", f"family-{handbook.slugify(family)}.html", "figure")]
        out.mkdir(parents=True, exist_ok=True)
        with browser.headless(width, height) as driver:
            for name, page, scroll_to in pages:
                if not (site / page).exists():
                    raise handbook.HandbookError(f"{page}: not generated (check --rule / --family)")
                driver.get((site / page).as_uri())
                if scroll_to:
                    driver.execute_script(
                        "const e = document.querySelector(arguments[0]); if (e) e.scrollIntoView();", scroll_to)
                driver.save_screenshot(str(out / name))
                shots.append(out / name)
    return shots


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="*", type=Path)
    parser.add_argument("--cases-json", type=Path, required=True)
    parser.add_argument("-o", "--output", type=Path, required=True, help="folder for the PNG files")
    parser.add_argument("--rule", default="alias.mp-4", help="rule page to photograph (its slug)")
    parser.add_argument("--family", default="alias.mp", help="family whose heatmap to photograph")
    parser.add_argument("--width", type=int, default=1200)
    parser.add_argument("--height", type=int, default=1500)
    args = parser.parse_args(argv)
    if browser.find_chromium() is None:
        print(browser.missing_reason(), file=sys.stderr)
        return 2
    try:
        shots = screenshots(args.cases_json, args.results, args.output, args.rule, args.family,
                            args.width, args.height)
    except handbook.HandbookError as e:
        print(e, file=sys.stderr)
        return 2
    for s in shots:
        print(f"{s}: {s.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
