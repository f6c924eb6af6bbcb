"""compare: each kind of difference is found, and only the differences there are."""

import copy

import pytest

from conftest import H200, make_doc, result, run_module, write_json
from vmmcheck_report import compare


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
    assert "no differences" in out
    assert "0 regressions" in out


def test_one_regression_in_process(one_regression, run_cli, tmp_path):
    path, name = one_regression
    rc, out, _ = run_cli("compare", H200, path, "--html", tmp_path / "cmp.html")
    assert rc == 1
    assert f"Regressions (1):\n  {name}: Pass -> Fail\n" in out
    assert "1 regression\n" in out
    # Nothing else moved: the regression is the only section.
    assert out.count("):\n") == 1
    html = (tmp_path / "cmp.html").read_text()
    assert html.count('<tr class="change">') == 1 and "1 regression</p>" in html
    assert name.replace(".", ".<wbr>") in html


def test_one_regression_subprocess(one_regression):
    path, name = one_regression
    proc = run_module("compare", H200, path)
    assert proc.returncode == 1, proc.stderr
    assert f"  {name}: Pass -> Fail" in proc.stdout
    assert proc.stdout.count(" -> ") == 1


def test_regression_kinds(h200_doc):
    cur = copy.deepcopy(h200_doc)
    for r, status in zip(cur["results"][:4], ["Fail", "Crash", "Timeout", "Error"]):
        r["status"] = status
    cmp = compare.compare(h200_doc, cur)
    assert [(c.before, c.after) for c in cmp.regressions] == [("Pass", s) for s in ["Fail", "Crash", "Timeout", "Error"]]
    assert cmp.exit_code == 1


def test_fixes_appeared_vanished_not_supported_flake():
    base = make_doc([result("alias.mp.a.fixed", "Fail"), result("alias.mp.a.gone"), result("alias.mp.a.ns"),
                     result("alias.mp.a.fl"), result("alias.mp.a.crashes", "Fail"),
                     result("alias.mp.a.xfail", "ExpectedFail", original_status="Fail")])
    cur = make_doc([result("alias.mp.a.fixed"), result("alias.mp.a.new"),
                    result("alias.mp.a.ns", "NotSupported", reason="one GPU"),
                    result("alias.mp.a.fl", "Flake", original_status="Fail"), result("alias.mp.a.crashes", "Crash"),
                    result("alias.mp.a.xfail", "UnexpectedPass", original_status="Pass")])
    cmp = compare.compare(base, cur)
    names = {title: [c.name for c in changes] for title, changes in cmp.sections()}
    assert names == {
        "Fixes": ["alias.mp.a.fixed", "alias.mp.a.xfail"],
        "Appeared": ["alias.mp.a.new"],
        "Vanished": ["alias.mp.a.gone"],
        "New NotSupported": ["alias.mp.a.ns"],
        "New flakes": ["alias.mp.a.fl"],
        "Other status changes": ["alias.mp.a.crashes"],
    }
    assert cmp.exit_code == 0
    text = compare.format_text(cmp)
    assert "alias.mp.a.new: new, Pass" in text and "alias.mp.a.gone: gone (was Pass)" in text


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
    assert rc == 0 and "no differences" in out
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
