"""history: the results history in SQLite -- add, show, trends, compare --against-history, and bad input.

The stored runs in ci/results are the inputs; runs that differ from them (another start, another status) are
copies edited in tmp_path. A bad input is exit 2, one line on stderr naming the file, and nothing written.
"""

from __future__ import annotations

import copy
import json
import sqlite3

import pytest

from conftest import REPORTS, run_module, write_json
from vmmcheck_report import history, load

REPO = REPORTS.parent
# The planted self-test run (55 cases, small: most tests use it) and the full one-H200 run.
PLANTED = REPO / "ci/results/nvidia-h200_driver-580.159.04.planted.json"
FULL = REPO / "ci/results/nvidia-h200_driver-580.159.04.json"
# What the committed full run says of itself (it is replaced by newer runs; the tests read, not spell, it).
_FULL_DOC = json.loads(FULL.read_text())
FULL_SHA, FULL_CASES, FULL_STARTED = (_FULL_DOC["context"]["git_sha"], len(_FULL_DOC["results"]),
                                      _FULL_DOC["context"]["started"])
# A JSON file of another schema: the device probe (no schema_version, no results).
PROBE = REPO / "ci/results/nvidia-h200_driver-580.159.04.probe.json"

CASE = "alias.same_thread.alias.weak.fence"          # required, Pass in the planted run


@pytest.fixture(scope="module")
def planted_frozen():
    return json.loads(PLANTED.read_text())


@pytest.fixture
def planted(planted_frozen):
    return copy.deepcopy(planted_frozen)


def variant(tmp_path, doc, name, started, sha, gpu=None, **case_changes):
    """A copy of a run that started at another time from another commit (another GPU, a changed case)."""
    doc = copy.deepcopy(doc)
    doc["context"].update(started=started, git_sha=sha)
    if gpu:
        for d in doc["context"]["devices"]:
            d["name"] = gpu
    if case_changes:
        record = next(r for r in doc["results"] if r["name"] == CASE)
        record.update(case_changes)
        doc["totals"] = {k: 0 for k in doc["totals"]}
        for r in doc["results"]:
            doc["totals"][r["status"]] = doc["totals"].get(r["status"], 0) + 1
    path = write_json(tmp_path / name, doc)
    load.load(path)  # a valid run, or the test is wrong
    return path


def counts(db):
    with sqlite3.connect(db) as conn:
        return tuple(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("runs", "results"))


def test_add_then_show(tmp_path, run_cli):
    db = tmp_path / "h.sqlite"
    rc, out, err = run_cli("history", "add", "--db", db, PLANTED, FULL)
    assert rc == 0 and err == ""
    assert out.splitlines() == [
        f"{PLANTED}: added as run 1 (NVIDIA H200, driver 580.159.04, git fa395cc989f2, 55 cases)",
        f"{FULL}: added as run 2 (NVIDIA H200, driver 580.159.04, git {FULL_SHA}, {FULL_CASES} cases)",
    ]
    assert counts(db) == (2, 55 + FULL_CASES)
    rc, out, err = run_cli("history", "show", "--db", db)
    assert rc == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"{db}: 2 runs, newest first"
    assert lines[1].split() == ["run", "started", "gpu", "driver", "sha", "cases", "statuses", "source"]
    # Newest first: the full run started on 2026-12-01, the planted one on 2026-11-30.
    assert lines[2].split()[:7] == ["2", FULL_STARTED, "NVIDIA", "H200", "580.159.04", FULL_SHA, str(FULL_CASES)]
    assert lines[3].split()[:7] == ["1", "2026-11-30T04:52:10Z", "NVIDIA", "H200", "580.159.04", "fa395cc989f2",
                                    "55"]
    assert "Pass 51, Crash 2, Timeout 2" in lines[3]
    # Aligned: every row's "started" column begins where the header's does.
    assert len({line.index("20") for line in lines[2:]}) == 1 and lines[1].index("started") == lines[2].index("20")
    # The machine form says the same.
    rc, out, _ = run_cli("history", "show", "--db", db, "--json")
    runs = json.loads(out)["runs"]
    assert [(r["id"], r["cases"], r["git_sha"]) for r in runs] == [(2, FULL_CASES, FULL_SHA), (1, 55, "fa395cc989f2")]
    assert runs[1]["statuses"] == {"Pass": 51, "Crash": 2, "Timeout": 2}
    assert runs[0]["budget"]["instances"] == 10000000 and runs[0]["source"] == str(FULL)
    # --limit keeps the newest; --family counts only that family's cases.
    rc, out, _ = run_cli("history", "show", "--db", db, "--limit", "1", "--json")
    assert [r["id"] for r in json.loads(out)["runs"]] == [2]
    rc, out, _ = run_cli("history", "show", "--db", db, "--family", "planted", "--json")
    assert [(r["id"], r["cases"]) for r in json.loads(out)["runs"]] == [(1, 6)]


