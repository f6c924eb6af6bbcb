"""compare: each kind of difference is found, and only the differences there are; any worsening gates."""

import copy
import json
import re
from pathlib import Path

import pytest

from conftest import H200, make_doc, result, run_module, write_json
from vmmcheck_report import compare, model

REPO = Path(__file__).resolve().parents[2]
ONE_H200 = REPO / "ci" / "results" / "nvidia-h200_driver-580.159.04.json"
TWO_H200 = REPO / "ci" / "results" / "2x-nvidia-h200_driver-580.159.04.json"


def first_required(doc):
    return next(r for r in doc["results"] if r["expectation"] == "required")


@pytest.fixture
def one_regression(tmp_path, h200_doc):
    """The H200 run with one required case turned into Fail."""
    case = first_required(h200_doc)
    case.update(status="Fail", reason="1 stale read")
    doc = make_doc(h200_doc["results"], like=h200_doc)
    return write_json(tmp_path / "current.json", doc), case["name"]


def test_against_itself_nothing(run_cli):
    rc, out, err = run_cli("compare", H200, H200)
    assert rc == 0 and err == ""
    assert out.splitlines()[0] == "OK: no regression"
    assert "no differences" in out
    assert "note:" not in out           # the same machine


def test_one_regression_in_process(one_regression, run_cli, tmp_path):
    path, name = one_regression
    rc, out, _ = run_cli("compare", H200, path, "--html", tmp_path / "cmp.html")
    assert rc == 1
    assert out.splitlines()[0] == "REGRESSED: 1 regression (1 worsened, 0 new failing, 0 missing)"
    assert f"Regressions (1):\n  Worsened (1):\n    {name}: Pass -> Fail\n" in out
    # Nothing else moved: the regression is the only section.
    assert out.count("):\n") == 2
    html = (tmp_path / "cmp.html").read_text()
    assert html.count('<tr class="change">') == 1
    assert '<p class="verdict bad" id="verdict">REGRESSED: 1 regression (1 worsened, 0 new failing, 0 missing)</p>' in html
    assert name.replace(".", ".<wbr>") in html


def test_one_regression_subprocess(one_regression):
    path, name = one_regression
    proc = run_module("compare", H200, path)
    assert proc.returncode == 1, proc.stderr
    assert f"    {name}: Pass -> Fail" in proc.stdout
    assert proc.stdout.count(" -> ") == 1


def test_ranks():
    """The rank table of the brief, read from model.STATUS_TABLE."""
    assert {s.name: s.rank for s in model.STATUS_TABLE} == {
        "Pass": 0, "UnexpectedPass": 0, "ExpectedFail": 0, "Skip": 0, "NotSupported": 1, "Warning": 2, "Flake": 2,
        "Fail": 3, "Crash": 3, "Timeout": 3, "Error": 3}
    assert model.RANK_FAILING == 3 and model.rank("Bogus") == 3


def test_regression_kinds(h200_doc):
    cur = copy.deepcopy(h200_doc)
    for r, status in zip(cur["results"][:4], ["Fail", "Crash", "Timeout", "Error"]):
        r["status"] = status
    cmp = compare.compare(h200_doc, cur)
    assert [(c.before, c.after) for c in cmp.worsened] == [("Pass", s) for s in ["Fail", "Crash", "Timeout", "Error"]]
    assert cmp.regressions == cmp.worsened
    assert cmp.exit_code == 1


def compare_statuses(before: str, after: str):
    """One case, `before` in the baseline and `after` now (a status the baseline driver sets carries the
    status the run reported)."""
    def one(status):
        extra = {"original_status": "Fail"} if status in model.DRIVER_STATUSES else {}
        return make_doc([result("alias.mp.a.x", status, **extra)])
    return compare.compare(one(before), one(after))


