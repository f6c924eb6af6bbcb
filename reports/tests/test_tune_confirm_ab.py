"""ci/tune_confirm_ab.py, on an output folder laid out as ci/gpu-tune-confirm.sh leaves it: which draw was the
search's own pick, and the table of both picks' scores in the search, measured again, and fresh."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("tune_confirm_ab", REPO / "ci" / "tune_confirm_ab.py")
ab = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ab)


def trial(knob: int, score: float, n: int | None = None) -> dict:
    t = {"score": score, "params": {"stress_accesses": knob}}
    if n is not None:
        t["trial"] = n
    return t


def tune_file(out: Path, test: str, trials: list[dict], confirmed: list[dict], kept: int) -> None:
    doc = {"trials": trials, "confirmed": confirmed, "best": dict(confirmed[0], trial=kept), "params": trials[kept - 1]["params"]}
    (out / "params" / f"{test}.json").write_text(json.dumps(doc))


def fresh_run(out: Path, test: str, arm: str, weak: int, judged: int = 1_000_000) -> None:
    rows = [{"name": f"litmus.{test}.x", "status": "Pass", "weak": weak, "instances": judged, "judged": judged},
            {"name": "alias.x", "status": "Pass", "weak": 0, "instances": 1}]
    (out / "runs" / f"{test}.{arm}.json").write_text(json.dumps({"results": rows}))


@pytest.fixture
def out(tmp_path: Path) -> Path:
    for d in ("params", "runs", "logs"):
        (tmp_path / d).mkdir()
    # mp: the search's best (trial 3, 3.9) fell to 3.5 measured again; trial 2 held at 3.7 and was kept.
    tune_file(tmp_path, "mp", [trial(0, 1.0), trial(1, 3.8), trial(2, 3.9)],
              [trial(2, 3.5, n=3), trial(1, 3.7, n=2)], kept=2)
    fresh_run(tmp_path, "mp", "search", weak=3000)      # log10(3001)
    fresh_run(tmp_path, "mp", "confirmed", weak=5000)   # log10(5001)
    # iriw: the same pick both ways.
    tune_file(tmp_path, "iriw", [trial(0, 1.0), trial(1, 3.0)], [trial(1, 2.9, n=2)], kept=2)
    fresh_run(tmp_path, "iriw", "search", weak=900)
    fresh_run(tmp_path, "iriw", "confirmed", weak=800)
    return tmp_path


def test_the_search_pick_is_the_first_draw_measured_again(out, tmp_path):
    assert ab.main(["search-pick", "--tune", str(out / "params" / "mp.json"), "--write", str(tmp_path / "pick.json")]) == 0
    assert json.loads((tmp_path / "pick.json").read_text()) == {"params": {"stress_accesses": 2}}
    (out / "params" / "x.json").write_text(json.dumps({"trials": [trial(0, 1.0)], "confirmed": []}))
    assert ab.main(["search-pick", "--tune", str(out / "params" / "x.json"), "--write", str(tmp_path / "p2.json")]) == 1


def test_the_report_compares_the_picks_where_they_differ(out):
    doc = ab.report(out, ["mp", "iriw", "wrc"])
    mp = doc["tests"][0]
    assert mp["search_pick"]["trial"] == 3 and mp["confirmed_pick"]["trial"] == 2
    assert mp["search_pick"]["again_score"] == 3.5 and mp["confirmed_pick"]["search_score"] == 3.8
    assert mp["confirmed_pick"]["fresh"]["score"] == pytest.approx(math.log10(5001))
    s = doc["summary"]
    assert s["tests"] == 2 and s["picks_differ"] == 1 and s["confirmed_stronger"] == 1 and s["search_stronger"] == 0
    assert s["search_pick_drop_mean"] == pytest.approx(((3.9 - math.log10(3001)) + (3.0 - math.log10(901))) / 2)
    assert doc["problems"] and doc["problems"][0].startswith("wrc: ")  # its search never ran
    md = ab.markdown(doc)
    assert "| mp | 3, 3.900, 3.500, 3.477 | 2, 3.800, 3.700, 3.699 |" in md
    assert "Picks differ on 1 of 2 tests; fresh, the confirmed pick ran stronger on 1 of those and weaker on 0." in md


def test_a_search_whose_confirmation_fell_back_to_the_default_is_reported(out):
    # Every draw measured again failed its guards: tune kept trial 1 (the default), which it did not measure again.
    tune_file(out, "mp", [trial(0, 1.0), trial(1, 3.8), trial(2, 3.9)], [trial(2, 3.5, n=3), trial(1, 3.7, n=2)], kept=1)
    doc = ab.report(out, ["mp", "iriw"])
    mp = doc["tests"][0]
    assert mp["confirmed_pick"]["trial"] == 1 and mp["confirmed_pick"]["again_score"] is None
    assert doc["summary"]["confirmed_pick_drop_mean"] == pytest.approx(2.9 - math.log10(801))  # iriw's alone
    assert "| mp | 3, 3.900, 3.500, 3.477 | 1, 1.000, -, 3.699 |" in ab.markdown(doc)
