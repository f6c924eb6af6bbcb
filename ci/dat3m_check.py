#!/usr/bin/env python3
"""The field's PTX litmus corpus as a peer check of vmmcheck's model (docs/litmus.md, "herd-style files").

Dat3M (hernanponcedeleon/Dat3M) ships herd-style PTX litmus files (litmus/PTX/) and, for its PTX v7.5
model, whether each file's assertion holds (dartagnan/src/test/resources/PTXv7_5-expected.csv: 1 -- it
holds: an `exists` condition is reachable, a `~exists` or `forall` one is never broken). This script asks
`vmmcheck model` each listed file, compares its answer under both of the model's readings (the ISA's and
the artifact's) with Dat3M's, and notes which rows would run on a GPU (`model --kernels`). A file the
language cannot take yet is counted with its reason. A checkout of Dat3M is fetched, never committed.
Standard library only.

  ci/dat3m_check.py --dat3m DIR --vmmcheck PATH [--json OUT] [--expected PTXv7_5-expected.csv]
                    [--copy-runnable DIR] [--gpu-results RUN.json]

On a GPU: --copy-runnable DIR copies the files whose rows would run into DIR, for
`vmmcheck run --litmus DIR --json RUN.json` on the GPU machine; --gpu-results RUN.json then adds what
each row did there (status, instances judged, weak outcomes, its strongest control) to the table.
"""
from __future__ import annotations

import argparse
import collections
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

EXPECTED = "dartagnan/src/test/resources/PTXv7_5-expected.csv"

# The construct a file's UnsupportedConstruct names, as the table groups them.
KINDS = [
    ("CTA barrier", re.compile(r"CTA barrier")),
    ("branch or loop", re.compile(r"branch|label")),
    ("compare-and-swap, exchange", re.compile(r"atom\.(cas|exch)")),
    ("other read-modify-write", re.compile(r"(atom|red)\.\w+ \(")),
    ("register arithmetic", re.compile(r"register arithmetic")),
    ("non-zero initial value", re.compile(r"initial (register )?value")),
    ("filter", re.compile(r"a filter")),
    ("threads with no instruction", re.compile(r"no instruction")),
]


def kind_of(message: str) -> str:
    for name, pattern in KINDS:
        if pattern.search(message):
            return name
    return "other"


def quantifier_of(text: str) -> str:
    for q in ("~exists", "exists", "forall"):
        if re.search(r"(^|\n)\s*" + re.escape(q), text):
            return q
    return "?"


def check(dat3m: pathlib.Path, vmmcheck: str, expected_csv: pathlib.Path) -> dict:
    tests = []
    for line in expected_csv.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("//"):
            continue
        path, _, value = line.rpartition(",")
        tests.append((path, int(value)))
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (rel, expected) in enumerate(tests):
            f = dat3m / rel
            entry = {"file": rel, "expected_holds": bool(expected)}
            if not f.exists():
                entry.update(status="missing")
                out.append(entry)
                continue
            entry["quantifier"] = quantifier_of(f.read_text(errors="replace"))
            kernels = pathlib.Path(tmp) / f"k{i}"
            p = subprocess.run([vmmcheck, "model", "--json", "-", "--kernels", str(kernels), str(f)],
                               capture_output=True, text=True, timeout=120)
            if p.returncode not in (0, 1):
                message = (p.stderr.strip().splitlines() or ["exit " + str(p.returncode)])[0]
                unsupported = "not in vmmcheck's litmus language yet" in message
                where = re.match(r"(?:vmmcheck: )?\S+?:(\d+)(?::\d+)?: ", message)
                entry.update(status="unsupported" if unsupported else "refused",
                             line=int(where.group(1)) if where else None,
                             reason=message[where.end():] if where else message,
                             construct=kind_of(message) if unsupported else None)
                out.append(entry)
                continue
            text = p.stdout
            # The JSON document first; the command's own lines (kernel sources written, the summary) may follow it.
            doc = json.JSONDecoder().raw_decode(text[text.index("{"):])[0] if "{" in text else {"rows": []}
            row = doc["rows"][0]
            holds = {}
            for reading in ("isa", "artifact"):
                allows = row[f"{reading}_allows"]  # the condition (exists) or its violation (otherwise) reachable
                holds[reading] = allows if entry["quantifier"] == "exists" else not allows
            entry.update(status="decided", row=row["name"], holds_isa=holds["isa"], holds_artifact=holds["artifact"],
                         agrees_isa=holds["isa"] == entry["expected_holds"],
                         agrees_artifact=holds["artifact"] == entry["expected_holds"])
            no_kernel = [l.split("no kernel: ", 1)[1] for l in (p.stdout + p.stderr).splitlines() if "no kernel: " in l]
            entry["gpu"] = "runs" if not no_kernel else no_kernel[0]
            out.append(entry)
    decided = [e for e in out if e["status"] == "decided"]
    summary = {
        "listed": len(out),
        "decided": len(decided),
        "agree_isa": sum(e["agrees_isa"] for e in decided),
        "agree_artifact": sum(e["agrees_artifact"] for e in decided),
        "agree_either": sum(e["agrees_isa"] or e["agrees_artifact"] for e in decided),
        "would_run_on_gpu": sum(e.get("gpu") == "runs" for e in decided),
        "unsupported": dict(collections.Counter(e["construct"] for e in out if e["status"] == "unsupported")),
        "refused": sum(e["status"] == "refused" for e in out),
        "missing": sum(e["status"] == "missing" for e in out),
        "not_on_gpu": dict(collections.Counter(re.sub(r"(address|\.surfref|\.texref) \w+", r"\1 X", e["gpu"])
                                               for e in decided if e.get("gpu") != "runs")),
    }
    return {"schema": "vmmcheck-dat3m-check/1", "summary": summary, "tests": out}


