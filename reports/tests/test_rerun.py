"""rerun, against a fake vmmcheck: a pass on any rerun is Flake (never Pass), attempts are recorded."""

import json
import stat
import sys
import textwrap

import pytest

from conftest import make_doc, result, run_module, write_json
from vmmcheck_report import expectations, load, rerun

FAKE = textwrap.dedent('''\
    #!{python}
    """Fake vmmcheck: `run --filter NAME --json OUT [extra]`. FAKE_PLAN is the status of each call in turn
    (the last repeats); "nojson" writes nothing. Each call's argv is appended to FAKE_LOG."""
    import json, os, sys
    args = sys.argv[1:]
    assert args[0] == "run" and args[1] == "--filter" and args[3] == "--json", args
    name, out = args[2], args[4]
    with open(os.environ["FAKE_LOG"], "a") as log:
        log.write(json.dumps(args) + "\\n")
    calls = sum(1 for line in open(os.environ["FAKE_LOG"]) if json.loads(line)[2] == name)
    plan = os.environ["FAKE_PLAN"].split(",")
    status = plan[min(calls, len(plan)) - 1]
    if status == "nojson":
        sys.exit(2)
    doc = json.load(open(os.environ["FAKE_TEMPLATE"]))
    doc["context"]["filter"] = name
    doc["results"] = [dict(r, status=status, reason="" if status == "Pass" else "fake " + status)
                      for r in doc["results"] if r["name"] == name]
    doc["totals"] = {{s: sum(r["status"] == s for r in doc["results"])
                     for s in ["Pass", "Fail", "NotSupported", "Crash", "Timeout", "Error"]}}
    json.dump(doc, open(out, "w"))
    sys.exit(0 if status == "Pass" else 1)
''')


@pytest.fixture
def fake(tmp_path, monkeypatch):
    """(path of the fake vmmcheck, function reading its call log); the plan is set per test."""
    exe = tmp_path / "vmmcheck"
    exe.write_text(FAKE.format(python=sys.executable))
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    log = tmp_path / "calls.log"
    log.touch()
    monkeypatch.setenv("FAKE_LOG", str(log))

    def calls():
        return [json.loads(line) for line in log.read_text().splitlines()]
    return exe, calls


@pytest.fixture
def run_file(tmp_path, monkeypatch):
    doc = make_doc([result("alias.mp.a.bad", "Fail", reason="1 stale read"), result("alias.mp.a.good"),
                    result("alias.mp.a.known", "Fail"), result("alias.mp.a.ns", "NotSupported")])
    path = write_json(tmp_path / "run.json", doc)
    monkeypatch.setenv("FAKE_TEMPLATE", str(path))
    return path


@pytest.fixture
def exp_dir(tmp_path):
    d = tmp_path / "exp"
    d.mkdir()
    (d / "nvidia-h200-580.159.04-fails.txt").write_text("# known\nalias.mp.a.known,Fail\n")
    return d


def test_pass_on_second_rerun_is_flake(fake, run_file, exp_dir, tmp_path, run_cli, monkeypatch):
    exe, calls = fake
    monkeypatch.setenv("FAKE_PLAN", "Fail,Pass")
    rc, out, err = run_cli("rerun", run_file, "--vmmcheck", exe, "--expectations-dir", exp_dir,
                           "-o", tmp_path / "out.json")
    assert rc == 0, out + err
    doc = load.load(tmp_path / "out.json")
    by_name = {r["name"]: r for r in doc["results"]}
    bad = by_name["alias.mp.a.bad"]
    assert bad["status"] == "Flake" and bad["original_status"] == "Fail"
    assert [(a["attempt"], a["status"], a["exit_code"]) for a in bad["attempts"]] == [(1, "Fail", 1), (2, "Pass", 0)]
    assert bad["reason"] == "1 stale read"
    assert "passed on rerun 2 of 3" in bad["note"]
    # Only the unexpected failure ran: not the expected one, not the pass, not the skip.
    assert [c[2] for c in calls()] == ["alias.mp.a.bad", "alias.mp.a.bad"]
    assert by_name["alias.mp.a.known"]["status"] == "ExpectedFail"
    assert doc["totals"]["Flake"] == 1 and doc["totals"]["Fail"] == 0 and doc["totals"]["Pass"] == 1
    assert "rerun 2/3 alias.mp.a.bad: Pass" in err


def test_always_failing_stays_failure(fake, run_file, exp_dir, tmp_path, run_cli, monkeypatch):
    exe, calls = fake
    monkeypatch.setenv("FAKE_PLAN", "Fail,Crash")
    rc, out, _ = run_cli("rerun", run_file, "--vmmcheck", exe, "--expectations-dir", exp_dir, "-n", "4",
                         "-o", tmp_path / "out.json")
    assert rc == 1
    bad = next(r for r in load.load(tmp_path / "out.json")["results"] if r["name"] == "alias.mp.a.bad")
    assert bad["status"] == "Fail" and "original_status" not in bad
    assert [a["status"] for a in bad["attempts"]] == ["Fail", "Crash", "Crash", "Crash"]
    assert bad["note"] == "failed all 4 reruns: Fail, Crash, Crash, Crash"
    assert len(calls()) == 4
    assert "UNEXPECTED Fail: alias.mp.a.bad" in out


def test_extra_args_after_double_dash_subprocess(fake, run_file, exp_dir, tmp_path, monkeypatch):
    exe, calls = fake
    proc = run_module("rerun", run_file, "--vmmcheck", exe, "--expectations-dir", exp_dir, "-n", "1",
                      "--", "--budget", "small", "--allow-multicast",
                      env={"FAKE_PLAN": "Pass"})
    assert proc.returncode == 0, proc.stderr
    assert calls()[0][5:] == ["--budget", "small", "--allow-multicast"]
    assert "Traceback" not in proc.stderr


def test_no_json_is_error_attempt(fake, run_file, tmp_path, monkeypatch):
    exe, _ = fake
    monkeypatch.setenv("FAKE_PLAN", "nojson")
    doc = load.load(run_file)
    out = rerun.apply_then_rerun(doc, expectations.Expectations(), vmmcheck=str(exe), attempts=2)
    bad = next(r for r in out["results"] if r["name"] == "alias.mp.a.bad")
    assert [a["status"] for a in bad["attempts"]] == ["Error", "Error"]
    assert "exit 2, no usable results" in bad["attempts"][0]["reason"]
    assert bad["status"] == "Fail"


def test_missing_program_is_error_attempt(run_file, tmp_path):
    out = rerun.rerun(load.load(run_file), vmmcheck=str(tmp_path / "absent"), attempts=1)
    bad = next(r for r in out["results"] if r["name"] == "alias.mp.a.bad")
    assert bad["attempts"][0]["status"] == "Error" and "cannot run" in bad["attempts"][0]["reason"]


def test_attempts_must_be_positive(run_file, run_cli):
    with pytest.raises(SystemExit) as e:
        run_cli("rerun", run_file, "--vmmcheck", "x", "-n", "0")
    assert e.value.code == 2
