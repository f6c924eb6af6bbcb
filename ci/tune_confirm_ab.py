#!/usr/bin/env python3
"""The A/B of `tune --confirm` (ci/gpu-tune-confirm.sh): for each test, the draw the search alone would
have kept and the draw its confirmation kept, each with its score in the search, measured again, and in a
fresh run. A score is tune's own, per instance: log10(1 + weak outcomes per million judged instances).

  tune_confirm_ab.py search-pick --tune PARAMS.json --write PICK.json
  tune_confirm_ab.py report --out OUTDIR --tests "mp iriw ..."
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import pathlib
import sys


def score(weak: int, judged: int) -> float:
    return math.log10(1 + 1e6 * weak / judged) if judged else 0.0


def search_pick(tune: dict) -> tuple[int, dict]:
    """The search's own pick (its trial number, from 1, and knobs): the first draw the confirmation measured
    again, which is the best of the trials as the search judged them (cli/tune_trial.hpp)."""
    confirmed = tune.get("confirmed") or []
    if not confirmed:
        raise ValueError("the search measured nothing again (no --confirm, or no admissible draw)")
    n = confirmed[0]["trial"]
    return n, tune["trials"][n - 1]["params"]


def fresh(path: pathlib.Path) -> dict:
    """The fresh run of one arm: its litmus row's weak outcomes of the instances judged."""
    rows = [r for r in json.loads(path.read_text())["results"] if r["name"].startswith("litmus.")]
    if len(rows) != 1:
        raise ValueError(f"{path}: {len(rows)} litmus rows, one expected")
    r = rows[0]
    judged = r.get("judged", r["instances"])
    return {"status": r["status"], "weak": r["weak"], "judged": judged, "score": score(r["weak"], judged)}


def one_test(out: pathlib.Path, test: str) -> dict:
    tune = json.loads((out / "params" / f"{test}.json").read_text())
    n, _ = search_pick(tune)
    again = {c["trial"]: c for c in tune["confirmed"]}
    kept = tune["best"]["trial"]
    entry = {"test": test, "trials": len(tune["trials"]), "confirmed": len(tune["confirmed"]),
             "kept_by": tune["best"].get("kept_by", "confirmation"),
             "search_pick": {"trial": n, "search_score": tune["trials"][n - 1]["score"], "again_score": again[n]["score"]},
             "confirmed_pick": {"trial": kept, "search_score": tune["trials"][kept - 1]["score"],
                                "again_score": again[kept]["score"] if kept in again else None}}
    for arm, key in (("search", "search_pick"), ("confirmed", "confirmed_pick")):
        entry[key]["fresh"] = fresh(out / "runs" / f"{test}.{arm}.json")
    return entry


def report(out: pathlib.Path, tests: list[str]) -> dict:
    text = lambda name: (out / "logs" / name).read_text().strip() if (out / "logs" / name).exists() else ""
    doc = {"schema": "vmmcheck-tune-confirm-ab/1", "generated": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "gpu": text("gpu.txt"), "vmmcheck": text("vmmcheck.version"), "tests": [], "problems": []}
    for t in tests:
        try:
            doc["tests"].append(one_test(out, t))
        except (OSError, ValueError, KeyError, IndexError) as e:
            doc["problems"].append(f"{t}: {e}")
    differ = [e for e in doc["tests"] if e["search_pick"]["trial"] != e["confirmed_pick"]["trial"]]
    fresh = lambda e, key: e[key]["fresh"]["score"]

    def mean(values: list) -> float | None:
        return sum(values) / len(values) if values else None

    doc["summary"] = {
        "tests": len(doc["tests"]),
        "picks_differ": len(differ),
        "confirmed_stronger": sum(fresh(e, "confirmed_pick") > fresh(e, "search_pick") for e in differ),
        "search_stronger": sum(fresh(e, "confirmed_pick") < fresh(e, "search_pick") for e in differ),
        # The winner's curse: how far the search's pick fell from its score in the search to a fresh run;
        # the confirmed pick's from its second measurement (a pick the confirmation fell back from has none).
        "search_pick_drop_mean": mean([e["search_pick"]["search_score"] - fresh(e, "search_pick") for e in doc["tests"]]),
        "confirmed_pick_drop_mean": mean([e["confirmed_pick"]["again_score"] - fresh(e, "confirmed_pick")
                                          for e in doc["tests"] if e["confirmed_pick"]["again_score"] is not None])}
    return doc


def markdown(doc: dict) -> str:
    lines = ["| test | search's pick: trial, search, again, fresh | confirmed pick: trial, search, again, fresh |",
             "|---|---|---|"]
    f = lambda v: "-" if v is None else f"{v:.3f}"
    for e in doc["tests"]:
        cells = []
        for key in ("search_pick", "confirmed_pick"):
            p = e[key]
            cells.append(f"{p['trial']}, {f(p['search_score'])}, {f(p['again_score'])}, {f(p['fresh']['score'])}")
        lines.append(f"| {e['test']} | {cells[0]} | {cells[1]} |")
    s = doc["summary"]
    lines += ["", f"Picks differ on {s['picks_differ']} of {s['tests']} tests; fresh, the confirmed pick ran stronger on "
              f"{s['confirmed_stronger']} of those and weaker on {s['search_stronger']}. Mean fall to the fresh run: the "
              f"search's pick {f(s['search_pick_drop_mean'])} from its search score, the confirmed pick "
              f"{f(s['confirmed_pick_drop_mean'])} from its second measurement."]
    if doc["problems"]:
        lines += ["", "Problems: " + "; ".join(doc["problems"])]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("search-pick")
    p.add_argument("--tune", required=True)
    p.add_argument("--write", required=True)
    r = sub.add_parser("report")
    r.add_argument("--out", required=True)
    r.add_argument("--tests", required=True)
    a = ap.parse_args(argv)
    if a.cmd == "search-pick":
        try:
            _, params = search_pick(json.loads(pathlib.Path(a.tune).read_text()))
        except (OSError, ValueError, KeyError, IndexError) as e:
            print(f"tune_confirm_ab: {a.tune}: {e}", file=sys.stderr)
            return 1
        pathlib.Path(a.write).write_text(json.dumps({"params": params}, indent=1) + "\n")
        return 0
    out = pathlib.Path(a.out)
    doc = report(out, a.tests.split())
    (out / "tune-confirm-ab.json").write_text(json.dumps(doc, indent=1) + "\n")
    (out / "tune-confirm-ab.md").write_text(markdown(doc))
    print(markdown(doc))
    return 1 if doc["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
