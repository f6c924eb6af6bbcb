"""rerun, against a fake vmmcheck: the machine is probed first (no GPU: 77; another GPU or driver: 2), a pass on
any rerun is Flake (never Pass), a NotSupported rerun means the case cannot run here, attempts are recorded."""

import json
import stat
import sys
import textwrap

import pytest

from conftest import make_doc, result, run_module, write_json
from vmmcheck_report import expectations, load, rerun

FAKE = textwrap.dedent('''\
    #!{python}
    """Fake vmmcheck.
    `probe --json -`: FAKE_PROBE says what: "NAME|RELEASE" (default "NVIDIA H200|580.159.04") prints a probe
    document with one device 0 of that name; "none" prints one with no device; "77:WHY" exits 77 with WHY on
    stderr, as vmmcheck does on a machine without a GPU or driver.
    `run --filter NAME --json OUT [extra]`: FAKE_PLANS (JSON, name -> plan) or else FAKE_PLAN is the status of
    each call in turn (the last repeats); "nojson" writes nothing. Each call's argv is appended to FAKE_LOG."""
    import json, os, sys
    args = sys.argv[1:]
    with open(os.environ["FAKE_LOG"], "a") as log:
        log.write(json.dumps(args) + "\\n")
    if args[0] == "probe":
        assert args == ["probe", "--json", "-"], args
        what = os.environ.get("FAKE_PROBE", "NVIDIA H200|580.159.04")
        if what.startswith("77:"):
            print(what[3:], file=sys.stderr)
            sys.exit(77)
        devices = []
        release = ""
        if what != "none":
            name, release = what.split("|")
            devices = [{{"index": 0, "name": name, "compute_capability": "9.0", "vmm": True}}]
        json.dump({{"schema": "vmmcheck-probe/1", "driver_release": release, "driver_version": 13000,
                   "devices": devices}}, sys.stdout)
        sys.exit(0)
    assert args[0] == "run" and args[1] == "--filter" and args[3] == "--json", args
    name, out = args[2], args[4]
    calls = sum(1 for line in open(os.environ["FAKE_LOG"]) if json.loads(line)[0] == "run" and json.loads(line)[2] == name)
    plan = json.loads(os.environ.get("FAKE_PLANS", "{{}}")).get(name, os.environ.get("FAKE_PLAN", "Pass")).split(",")
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

    def calls(kind="run"):
        """The argv of each call of `kind` (run, probe; None: all)."""
        return [c for c in (json.loads(line) for line in log.read_text().splitlines()) if kind in (None, c[0])]
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
    # The machine was asked first; then only the unexpected failure ran: not the expected one, not the pass,
    # not the skip.
    assert [c[0] for c in calls(None)] == ["probe", "run", "run"]
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


# --- the machine ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("probe, why", [("77:no CUDA driver: libcuda.so.1 not found", "no CUDA driver: libcuda.so.1 not found"),
                                        ("none", "the probe found no GPU")])
def test_no_gpu_here_is_77_and_reruns_nothing(probe, why, fake, run_file, exp_dir, tmp_path, run_cli, monkeypatch):
    exe, calls = fake
    monkeypatch.setenv("FAKE_PROBE", probe)
    monkeypatch.setenv("FAKE_PLAN", "Pass")
    rc, out, err = run_cli("rerun", run_file, "--vmmcheck", exe, "--expectations-dir", exp_dir,
                           "-o", tmp_path / "out.json")
    assert rc == 77
    assert err == f"rerun: nothing can run here: {why}\n" and out == ""
    assert calls() == [] and len(calls("probe")) == 1
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("probe, here", [("NVIDIA A100-SXM4-80GB|580.159.04", "NVIDIA A100-SXM4-80GB, driver 580.159.04"),
                                         ("NVIDIA H200|575.57.08", "NVIDIA H200, driver 575.57.08")])
def test_another_gpu_or_driver_is_2_naming_both(probe, here, fake, run_file, exp_dir, tmp_path, run_cli, monkeypatch):
    exe, calls = fake
    monkeypatch.setenv("FAKE_PROBE", probe)
    rc, out, err = run_cli("rerun", run_file, "--vmmcheck", exe, "--expectations-dir", exp_dir,
                           "-o", tmp_path / "out.json")
    assert rc == 2 and out == ""
    assert err == (f"rerun: {run_file}: results are of NVIDIA H200, driver 580.159.04; this machine has {here} -- "
                   f"rerun on the machine of the run\n")
    assert calls() == [] and not (tmp_path / "out.json").exists()


def test_an_unknown_driver_release_is_not_a_mismatch(fake, run_file, exp_dir, run_cli, monkeypatch):
    exe, calls = fake
    monkeypatch.setenv("FAKE_PROBE", "NVIDIA H200|")
    monkeypatch.setenv("FAKE_PLAN", "Pass")
    rc, _, _ = run_cli("rerun", run_file, "--vmmcheck", exe, "--expectations-dir", exp_dir)
    assert rc == 0 and len(calls()) == 1


def test_the_run_device_must_exist_here(fake, tmp_path, run_cli, monkeypatch):
    exe, calls = fake
    doc = make_doc([result("alias.mp.a.bad", "Fail")])
    doc["context"]["devices"].append(dict(doc["context"]["devices"][0], index=1))
    doc["context"]["device"] = 1
    path = write_json(tmp_path / "dev1.json", doc)
    rc, _, err = run_cli("rerun", path, "--vmmcheck", exe, "--expectations-dir", tmp_path)
    assert rc == 2 and "this machine has no device 1 (NVIDIA H200 at 0)" in err and calls() == []


def test_nothing_to_rerun_asks_nothing(fake, tmp_path, run_cli, monkeypatch):
    exe, calls = fake
    monkeypatch.setenv("FAKE_PROBE", "77:no GPU")
    path = write_json(tmp_path / "clean.json", make_doc([result("alias.mp.a.good")]))
    rc, out, _ = run_cli("rerun", path, "--vmmcheck", exe, "--expectations-dir", tmp_path)
    assert rc == 0 and "no unexpected results" in out and calls(None) == []


def test_a_probe_that_fails_otherwise_is_2(fake, run_file, exp_dir, tmp_path, run_cli):
    rc, _, err = run_cli("rerun", run_file, "--vmmcheck", tmp_path / "absent", "--expectations-dir", exp_dir)
    assert rc == 2 and err.startswith(f"rerun: cannot run {tmp_path / 'absent'}: ") and len(err.splitlines()) == 1
    garbage = tmp_path / "garbage"
    garbage.write_text("#!/bin/sh\necho hello\n")
    garbage.chmod(0o755)
    rc, _, err = run_cli("rerun", run_file, "--vmmcheck", garbage, "--expectations-dir", exp_dir)
    assert rc == 2 and err == f"rerun: {garbage} probe --json -: did not print JSON\n"
    # Bytes that are no UTF-8, and JSON nested past Python's recursion: one line each, not a traceback.
    garbage.write_text("#!/bin/sh\nprintf '\\377\\376 garbage'\n")
    rc, _, err = run_cli("rerun", run_file, "--vmmcheck", garbage, "--expectations-dir", exp_dir)
    assert rc == 2 and err == f"rerun: {garbage} probe --json -: did not print JSON\n"
    garbage.write_text("#!/bin/sh\n" + sys.executable + " -c \"print('[' * 100000)\"\n")
    rc, _, err = run_cli("rerun", run_file, "--vmmcheck", garbage, "--expectations-dir", exp_dir)
    assert rc == 2 and err == f"rerun: {garbage} probe --json -: not a vmmcheck-probe document (nested too deep)\n"


# --- NotSupported on rerun -----------------------------------------------------------------------------

def test_not_supported_on_rerun_stops_and_is_no_failed_rerun(fake, run_file, exp_dir, tmp_path, run_cli, monkeypatch):
    exe, calls = fake
    monkeypatch.setenv("FAKE_PLAN", "NotSupported")
    rc, out, err = run_cli("rerun", run_file, "--vmmcheck", exe, "--expectations-dir", exp_dir, "-n", "3",
                           "-o", tmp_path / "out.json")
    # The one case to rerun could not run here: the rerun told nothing.
    assert rc == 77
    assert err.splitlines()[-1] == ("rerun: nothing could be rerun here: every case came back NotSupported -- "
                                    "alias.mp.a.bad: fake NotSupported")
    assert len(calls()) == 1                       # no second attempt
    bad = next(r for r in load.load(tmp_path / "out.json")["results"] if r["name"] == "alias.mp.a.bad")
    assert bad["status"] == "Fail" and "original_status" not in bad
    assert [a["status"] for a in bad["attempts"]] == ["NotSupported"]
    assert bad["note"] == "could not rerun here: fake NotSupported"
    assert "failed all" not in out and "UNEXPECTED Fail: alias.mp.a.bad: could not rerun here" in out


def test_not_supported_after_a_failed_rerun(fake, run_file, exp_dir, tmp_path, monkeypatch):
    exe, calls = fake
    monkeypatch.setenv("FAKE_PLAN", "Fail,NotSupported")
    doc = load.load(run_file)
    out = rerun.apply_then_rerun(doc, expectations.Expectations(), vmmcheck=str(exe), attempts=4)
    bad = next(r for r in out["results"] if r["name"] == "alias.mp.a.bad")
    assert [a["status"] for a in bad["attempts"]] == ["Fail", "NotSupported"]
    assert bad["note"] == "could not rerun here: fake NotSupported (after 1 failed rerun: Fail)"
    assert "failed all" not in bad["note"]


def test_some_could_not_rerun_others_failed_is_1(fake, tmp_path, run_cli, monkeypatch):
    exe, calls = fake
    doc = make_doc([result("alias.mp.a.one", "Fail"), result("alias.mp.a.two", "Crash"),
                    result("alias.mp.a.three", "Fail")])
    path = write_json(tmp_path / "run.json", doc)
    monkeypatch.setenv("FAKE_TEMPLATE", str(path))
    monkeypatch.setenv("FAKE_PLANS", json.dumps({"alias.mp.a.one": "NotSupported", "alias.mp.a.two": "Crash",
                                                 "alias.mp.a.three": "Fail,Pass"}))
    rc, out, err = run_cli("rerun", path, "--vmmcheck", exe, "--expectations-dir", tmp_path, "-n", "2",
                           "-o", tmp_path / "out.json")
    assert rc == 1, err
    by_name = {r["name"]: r for r in load.load(tmp_path / "out.json")["results"]}
    assert by_name["alias.mp.a.one"]["note"] == "could not rerun here: fake NotSupported"
    assert by_name["alias.mp.a.two"]["note"] == "failed all 2 reruns: Crash, Crash"
    assert by_name["alias.mp.a.three"]["status"] == "Flake"
    assert "nothing could be rerun" not in err
    # Only NotSupported and passes: nothing failed a rerun, but one case could not be checked -- still 1.
    monkeypatch.setenv("FAKE_PLANS", json.dumps({"alias.mp.a.one": "NotSupported", "alias.mp.a.two": "Pass",
                                                 "alias.mp.a.three": "Pass"}))
    rc, out, err = run_cli("rerun", path, "--vmmcheck", exe, "--expectations-dir", tmp_path)
    assert rc == 1 and "nothing could be rerun" not in err


@pytest.mark.parametrize("value", ["-5", "0", "nan", "inf"])
def test_an_attempt_timeout_is_a_positive_number_of_seconds(value, run_file, tmp_path):
    """Like vmmcheck's own counts: a negative (or zero, or no) limit is refused, not taken as 'at once'."""
    proc = run_module("rerun", str(run_file), "--vmmcheck", str(tmp_path / "vmmcheck"), "--attempt-timeout", value)
    assert proc.returncode == 2
    assert "must be a number of seconds > 0" in proc.stderr
