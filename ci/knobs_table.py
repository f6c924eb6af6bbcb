#!/usr/bin/env python3
"""The table of ci/gpu-knobs.sh: for each way of building the generated kernels, what the litmus rows
showed on the GPU. Reads the results files in KNOBS_DIR (unpacked from knobs.tar.gz) and prints, per
variant: assert rows whose power was shown (a control saw the forbidden outcome) out of those run, permit
rows that showed their weak outcome, the rows' GPU and wall seconds, and, for cuda-litmus's tests
written as litmus files (ci/cuda-litmus/) and the shipped mirrors of hand-written cases, each row's weak
outcomes per instance. Standard library only.

  ci/knobs_table.py KNOBS_DIR [--markdown] [--json OUT]
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys


def load(path: pathlib.Path) -> dict:
    with path.open() as f:
        return json.load(f)


def summary(doc: dict) -> dict:
    rows = [r for r in doc["results"] if r.get("pattern") == "litmus"]  # a row may bear a case's name
    asserts = [r for r in rows if r["axes"].get("expect") == "assert" and r["status"] != "NotSupported"]
    permits = [r for r in rows if r["axes"].get("expect") == "permit" and r["status"] != "NotSupported"]
    discriminating = [r for r in asserts if (r.get("power") or {}).get("discriminating")]
    showing = [r for r in permits if r.get("weak", 0) > 0]
    failed = [r["name"] for r in rows if r["status"] not in ("Pass", "NotSupported", "Warning")]
    per_row = {r["name"]: {"weak": r.get("weak", 0), "judged": r.get("judged", r.get("instances", 0)),
                           "instances": r.get("instances", 0), "gpu_seconds": r.get("gpu_seconds", 0.0),
                           "status": r["status"]} for r in rows}
    return {"asserts": len(asserts), "discriminating": len(discriminating), "permits": len(permits),
            "showing": len(showing), "not_passing": failed,
            "gpu_seconds": sum(r.get("gpu_seconds", 0.0) for r in rows),
            "wall_seconds": doc.get("totals", {}).get("seconds"), "rows": per_row}


def rate(weak: int, of: int) -> str:
    return f"{weak:,} ({100.0 * weak / of:.3g}%)" if of else "-"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", type=pathlib.Path)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--json", type=pathlib.Path)
    a = ap.parse_args()
    steps = {}
    if (a.dir / "steps.txt").exists():
        for line in (a.dir / "steps.txt").read_text().splitlines():
            name, _, rest = line.partition(": ")
            steps[name] = rest
    variants = {}
    for p in sorted(a.dir.glob("*.json")):
        if p.name.endswith(".params.json") or p.stem == "hand-written":
            continue
        try:
            variants[p.stem] = summary(load(p))
        except (OSError, ValueError, KeyError) as e:
            print(f"knobs_table: {p}: {e}", file=sys.stderr)
    hand = load(a.dir / "hand-written.json") if (a.dir / "hand-written.json").exists() else None
    out = sys.stdout
    out.write("| variant | assert rows discriminating | permit rows showing weak | rows' GPU s | run | not passing |\n")
    out.write("|---|---|---|---|---|---|\n")
    for name, s in variants.items():
        out.write(f"| {name} | {s['discriminating']} of {s['asserts']} | {s['showing']} of {s['permits']} | "
                  f"{s['gpu_seconds']:.1f} | {steps.get(name, '-')} | {len(s['not_passing'])} |\n")
    out.write("\nWeak outcomes per judged instance, cuda-litmus's tests and the hand-written mirrors:\n\n")
    names = sorted({n for s in variants.values() for n in s["rows"]
                    if n.startswith("litmus.") and (n.split(".")[1] in CUDA_LITMUS or n.startswith("litmus.alias_"))})
    out.write("| row | " + " | ".join(variants) + " |\n|---|" + "---|" * len(variants) + "\n")
    for n in names:
        cells = []
        for s in variants.values():
            r = s["rows"].get(n)
            cells.append(rate(r["weak"], r["judged"]) if r else "-")
        out.write(f"| {n} | " + " | ".join(cells) + " |\n")
    if hand:
        out.write("\nThe hand-written cases at the same budget:\n\n| case | weak | instances |\n|---|---|---|\n")
        for r in hand["results"]:
            out.write(f"| {r['name']} | {r.get('weak', '-')} | {r.get('instances', '-')} |\n")
    if a.json:
        a.json.write_text(json.dumps({"variants": variants, "steps": steps}, indent=1))
    return 0


CUDA_LITMUS = {"mp", "iriw", "isa2", "rwc", "wrc", "2_2w", "3_2w", "wrw_2w", "wwc", "z6_1", "z6_3", "paper_example1",
               "paper_example2"}

if __name__ == "__main__":
    sys.exit(main())