def test_the_store_keeps_the_run_itself(tmp_path, run_cli):
    """The stored document is the run as loaded: a baseline from the history is the file's own document."""
    db = tmp_path / "h.sqlite"
    assert run_cli("history", "add", "--db", db, PLANTED)[0] == 0
    with sqlite3.connect(db) as conn:
        version = conn.execute("SELECT version FROM history_schema").fetchone()[0]
        document, digest = conn.execute("SELECT document, hash FROM runs").fetchone()
        indexes = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert version == history.SCHEMA_VERSION
    assert json.loads(document) == load.load(PLANTED)
    assert digest == history.content_hash(load.load(PLANTED))
    assert "results_gpu_case" in indexes


def test_adding_twice_changes_nothing(tmp_path, run_cli, planted):
    db = tmp_path / "h.sqlite"
    assert run_cli("history", "add", "--db", db, PLANTED)[0] == 0
    before = counts(db)
    # The same file, and the same run re-indented with its keys in another order: one run, by content.
    reformatted = tmp_path / "same-run.json"
    reformatted.write_text(json.dumps(planted, indent=4, sort_keys=True))
    rc, out, err = run_cli("history", "add", "--db", db, PLANTED, reformatted, PLANTED)
    assert rc == 0 and err == ""
    assert out.splitlines() == [f"{p}: already in the history as run 1 (NVIDIA H200, driver 580.159.04, "
                                f"git fa395cc989f2, 55 cases)" for p in (PLANTED, reformatted, PLANTED)]
    assert counts(db) == before == (1, 55)


def test_one_call_with_the_same_run_twice_adds_it_once(tmp_path, run_cli):
    db = tmp_path / "h.sqlite"
    rc, out, _ = run_cli("history", "add", "--db", db, PLANTED, PLANTED)
    assert rc == 0
    assert out.splitlines()[0].endswith("added as run 1 (NVIDIA H200, driver 580.159.04, git fa395cc989f2, 55 cases)")
    assert "already in the history as run 1" in out.splitlines()[1]
    assert counts(db) == (1, 55)


def test_compare_against_history_picks_the_newest_other_run(tmp_path, run_cli, planted):
    db = tmp_path / "h.sqlite"
    older = variant(tmp_path, planted, "older.json", "2026-11-01T00:00:00Z", "aaaaaaa")
    newer = variant(tmp_path, planted, "newer.json", "2026-11-20T00:00:00Z", "bbbbbbb")
    # Another GPU's run, newer than both: never a baseline for an H200 run.
    other_gpu = variant(tmp_path, planted, "h100.json", "2026-11-25T00:00:00Z", "ccccccc", gpu="NVIDIA H100")
    # CURRENT: the newest of all, with one required case now failing; stored too -- it is skipped as itself.
    current = variant(tmp_path, planted, "current.json", "2026-11-30T00:00:00Z", "ddddddd", status="Fail",
                      reason="1 stale read")
    assert run_cli("history", "add", "--db", db, newer, older, other_gpu, current)[0] == 0
    rc, out, err = run_cli("compare", "--against-history", "--db", db, current)
    assert rc == 1 and err == ""         # the one regression, as compare BASE CURRENT says it
    lines = out.splitlines()
    assert lines[0] == "REGRESSED: 1 regression (1 worsened, 0 new failing, 0 missing)"
    assert lines[1] == (f"baseline: history run 1 (NVIDIA H200, {newer}, git bbbbbbb, "
                        f"started 2026-11-20T00:00:00Z)")
    assert lines[2].startswith("          NVIDIA H200, 1 device, driver 580.159.04 (CUDA ") and \
        lines[2].endswith("git bbbbbbb")
    assert lines[3] == f"current:  {current}"
    assert f"Regressions (1):\n  Worsened (1):\n    {CASE}: Pass -> Fail\n" in out
    # The same verdict as comparing the two files directly.
    rc2, out2, _ = run_cli("compare", newer, current)
    lines2 = out2.splitlines()
    assert rc2 == rc and lines2[0] == lines[0] and lines2[2:] == lines[2:]
    # The newer run against the history: CURRENT (stored, and newer) is its baseline now.
    rc, out, _ = run_cli("compare", "--against-history", "--db", db, newer)
    assert rc == 0 and out.splitlines()[1].startswith("baseline: history run 4 (")
    # The H100 run has no earlier run of its GPU: itself only.
    rc, out, err = run_cli("compare", "--against-history", "--db", db, other_gpu)
    assert rc == 2 and out == ""
    assert err == f"{db}: no earlier run of NVIDIA H100 in the history (other than this run itself)\n"


