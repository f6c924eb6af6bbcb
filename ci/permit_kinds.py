#!/usr/bin/env python3
"""The permit rows of a results file by kind, and which showed their weak outcome (docs/litmus.md, "Power"):
what the share of permit rows showing can reach on a GPU that shows no row of some kinds.

  permit_kinds.py RESULTS.json LIST.json [--write KINDS.json]

LIST.json is `vmmcheck list --json` of the cases the run ran (each litmus row's own test, its "source"). A
row's kind comes from its test, the first that fits:

  alias          some access reaches its memory through a second path declared in the test (a physical or
                 virtual alias, a texture or surface over it);
  one CTA        every thread in one CTA (cuda-litmus's GPUs showed none of its 194 such variants' weak
                 outcomes: the variants table);
  ordered        threads in two or more CTAs, with a fence, an acquire or a release;
  unordered      the rest: threads in two or more CTAs, relaxed, weak or volatile accesses only.

Which rows are permit rows, and which showed, is the figures' own reading (vmmcheck_report.figures.permit_rows:
those that ran), as in docs/litmus.md's power table.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "reports"))
from vmmcheck_report.figures import permit_rows  # noqa: E402  (the figures' own reading of a run's permit rows)

KINDS = ("alias", "one CTA", "ordered", "unordered")
THREAD = re.compile(r"^\s*(d\d+)\.(b\d+)\.t\d+\s*\{", re.M)
DECLARED = re.compile(r"^\s*\.(?:global|texref|surfref|shared)\s+(\w+)\s+(?:physically|virtually)\s+aliases\b", re.M)
ORDERING = re.compile(r"\.(?:acquire|release|acq_rel)\b|\bfence\.(?:sc|acq_rel)\b")


def kind_of(source: str) -> str:
    first = THREAD.search(source)
    body = source[first.start():] if first else ""
    if any(re.search(rf"\[\s*{re.escape(name)}\s*[\]+]", body) for name in DECLARED.findall(source)):
        return "alias"
    if len({m.group(1, 2) for m in THREAD.finditer(source)}) <= 1:
        return "one CTA"
    return "ordered" if ORDERING.search(body) else "unordered"


def permit_kinds(results: dict, listing: dict) -> dict:
    sources = {r["name"]: r.get("source") for r in listing.get("litmus_rows", [])}
    rows = permit_rows(results)
    unknown = [r["name"] for r in rows if not sources.get(r["name"])]
    if unknown:
        raise ValueError(f"{len(unknown)} permit rows have no test in the listing (first: {unknown[0]}): "
                         "list the cases the run ran, with a vmmcheck whose list --json gives each row's source")
    kinds = {k: {"rows": 0, "showing": 0, "not_showing": []} for k in KINDS}
    for r in rows:
        k = kinds[kind_of(sources[r["name"]])]
        k["rows"] += 1
        if r.get("weak", 0) > 0:
            k["showing"] += 1
        else:
            k["not_showing"].append(r["name"])
    ctx = results.get("context", {})
    showing = sum(k["showing"] for k in kinds.values())
    # What the share could reach were every row of two or more CTAs that reads no second path to show.
    reachable = showing + len(kinds["ordered"]["not_showing"]) + len(kinds["unordered"]["not_showing"])
    devices = ctx.get("devices") or [{}]
    return {"schema": "vmmcheck-permit-kinds/1", "results_git_sha": ctx.get("git_sha"), "device": devices[0].get("name"),
            "driver": ctx.get("driver_release"), "permit_rows": len(rows), "showing": showing,
            "showing_if_every_multi_cta_row_without_alias_did": reachable, "kinds": kinds}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", type=pathlib.Path)
    ap.add_argument("listing", type=pathlib.Path)
    ap.add_argument("--write", type=pathlib.Path)
    a = ap.parse_args(argv)
    try:
        doc = permit_kinds(json.loads(a.results.read_text()), json.loads(a.listing.read_text()))
    except (OSError, ValueError, KeyError) as e:
        print(f"permit_kinds: {e}", file=sys.stderr)
        return 2
    text = json.dumps(doc, indent=1) + "\n"
    if a.write:
        a.write.write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
