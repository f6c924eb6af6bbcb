"""ci/bench_cuda_litmus.py's report, on an output folder laid out as ci/bench-cuda-litmus.sh leaves it: which
params each vmmcheck run is reported with, the ratios, and a run that did not work named as a problem.

The cuda-litmus output is its runner's own four lines; the vmmcheck results are the few fields the report reads.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("bench_cuda_litmus", REPO / "ci" / "bench_cuda_litmus.py")
helper = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(helper)

CUDA_LITMUS_PARAMS = {"testIterations": 10, "testingWorkgroups": 100, "maxWorkgroups": 200, "workgroupSize": 100,
                      "shufflePct": 0, "barrierPct": 0, "stressLineSize": 64, "stressTargetLines": 2,
                      "scratchMemorySize": 2048, "memStride": 1, "memStressPct": 0, "memStressIterations": 0,
                      "memStressPattern": 0, "preStressPct": 0, "preStressIterations": 0, "preStressPattern": 0,
                      "stressAssignmentStrategy": 0, "permuteThread": 419}


def run_log(out: Path, rid: str, seconds: float, stdout: str = "", rc: int = 0) -> None:
    logs = out / "logs"
    (logs / f"{rid}.start").write_text("100.0\n")
    (logs / f"{rid}.end").write_text(f"{100.0 + seconds}\n")
    (logs / f"{rid}.rc").write_text(f"{rc}\n")
    (logs / f"{rid}.stdout").write_text(stdout)


def cuda_litmus_run(out: Path, rid: str, weak: int, iterations: int, seconds: float) -> None:
    params = dict(CUDA_LITMUS_PARAMS, testIterations=iterations)
    path = out / "params" / f"{rid}.txt"
    path.write_text("".join(f"{k}={v}\n" for k, v in params.items()))
    (out / "logs" / f"{rid}.params").write_text(f"params/{rid}.txt\n")  # under OUTDIR, as the bench records it
    total = iterations * 100 * 100
    run_log(out, rid, seconds, f"Time taken: {seconds / 2} seconds\nWeak behavior rate: {weak / seconds} per second\n"
                               f"Total behaviors: {total}\nNumber of weak behaviors: {weak}\n")


def vmmcheck_run(out: Path, test: str, variant: str, weak: int, instances: int, seconds: float, status="Pass") -> None:
    run_log(out, f"{test}.vmmcheck-{variant}", seconds)
    row = {"name": f"litmus.{test}.tb", "status": status, "weak": weak, "instances": instances, "judged": instances,
           "gpu_seconds": seconds / 2}
    (out / "vmmcheck" / f"{test}.{variant}.json").write_text(json.dumps({"results": [row, {"name": "alias.x"}]}))


def tune_run(out: Path, test: str, params: str, per: str, knobs: dict, trials: int = 48, rc: int = 0, confirm: int = 0) -> None:
    tune = "vmmcheck-tune" if params == "vmmcheck-params" else "vmmcheck-tune-speed"
    run_log(out, f"{test}.{tune}", 5.0, rc=rc)
    (out / "params" / f"{test}.{params}.json").write_text(
        json.dumps({"search": {"trials": trials, "per": per, "refine": 16, "confirm": confirm}, "params": knobs}))


@pytest.fixture
def out(tmp_path: Path) -> Path:
    for d in ("logs", "params", "vmmcheck"):
        (tmp_path / d).mkdir()
    (tmp_path / "logs" / "gpu.txt").write_text("NVIDIA H200, 580.159.04\n")
    t = "mp"
    cuda_litmus_run(tmp_path, f"{t}.litmus-default", weak=10, iterations=10, seconds=0.5)
    cuda_litmus_run(tmp_path, f"{t}.litmus-tuned", weak=400, iterations=100, seconds=0.5)
    cuda_litmus_run(tmp_path, f"{t}.litmus-long", weak=4000, iterations=1000, seconds=2.0)
    vmmcheck_run(tmp_path, t, "default", weak=1000, instances=1_000_000, seconds=0.5)
    vmmcheck_run(tmp_path, t, "tuned", weak=8000, instances=1_000_000, seconds=0.5)
    vmmcheck_run(tmp_path, t, "long", weak=600_000, instances=100_000_000, seconds=2.0)
    tune_run(tmp_path, t, "vmmcheck-params", "instance", {"grid_barrier": True})
    tune_run(tmp_path, t, "vmmcheck-speed-params", "gpu-second", {"grid_barrier": False})
    return tmp_path


def report(out: Path, *extra: str) -> tuple[int, dict]:
    rc = helper.main(["report", "--out", str(out), "--tests", "mp", "--draws", "48", "--long", "1000:100000000", *extra])
    return rc, json.loads((out / "bench-cuda-litmus.json").read_text())


def test_the_long_runs_are_reported_with_the_params_scored_per_gpu_second(out):
    rc, doc = report(out)
    assert rc == 0 and doc["problems"] == []
    e = doc["tests"][0]
    assert e["vmmcheck_tuned"]["params"] == {"grid_barrier": True}   # scored per instance
    assert e["vmmcheck_long"]["params"] == {"grid_barrier": False}   # scored per GPU second
    assert doc["long"] == {"cuda_litmus_iterations": 1000, "vmmcheck_instances": 100_000_000, "vmmcheck_tuned_per": "gpu-second"}
    # Ratios of the rates: per instance 0.8% against 0.04%, per wall second 300k/s against 2k/s.
    assert e["per_instance_ratio_tuned"] == pytest.approx(0.008 / 0.0004)
    assert e["per_wall_second_ratio_long"] == pytest.approx(300_000 / 2_000)
    assert "vmmcheck_retuned" not in doc
    assert "vmmcheck_confirm" not in doc  # the searches kept their best measurement


def test_searches_that_confirmed_their_best_draws_say_how_many(out):
    tune_run(out, "mp", "vmmcheck-params", "instance", {"grid_barrier": True}, confirm=4)
    _, doc = report(out)
    assert doc["vmmcheck_confirm"] == 4


def test_searches_started_from_earlier_picks_say_where_and_whether_they_kept_one(out, tmp_path_factory):
    # mp's search per instance started from the earlier call's pick (under OUTDIR) and an experiment's (outside
    # it), and kept the experiment's draw (trial 4); its search per GPU second started nowhere.
    earlier = out / "params-from" / "params" / "mp.vmmcheck-params.json"
    earlier.parent.mkdir(parents=True)
    earlier.write_text("{}")
    elsewhere = str(tmp_path_factory.mktemp("experiments") / "mp-96-trials.params.json")
    trials = [{"refined": False}, {"refined": False}, {"refined": False, "start": str(earlier)},
              {"refined": False, "start": elsewhere}, {"refined": False}]
    run_log(out, "mp.vmmcheck-tune", 5.0)
    (out / "params" / "mp.vmmcheck-params.json").write_text(json.dumps({
        "search": {"trials": 48, "per": "instance", "starts": [str(earlier), elsewhere]}, "params": {"lines": 64},
        "best": {"trial": 4, "kept_by": "confirmation"}, "trials": trials}))
    rc, doc = report(out)
    assert rc == 0 and doc["vmmcheck_started"] is True
    e = doc["tests"][0]
    assert e["vmmcheck_tuned_starts"] == {"starts": ["params-from/params/mp.vmmcheck-params.json", elsewhere],
                                          "kept_trial": 4, "kept_by": "confirmation", "kept_start": elsewhere}
    assert "vmmcheck_long_starts" not in e


def test_a_search_that_kept_a_new_draw_says_so_and_a_taken_file_has_no_starts(out):
    run_log(out, "mp.vmmcheck-tune", 5.0)
    (out / "params" / "mp.vmmcheck-params.json").write_text(json.dumps({
        "search": {"trials": 48, "per": "instance", "starts": ["/x/a.json"]}, "params": {},
        "best": {"trial": 7, "kept_by": "search"}, "trials": [{"refined": False}] * 2 + [{"start": "/x/a.json"}] + [{}] * 5}))
    # The speed search's file was taken from an earlier call (no log of a search here): its starts are not this call's.
    (out / "logs" / "mp.vmmcheck-tune-speed.rc").unlink()
    (out / "params" / "mp.vmmcheck-speed-params.json").write_text(json.dumps({
        "search": {"per": "gpu-second", "starts": ["/x/b.json"]}, "params": {}, "best": {"trial": 3}, "trials": []}))
    _, doc = report(out)
    e = doc["tests"][0]
    assert e["vmmcheck_tuned_starts"]["kept_start"] is None and e["vmmcheck_tuned_starts"]["kept_trial"] == 7
    assert "vmmcheck_long_starts" not in e


def test_searches_without_starts_record_none(out):
    _, doc = report(out)
    assert "vmmcheck_started" not in doc and "vmmcheck_tuned_starts" not in doc["tests"][0]


def test_a_retuned_report_says_whose_search_it_took(out):
    _, doc = report(out, "--params-from", "old/bench48", "--retuned")
    assert doc["params_from"] == "old/bench48" and doc["vmmcheck_retuned"] is True


def test_a_folder_moved_reads_its_own_params(out, tmp_path_factory):
    moved = tmp_path_factory.mktemp("moved") / "bench"
    out.rename(moved)
    rc, doc = report(moved)
    assert rc == 0 and doc["tests"][0]["cuda_litmus_tuned"]["params"]["testIterations"] == 100


def test_a_row_that_did_not_pass_and_a_run_that_failed_are_problems(out):
    vmmcheck_run(out, "mp", "long", weak=5, instances=100, seconds=1.0, status="Fail")
    run_log(out, "mp.litmus-tuned", 0.5, rc=1)
    rc, doc = report(out)
    assert rc == 1
    assert any(p.startswith("mp vmmcheck long: Fail") for p in doc["problems"]), doc["problems"]
    assert any(p.startswith("mp cuda-litmus tuned: exit 1") for p in doc["problems"]), doc["problems"]
    assert doc["tests"][0]["per_instance_ratio_tuned"] is None


def test_a_search_that_failed_or_stopped_short_is_a_problem(out):
    tune_run(out, "mp", "vmmcheck-params", "instance", {}, trials=20)
    tune_run(out, "mp", "vmmcheck-speed-params", "gpu-second", {}, rc=124)
    rc, doc = report(out)
    assert rc == 1
    assert "mp vmmcheck vmmcheck-tune: 20 of 48 trials" in doc["problems"]
    assert any(p.startswith("mp vmmcheck vmmcheck-tune-speed: exit 124") for p in doc["problems"]), doc["problems"]


def test_long_runs_from_a_folder_before_the_speed_search_say_they_took_the_per_instance_params(out):
    # bench-cuda-litmus.sh --params-from an older folder copies its per-instance params as the speed params.
    (out / "params" / "mp.vmmcheck-speed-params.json").write_text((out / "params" / "mp.vmmcheck-params.json").read_text())
    _, doc = report(out)
    assert doc["long"]["vmmcheck_tuned_per"] == "instance"


def test_a_committed_report_lays_out_the_params_its_runs_took(out, tmp_path_factory):
    # --params-from REPORT.json: the report carries every tuned params file, so a later call takes the same
    # searches without the earlier call's folder -- and a bench folder made from them reports the same params.
    _, doc = report(out)
    src = tmp_path_factory.mktemp("committed") / "report.json"
    src.write_text(json.dumps(doc))
    dst = tmp_path_factory.mktemp("from")
    assert helper.main(["params", "--results", str(src), "--write", str(dst)]) == 0
    params = dst / "params"
    assert (params / "DRAWS").read_text().strip() == "48"
    assert helper.bench_litmus.read_stress_params(str(params / "mp.tuned.txt")) == doc["tests"][0]["cuda_litmus_tuned"]["params"]
    tuned = json.loads((params / "mp.vmmcheck-params.json").read_text())
    speed = json.loads((params / "mp.vmmcheck-speed-params.json").read_text())
    assert tuned["schema"] == speed["schema"] == "vmmcheck-stress-params/1"
    assert (tuned["params"], tuned["search"]["per"]) == ({"grid_barrier": True}, "instance")
    assert (speed["params"], speed["search"]["per"]) == ({"grid_barrier": False}, "gpu-second")
    # Copied into a bench folder as bench-cuda-litmus.sh does, the report reads them back as the runs' params.
    for name in ("mp.vmmcheck-params.json", "mp.vmmcheck-speed-params.json"):
        (out / "params" / name).write_text((params / name).read_text())
    _, again = report(out, "--params-from", str(src), "--retuned", "--speed-kept")
    assert again["tests"][0]["vmmcheck_long"]["params"] == {"grid_barrier": False}
    assert again["long"]["vmmcheck_tuned_per"] == "gpu-second"
    assert again["vmmcheck_retuned"] is True and again["vmmcheck_speed_kept"] is True


def test_a_report_without_a_tests_params_is_refused_for_params(out, tmp_path_factory):
    _, doc = report(out)
    del doc["tests"][0]["vmmcheck_tuned"]["params"]
    src = tmp_path_factory.mktemp("committed") / "report.json"
    src.write_text(json.dumps(doc))
    assert helper.main(["params", "--results", str(src), "--write", str(tmp_path_factory.mktemp("from"))]) == 1
    src.write_text(json.dumps({"schema": "other"}))
    assert helper.main(["params", "--results", str(src), "--write", str(tmp_path_factory.mktemp("from2"))]) == 2


def test_reports_of_one_setup_merge_into_one_table(out, tmp_path_factory):
    # Two device calls, each of some tests, made alike: one table of both, in the order given.
    _, doc = report(out)
    d = tmp_path_factory.mktemp("merge")
    a, b = dict(doc, generated="2026-12-05T01:00:00Z"), dict(doc, generated="2026-12-05T02:00:00Z")
    b["tests"] = [dict(doc["tests"][0], test="iriw")]
    b["problems"] = ["iriw cuda-litmus long: exit 1"]
    (d / "a.json").write_text(json.dumps(a))
    (d / "b.json").write_text(json.dumps(b))
    assert helper.main(["merge", "--write", str(d / "m.json"), str(d / "a.json"), str(d / "b.json")]) == 1  # a problem stays one
    m = json.loads((d / "m.json").read_text())
    assert [e["test"] for e in m["tests"]] == ["mp", "iriw"]
    assert m["generated"] == "2026-12-05T02:00:00Z" and m["problems"] == ["iriw cuda-litmus long: exit 1"]
    assert [f["tests"] for f in m["merged_from"]] == [["mp"], ["iriw"]]
    assert m["long"] == doc["long"] and m["draws"] == 48


@pytest.mark.parametrize("change", [{"vmmcheck": "0.1.0 (git other)"}, {"draws": 16}, {"vmmcheck_confirm": 4},
                                    {"vmmcheck_started": True}, {}])
def test_reports_made_differently_or_of_the_same_test_are_not_one_table(out, tmp_path_factory, change):
    _, doc = report(out)
    d = tmp_path_factory.mktemp("merge")
    (d / "a.json").write_text(json.dumps(doc))
    (d / "b.json").write_text(json.dumps(dict(doc, **change)))  # {}: the same test twice
    assert helper.main(["merge", "--write", str(d / "m.json"), str(d / "a.json"), str(d / "b.json")]) == 2
    assert not (d / "m.json").exists()
