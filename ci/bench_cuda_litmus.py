#!/usr/bin/env python3
"""Helper of ci/bench-cuda-litmus.sh: cuda-litmus's tests beside the same tests as litmus files.

Standard library only (the runner's output and params files are read by ci/bench_litmus.py's parsers).

  draw --seed S --iterations N --write DST     a stress params file drawn as cuda-litmus's tune.sh draws one
  draw --from SRC --iterations N --write DST   SRC with testIterations set to N
  best --out OUTDIR --test T --draws N         the draw (1..N) with the most weak behaviours per second of
                                               the runner's own clock (its "Weak behavior rate")
  params --results JSON --write DIR           DIR/params/ as a bench folder leaves it, from a committed report:
                                               the draws, each test's cuda-litmus tuned params and vmmcheck's
                                               (per instance and per GPU second), for --params-from
  report --out OUTDIR --tests "..." --draws N [--long I:N] [--params-from DIR [--retuned [--speed-kept]]]
                                               OUTDIR/bench-cuda-litmus.{json,md}; exit 1 when a run failed
  merge --write OUT.json REPORT.json...        one report of the tests of several, made alike (the same GPU,
                                               tools, draws, long runs and params): a table of every test
                                               that no one device call has time for; exit 2 when they differ
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import pathlib
import random
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import bench_litmus  # noqa: E402  (the runner's params and output parsers)


def draw(seed: str, iterations: int) -> dict:
    """tune.sh's random_config, with its own ranges (workgroups up to 1024, workgroup size up to 256)."""
    rng = random.Random(seed)
    between = rng.randint
    p = {"testIterations": iterations}
    p["testingWorkgroups"] = between(4, 1024)
    p["maxWorkgroups"] = between(p["testingWorkgroups"], 1024)
    size = between(1, 256)
    p["workgroupSize"] = size + size % 2
    p["shufflePct"] = between(0, 100)
    p["barrierPct"] = between(0, 100)
    p["stressLineSize"] = between(2, 10) ** 2
    p["stressTargetLines"] = between(1, 16)
    p["scratchMemorySize"] = 32 * p["stressLineSize"] * p["stressTargetLines"]
    p["memStride"] = between(1, 7)
    p["memStressPct"] = between(0, 100)
    p["memStressIterations"] = between(0, 1024)
    p["memStressPattern"] = between(0, 3)
    p["preStressPct"] = between(0, 100)
    p["preStressIterations"] = between(0, 128)
    p["preStressPattern"] = between(0, 3)
    p["stressAssignmentStrategy"] = between(0, 1)
    p["permuteThread"] = 419
    return p


def write(p: dict, dst: str) -> None:
    pathlib.Path(dst).write_text("".join(f"{k}={v}\n" for k, v in p.items()))


def litmus_run(out: pathlib.Path, rid: str) -> dict:
    """One cuda-litmus run's numbers: weak, instances, the runner's seconds, the process's wall seconds."""
    logs = out / "logs"
    rc = int((logs / f"{rid}.rc").read_text())
    wall = float((logs / f"{rid}.end").read_text()) - float((logs / f"{rid}.start").read_text())
    if rc != 0:
        return {"ok": False, "rc": rc, "wall_seconds": wall}
    parsed = bench_litmus.parse_litmus_stdout((logs / f"{rid}.stdout").read_text(), rid)
    # The runner checks no CUDA call: a run whose counts do not add up to its params' behaviours is broken
    # (no GPU, a failed launch), whatever its exit status.
    # The params file the run took: a path under OUTDIR as the bench records it (so a folder moved or merged
    # with another reads its own), or absolute (cuda-litmus's shipped file).
    params = bench_litmus.read_stress_params(str(out / (logs / f"{rid}.params").read_text().strip()))
    problems = bench_litmus.check_litmus(parsed, None, rid)
    expected = bench_litmus.expected_behaviours(params)  # less where the runner skips ids that collide ("na")
    if not 0 < parsed["total"] <= expected:
        problems.append(f"{rid}: {parsed['total']} behaviours counted of at most {expected}: kernels that did not run, "
                        "or results never read back")
    if problems:
        return {"ok": False, "rc": rc, "wall_seconds": wall, "why": "; ".join(problems)}
    return {"ok": True, "weak": parsed["weak"], "instances": parsed["total"], "tool_seconds": parsed["time_taken"],
            "wall_seconds": wall, "params": params}


