"""Inputs a user can give that once ended in a traceback or replaced a file (issue 46): each is one line on
stderr and exit 2 now, whichever command reads it."""

import pathlib

import pytest

from conftest import run_module, write_json, make_doc, result
from vmmcheck_report import jsontext


def test_too_deep_reads_nesting_outside_strings():
    assert jsontext.too_deep('{"a": [[["x"]]]}', most=4) is None
    assert jsontext.too_deep('{"a": "[[[[[[[[[[[[[[["}', most=2) is None
    assert jsontext.too_deep('{"a": "\\"[[[[["}', most=2) is None
    assert "nested more than 3 deep (at character 4)" in jsontext.too_deep("[[[[]]]]", most=3)


@pytest.fixture
def deep(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    return path


@pytest.mark.parametrize("args", [
    ("render", "{deep}", "-o", "{tmp}/r.html"),
    ("compare", "{deep}", "{deep}"),
    ("junit", "{deep}", "-o", "{tmp}/j.xml"),
    ("merge", "{deep}", "-o", "{tmp}/m.json"),
    ("expectations", "apply", "{deep}", "--expectations-dir", "{tmp}"),
    ("history", "add", "{deep}", "--db", "{tmp}/h.sqlite"),
])
def test_a_results_file_nested_100000_deep_is_one_line(deep, tmp_path, args):
    proc = run_module(*[a.format(deep=deep, tmp=tmp_path) for a in args])
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "nested more than 64 deep" in lines[0], proc.stderr


def test_a_5000_deep_flakes_pattern_is_one_line(tmp_path):
    r = write_json(tmp_path / "r.json", make_doc([result("alias.mp.a.x")]))
    flakes = tmp_path / "flakes.txt"
    flakes.write_text("(" * 5000 + "alias" + ")" * 5000 + "\n")
    proc = run_module("expectations", "apply", r, "--expectations-dir", tmp_path, "--flakes", flakes)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{flakes}:1: bad regular expression" in lines[0] and len(lines[0]) < 300, proc.stderr


@pytest.mark.parametrize("change, message", [
    ({"weak": 101}, "results[0].weak: 101 is more than its 100 instances"),
    ({"judged": 200}, "results[0].judged: 200 is more than its 100 instances"),
    ({"instances": 1e30}, "results[0].instances: 1e+30 is no count"),
    ({"instances": 2 ** 64}, "results[0].instances: 18446744073709551616 is no count"),
])
def test_counts_a_run_could_not_have_made_are_refused(tmp_path, change, message):
    doc = make_doc([result("alias.mp.a.x", weak=3, instances=100, **{k: v for k, v in change.items() if k == "judged"})])
    doc["results"][0].update(change)
    r = write_json(tmp_path / "r.json", doc)
    for args in (("render", r, "-o", tmp_path / "r.html"), ("compare", r, r), ("junit", r, "-o", tmp_path / "j.xml")):
        proc = run_module(*args)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_history_refuses_a_run_with_no_gpu(tmp_path):
    doc = make_doc([result("alias.mp.a.x", status="NotSupported")])
    doc["context"]["devices"] = []
    r = write_json(tmp_path / "nogpu.json", doc)
    proc = run_module("history", "add", r, "--db", tmp_path / "h.sqlite")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip() == f"{r}: a run on a machine with no GPU (nothing ran); the history keeps GPU runs"
    assert not (tmp_path / "h.sqlite").exists()


def test_a_file_larger_than_any_results_file_is_refused_unread(tmp_path, monkeypatch):
    from vmmcheck_report import load
    big = tmp_path / "big.json"
    big.write_text("{}" + " " * 2048)
    monkeypatch.setattr(load, "MOST_BYTES", 1024)
    with pytest.raises(load.LoadError, match=r"big.json: 2050 bytes, more than a results file holds \(at most 0 MiB\)"):
        load.read_text(big)


def test_a_rerun_past_its_time_is_killed_with_everything_it_started(tmp_path):
    import os
    import subprocess
    import time
    from vmmcheck_report import rerun
    pidfile = tmp_path / "child.pid"
    start = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired):
        rerun._run_bounded(["sh", "-c", f"sleep 100 & echo $! > {pidfile}; sleep 100"], 0.5)
    assert time.monotonic() - start < 10
    child = int(pidfile.read_text())
    time.sleep(0.2)
    # The grandchild went with the group: gone, or dead and not yet reaped (a zombie, where no init reaps).
    stat = pathlib.Path(f"/proc/{child}/stat")
    assert not stat.exists() or stat.read_text().split(") ")[1].startswith("Z"), stat.read_text()