def test_compare_against_history_keeps_to_the_same_device_count(tmp_path, run_cli, planted):
    """A run on two GPUs of the same kind is never the baseline of a one-GPU run (it has other cases)."""
    db = tmp_path / "h.sqlite"
    one = variant(tmp_path, planted, "one.json", "2026-11-01T00:00:00Z", "aaaaaaa")
    pair = copy.deepcopy(planted)
    pair["context"]["devices"] = pair["context"]["devices"] * 2
    two = variant(tmp_path, pair, "two.json", "2026-11-20T00:00:00Z", "bbbbbbb")
    current = variant(tmp_path, planted, "current.json", "2026-11-30T00:00:00Z", "ccccccc")
    assert run_cli("history", "add", "--db", db, one, two)[0] == 0
    rc, out, _ = run_cli("compare", "--against-history", "--db", db, current)
    assert rc == 0 and out.splitlines()[1].startswith(f"baseline: history run 1 (NVIDIA H200, {one}, "), out


def test_compare_against_history_default_store_from_environment(tmp_path, run_cli, planted, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(history.ENV, raising=False)
    newer = variant(tmp_path, planted, "newer.json", "2026-12-02T00:00:00Z", "bbbbbbb")
    assert run_cli("history", "add", PLANTED)[0] == 0
    assert (tmp_path / history.DEFAULT_NAME).exists()
    rc, out, _ = run_cli("compare", "--against-history", newer)
    assert rc == 0 and "no differences" in out
    # $VMMCHECK_HISTORY names another store: empty, so no earlier run.
    monkeypatch.setenv(history.ENV, str(tmp_path / "elsewhere.sqlite"))
    rc, out, err = run_cli("compare", "--against-history", newer)
    assert rc == 2 and err.startswith(f"{tmp_path / 'elsewhere.sqlite'}: no earlier run of NVIDIA H200 ")
    assert len(err.splitlines()) == 1
    assert not (tmp_path / "elsewhere.sqlite").exists()     # compare never creates a store


def test_compare_usage(tmp_path, run_cli):
    rc, _, err = run_cli("compare", "--against-history", "--db", tmp_path / "h.sqlite", PLANTED, PLANTED)
    assert rc == 2 and err == "compare --against-history takes one results file, CURRENT\n"
    rc, _, err = run_cli("compare", PLANTED)
    assert rc == 2 and err == "compare needs BASELINE and CURRENT (or --against-history CURRENT)\n"
    rc, _, err = run_cli("compare", "--db", tmp_path / "h.sqlite", PLANTED, PLANTED)
    assert rc == 2 and "--db only goes with --against-history" in err
    # Two files: unchanged.
    rc, out, err = run_cli("compare", PLANTED, PLANTED)
    assert rc == 0 and "no differences" in out and err == ""


def test_trend_of_a_case_glob_across_runs(tmp_path, run_cli, planted):
    db = tmp_path / "h.sqlite"
    later = variant(tmp_path, planted, "later.json", "2026-12-05T00:00:00Z", "eeeeeee", status="Fail", weak=17,
                    reason="17 stale reads")
    assert run_cli("history", "add", "--db", db, PLANTED, later)[0] == 0
    rc, out, err = run_cli("history", "show", "--db", db, "--case", "alias.same_thread.alias.weak.*")
    assert rc == 0 and err == ""
    blocks = out.split("\n\n")
    assert len(blocks) == 2                                  # .fence and .nofence, by name
    fence = blocks[0].splitlines()
    assert fence[0] == f"{CASE}  (alias.same_thread, required; 2 runs, newest first)"
    assert fence[1].split() == ["run", "gpu", "driver", "sha", "started", "status", "weak", "weak", "rate",
                                "inst/s"]
    assert fence[2].split()[:8] == ["2", "NVIDIA", "H200", "580.159.04", "eeeeeee", "2026-12-05T00:00:00Z", "Fail",
                                    "17/10813440"]
    assert fence[3].split()[:8] == ["1", "NVIDIA", "H200", "580.159.04", "fa395cc989f2", "2026-11-30T04:52:10Z",
                                    "Pass", "0/10813440"]
    assert fence[3].split()[8] == "0%"
    assert fence[2].index("Fail") == fence[3].index("Pass") == fence[1].index("status")
    assert blocks[1].startswith("alias.same_thread.alias.weak.nofence  (alias.same_thread, undefined; 2 runs")
    # JSON: the same rows with their numbers.
    rc, out, _ = run_cli("history", "show", "--db", db, "--case", CASE, "--json")
    cases = json.loads(out)["cases"]
    assert [c["case"] for c in cases] == [CASE]
    rows = cases[0]["runs"]
    assert [(r["run_id"], r["status"], r["weak"], r["git_sha"]) for r in rows] == [
        (2, "Fail", 17, "eeeeeee"), (1, "Pass", 0, "fa395cc989f2")]
    assert rows[0]["weak_rate"] == pytest.approx(17 / 10813440)
    assert rows[0]["reason"] == "17 stale reads" and rows[0]["rate"] > 0
    # --gpu is a case-insensitive substring; --limit keeps the newest runs; --family narrows.
    rc, out, _ = run_cli("history", "show", "--db", db, "--case", CASE, "--gpu", "h200", "--limit", "1", "--json")
    assert [r["run_id"] for r in json.loads(out)["cases"][0]["runs"]] == [2]
    rc, out, _ = run_cli("history", "show", "--db", db, "--case", "alias.*", "--family", "alias.same_thread",
                         "--json")
    assert len(json.loads(out)["cases"]) == 30
    rc, out, _ = run_cli("history", "show", "--db", db, "--case", "alias.*", "--family", "access", "--json")
    assert json.loads(out)["cases"] == []


def test_trend_shows_what_vmmcheck_said_under_a_rewritten_status(tmp_path, run_cli, planted):
    db = tmp_path / "h.sqlite"
    applied = variant(tmp_path, planted, "applied.json", "2026-12-05T00:00:00Z", "eeeeeee", status="ExpectedFail",
                      original_status="Fail")
    assert run_cli("history", "add", "--db", db, applied)[0] == 0
    rc, out, _ = run_cli("history", "show", "--db", db, "--case", CASE)
    assert rc == 0 and "ExpectedFail (was Fail)" in out
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT status, raw_status FROM results WHERE case_name = ?", (CASE,)).fetchone() == (
            "ExpectedFail", "Fail")