def vmmcheck_run(out: pathlib.Path, test: str, variant: str) -> dict:
    """The litmus file's row: weak outcomes, instances judged, GPU seconds, and the process's wall seconds."""
    logs = out / "logs"
    rid = f"{test}.vmmcheck-{variant}"
    rc = int((logs / f"{rid}.rc").read_text())
    wall = float((logs / f"{rid}.end").read_text()) - float((logs / f"{rid}.start").read_text())
    path = out / "vmmcheck" / f"{test}.{variant}.json"
    if rc != 0 or not path.exists():
        return {"ok": False, "rc": rc, "wall_seconds": wall}
    rows = [r for r in json.loads(path.read_text())["results"] if r["name"].startswith("litmus.")]
    if len(rows) != 1:
        return {"ok": False, "rc": rc, "wall_seconds": wall, "why": f"{len(rows)} rows in {path.name}"}
    r = rows[0]
    run = {"ok": r["status"] == "Pass", "status": r["status"], "row": r["name"], "weak": r.get("weak", 0),
           "instances": r.get("instances", 0), "judged": r.get("judged", r.get("instances", 0)),
           "gpu_seconds": r.get("gpu_seconds", 0.0), "wall_seconds": wall}
    if variant in ("tuned", "long"):  # the long runs are tuned for speed (bench-cuda-litmus.sh, --long)
        params = out / "params" / (f"{test}.vmmcheck-params.json" if variant == "tuned" else f"{test}.vmmcheck-speed-params.json")
        if params.exists():
            run["params"] = json.loads(params.read_text()).get("params")
    return run


def tune_doc(out: pathlib.Path, test: str, params: str) -> dict:
    """The params file tune wrote for a test (params/<test>.<params>.json); {} without one."""
    try:
        doc = json.loads((out / "params" / f"{test}.{params}.json").read_text())
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}


def tune_search(out: pathlib.Path, test: str, params: str) -> dict:
    """The "search" block of a params file tune wrote: trials, per, refine, confirm; {} without one."""
    return tune_doc(out, test, params).get("search", {})


def tune_starts(out: pathlib.Path, test: str, params: str) -> dict:
    """Where a search of vmmcheck's started (tune --start: bench-cuda-litmus.sh --start-earlier, --start) and
    whether it kept one of those draws: {} for a search without starts. A start under OUTDIR (the earlier
    call's picks, laid out there by --params-from) is named relative to it, another as it was given."""
    doc = tune_doc(out, test, params)
    try:
        given = doc.get("search", {}).get("starts") or []
        if not given:
            return {}
        root = out.resolve()

        def label(p: str) -> str:
            path = pathlib.Path(p).resolve()
            return str(path.relative_to(root)) if path.is_relative_to(root) else p
        best = doc.get("best") or {}
        kept = best.get("trial")
        trials = doc.get("trials") or []
        ok = isinstance(kept, int) and not isinstance(kept, bool) and 0 < kept <= len(trials)
        start = trials[kept - 1].get("start") if ok else None
        return {"starts": [label(p) for p in given], "kept_trial": kept, "kept_by": best.get("kept_by"),
                "kept_start": label(start) if start else None}
    except (AttributeError, TypeError):   # not a file tune wrote
        return {}


def rates(run: dict) -> dict:
    if not run.get("ok"):
        return run
    n = run.get("judged", run.get("instances", 0))
    run["weak_per_instance"] = run["weak"] / n if n else 0.0
    run["weak_per_wall_second"] = run["weak"] / run["wall_seconds"] if run["wall_seconds"] > 0 else 0.0
    return run


