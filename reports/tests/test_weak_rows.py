"""ci/weak_rows.py: the litmus rows of a results file that proved nothing -- assert rows no control showed,
permit rows whose weak outcome did not show -- on the committed H200 run and on a made-up one."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("weak_rows", REPO / "ci" / "weak_rows.py")
weak = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(weak)


def row(name: str, expect: str, weak_count: int = 0, discriminating: bool | None = None, status: str = "Pass",
        expectation: str = "required") -> dict:
    r = {"name": name, "pattern": "litmus", "axes": {"expect": expect}, "status": status, "weak": weak_count,
         "instances": 1000, "expectation": expectation if expect == "assert" else "undefined"}
    if discriminating is not None:
        r["power"] = {"discriminating": discriminating}
    return r


def test_the_rows_that_proved_nothing():
    doc = {"results": [row("litmus.a.0.x", "assert", discriminating=True), row("litmus.a.1.y", "assert", discriminating=False),
                       row("alias.m.z", "assert", discriminating=False, expectation="model"),
                       row("litmus.a.2.p", "permit", weak_count=3), row("litmus.a.3.q", "permit"),
                       row("litmus.a.4.r", "permit", status="NotSupported"),
                       {"name": "alias.kernels.x", "pattern": "kernels", "status": "Pass", "weak": 0}]}
    assert weak.weak_rows(doc) == ["litmus.a.1.y", "alias.m.z", "litmus.a.3.q"]
    assert weak.weak_rows(doc, "assert") == ["litmus.a.1.y", "alias.m.z"]
    assert weak.weak_rows(doc, "permit") == ["litmus.a.3.q"]


def test_the_committed_run_counts_as_its_power_figure_does(capsys):
    path = REPO / "ci/results/nvidia-h200_driver-580.159.04.json"
    doc = json.loads(path.read_text())
    rows = [r for r in doc["results"] if r.get("pattern") == "litmus" and r["status"] == "Pass"]
    asserts = [r for r in rows if r["axes"]["expect"] == "assert" and r["expectation"] in ("required", "model")]
    permits = [r for r in rows if r["axes"]["expect"] == "permit"]
    listed = weak.weak_rows(doc)
    assert len(listed) == (sum(not r.get("power", {}).get("discriminating") for r in asserts)
                           + sum(r["weak"] == 0 for r in permits))
    assert "litmus.lb.3.cta_fence_acq_rel" in listed and "litmus.lb.2.cta_rel_acq" not in listed  # lb.2 shows under its tuned knobs
    assert weak.main([str(path), "--kind", "assert"]) == 0
    assert capsys.readouterr().out.strip().split(",") == weak.weak_rows(doc, "assert")


def test_entries_give_a_files_best_knobs_to_its_weak_rows_alone():
    lb2 = dict(row("alias.lb.x", "assert", discriminating=False), axes={"expect": "assert", "file": "lb", "instance": "2",
                                                                        "command": "cta_rel_acq"})
    plain = dict(row("litmus.sb.p", "permit"), axes={"expect": "permit", "file": "sb", "instance": "none", "command": "p"})
    shown = dict(row("litmus.sb.q", "permit", weak_count=5), axes={"expect": "permit", "file": "sb", "instance": "none",
                                                                   "command": "q"})
    mp = dict(row("litmus.mp.3.r", "permit"), axes={"expect": "permit", "file": "mp", "instance": "3", "command": "r"})
    doc = {"context": {"git_sha": "abcdef1234567890"}, "results": [lb2, plain, shown, mp]}
    search = lambda racing, base, kept="search": {"best": {"racing": racing, "targets": [{}, {}, {}], "kept_by": kept,
                                                            "params": {"grid_barrier": True}},
                                                   "baseline": {"racing": base}}
    tune = {"searches": {"litmus.lb": search(2, 0), "litmus.sb": search(1, 0, "confirmation"),
                         "litmus.mp": search(1, 1), "litmus.iriw": search(3, 0),
                         "litmus.wrc": search(3, 0, "default: every draw failed a guard")}}
    got = weak.entries(tune, doc)
    assert [e["rows"] for e in got] == ["litmus.lb.2.*", "litmus.sb.p,litmus.sb.p.*"]  # mp: no gain; iriw: no weak row
    assert got[0]["params"] == {"grid_barrier": True}
    assert "2 of 3 targets showing (0 by default)" in got[0]["why"] and "abcdef123456" in got[0]["why"]


def test_it_runs_where_python_has_no_jsonschema():
    # The GPU machine's python has none, and ci/gpu-wave.sh's tune-power step runs this script there: an
    # import error would leave the step's filter empty.
    import subprocess
    import sys
    code = ("import sys, runpy; sys.modules['jsonschema'] = None; sys.argv = ['weak_rows.py', sys.argv[1]]; "
            "runpy.run_path('ci/weak_rows.py', run_name='__main__')")
    run = subprocess.run([sys.executable, "-c", code, str(REPO / "ci/results/nvidia-h200_driver-580.159.04.json")],
                         cwd=REPO, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().startswith("litmus.")
