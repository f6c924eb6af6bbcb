#!/usr/bin/env python3
"""The litmus rows of a results file that proved nothing on its GPU (docs/litmus.md, "Power"): assert rows
none of whose controls showed the outcome they forbid, and permit rows whose weak outcome did not show --
as one --filter, for a search of knobs under which they do (`vmmcheck tune --each --filter ...`,
ci/gpu-wave.sh's tune-power step); and, from what that search wrote, entries for
cases/litmus/stress-params.json that give those rows alone (and their controls) each file's best knobs,
for the files whose best draw made more of them show than the default did.

  weak_rows.py RESULTS.json [--kind assert|permit|both]
  weak_rows.py --entries TUNE.json RESULTS.json

The first entry whose globs select a row is its: put these before any broader entry of the same rows, and
keep one only after a run shows it (its "why" says it is not measured in a run yet).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "reports"))
from vmmcheck_report.figures import proved_nothing  # noqa: E402  (the figures' own reading of power)


def weak_rows(doc: dict, kind: str = "both") -> list[str]:
    asserts, permits = proved_nothing(doc)
    chosen = {id(r) for r in (asserts if kind in ("assert", "both") else []) + (permits if kind in ("permit", "both") else [])}
    return [r["name"] for r in doc["results"] if id(r) in chosen]  # in the run's order


def own_globs(r: dict) -> list[str]:
    """Globs that select a row by its own name and its controls (litmus.<file>.<instance>.* in a template;
    a plain row's name and name.*): what a stress-params entry names, as cases/litmus's own do."""
    axes = r["axes"]
    if axes.get("instance", "none") != "none":
        return [f"litmus.{axes['file']}.{axes['instance']}.*"]
    name = f"litmus.{axes['file']}.{axes['command']}"
    return [name, name + ".*"]


def entries(tune: dict, doc: dict) -> list[dict]:
    """stress-params.json entries from a `tune --each` file over weak_rows(doc): for each file whose search
    kept a draw (not the default) under which more of its targets showed than under the default, that
    draw's knobs for the file's weak rows alone."""
    weak = set(weak_rows(doc))
    by_file: dict[str, list[str]] = {}
    for r in doc["results"]:
        if r["name"] in weak:
            by_file.setdefault(f"litmus.{r['axes']['file']}", []).extend(own_globs(r))
    out = []
    for family, search in (tune.get("searches") or {}).items():
        best, baseline = search["best"], search["baseline"]
        if family not in by_file or str(best.get("kept_by", "search")).startswith("default"):
            continue
        if best["racing"] <= baseline["racing"]:
            continue  # no more of its targets showed under the best draw than under the default
        out.append({"why": f"{family}'s rows that proved nothing in {doc.get('context', {}).get('git_sha', 'the run')[:12]}'s run: "
                           f"tune --each found {best['racing']} of {len(best['targets'])} targets showing "
                           f"({baseline['racing']} by default); not yet measured in a run",
                    "rows": ",".join(by_file[family]), "params": best["params"]})
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    ap.add_argument("--kind", choices=("assert", "permit", "both"), default="both")
    ap.add_argument("--entries", metavar="TUNE.json", help="print stress-params.json entries from this tune --each file")
    a = ap.parse_args(argv)
    try:
        doc = json.loads(pathlib.Path(a.results).read_text())
        tune = json.loads(pathlib.Path(a.entries).read_text()) if a.entries else None
    except (OSError, ValueError) as e:
        print(f"weak_rows: {e}", file=sys.stderr)
        return 2
    if tune is not None:
        print(json.dumps(entries(tune, doc), indent=2))
        return 0
    names = weak_rows(doc, a.kind)
    if not names:
        print(f"weak_rows: {a.results}: every litmus row proved something", file=sys.stderr)
        return 1
    print(",".join(names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