def cmd_params(a) -> int:
    """A report's tuned params, laid out as a bench folder's params/ (what --params-from reads): a committed
    report carries every params file its runs took, so a later call can take the same searches without the
    earlier call's folder."""
    doc = json.loads(pathlib.Path(a.results).read_text())
    if doc.get("schema") != "vmmcheck-bench-cuda-litmus/1":
        print(f"bench_cuda_litmus: {a.results}: not a vmmcheck-bench-cuda-litmus/1 report", file=sys.stderr)
        return 2
    dst = pathlib.Path(a.write) / "params"
    dst.mkdir(parents=True, exist_ok=True)
    (dst / "DRAWS").write_text(f"{doc['draws']}\n")
    # vmmcheck's long runs took the params scored per GPU second where the report's long runs say so.
    speed = doc.get("long", {}).get("vmmcheck_tuned_per") == "gpu-second"
    missing = []
    for e in doc["tests"]:
        t = e["test"]
        tuned, vm, vm_long = e.get("cuda_litmus_tuned", {}), e.get("vmmcheck_tuned", {}), e.get("vmmcheck_long", {})
        if "params" not in tuned or "params" not in vm:
            missing.append(t)
            continue
        write(tuned["params"], str(dst / f"{t}.tuned.txt"))
        about = f"{t}: from {a.results} ({doc['vmmcheck']})"
        (dst / f"{t}.vmmcheck-params.json").write_text(json.dumps(
            {"schema": "vmmcheck-stress-params/1", "about": about, "search": {"per": "instance", "from": a.results},
             "params": vm["params"]}, indent=1) + "\n")
        if speed and "params" in vm_long:
            (dst / f"{t}.vmmcheck-speed-params.json").write_text(json.dumps(
                {"schema": "vmmcheck-stress-params/1", "about": about, "search": {"per": "gpu-second", "from": a.results},
                 "params": vm_long["params"]}, indent=1) + "\n")
    if missing:
        print(f"bench_cuda_litmus: {a.results}: no tuned params for {', '.join(missing)}", file=sys.stderr)
        return 1
    return 0


# What must agree between reports merged into one table: the GPU, both tools, and how each side was tuned.
SAME = ("schema", "gpu", "cuda_litmus_commit", "vmmcheck", "draws", "long", "params_from", "vmmcheck_retuned",
        "vmmcheck_speed_kept", "vmmcheck_confirm", "vmmcheck_started")


def cmd_merge(a) -> int:
    """Reports of one setup, each of some tests (one device call each), as one: their tests in the order of
    the reports given, each test once, and every report's problems."""
    docs = [(r, json.loads(pathlib.Path(r).read_text())) for r in a.reports]
    first_name, first = docs[0]
    for name, doc in docs[1:]:
        differ = [k for k in SAME if doc.get(k) != first.get(k)]
        if differ:
            print(f"bench_cuda_litmus: {name} and {first_name} differ in {', '.join(differ)}: not one table", file=sys.stderr)
            return 2
    merged = {k: v for k, v in first.items() if k not in ("tests", "problems")}
    merged["generated"] = max(doc["generated"] for _, doc in docs)
    merged["merged_from"] = [{"report": name, "generated": doc["generated"], "tests": [e["test"] for e in doc["tests"]]}
                             for name, doc in docs]
    merged["tests"], merged["problems"], seen = [], [], set()
    for name, doc in docs:
        for e in doc["tests"]:
            if e["test"] in seen:
                print(f"bench_cuda_litmus: {e['test']} is in more than one report ({name})", file=sys.stderr)
                return 2
            seen.add(e["test"])
            merged["tests"].append(e)
        merged["problems"] += doc.get("problems", [])
    pathlib.Path(a.write).write_text(json.dumps(merged, indent=1) + "\n")
    print(markdown(merged))
    return 1 if merged["problems"] else 0


def cmd_best(a) -> int:
    out = pathlib.Path(a.out)
    best, best_rate = 1, -1.0
    for d in range(1, a.draws + 1):
        try:
            r = litmus_run(out, f"{a.test}.litmus-draw-{d}")
        except (OSError, bench_litmus.BenchError):
            continue
        rate = r["weak"] / r["tool_seconds"] if r.get("ok") and r["tool_seconds"] > 0 else -1.0
        if rate > best_rate:
            best, best_rate = d, rate
    print(best)
    return 0


