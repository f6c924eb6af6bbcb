#!/usr/bin/env python3
"""Helper of ci/bench-engine.sh: one table of the litmus engine's runs in OUTDIR (standard library only).

  report OUTDIR [--label TEXT]     writes OUTDIR/engine.txt and OUTDIR/engine.json from the runs the
                                   script left there (ID.json, ID.wall, ID.rc, ID.console)
  table FILE.json...               prints the tables of several engine.json side by side (before/after)
  outcomes BEFORE.json AFTER.json  per litmus row of two results files, whether the same outcomes
                                   appeared (weak rates may differ): every row whose set differs, with
                                   the outcomes only one run showed and their counts

Per run: wall (the process, start to exit), compile (the summed NVRTC compile of the rows' kernels, as
the results record it in compile_seconds; "-" where the results do not record it), GPU (summed
gpu_seconds), waited (the rows' summed wait for their kernels to compile, compile_wait_seconds), host
(summed per-row seconds less their GPU time and that wait: judging, counting, launching, copying),
instances (summed), and instances per second of wall time. Figures, not verdicts: nothing here fails on
a time.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

RUNS = ("litmus-cold", "litmus-warm", "suite-cold")


def summarise(results_file: str, wall: float, rc: int) -> dict:
    with open(results_file, encoding="utf-8") as f:
        doc = json.load(f)
    results = doc.get("results", [])
    litmus = [r for r in results if r.get("pattern") == "litmus"]
    statuses: dict[str, int] = {}
    for r in results:
        statuses[r["status"]] = statuses.get(r["status"], 0) + 1
    compiled = [r["compile_seconds"] for r in litmus if "compile_seconds" in r]
    gpu = sum(r.get("gpu_seconds", 0.0) for r in results)
    seconds = sum(r.get("seconds", 0.0) for r in results)
    waited = sum(r.get("compile_wait_seconds", 0.0) for r in results)
    instances = sum(r.get("instances", 0) for r in results)
    return {
        "cases": len(results),
        "litmus_rows": len(litmus),
        "statuses": statuses,
        "exit": rc,
        "wall_s": wall,
        "compile_s": sum(compiled) if compiled else None,
        "gpu_s": gpu,
        "compile_wait_s": waited if compiled else None,
        "host_s": max(0.0, seconds - gpu - waited),
        "instances": instances,
        "instances_per_s": instances / wall if wall > 0 else 0.0,
        "context": {k: doc.get("context", {}).get(k) for k in ("tool_version", "git_sha", "driver", "devices")},
    }


def fmt(v, unit: str = "") -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.2f}{unit}" if v < 1000 else f"{v:.4g}{unit}"
    return f"{v}{unit}"


def table(label: str, runs: dict) -> str:
    head = ["run", "cases", "rows", "exit", "wall s", "compile s", "waited s", "GPU s", "host s", "host/GPU", "instances",
            "inst/s"]
    lines = [f"# {label}", "  ".join(f"{h:>11}" for h in head)]
    for rid, s in runs.items():
        ratio = s["host_s"] / s["gpu_s"] if s["gpu_s"] > 0 else None
        cells = [rid, s["cases"], s["litmus_rows"], s["exit"], fmt(s["wall_s"]), fmt(s["compile_s"]),
                 fmt(s.get("compile_wait_s")), fmt(s["gpu_s"]),
                 fmt(s["host_s"]), fmt(ratio, "x"), f"{s['instances']:.3g}", f"{s['instances_per_s']:.3g}"]
        lines.append("  ".join(f"{str(c):>11}" for c in cells))
    return "\n".join(lines) + "\n"


def report(out: str, label: str) -> int:
    runs = {}
    for rid in RUNS:
        path = os.path.join(out, rid + ".json")
        if not os.path.exists(path):
            continue
        with open(os.path.join(out, rid + ".wall"), encoding="utf-8") as f:
            wall = float(f.read())
        with open(os.path.join(out, rid + ".rc"), encoding="utf-8") as f:
            rc = int(f.read())
        runs[rid] = summarise(path, wall, rc)
    if not runs:
        print(f"bench_engine.py: no run in {out}", file=sys.stderr)
        return 1
    gpu = ""
    if os.path.exists(os.path.join(out, "gpu.txt")):
        with open(os.path.join(out, "gpu.txt"), encoding="utf-8") as f:
            gpu = f.read().strip()
    text = table(f"{label}: {gpu}", runs)
    with open(os.path.join(out, "engine.txt"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(out, "engine.json"), "w", encoding="utf-8") as f:
        json.dump({"label": label, "gpu": gpu, "runs": runs}, f, indent=1)
        f.write("\n")
    sys.stdout.write(text)
    return 0


def outcomes(before_file: str, after_file: str) -> int:
    def rows(path: str) -> dict:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        return {r["name"]: r for r in doc["results"] if r.get("pattern") == "litmus"}

    before, after = rows(before_file), rows(after_file)
    both = sorted(set(before) & set(after))
    differ = 0
    for name in both:
        b = dict(before[name].get("histogram") or {})
        a = dict(after[name].get("histogram") or {})
        if set(b) == set(a):
            continue
        differ += 1
        only_b = ", ".join(f"{k} ({b[k]})" for k in sorted(set(b) - set(a)))
        only_a = ", ".join(f"{k} ({a[k]})" for k in sorted(set(a) - set(b)))
        print(f"{name}: only before: {only_b or '-'}; only after: {only_a or '-'}")
    missing = sorted(set(before) ^ set(after))
    print(f"{len(both)} rows in both; {len(both) - differ} with the same outcomes, {differ} differing; "
          f"{len(missing)} in one file only{': ' + ', '.join(missing) if missing else ''}")
    return 0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("report")
    r.add_argument("out")
    r.add_argument("--label", default="")
    t = sub.add_parser("table")
    t.add_argument("files", nargs="+")
    o = sub.add_parser("outcomes")
    o.add_argument("before")
    o.add_argument("after")
    a = ap.parse_args(argv)
    if a.command == "outcomes":
        return outcomes(a.before, a.after)
    if a.command == "report":
        return report(a.out, a.label or os.path.basename(os.path.normpath(a.out)))
    for path in a.files:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        sys.stdout.write(table(f"{doc['label']}: {doc['gpu']}", doc["runs"]) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
