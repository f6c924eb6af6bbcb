"""Expectation files: parsing, applying exactly what they say, baselines that round-trip."""

import textwrap
from pathlib import Path

import pytest

from conftest import H200, make_doc, result, run_module, write_json
from vmmcheck_report import expectations, load

REPO = Path(__file__).resolve().parents[2]
STEM = "nvidia-h200-580.159.04"


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return path


@pytest.fixture
def run_doc(tmp_path):
    """A small run with one case of every kind apply distinguishes."""
    doc = make_doc([
        result("alias.mp.a.known", "Fail", reason="3 stale reads"),
        result("alias.mp.a.fixed"),                                     # listed, now passes
        result("alias.mp.a.worse", "Crash", reason="signal 11"),        # listed as Fail, crashes
        result("alias.mp.a.flaky", "Timeout"),
        result("alias.mp.a.flaky_passing"),                             # matches flakes, passes: Pass
        result("alias.kernels.b.skipme", "Fail"),
        result("alias.kernels.b.new", "Fail", reason="new failure"),
        result("alias.kernels.b.ok"),
    ])
    return write_json(tmp_path / "run.json", doc)


@pytest.fixture
def exp_dir(tmp_path):
    d = tmp_path / "exp"
    d.mkdir()
    write(d / f"{STEM}-fails.txt", """
        # header: this comment is followed by a blank line, so it belongs to no row

        # stale reads on H200 with this driver, issue 12
        alias.mp.a.known,Fail
        # was failing
        # (two lines of reason)
        alias.mp.a.fixed,Fail
        # fails on this driver
        alias.mp.a.worse,Fail
    """)
    write(d / f"{STEM}-flakes.txt", """
        # flaky timeouts
        alias\\.mp\\.a\\.flaky.*
    """)
    write(d / f"{STEM}-skips.txt", """
        # skipped: needs a second GPU
        alias\\.kernels\\.b\\.skip.*
    """)
    return d


def statuses(doc):
    return {r["name"]: r["status"] for r in doc["results"]}


def test_apply_changes_exactly_what_it_should(run_doc, exp_dir, tmp_path, run_cli):
    rc, out, err = run_cli("expectations", "apply", run_doc, "--expectations-dir", exp_dir, "-o", tmp_path / "out.json")
    assert rc == 1  # the new failure, the crash and the unexpected pass remain
    out_doc = load.load(tmp_path / "out.json")
    assert statuses(out_doc) == {
        "alias.mp.a.known": "ExpectedFail",
        "alias.mp.a.fixed": "UnexpectedPass",
        "alias.mp.a.worse": "Crash",
        "alias.mp.a.flaky": "Flake",
        "alias.mp.a.flaky_passing": "Pass",
        "alias.kernels.b.skipme": "Skip",
        "alias.kernels.b.new": "Fail",
        "alias.kernels.b.ok": "Pass",
    }
    by_name = {r["name"]: r for r in out_doc["results"]}
    assert by_name["alias.mp.a.known"]["original_status"] == "Fail"
    assert "stale reads on H200 with this driver, issue 12" in by_name["alias.mp.a.known"]["note"]
    assert by_name["alias.mp.a.known"]["reason"] == "3 stale reads"
    assert by_name["alias.mp.a.fixed"]["original_status"] == "Pass"
    assert by_name["alias.kernels.b.skipme"]["reason"].startswith(f"skipped by {exp_dir / f'{STEM}-skips.txt'}")
    assert by_name["alias.kernels.b.skipme"]["original_status"] == "Fail"
    assert "but got Crash" in by_name["alias.mp.a.worse"]["note"]
    assert "original_status" not in by_name["alias.kernels.b.new"]
    assert out_doc["totals"] == {"Pass": 2, "Fail": 1, "Crash": 1, "Timeout": 0, "Error": 0, "NotSupported": 0, "Warning": 0,
                                 "UnexpectedPass": 1, "Flake": 1, "ExpectedFail": 1, "Skip": 1}
    assert out_doc["expectations"]["fails"] == str(exp_dir / f"{STEM}-fails.txt")
    assert "UNEXPECTED Fail: alias.kernels.b.new: new failure" in out
    assert "UNEXPECTED UnexpectedPass: alias.mp.a.fixed" in out
    assert "3 unexpected" in out


def test_apply_is_idempotent(run_doc, exp_dir):
    exp = expectations.read(expectations.paths_for(load.load(run_doc), exp_dir))
    once = expectations.apply(load.load(run_doc), exp)
    assert expectations.apply(once, exp) == once
    # and undoing the files undoes the changes
    assert statuses(expectations.apply(once, expectations.Expectations())) == statuses(load.load(run_doc))