def ratio(a: dict, b: dict, key: str):
    if not (a.get("ok") and b.get("ok")) or not b.get(key):
        return None
    return a[key] / b[key]


def cmd_report(a) -> int:
    out = pathlib.Path(a.out)
    tests = a.tests.split()
    def text(name: str) -> str:
        f = out / "logs" / name
        return f.read_text().strip() if f.exists() else ""
    doc = {"schema": "vmmcheck-bench-cuda-litmus/1",
           "generated": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "gpu": text("gpu.txt"), "cuda_litmus_commit": text("cuda-litmus.commit"), "vmmcheck": text("vmmcheck.version"),
           "draws": a.draws, "tests": []}
    variants = ("default", "tuned")
    if a.long:  # ITERATIONS:INSTANCES, both tools tuned and run that long
        iterations, _, instances = a.long.partition(":")
        # vmmcheck's long runs take the params its search scored per GPU second (bench-cuda-litmus.sh), or,
        # taken from a folder from before that search, those scored per instance: the params files say.
        pers = {tune_search(out, t, "vmmcheck-speed-params").get("per", "instance") for t in tests}
        doc["long"] = {"cuda_litmus_iterations": int(iterations), "vmmcheck_instances": int(instances),
                       "vmmcheck_tuned_per": pers.pop() if len(pers) == 1 else "mixed"}
        variants += ("long",)
    if a.params_from:
        doc["params_from"] = a.params_from
        doc["vmmcheck_retuned"] = a.retuned  # cuda-litmus's search taken, vmmcheck tuned again
        if a.retuned and a.speed_kept:  # ... per instance only: its long runs keep the earlier speed search
            doc["vmmcheck_speed_kept"] = True
    # vmmcheck's searches measured their best draws again (tune --confirm K): the params files say how many.
    confirms = {tune_search(out, t, "vmmcheck-params").get("confirm", 0) for t in tests}
    if confirms != {0}:
        doc["vmmcheck_confirm"] = confirms.pop() if len(confirms) == 1 else "mixed"
    problems = []
    for t in tests:
        entry = {"test": t}
        # A search that failed or stopped short (tune --seconds, the bench's timeout) found less than it says.
        for tune, params in (("vmmcheck-tune", "vmmcheck-params"), ("vmmcheck-tune-speed", "vmmcheck-speed-params")):
            rc = out / "logs" / f"{t}.{tune}.rc"
            if rc.exists() and rc.read_text().strip() != "0":
                problems.append(f"{t} vmmcheck {tune}: exit {rc.read_text().strip()} (logs/{t}.{tune}.stderr)")
            trials = tune_search(out, t, params).get("trials")
            if rc.exists() and trials is not None and trials < a.draws:
                problems.append(f"{t} vmmcheck {tune}: {trials} of {a.draws} trials")
        for key, params in (("vmmcheck_tuned_starts", "vmmcheck-params"), ("vmmcheck_long_starts", "vmmcheck-speed-params")):
            if (out / "logs" / f"{t}.vmmcheck-tune{'' if params == 'vmmcheck-params' else '-speed'}.rc").exists():
                started = tune_starts(out, t, params)  # a search this call ran, not a file it took
                if started:
                    entry[key] = started
                    doc["vmmcheck_started"] = True
        for variant in variants:
            try:
                entry[f"cuda_litmus_{variant}"] = rates(litmus_run(out, f"{t}.litmus-{variant}"))
            except (OSError, ValueError, bench_litmus.BenchError) as e:
                entry[f"cuda_litmus_{variant}"] = {"ok": False, "why": str(e)}
            try:
                entry[f"vmmcheck_{variant}"] = rates(vmmcheck_run(out, t, variant))
            except (OSError, ValueError, KeyError) as e:
                entry[f"vmmcheck_{variant}"] = {"ok": False, "why": str(e)}
        for variant in variants:
            vm, cl = entry[f"vmmcheck_{variant}"], entry[f"cuda_litmus_{variant}"]
            entry[f"per_instance_ratio_{variant}"] = ratio(vm, cl, "weak_per_instance")
            entry[f"per_wall_second_ratio_{variant}"] = ratio(vm, cl, "weak_per_wall_second")
            for side, run in (("vmmcheck", vm), ("cuda-litmus", cl)):
                if not run.get("ok"):
                    problems.append(f"{t} {side} {variant}: {run.get('why') or run.get('status') or 'exit ' + str(run.get('rc'))}")
        doc["tests"].append(entry)
    doc["problems"] = problems
    (out / "bench-cuda-litmus.json").write_text(json.dumps(doc, indent=1) + "\n")
    (out / "bench-cuda-litmus.md").write_text(markdown(doc))
    print(markdown(doc))
    return 1 if problems else 0