def test_litmus_rows_show_weak_over_judged(tmp_path, run_cli):
    db = tmp_path / "h.sqlite"
    assert run_cli("history", "add", "--db", db, FULL)[0] == 0
    rc, out, _ = run_cli("history", "show", "--db", db, "--case", "litmus.corr.0.cta_relaxed")
    assert rc == 0
    row = next(r for r in _FULL_DOC["results"] if r["name"] == "litmus.corr.0.cta_relaxed")
    assert f"{row['weak']}/{row['judged']} judged" in out.splitlines()[2]


@pytest.mark.parametrize("args, message", [
    ((), "the history is empty"),
    (("--gpu", "h100"), "no match for --gpu h100"),
    (("--case", "nothing.*"), "no match for --case nothing.*"),
])
def test_empty_history_or_no_match_says_so(tmp_path, run_cli, args, message):
    db = tmp_path / "h.sqlite"
    db.write_bytes(b"")                                      # a store with no tables yet: an empty history
    rc, out, err = run_cli("history", "show", "--db", db, *args)
    assert rc == 0 and err == "" and out == f"{db}: the history is empty\n"
    assert db.read_bytes() == b""                            # show never writes a store
    assert run_cli("history", "add", "--db", db, PLANTED)[0] == 0
    rc, out, err = run_cli("history", "show", "--db", db, *args)
    assert rc == 0 and err == ""
    if args:
        assert out == f"{db}: {message}\n"