def copy_runnable(doc: dict, dat3m: pathlib.Path, into: pathlib.Path) -> int:
    """The files whose rows would run, into one folder (their row names, not their folders, tell them apart)."""
    into.mkdir(parents=True, exist_ok=True)
    names = set()
    for e in doc["tests"]:
        if e.get("gpu") != "runs":
            continue
        if e["row"] in names:
            raise SystemExit(f"dat3m_check: two files make the row {e['row']} ({e['file']})")
        names.add(e["row"])
        shutil.copy(dat3m / e["file"], into / pathlib.Path(e["file"]).name)
    return len(names)


def add_gpu_results(doc: dict, run: dict) -> None:
    """What each runnable row did on the GPU of `run` (a vmmcheck results file)."""
    by_name = {r["name"]: r for r in run["results"]}
    ran = []
    for e in doc["tests"]:
        if e.get("gpu") != "runs":
            continue
        r = by_name.get(e["row"])
        if r is None:
            e["gpu_run"] = {"status": "not in the run"}
            continue
        power = r.get("power") or {}
        e["gpu_run"] = {"status": r["status"], "judged": r.get("judged", r.get("instances", 0)), "weak": r.get("weak", 0),
                        "control_showed": power.get("violations") if power.get("discriminating") else None}
        ran.append(e["gpu_run"])
    ctx = run.get("context", {})
    doc["gpu"] = {"device": (ctx.get("devices") or [{}])[0].get("name", ""), "driver": ctx.get("driver_release", ""),
                  "git_sha": ctx.get("git_sha", "")}
    doc["summary"]["ran_on_gpu"] = len(ran)
    doc["summary"]["gpu_statuses"] = dict(collections.Counter(g["status"] for g in ran))
    doc["summary"]["gpu_weak_shown"] = sum(1 for g in ran if g["weak"])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dat3m", required=True, type=pathlib.Path, help="a checkout of Dat3M")
    ap.add_argument("--vmmcheck", required=True)
    ap.add_argument("--expected", type=pathlib.Path, help=f"the expected-results CSV (default: DAT3M/{EXPECTED})")
    ap.add_argument("--json", type=pathlib.Path, help="write the whole check here")
    ap.add_argument("--commit", default="", help="the checkout's commit, recorded in the JSON")
    ap.add_argument("--copy-runnable", type=pathlib.Path, help="copy the files whose rows would run on a GPU into this folder")
    ap.add_argument("--gpu-results", type=pathlib.Path, help="a `vmmcheck run --litmus` results file of those files")
    a = ap.parse_args(argv)
    csv = a.expected or a.dat3m / EXPECTED
    if not csv.exists():
        print(f"dat3m_check: {csv}: no expected-results file (is {a.dat3m} a Dat3M checkout?)", file=sys.stderr)
        return 2
    doc = check(a.dat3m, a.vmmcheck, csv)
    doc["dat3m_commit"] = a.commit
    v = subprocess.run([a.vmmcheck, "--version"], capture_output=True, text=True)
    doc["vmmcheck"] = v.stdout.strip()
    if a.copy_runnable:
        print(f"dat3m_check: {copy_runnable(doc, a.dat3m, a.copy_runnable)} files into {a.copy_runnable}", file=sys.stderr)
    if a.gpu_results:
        add_gpu_results(doc, json.loads(a.gpu_results.read_text()))
    if a.json:
        a.json.write_text(json.dumps(doc, indent=1) + "\n")
    print(json.dumps(doc["summary"], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