@pytest.mark.parametrize("before, after", [("Warning", "Fail"), ("Pass", "NotSupported"), ("NotSupported", "Fail"),
                                           ("Pass", "Flake"), ("Pass", "Warning"), ("NotSupported", "Warning"),
                                           ("Flake", "Crash"), ("ExpectedFail", "Fail"), ("Skip", "NotSupported"),
                                           ("UnexpectedPass", "Timeout")])
def test_every_worsening_is_a_regression(before, after):
    cmp = compare_statuses(before, after)
    assert [(c.before, c.after) for c in cmp.worsened] == [(before, after)]
    assert cmp.exit_code == 1
    assert compare.format_text(cmp).startswith("REGRESSED: 1 regression (1 worsened, 0 new failing, 0 missing)\n")
    # The other way round it is an improvement, never a regression.
    back = compare_statuses(after, before)
    assert [(c.before, c.after) for c in back.improvements] == [(after, before)] and back.exit_code == 0


@pytest.mark.parametrize("before, after", [("Fail", "Crash"), ("Pass", "ExpectedFail"), ("Warning", "Flake"),
                                           ("Pass", "Skip"), ("Timeout", "Error")])
def test_the_same_rank_is_another_status_change(before, after):
    cmp = compare_statuses(before, after)
    assert [(c.before, c.after) for c in cmp.other_status_changes] == [(before, after)]
    assert cmp.exit_code == 0 and cmp.regressions == []


def test_new_failing_missing_and_the_other_categories():
    base = make_doc([result("alias.mp.a.fixed", "Fail"), result("alias.mp.a.gone"), result("alias.mp.a.ns"),
                     result("alias.mp.a.fl"), result("alias.mp.a.crashes", "Fail"),
                     result("alias.mp.a.xfail", "ExpectedFail", original_status="Fail"),
                     result("alias.mp.a.ran", "NotSupported")])
    cur = make_doc([result("alias.mp.a.fixed"), result("alias.mp.a.new"), result("alias.mp.a.newbad", "Crash"),
                    result("alias.mp.a.newwarn", "Warning"), result("alias.mp.a.newns", "NotSupported"),
                    result("alias.mp.a.ns", "NotSupported", reason="one GPU"),
                    result("alias.mp.a.fl", "Flake", original_status="Fail"), result("alias.mp.a.crashes", "Crash"),
                    result("alias.mp.a.xfail", "UnexpectedPass", original_status="Pass"),
                    result("alias.mp.a.ran")])
    cmp = compare.compare(base, cur)
    regressions = {title: [c.name for c in changes] for title, changes in cmp.regression_groups()}
    assert regressions == {"Worsened": ["alias.mp.a.ns", "alias.mp.a.fl"], "New failing": ["alias.mp.a.newbad"],
                           "Missing": ["alias.mp.a.gone"]}
    names = {title: [c.name for c in changes] for title, changes in cmp.sections()}
    assert names == {
        "Improvements": ["alias.mp.a.fixed", "alias.mp.a.ran"],
        "Other status changes": ["alias.mp.a.crashes", "alias.mp.a.xfail"],
        "Appeared": ["alias.mp.a.new", "alias.mp.a.newwarn", "alias.mp.a.newns"],
    }
    assert cmp.exit_code == 1
    text = compare.format_text(cmp)
    assert text.splitlines()[0] == "REGRESSED: 4 regressions (2 worsened, 1 new failing, 1 missing)"
    assert "    alias.mp.a.newbad: (absent) -> Crash\n" in text and "    alias.mp.a.gone: Pass -> (absent)\n" in text
    assert "  alias.mp.a.new: (absent) -> Pass\n" in text
    # The regressions come before every other section.
    assert text.index("Regressions (4):") < text.index("Improvements (2):") < text.index("Appeared (3):")