def test_explicit_files_override_dir(run_doc, exp_dir, tmp_path, run_cli):
    fails = write(tmp_path / "other-fails.txt", """
        # only this one
        alias.kernels.b.new,Fail
    """)
    rc, out, _ = run_cli("expectations", "apply", run_doc, "--expectations-dir", exp_dir, "--fails", fails,
                         "-o", tmp_path / "o.json")
    st = statuses(load.load(tmp_path / "o.json"))
    assert st["alias.kernels.b.new"] == "ExpectedFail"
    assert st["alias.mp.a.known"] == "Fail"      # the folder's fails file is not used
    assert st["alias.kernels.b.skipme"] == "Skip"  # the folder's skips file still is
    rc, _, err = run_cli("expectations", "apply", run_doc, "--flakes", tmp_path / "missing.txt")
    assert rc == 2 and "missing.txt: no such file" in err


def test_default_files_follow_gpu_and_driver(tmp_path, exp_dir, run_cli):
    """Files for another driver are not picked up; missing default files are no expectations."""
    doc = make_doc([result("alias.mp.a.known", "Fail")])
    doc["context"]["driver_release"] = "575.1"
    path = write_json(tmp_path / "r.json", doc)
    rc, out, _ = run_cli("expectations", "apply", path, "--expectations-dir", exp_dir)
    assert rc == 1 and "fails: (none)" in out
    assert expectations.paths_for(doc, exp_dir)["fails"].name == "nvidia-h200-575.1-fails.txt"


def test_all_clean_exit_0(exp_dir, tmp_path, run_cli):
    path = write_json(tmp_path / "r.json", make_doc([result("alias.mp.a.known", "Fail"), result("alias.mp.x.y")]))
    rc, out, _ = run_cli("expectations", "apply", path, "--expectations-dir", exp_dir)
    assert rc == 0 and "no unexpected results" in out


@pytest.mark.parametrize("text, problem", [
    ("alias.mp.a.b,Fail\n", ":1: alias.mp.a.b,Fail has no '# reason' comment line above it"),
    ("# reason\n\nalias.mp.a.b,Fail\n", ":3: alias.mp.a.b,Fail has no '# reason' comment"),
    ("# reason\nalias.mp.a.b,Fail\nalias.mp.a.c,Fail\n", ":3: alias.mp.a.c,Fail has no '# reason'"),
    ("# r\nalias.mp.a.b,Bogus\n", ":2: status 'Bogus' is not one of"),
    ("# r\nalias.mp.a.b,Pass\n", ":2: status 'Pass' is not one of"),
    ("# r\nalias.mp.a.b\n", ":2: expected 'name,Status'"),
    ("# r\nNot A Name,Fail\n", ":2: 'Not A Name' is not a dotted case name"),
    ("# r\nalias.mp.a.b,Fail\n# r\nalias.mp.a.b,Crash\n", ":4: alias.mp.a.b is already listed at"),
])
def test_bad_fails_file(text, problem, tmp_path, run_doc, run_cli):
    fails = tmp_path / "f.txt"
    fails.write_text(text)
    rc, _, err = run_cli("expectations", "apply", run_doc, "--fails", fails)
    assert rc == 2
    assert err.startswith(str(fails) + problem), err


def test_bad_regex_subprocess(tmp_path, run_doc):
    skips = tmp_path / "s.txt"
    skips.write_text("# why\nalias.(mp\n")
    proc = run_module("expectations", "apply", run_doc, "--skips", skips)
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"{skips}:2: bad regular expression 'alias.(mp'")
    assert "Traceback" not in proc.stderr


def test_regex_is_full_match(tmp_path, run_cli):
    path = write_json(tmp_path / "r.json", make_doc([result("alias.mp.a.b", "Fail"), result("alias.mp.a.bc", "Fail")]))
    skips = tmp_path / "s.txt"
    skips.write_text("alias\\.mp\\.a\\.b\n")
    rc, _, _ = run_cli("expectations", "apply", path, "--skips", skips, "-o", tmp_path / "o.json")
    assert statuses(load.load(tmp_path / "o.json")) == {"alias.mp.a.b": "Skip", "alias.mp.a.bc": "Fail"}
    assert rc == 1


