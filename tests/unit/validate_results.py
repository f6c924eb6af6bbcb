#!/usr/bin/env python3
"""Validates vmmcheck JSON results against schema/results.schema.json.

Runs the real binary (`vmmcheck run --json`) on a few cases of every family -- with a GPU they run and
the output is validated; without one nothing runs and nothing may be written (exit 77) -- then every
stored run under ci/results/. Beyond the schema it checks what the schema cannot: totals match the records, and a
finished case's histogram adds up to its instance count.
"""
import argparse
import json
import pathlib
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    sys.exit("validate_results.py: the Python package 'jsonschema' is missing (ci/setup-deps.sh installs it)")


def check(path: pathlib.Path, validator) -> list:
    problems = []
    try:
        doc = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        return [f"{path}: not readable JSON: {e}"]
    for error in validator.iter_errors(doc):
        location = "/".join(str(p) for p in error.absolute_path)
        problems.append(f"{path}: {location or '(root)'}: {error.message}")
    if problems:
        return problems
    counted = {}
    for r in doc["results"]:
        counted[r["status"]] = counted.get(r["status"], 0) + 1
        if r["status"] in ("Pass", "Fail") and sum(r["histogram"].values()) != r["instances"]:
            problems.append(f"{path}: {r['name']}: histogram does not add up to {r['instances']} instances")
    for status, n in doc["totals"].items():
        if counted.get(status, 0) != n:
            problems.append(f"{path}: totals say {n} {status}, the records {counted.get(status, 0)}")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--vmmcheck", required=True)
    ap.add_argument("--schema", required=True)
    ap.add_argument("--stored", required=True, help="folder of stored result files")
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()

    schema = json.loads(pathlib.Path(args.schema).read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)

    out = pathlib.Path(args.workdir) / "schema-check-results.json"
    out.unlink(missing_ok=True)
    run = subprocess.run(
        [args.vmmcheck, "run", "--json", str(out), "--filter",
         "alias.same_thread.alias.weak.*,alias.mp.same.flagsame.nofence.*,alias.kernels.kernel.kernel.event.*,alias.resident.same.weak.*",
         "--instances", "100000", "--iterations", "1", "--op-words", "65536"],
        capture_output=True, text=True)
    if run.returncode not in (0, 77):
        print(run.stdout, run.stderr, sep="\n")
        print(f"vmmcheck run exited {run.returncode}")
        return 1
    # A run that ran nothing here (no GPU: 77) writes no results file; one that ran writes a whole one.
    if run.returncode == 77 and out.exists():
        print(f"{out}: written by a run that ran nothing (exit 77)")
        return 1
    fresh = [out] if run.returncode == 0 else []
    files = fresh + sorted(p for p in pathlib.Path(args.stored).glob("*.json") if not p.name.endswith(".probe.json"))
    problems = [p for f in files for p in check(f, validator)]
    for p in problems:
        print(p)
    print(f"{len(files)} result file(s) checked, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