def test_allow_missing_lists_them_as_vanished(tmp_path, run_cli):
    base = make_doc([result("alias.mp.a.kept"), result("alias.mp.a.gone", "Warning")])
    cur = make_doc([result("alias.mp.a.kept")])
    cmp = compare.compare(base, cur, allow_missing=True)
    assert cmp.missing == [] and [c.name for c in cmp.vanished] == ["alias.mp.a.gone"] and cmp.exit_code == 0
    b, c = write_json(tmp_path / "b.json", base), write_json(tmp_path / "c.json", cur)
    rc, out, _ = run_cli("compare", b, c)
    assert rc == 1 and out.splitlines()[0] == "REGRESSED: 1 regression (0 worsened, 0 new failing, 1 missing)"
    assert "  Missing (1):\n    alias.mp.a.gone: Warning -> (absent)\n" in out
    rc, out, _ = run_cli("compare", b, c, "--allow-missing")
    assert rc == 0 and out.splitlines()[0] == "OK: no regression"
    assert "Vanished (1):\n  alias.mp.a.gone: Warning -> (absent)\n" in out and "Missing" not in out


def test_a_row_that_now_stands_for_a_case_is_renamed_not_missing():
    """A retired family's rows are named for its cases (`case NAME`): the row's old name, rebuilt from its
    axes, maps to it; the case's hand-written result in BASELINE compares with the row's in CURRENT."""
    axes = {"file": "alias_rmw", "instance": "0", "command": "same_gpu", "expect": "assert"}
    base = make_doc([result("alias.rmw.same.gpu"), result("litmus.alias_rmw.0.same_gpu", pattern="litmus", axes=axes),
                     result("litmus.alias_rmw.9.plain", pattern="litmus", axes=dict(axes, instance="9", command="plain"))])
    cur = make_doc([result("alias.rmw.same.gpu", pattern="litmus", axes=axes),
                    result("litmus.alias_rmw.9.plain", pattern="litmus", axes=dict(axes, instance="9", command="plain"))])
    cmp = compare.compare(base, cur)
    assert cmp.exit_code == 0 and cmp.missing == []
    assert [(c.name, c.detail) for c in cmp.renamed] == [("litmus.alias_rmw.0.same_gpu", "now alias.rmw.same.gpu")]
    assert "Renamed (1):\n  litmus.alias_rmw.0.same_gpu: now alias.rmw.same.gpu\n" in compare.format_text(cmp)
    assert compare.row_name(cur["results"][0]) == "litmus.alias_rmw.0.same_gpu"
    # The renamed row is compared with its own record too: a Fail under its new name is a regression.
    cur["results"][0]["status"] = "Fail"
    cmp = compare.compare(base, cur)
    assert [c.name for c in cmp.worsened] == ["litmus.alias_rmw.0.same_gpu", "alias.rmw.same.gpu"]
    assert compare.row_name(result("alias.mp.a.b")) is None


def test_the_header_names_both_runs_and_notes_what_differs(tmp_path, h200_doc):
    other = copy.deepcopy(h200_doc)
    other["context"].update(driver_release="590.10.01", driver="13.1", git_sha="abc1234")
    device = other["context"]["devices"][0]
    other["context"]["devices"] = [dict(device, name="NVIDIA H100", index=i) for i in (0, 1)]
    cmp = compare.compare(h200_doc, other, baseline_name="b.json", current_name="c.json")
    lines = compare.format_text(cmp).splitlines()
    ctx = h200_doc["context"]
    assert lines[1:5] == [
        "baseline: b.json",
        f"          NVIDIA H200, 1 device, driver {ctx['driver_release']} (CUDA {ctx['driver']}), git {ctx['git_sha']}",
        "current:  c.json",
        "          NVIDIA H100, 2 devices, driver 590.10.01 (CUDA 13.1), git abc1234"]
    assert lines[5:8] == [
        "note: the runs differ in GPU count: 1 in BASELINE, 2 in CURRENT -- cases that need two GPUs run only in one",
        "note: the runs are of different GPUs: NVIDIA H200 in BASELINE, NVIDIA H100 in CURRENT -- a status may differ "
        "for the GPU, not the change",
        f"note: the runs differ in driver: {ctx['driver_release']} (CUDA {ctx['driver']}) in BASELINE, 590.10.01 "
        "(CUDA 13.1) in CURRENT -- a status may differ for the driver, not the change"]
    # The tool that made them differs too (its git sha): a newer vmmcheck may judge a case otherwise.
    assert lines[8] == (f"note: the runs are of different tools: vmmcheck {ctx['tool_version']} (git {ctx['git_sha']}) in "
                        f"BASELINE, vmmcheck {ctx['tool_version']} (git abc1234) in CURRENT -- a status may differ for "
                        "the tool's change")
    html = compare.format_html(cmp)
    assert html.count('<p class="note">') == 4 and "NVIDIA H100, 2 devices, driver 590.10.01" in html