def test_write_baseline_round_trips(tmp_path, run_cli):
    doc = make_doc([
        result("alias.mp.a.f", "Fail", reason="7 stale\nreads"),
        result("alias.mp.a.c", "Crash", reason=""),
        result("alias.mp.a.t", "Timeout", reason="ran past 2 s"),
        result("alias.mp.a.e", "Error", reason="cuMemMap failed"),
        result("alias.mp.a.ns", "NotSupported", reason="one GPU"),
        result("alias.mp.a.p"),
    ])
    path = write_json(tmp_path / "r.json", doc)
    d = tmp_path / "exp"
    rc, out, _ = run_cli("expectations", "apply", path, "--expectations-dir", d, "--write-baseline")
    assert rc == 0
    fails = d / f"{STEM}-fails.txt"
    assert f"wrote {fails}" in out and (d / f"{STEM}-flakes.txt").exists() and (d / f"{STEM}-skips.txt").exists()
    text = fails.read_text()
    assert "# 7 stale reads\nalias.mp.a.f,Fail\n" in text
    assert "# Crash with no reason given by vmmcheck\nalias.mp.a.c,Crash\n" in text
    parsed = expectations.parse_fails(fails)
    assert {n: e.status for n, e in parsed.items()} == {
        "alias.mp.a.f": "Fail", "alias.mp.a.c": "Crash", "alias.mp.a.t": "Timeout", "alias.mp.a.e": "Error"}
    rc, out, _ = run_cli("expectations", "apply", path, "--expectations-dir", d, "-o", tmp_path / "o.json")
    assert rc == 0
    assert statuses(load.load(tmp_path / "o.json")) == {
        "alias.mp.a.f": "ExpectedFail", "alias.mp.a.c": "ExpectedFail", "alias.mp.a.t": "ExpectedFail",
        "alias.mp.a.e": "ExpectedFail", "alias.mp.a.ns": "NotSupported", "alias.mp.a.p": "Pass"}
    # A baseline written from the processed run lists the same failures.
    run_cli("expectations", "apply", tmp_path / "o.json", "--fails", tmp_path / "again.txt",
            "--flakes", tmp_path / "fl.txt", "--skips", tmp_path / "sk.txt", "--write-baseline")
    assert (tmp_path / "again.txt").read_text() == text


def test_committed_h200_files(run_cli):
    """The repository's H200 files exist and parse; the fails file lists no failure (the driver finding of
    api.unmap_with_hole is a Warning, which needs no row), and the files apply cleanly to the stored H200 run."""
    d = REPO / "ci" / "expectations"
    for kind in ("flakes", "skips"):
        text = (d / f"{STEM}-{kind}.txt").read_text()
        assert text.startswith("# ") and all(not line.strip() or line.startswith("#") for line in text.splitlines())
    fails = [line for line in (d / f"{STEM}-fails.txt").read_text().splitlines() if line and not line.startswith("#")]
    assert fails == []
    rc, out, _ = run_cli("expectations", "check", "--expectations-dir", d)
    assert rc == 0 and "fails.txt: 0 entries" in out
    stored = REPO / "ci" / "results" / "nvidia-h200_driver-580.159.04.json"
    rc, out, _ = run_cli("expectations", "apply", stored)  # default folder, chosen by GPU and driver
    assert rc == 0 and "no unexpected results" in out
    assert f"fails: {d / f'{STEM}-fails.txt'}" in out
    assert load.load(stored)["totals"]["Warning"] >= 1  # the finding is there, as a Warning


def test_committed_fails_header_matches_generator(h200_doc_frozen):
    """The committed fails file starts with what --write-baseline writes for a run without failures."""
    committed = (REPO / "ci" / "expectations" / f"{STEM}-fails.txt").read_text()
    assert committed.startswith(expectations.baseline_text(h200_doc_frozen))


def test_an_expectation_file_that_is_a_fifo_is_refused(tmp_path):
    """A FIFO named as --fails (or lying in --expectations-dir) is refused before it is opened: no hang."""
    import os

    fifo = tmp_path / "nvidia-h200-580.159.04-fails.txt"
    os.mkfifo(fifo)
    run = write_json(tmp_path / "r.json", make_doc([result("alias.mp.a.x", status="Fail")]))
    proc = run_module("expectations", "check", "--expectations-dir", tmp_path)
    assert proc.returncode == 2 and proc.stderr == f"{fifo}: not a regular file (a FIFO), not an expectation file\n"
    proc = run_module("expectations", "apply", run, "--fails", fifo)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "FIFO" in proc.stderr


def test_a_named_expectations_dir_must_be_a_folder(tmp_path, run_cli):
    run = write_json(tmp_path / "r.json", make_doc([result("alias.mp.a.x", status="Fail")]))
    for command in (("expectations", "check"), ("expectations", "apply", run)):
        rc, out, err = run_cli(*command, "--expectations-dir", tmp_path / "no-such-dir")
        assert rc == 2 and err == f"{tmp_path / 'no-such-dir'}: no such folder (--expectations-dir)\n", err
        rc, out, err = run_cli(*command, "--expectations-dir", run)
        assert rc == 2 and err == f"{run}: not a folder (--expectations-dir)\n", err