@pytest.mark.parametrize("args", [(), ("--case", "alias.*"), ("--json",), ("--gpu", "h200")])
def test_show_of_a_store_that_does_not_exist_is_exit_2(tmp_path, run_cli, args, monkeypatch):
    """A --db path that is not there is a mistyped path, not an empty history: exit 2 naming it, as
    compare --against-history says of the same path; and show creates nothing."""
    db = tmp_path / "nope.sqlite"
    rc, out, err = run_cli("history", "show", "--db", db, *args)
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"{db}: no such history database"), err
    assert not db.exists()
    # The store $VMMCHECK_HISTORY names, when --db is not given, the same.
    monkeypatch.setenv(history.ENV, str(db))
    rc, _, err = run_cli("history", "show", *args)
    assert rc == 2 and err.startswith(f"{db}: no such history database") and not db.exists()


@pytest.mark.parametrize("command", [("show",), ("add", PLANTED)])
def test_a_fifo_is_no_history_database(tmp_path, command):
    """SQLite would block opening a FIFO until a writer came: refused first, one line."""
    import os

    import subprocess
    import sys

    from conftest import REPORTS

    db = tmp_path / "fifo.sqlite"
    os.mkfifo(db)
    try:   # a subprocess, so that a store opened regardless fails the test instead of hanging the suite
        proc = subprocess.run([sys.executable, "-m", "vmmcheck_report", "history", command[0], "--db", str(db),
                               *map(str, command[1:])], capture_output=True, text=True,
                              env=dict(os.environ, PYTHONPATH=str(REPORTS)), timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"history {command[0]} blocked opening the FIFO {db}")
    assert proc.returncode == 2 and proc.stderr == f"{db}: not a regular file (a FIFO), not a history database\n"


