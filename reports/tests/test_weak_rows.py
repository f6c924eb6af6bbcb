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
         "expectation": expectation if expect == "assert" else "undefined"}
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
    assert "litmus.lb.2.cta_rel_acq" in listed
    assert weak.main([str(path), "--kind", "assert"]) == 0
    assert capsys.readouterr().out.strip().split(",") == weak.weak_rows(doc, "assert")