def test_the_budget_and_stress_that_differ_are_noted(h200_doc):
    other = copy.deepcopy(h200_doc)
    other["context"]["budget"]["instances"] = 1000
    other["context"]["budget"].setdefault("stress_params", {})["grid_barrier"] = True
    before = compare._knob(h200_doc["context"]["budget"].get("stress_params", {}).get("grid_barrier"))
    other["context"]["budget"]["row_stress_params"] = [{"rows": "litmus.mp.*", "params": {}}]
    notes = compare.provenance_notes(h200_doc, other)
    budget = h200_doc["context"]["budget"]
    assert notes == [
        f"the runs differ in budget: instances {budget['instances']} -> 1000 -- weak-outcome counts and power may differ "
        "for it",
        f"the runs differ in stress: grid_barrier {before} -> true; per-row knobs differ -- weak-outcome counts and "
        "power may differ for it"]
    assert compare.provenance_notes(h200_doc, copy.deepcopy(h200_doc)) == []


def test_a_knob_a_run_predates_is_its_default_not_a_difference():
    """loads_before_stores came after results files were written: missing there, it is its default (off)."""
    def doc(stress, rows):
        return {"context": {"tool_version": "0.1.0", "git_sha": "abc",
                            "budget": {"instances": 10, "stress_params": stress, "row_stress_params": rows}}}
    older = doc({"lines": 8}, [{"rows": "litmus.mp.*", "params": {"lines": 4}}])
    current = doc({"lines": 8, "loads_before_stores": False},
                  [{"rows": "litmus.mp.*", "params": {"lines": 4, "loads_before_stores": False}}])
    assert compare.provenance_notes(older, current) == []
    current["context"]["budget"]["stress_params"]["loads_before_stores"] = True
    assert compare.provenance_notes(older, current) == [
        "the runs differ in stress: loads_before_stores false -> true -- weak-outcome counts and power may differ for it"]
    current["context"]["budget"]["stress_params"]["loads_before_stores"] = False
    current["context"]["budget"]["row_stress_params"][0]["params"]["loads_before_stores"] = True
    assert compare.provenance_notes(older, current) == [
        "the runs differ in stress: per-row knobs differ -- weak-outcome counts and power may differ for it"]


def test_distinct_addresses_is_named_against_a_run_from_before_it():
    """distinct_addresses is on by default, but a results file from before it ran without: the change is named."""
    def doc(stress):
        return {"context": {"tool_version": "0.1.0", "git_sha": "abc",
                            "budget": {"instances": 10, "stress_params": stress, "row_stress_params": []}}}
    older, current = doc({"lines": 8}), doc({"lines": 8, "distinct_addresses": True})
    assert compare.provenance_notes(older, current) == [
        "the runs differ in stress: distinct_addresses false -> true -- weak-outcome counts and power may differ for it"]
    assert compare.provenance_notes(older, doc({"lines": 8, "distinct_addresses": False})) == []


