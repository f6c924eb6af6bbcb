#!/usr/bin/env python3
"""The litmus rows of a results file that proved nothing on its GPU (docs/litmus.md, "Power"): assert rows
none of whose controls showed the outcome they forbid, and permit rows whose weak outcome did not show --
as one --filter, for a search of knobs under which they do (`vmmcheck tune --each --filter ...`,
ci/gpu-wave.sh's tune-power step).

  weak_rows.py RESULTS.json [--kind assert|permit|both]
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys


def weak_rows(doc: dict, kind: str = "both") -> list[str]:
    names = []
    for r in doc["results"]:
        expect = (r.get("axes") or {}).get("expect")
        if r.get("pattern") != "litmus" or r.get("status") != "Pass":
            continue  # a row that did not run, or did not pass, is not a question of power
        if expect == "assert" and kind in ("assert", "both"):
            if r.get("expectation") in ("required", "model") and not (r.get("power") or {}).get("discriminating"):
                names.append(r["name"])
        elif expect == "permit" and kind in ("permit", "both") and r.get("weak", 0) == 0:
            names.append(r["name"])
    return names


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    ap.add_argument("--kind", choices=("assert", "permit", "both"), default="both")
    a = ap.parse_args(argv)
    try:
        doc = json.loads(pathlib.Path(a.results).read_text())
    except (OSError, ValueError) as e:
        print(f"weak_rows: {a.results}: {e}", file=sys.stderr)
        return 2
    names = weak_rows(doc, a.kind)
    if not names:
        print(f"weak_rows: {a.results}: every litmus row proved something", file=sys.stderr)
        return 1
    print(",".join(names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