BAD_RESULTS = {
    # name: (text of the file, words of the message)
    "corrupt": (lambda text: "{\"schema_version\": 2, @@@", "not JSON"),
    "truncated": (lambda text: text[: len(text) // 2], "(truncated?)"),
    "another schema": (lambda text: PROBE.read_text(), "'schema_version' is a required property"),
    "empty": (lambda text: "", "empty file"),
}


@pytest.mark.parametrize("kind", BAD_RESULTS)
def test_a_bad_file_writes_nothing(kind, tmp_path, run_cli):
    build, words = BAD_RESULTS[kind]
    bad = tmp_path / "bad.json"
    bad.write_text(build(PLANTED.read_text()))
    # A new store: not even created.
    db = tmp_path / "new.sqlite"
    rc, out, err = run_cli("history", "add", "--db", db, PLANTED, bad)
    assert rc == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith(f"{bad}: ") and words in err
    assert not db.exists()
    # A store with a run in it: the good file of the failed call is not added; the file is untouched.
    db = tmp_path / "old.sqlite"
    assert run_cli("history", "add", "--db", db, FULL)[0] == 0
    stored = db.read_bytes()
    rc, _, err = run_cli("history", "add", "--db", db, PLANTED, bad)
    assert rc == 2 and err.startswith(f"{bad}: ")
    assert counts(db) == (1, FULL_CASES) and db.read_bytes() == stored


def test_a_missing_file_writes_nothing(tmp_path, run_cli):
    db = tmp_path / "h.sqlite"
    rc, _, err = run_cli("history", "add", "--db", db, PLANTED, tmp_path / "nope.json")
    assert rc == 2 and err == f"{tmp_path / 'nope.json'}: no such file\n"
    assert not db.exists()


def _not_sqlite(path):
    path.write_text("this is a text file, not a database\n" * 20)


def _other_schema(path):
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE measurements (x INTEGER)")
        conn.execute("INSERT INTO measurements VALUES (1)")


def _newer_history(path):
    with sqlite3.connect(path) as conn:
        for statement in history.SCHEMA_SQL.split(";"):
            if statement.strip():
                conn.execute(statement)
        conn.execute("INSERT INTO history_schema VALUES (99, 'now', 'a future driver')")


BAD_STORES = {
    # name: (make the path, words of the message)
    "not SQLite": (_not_sqlite, "not a SQLite database (not a results history)"),
    "a directory": (lambda p: p.mkdir(), "is a directory, not a history database"),
    "another schema": (_other_schema, "a SQLite database, but not a vmmcheck results history (its tables: "
                                      "measurements)"),
    "another version": (_newer_history, "a results history of version 99; this driver reads version 1"),
}


@pytest.mark.parametrize("kind", BAD_STORES)
def test_a_bad_store_is_refused_and_left_alone(kind, tmp_path, run_cli):
    make, words = BAD_STORES[kind]
    db = tmp_path / "store"
    make(db)
    before = None if db.is_dir() else db.read_bytes()
    for args in (("history", "add", "--db", db, PLANTED), ("history", "show", "--db", db),
                 ("history", "show", "--db", db, "--case", "*"),
                 ("compare", "--against-history", "--db", db, PLANTED)):
        rc, out, err = run_cli(*args)
        assert rc == 2 and out == "", args
        assert err == f"{db}: {words}\n", args
    if before is not None:
        assert db.read_bytes() == before
    else:
        assert list(db.iterdir()) == []


def test_a_store_in_a_missing_folder(tmp_path, run_cli):
    db = tmp_path / "no" / "such" / "h.sqlite"
    rc, _, err = run_cli("history", "add", "--db", db, PLANTED)
    assert rc == 2 and err.startswith(f"{db}: cannot use the history database: ") and len(err.splitlines()) == 1


def test_history_from_the_command_line(tmp_path):
    """As CI runs it: a subprocess, the store from the environment, add twice, show, compare."""
    env = {history.ENV: str(tmp_path / "ci.sqlite")}
    proc = run_module("history", "add", PLANTED, env=env)
    assert proc.returncode == 0 and "added as run 1" in proc.stdout, proc.stderr
    proc = run_module("history", "add", PLANTED, env=env)
    assert proc.returncode == 0 and "already in the history as run 1" in proc.stdout
    proc = run_module("history", "show", "--case", "planted.host.*", env=env)
    assert proc.returncode == 0 and proc.stderr == ""
    assert "planted.host.crash  (planted.host, required; 1 run, newest first)" in proc.stdout
    proc = run_module("compare", "--against-history", PLANTED, env=env)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    proc = run_module("history", "add", PROBE, env=env)
    assert proc.returncode == 2 and proc.stderr.startswith(f"{PROBE}: ") and "Traceback" not in proc.stderr


@pytest.mark.parametrize("damage, args, where", [
    ("UPDATE runs SET budget = 'x'", (), "run 1: budget holds 'x'"),
    ("UPDATE results SET histogram = '{'", ("--case", "alias.*"), "run 1: histogram holds '{'"),
    ("UPDATE results SET instances = 'lots'", ("--case", "alias.*"), "holds 'lots'"),
])
def test_show_of_a_damaged_store_is_one_line_exit_2(tmp_path, run_cli, damage, args, where):
    db = tmp_path / "h.db"
    assert run_cli("history", "add", PLANTED, "--db", db)[0] == 0
    with sqlite3.connect(db) as conn:
        conn.execute(damage)
    conn.close()
    rc, out, err = run_cli("history", "show", "--db", db, *args)
    assert rc == 2 and err.startswith(f"{db}: a damaged results history: ") and where in err, err
    assert err.count("\n") == 1