def test_the_one_and_the_two_gpu_h200_runs():
    """The committed runs of one H200 and of two: the Warning that became a Fail on two GPUs, and the litmus
    rows the two-GPU run did not run, are regressions; the gate says so first."""
    proc = run_module("compare", ONE_H200, TWO_H200)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    # The litmus rows of the one-GPU run that the two-GPU run lacks, counted from the committed files.
    two = {r["name"] for r in json.loads(Path(TWO_H200).read_text())["results"]}
    gone = [r["name"] for r in json.loads(Path(ONE_H200).read_text())["results"]
            if r["name"].startswith("litmus.") and r["name"] not in two]
    assert gone, "the two-GPU run lacks no litmus row of the one-GPU run: this test no longer asks anything"
    n = len(gone)
    # Worsened: api.unmap_with_hole (Warning on one GPU, Fail on two), and the alias.mp_cta cases whose
    # spins gave up (a Warning of the hand-written kernel in the older two-GPU run, a Pass of the rows
    # that stand for them now).
    one = {r["name"]: r["status"] for r in json.loads(Path(ONE_H200).read_text())["results"]}
    worse = sorted(r["name"] for r in json.loads(Path(TWO_H200).read_text())["results"]
                   if r["name"] in one and model.rank(r["status"]) > model.rank(one[r["name"]]))
    assert "api.unmap_with_hole" in worse and all(w == "api.unmap_with_hole" or w.startswith("alias.mp_cta.") for w in worse)
    w = len(worse)
    assert lines[0] == f"REGRESSED: {n + w} regressions ({w} worsened, 0 new failing, {n} missing)"
    assert lines[1] == f"baseline: {ONE_H200}" and lines[3] == f"current:  {TWO_H200}"
    assert lines[2].startswith("          NVIDIA H200, 1 device, driver 580.159.04 (CUDA 13.0), git ")
    assert lines[4].startswith("          NVIDIA H200, 2 devices, driver 580.159.04 (CUDA 13.0), git ")
    assert lines[5] == ("note: the runs differ in GPU count: 1 in BASELINE, 2 in CURRENT -- cases that need two "
                        "GPUs run only in one")
    text = proc.stdout
    worsened = text[text.index(f"  Worsened ({w}):\n"):text.index(f"  Missing ({n}):\n")]
    assert "    api.unmap_with_hole: Warning -> Fail\n" in worsened
    missing = text[text.index(f"  Missing ({n}):\n"):].split("\n\n")[0].splitlines()[1:]
    assert len(missing) == n and all(re.fullmatch(r"    litmus\.\S+: (Pass|Warning) -> \(absent\)", m) for m in missing)
    # The peer cases that ran only with two GPUs are improvements, not regressions.
    assert "    peer.access.granted: NotSupported -> Pass" not in text
    assert "  peer.access.granted: NotSupported -> Pass\n" in text[text.index("Improvements ("):]


def test_not_supported_both_times_is_no_change():
    doc = make_doc([result("alias.mp.a.ns", "NotSupported")])
    assert compare.compare(doc, doc).empty


def test_weak_rate_threshold():
    def run(weak):
        return make_doc([result("alias.mp.a.u", expectation="undefined", weak=weak, instances=1000,
                                histogram={"new": 1000 - weak, "stale": weak})])
    base = run(100)
    assert compare.compare(base, run(109)).empty                       # 0.9 points: under 1
    cmp = compare.compare(base, run(120))                               # 2 points
    assert [c.name for c in cmp.weak_rate_changes] == ["alias.mp.a.u"]
    assert cmp.weak_rate_changes[0].detail == "weak rate 10% -> 12%"
    assert compare.compare(base, run(120), weak_threshold=0.05).empty
    assert cmp.exit_code == 0


def test_weak_rate_only_for_undefined():
    base = make_doc([result("alias.mp.a.r", weak=0)])
    cur = make_doc([result("alias.mp.a.r", weak=50)])
    assert compare.compare(base, cur).weak_rate_changes == []