def _cell(run: dict) -> str:
    if not run.get("ok"):
        return "failed"
    return f"{run['weak']:,} of {run.get('judged', run['instances']):,} ({100 * run['weak_per_instance']:.3g}%), {run['weak_per_wall_second']:,.0f}/s"


def _x(v) -> str:
    return "-" if v is None else f"{v:,.3g}x"


def markdown(doc: dict) -> str:
    long = "long" in doc
    head = "| test | cuda-litmus default | vmmcheck default | cuda-litmus tuned | vmmcheck tuned | per instance, tuned | per wall second, tuned |"
    rule = "|---|---|---|---|---|---|---|"
    if long:
        head += " cuda-litmus long | vmmcheck long | per instance, long | per wall second, long |"
        rule += "---|---|---|---|"
    lines = [head, rule]
    for e in doc["tests"]:
        line = (f"| {e['test']} | {_cell(e['cuda_litmus_default'])} | {_cell(e['vmmcheck_default'])} | "
                f"{_cell(e['cuda_litmus_tuned'])} | {_cell(e['vmmcheck_tuned'])} | {_x(e['per_instance_ratio_tuned'])} | "
                f"{_x(e['per_wall_second_ratio_tuned'])} |")
        if long:
            line += (f" {_cell(e['cuda_litmus_long'])} | {_cell(e['vmmcheck_long'])} | {_x(e['per_instance_ratio_long'])} | "
                     f"{_x(e['per_wall_second_ratio_long'])} |")
        lines.append(line)
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("draw")
    d.add_argument("--seed")
    d.add_argument("--from", dest="src")
    d.add_argument("--iterations", type=int, required=True)
    d.add_argument("--write", required=True)
    pa = sub.add_parser("params")
    pa.add_argument("--results", required=True)
    pa.add_argument("--write", required=True)
    m = sub.add_parser("merge")
    m.add_argument("--write", required=True)
    m.add_argument("reports", nargs="+")
    b = sub.add_parser("best")
    b.add_argument("--out", required=True)
    b.add_argument("--test", required=True)
    b.add_argument("--draws", type=int, required=True)
    r = sub.add_parser("report")
    r.add_argument("--out", required=True)
    r.add_argument("--long", default="", help="ITERATIONS:INSTANCES of the long runs, when they ran")
    r.add_argument("--params-from", default="", help="the output folder whose tuned params were taken")
    r.add_argument("--retuned", action="store_true", help="with --params-from: only cuda-litmus's were, vmmcheck was tuned again")
    r.add_argument("--speed-kept", action="store_true",
                   help="with --retuned: vmmcheck's search per GPU second was taken too (only the one per instance ran again)")
    r.add_argument("--tests", required=True)
    r.add_argument("--draws", type=int, required=True)
    a = ap.parse_args(argv)
    if a.cmd == "draw":
        if a.src:
            p = bench_litmus.read_stress_params(a.src)
            p["testIterations"] = a.iterations
        else:
            p = draw(a.seed or "0", a.iterations)
        write(p, a.write)
        return 0
    return {"best": cmd_best, "params": cmd_params, "merge": cmd_merge}.get(a.cmd, cmd_report)(a)


if __name__ == "__main__":
    sys.exit(main())