def test_rate_threshold_and_zero_times():
    def run(seconds, gpu_seconds=0.0):
        return make_doc([result("alias.mp.a.r", instances=1000, seconds=seconds, gpu_seconds=gpu_seconds)])
    base = run(1.0)
    assert compare.compare(base, run(1.2)).empty                        # -17%: under 25%
    cmp = compare.compare(base, run(2.0))                               # half the rate
    assert [c.detail for c in cmp.rate_changes] == ["1k/s -> 500/s (-50%, wall time)"]
    assert compare.compare(base, run(2.0), rate_threshold=0.6).empty
    assert compare.compare(base, run(0.0)).empty                        # no time: nothing to compare
    assert compare.compare(run(0.0), base).empty
    # GPU time wins over wall time when there is one.
    cmp = compare.compare(run(1.0, gpu_seconds=0.5), run(1.0, gpu_seconds=0.25))
    assert [c.detail for c in cmp.rate_changes] == ["2k/s -> 4k/s (+100%, gpu time)"]


def test_a_case_that_counted_nothing_has_no_rate():
    # NotSupported on one machine (it still spent wall time finding out), measured on another: a status
    # change, and no rate to compare -- not a division by zero (seen comparing one H200 with two).
    skipped = make_doc([result("peer.kernels.a", status="NotSupported", instances=0, seconds=0.3, histogram={})])
    ran = make_doc([result("peer.kernels.a", instances=1000, seconds=1.0)])
    for before, after in ((skipped, ran), (ran, skipped)):
        cmp = compare.compare(before, after)
        assert cmp.rate_changes == []


def test_thresholds_from_cli(tmp_path, run_cli):
    base = write_json(tmp_path / "b.json", make_doc([result("alias.mp.a.r", instances=1000, seconds=1.0)]))
    cur = write_json(tmp_path / "c.json", make_doc([result("alias.mp.a.r", instances=1000, seconds=1.5)]))
    rc, out, _ = run_cli("compare", base, cur)
    assert rc == 0 and "Instances/s changes (1):" in out
    rc, out, _ = run_cli("compare", base, cur, "--rate-threshold", "0.5")
    assert rc == 0 and "no differences" in out and out.startswith("OK: no regression\n")
    with pytest.raises(SystemExit) as e:
        run_cli("compare", base, cur, "--rate-threshold", "-1")
    assert e.value.code == 2


def test_h200_rates_are_stable_against_a_copy(h200_doc):
    """Doubling every GPU time halves every GPU-timed rate: each such case is reported once."""
    cur = copy.deepcopy(h200_doc)
    for r in cur["results"]:
        r["gpu_seconds"] *= 2
    cmp = compare.compare(h200_doc, cur)
    gpu_timed = [r["name"] for r in h200_doc["results"] if r["gpu_seconds"] > 0]
    assert len(gpu_timed) == 93
    assert [c.name for c in cmp.rate_changes] == gpu_timed
    assert [title for title, _ in cmp.sections()] == ["Instances/s changes"]


def test_a_litmus_row_whose_axes_lack_command_is_bad_input(tmp_path, run_cli):
    axes = {"file": "corr", "instance": "0", "expect": "assert"}
    base = write_json(tmp_path / "a.json", make_doc([result("litmus.corr.0.x", pattern="litmus",
                                                             axes=dict(axes, command="x"))]))
    cur = write_json(tmp_path / "b.json", make_doc([result("litmus.corr.0.x", pattern="litmus", axes=axes)]))
    rc, out, err = run_cli("compare", base, cur)
    assert rc == 2 and err == f"{cur}: results[0].axes: a litmus row with no 'command' axis\n", err


def test_runs_with_no_results_compare_nothing_exit_2(tmp_path, run_cli):
    """As bench-compare: a run with no results can vouch for nothing, so the gate does not pass on it."""
    empty = write_json(tmp_path / "empty.json", make_doc([]))
    full = write_json(tmp_path / "full.json", make_doc([result("alias.mp.a.x")]))
    for args in ((empty, empty), (full, empty), (empty, full)):
        rc, out, err = run_cli("compare", *args)
        assert rc == 2 and err == f"{empty}: no results (results is empty): nothing to compare\n", (args, err)
