"""A results history: every run a team has kept, in one SQLite file (Python's own ``sqlite3``).

A driver team comparing many runs across drivers and commits otherwise keeps them as loose JSON files; the
history keeps them in one place where a case can be followed across runs and where ``compare`` finds its
baseline by itself.

The store
    One SQLite file: ``--db PATH`` on every history command, else ``$VMMCHECK_HISTORY``, else
    ``results-history.sqlite`` in the current directory. Tables:

    * ``history_schema``: one row, the store's layout version (SCHEMA_VERSION) and who created it. A SQLite
      file without it is somebody else's database and is refused, never written to.
    * ``runs``: one row per run. Its identity is ``hash``, the SHA-256 of the run's canonical JSON (keys
      sorted, no whitespace), so the same run added twice -- from the same file, a copy, or a re-indented
      file -- is one row. Also the GPU (the name of the device the run used), device count, driver release,
      CUDA driver, git sha, start time, vmmcheck's version, the budget (JSON), case count, the file it came
      from, when it was added, and ``document``: the run's JSON as loaded, so that a stored run can be given
      to ``compare`` exactly as its file would have been.
    * ``results``: one row per case of a run: name, family, pattern, status, raw status (what vmmcheck
      reported before expectations or reruns rewrote it), expectation class, weak, instances, judged
      (litmus rows), seconds, gpu_seconds, histogram (JSON) and reason. The GPU is repeated here so that
      the question the history is for -- this case on this GPU, across runs -- is one index lookup.

The commands
    ``history add RESULTS.json...``
        Validates every file completely (load.load: the results schema and the driver's extensions) before
        touching the store; one bad file (corrupt, truncated, another schema) is exit 2, one line naming
        it, and nothing of that call is written. Then all runs go in in one transaction. One line per file:
        added, or already in the history.
    ``history show [--gpu G] [--case GLOB] [--family F] [--limit N] [--json]``
        Without --case: the runs, newest first. With --case: per matching case, its row in each run
        (driver, sha, start, status, weak/instances -- weak/judged for litmus rows --, weak rate and
        instances/s). --gpu matches a case-insensitive substring of the GPU name; --case is a shell-style
        glob over case names (``alias.mp.*``); --family is a family or a family prefix (``alias`` covers
        ``alias.mp``); --limit keeps the newest N runs. An empty history or no match says so and exits 0.
    ``compare --against-history [--db PATH] CURRENT.json``
        ``compare`` (compare.py) with, as baseline, the newest stored run of CURRENT's GPU other than
        CURRENT itself. No such run is exit 2.

Errors are HistoryError, whose str() is the one line to show, naming the store or the file (cli.py's
convention: bad input is one line on stderr and exit 2, never a traceback).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable, List, Optional, Sequence

from . import __version__, files, fmt, load, model

DEFAULT_NAME = "results-history.sqlite"
ENV = "VMMCHECK_HISTORY"
# The layout of the store. A change to the tables below bumps it; a store of another version is refused
# with a line that says so, rather than read wrongly.
SCHEMA_VERSION = 1
TABLES = ("history_schema", "runs", "results")

SCHEMA_SQL = """
CREATE TABLE history_schema (
    version INTEGER NOT NULL,
    created TEXT NOT NULL,
    writer  TEXT NOT NULL
);
CREATE TABLE runs (
    id             INTEGER PRIMARY KEY,
    hash           TEXT NOT NULL UNIQUE,   -- SHA-256 of the canonical JSON: the run's identity
    gpu            TEXT NOT NULL,
    device_count   INTEGER NOT NULL,
    driver_release TEXT NOT NULL,
    driver         TEXT NOT NULL,          -- the CUDA driver version, "13.0"
    git_sha        TEXT NOT NULL,
    started        TEXT NOT NULL,          -- ISO 8601 UTC, so text order is time order
    tool_version   TEXT NOT NULL,
    results_schema INTEGER NOT NULL,       -- the results file's schema_version
    budget         TEXT NOT NULL,          -- JSON
    case_count     INTEGER NOT NULL,
    source         TEXT NOT NULL,          -- the file it was added from, as named on the command line
    added_at       TEXT NOT NULL,
    document       TEXT NOT NULL           -- the run's JSON, keys in their original order
);
-- compare --against-history: the newest run of one GPU.
CREATE INDEX runs_gpu_started ON runs (gpu, started);
CREATE TABLE results (
    run_id      INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    gpu         TEXT NOT NULL,             -- runs.gpu again, for the (gpu, case) index
    case_name   TEXT NOT NULL,
    family      TEXT NOT NULL,
    pattern     TEXT,                      -- NULL for results schema version 1
    status      TEXT NOT NULL,
    raw_status  TEXT NOT NULL,
    expectation TEXT NOT NULL,
    weak        INTEGER NOT NULL,
    instances   INTEGER NOT NULL,
    judged      INTEGER,                   -- litmus rows only
    seconds     REAL NOT NULL,
    gpu_seconds REAL NOT NULL,
    histogram   TEXT NOT NULL,             -- JSON
    reason      TEXT NOT NULL,
    PRIMARY KEY (run_id, case_name)
);
CREATE INDEX results_gpu_case ON results (gpu, case_name);
-- A trend without --gpu looks a case up across every GPU.
CREATE INDEX results_case ON results (case_name);
"""

RUN_COLUMNS = ("id", "hash", "gpu", "device_count", "driver_release", "driver", "git_sha", "started",
               "tool_version", "results_schema", "budget", "case_count", "source", "added_at")


class HistoryError(Exception):
    """A store or an input that cannot be used; str() is the one line to show, naming it."""


def default_path() -> Path:
    return Path(os.environ.get(ENV) or DEFAULT_NAME)


def resolve(db) -> Path:
    """--db when given, else the environment's, else the default in the current directory."""
    return Path(db) if db else default_path()


def canonical(doc) -> str:
    """The one text of a document whatever its file's indentation or key order."""
    # ensure_ascii: a lone surrogate escape (legal JSON) must not make the text unencodable.
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


def content_hash(doc) -> str:
    return hashlib.sha256(canonical(doc).encode("utf-8")).hexdigest()


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# ---------------------------------------------------------------------------------------------------------
# Opening the store

def _database_error(path: Path, e: sqlite3.Error) -> HistoryError:
    text = str(e)
    if "file is not a database" in text:
        return HistoryError(f"{path}: not a SQLite database (not a results history)")
    return HistoryError(f"{path}: cannot use the history database: {text}")


def _tables(conn) -> set:
    return {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _check_layout(conn, path: Path) -> bool:
    """True when the store has the history's tables, False when it has no tables at all (a new store);
    any other database is refused, never written to."""
    tables = _tables(conn)
    if not tables:
        return False
    if not set(TABLES) <= tables:
        listed = ", ".join(sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
        raise HistoryError(f"{path}: a SQLite database, but not a vmmcheck results history (its tables: {listed})")
    row = conn.execute("SELECT version FROM history_schema").fetchone()
    if row is None or row[0] != SCHEMA_VERSION:
        version = "no version" if row is None else f"version {row[0]}"
        raise HistoryError(f"{path}: a results history of {version}; this driver reads version {SCHEMA_VERSION}")
    return True


def _check_path(path: Path) -> None:
    if path.is_dir():
        raise HistoryError(f"{path}: is a directory, not a history database")
    special = files.special(path)   # a FIFO would block SQLite's open until a writer came
    if special:
        raise HistoryError(f"{path}: not a regular file (a {special}), not a history database")


def open_read(path: Path) -> Optional[sqlite3.Connection]:
    """The store opened read-only, or None when there is none yet (a missing file or one without tables is
    an empty history). Read-only, so that show and compare never create or change a file."""
    _check_path(path)
    if not path.exists():
        return None
    try:
        conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
    except sqlite3.Error as e:
        raise _database_error(path, e) from None
    try:
        if not _check_layout(conn, path):
            conn.close()
            return None
    except sqlite3.Error as e:
        conn.close()
        raise _database_error(path, e) from None
    except HistoryError:
        conn.close()
        raise
    conn.row_factory = sqlite3.Row
    return conn


def open_write(path: Path) -> sqlite3.Connection:
    """The store opened for writing, inside an open transaction (BEGIN IMMEDIATE: a second writer waits
    rather than interleaving); the tables are created in that same transaction when the store is new, so a
    failed add leaves no half-made store behind."""
    _check_path(path)
    try:
        # isolation_level=None: the module issues no implicit BEGIN/COMMIT; the transaction is ours.
        conn = sqlite3.connect(str(path), isolation_level=None, timeout=30)
    except sqlite3.Error as e:
        raise _database_error(path, e) from None
    try:
        conn.execute("BEGIN IMMEDIATE")
        if not _check_layout(conn, path):
            for statement in SCHEMA_SQL.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute("INSERT INTO history_schema VALUES (?, ?, ?)",
                         (SCHEMA_VERSION, _now(), f"vmmcheck_report {__version__}"))
    except (sqlite3.Error, HistoryError) as e:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        conn.close()
        if isinstance(e, HistoryError):
            raise
        raise _database_error(path, e) from None
    conn.row_factory = sqlite3.Row
    return conn


# ---------------------------------------------------------------------------------------------------------
# add

def _run_row(doc, digest: str, source: str, added_at: str) -> tuple:
    ctx = doc["context"]
    return (digest, model.gpu_name(doc), len(ctx.get("devices", [])), ctx["driver_release"], ctx["driver"],
            ctx["git_sha"], ctx["started"], ctx["tool_version"], doc["schema_version"],
            json.dumps(ctx["budget"], separators=(",", ":")), len(doc["results"]), source, added_at,
            json.dumps(doc, separators=(",", ":")))


def _result_rows(run_id: int, gpu: str, results: Iterable[dict]):
    for r in results:
        yield (run_id, gpu, r["name"], r["family"], r.get("pattern"), r["status"], model.raw_status(r),
               r["expectation"], r["weak"], r["instances"], r.get("judged"), r["seconds"], r["gpu_seconds"],
               json.dumps(r["histogram"], separators=(",", ":")), r["reason"])


def describe(doc) -> str:
    """The line add prints after each file: which run it is."""
    ctx = doc["context"]
    devices = len(ctx.get("devices", []))
    gpu = model.gpu_name(doc) + (f" (of {devices})" if devices > 1 else "")
    n = len(doc["results"])
    return f"{gpu}, driver {ctx['driver_release']}, git {ctx['git_sha']}, {n} case{'s' if n != 1 else ''}"


def add(paths: Sequence, db, schema_path: Optional[Path] = None) -> List[str]:
    """Add results files; returns one line per file. All files are validated before the store is opened,
    and all are inserted in one transaction: a bad file, or a failure half-way, writes nothing."""
    path = resolve(db)
    # Validate first: load.load raises LoadError naming the file, and the store has not been touched.
    docs = [(str(p), load.load(p, schema_path)) for p in paths]
    # A run on a machine with no GPU ran nothing: filed, it would be a run of "unknown GPU" whose cases all
    # look not supported, and every later comparison against the history would read it so.
    for source, doc in docs:
        if not doc["context"].get("devices"):
            raise HistoryError(f"{source}: a run on a machine with no GPU (nothing ran); the history keeps GPU runs")
    conn = open_write(path)
    lines = []
    added_at = _now()
    try:
        for source, doc in docs:
            digest = content_hash(doc)
            row = conn.execute("SELECT id FROM runs WHERE hash = ?", (digest,)).fetchone()
            if row is not None:
                lines.append(f"{source}: already in the history as run {row['id']} ({describe(doc)})")
                continue
            cur = conn.execute(f"INSERT INTO runs ({', '.join(RUN_COLUMNS[1:])}, document) "
                               f"VALUES ({', '.join('?' * len(RUN_COLUMNS))})",
                               _run_row(doc, digest, source, added_at))
            conn.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                             _result_rows(cur.lastrowid, model.gpu_name(doc), doc["results"]))
            lines.append(f"{source}: added as run {cur.lastrowid} ({describe(doc)})")
        conn.execute("COMMIT")
    except sqlite3.Error as e:
        conn.execute("ROLLBACK")
        raise _database_error(path, e) from None
    finally:
        conn.close()
    return lines


# ---------------------------------------------------------------------------------------------------------
# show

def _family_clause(family: Optional[str], column: str = "family"):
    """A family, or every family under it: `alias` covers `alias.mp` but not `aliasing`."""
    if not family:
        return "", []
    return f" AND ({column} = ? OR substr({column}, 1, ?) = ?)", [family, len(family) + 1, family + "."]


def _gpu_clause(gpu: Optional[str], column: str = "gpu"):
    # instr over lower(): a plain substring, without LIKE's wildcards (a GPU name may hold '_' or '%').
    if not gpu:
        return "", []
    return f" AND instr(lower({column}), lower(?)) > 0", [gpu]


def runs(db, gpu: Optional[str] = None, family: Optional[str] = None, limit: Optional[int] = None) -> List[dict]:
    """The stored runs, newest first, with their cases counted by status; with family, only the runs that
    have cases of it, counted over those cases."""
    path = resolve(db)
    conn = open_read(path)
    if conn is None:
        return []
    gsql, gargs = _gpu_clause(gpu)
    fsql, fargs = _family_clause(family)
    if family:
        gsql += f" AND id IN (SELECT run_id FROM results WHERE 1 = 1{fsql})"
        gargs += fargs
    try:
        found = [dict(row) for row in conn.execute(
            f"SELECT {', '.join(RUN_COLUMNS)} FROM runs WHERE 1 = 1{gsql} ORDER BY started DESC, id DESC LIMIT ?",
            gargs + [limit or -1])]
        counts = conn.execute(
            f"SELECT run_id, status, count(*) AS n FROM results WHERE run_id IN "
            f"({', '.join('?' * len(found))}){fsql} GROUP BY run_id, status",
            [r["id"] for r in found] + fargs).fetchall()
    except sqlite3.Error as e:
        raise _database_error(path, e) from None
    finally:
        conn.close()
    by_run: dict = {}
    for row in counts:
        by_run.setdefault(row["run_id"], {})[row["status"]] = row["n"]
    for run in found:
        run["budget"] = _stored_json(path, run["id"], "budget", run["budget"])
        statuses = by_run.get(run["id"], {})
        # Statuses in the status table's order, the order every other output uses.
        run["statuses"] = {s: statuses[s] for s in sorted(statuses, key=_status_order)}
        run["cases"] = sum(statuses.values())
    return found


def _damaged(path: Path, run_id, what: str, value) -> HistoryError:
    shown = repr(value)
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    return HistoryError(f"{path}: a damaged results history: run {run_id}: {what} holds {ascii(shown)[1:-1]}")


def _stored_json(path: Path, run_id, column: str, text, want: type = object):
    """A JSON column as the history stored it; HistoryError naming the store where it is not (a damaged store)."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        raise _damaged(path, run_id, column, text) from None
    if not isinstance(value, want):
        raise _damaged(path, run_id, column, text)
    return value


def _status_order(status: str):
    return model.ALL_STATUSES.index(status) if status in model.ALL_STATUSES else len(model.ALL_STATUSES)


def trend(db, case_glob: str, gpu: Optional[str] = None, family: Optional[str] = None,
          limit: Optional[int] = None) -> List[dict]:
    """Per case matching the glob, its record in each stored run (newest first):
    [{"case", "family", "expectation", "runs": [row...]}], cases by name. With limit, only the newest N runs
    (of the GPU, when one is given) are looked at."""
    conn = open_read(resolve(db))
    if conn is None:
        return []
    try:
        gsql, gargs = _gpu_clause(gpu, "runs.gpu")
        fsql, fargs = _family_clause(family, "results.family")
        where, args = f"WHERE results.case_name GLOB ?{gsql}{fsql}", [_sqlite_glob(case_glob)] + gargs + fargs
        if limit:
            where += (f" AND runs.id IN (SELECT id FROM runs WHERE 1 = 1{gsql} "
                      f"ORDER BY started DESC, id DESC LIMIT ?)")
            args += gargs + [limit]
        rows = conn.execute(
            "SELECT results.*, runs.driver_release, runs.driver, runs.git_sha, runs.started, runs.source, "
            "runs.device_count "
            f"FROM results JOIN runs ON runs.id = results.run_id {where} "
            "ORDER BY results.case_name, runs.started DESC, runs.id DESC", args).fetchall()
    except sqlite3.Error as e:
        raise _database_error(resolve(db), e) from None
    finally:
        conn.close()
    cases: dict = {}
    for row in rows:
        r = dict(row)
        r["histogram"] = _stored_json(resolve(db), r["run_id"], "histogram", r["histogram"], dict)
        for key, types in (("weak", int), ("instances", int), ("judged", (int, type(None))),
                           ("seconds", (int, float)), ("gpu_seconds", (int, float, type(None)))):
            if key in r and (not isinstance(r[key], types) or isinstance(r[key], bool)):
                raise _damaged(resolve(db), r["run_id"], f"results.{key} of {r['case_name']!r}", r[key])
        r["name"] = r["case_name"]
        denominator = r["judged"] if r["judged"] is not None else r["instances"]
        r["weak_of"] = denominator
        r["weak_rate"] = r["weak"] / denominator if denominator else None
        r["rate"] = model.rate(r)
        r["rate_basis"] = model.rate_basis(r) if r["rate"] is not None else None
        entry = cases.setdefault(r["case_name"], {"case": r["case_name"], "family": r["family"],
                                                  "expectation": r["expectation"], "runs": []})
        entry["runs"].append({k: r[k] for k in (
            "run_id", "gpu", "device_count", "driver_release", "driver", "git_sha", "started", "source",
            "status", "raw_status", "expectation", "pattern", "weak", "instances", "judged", "weak_of",
            "weak_rate", "rate", "rate_basis", "seconds", "gpu_seconds", "histogram", "reason")})
    return list(cases.values())


def _sqlite_glob(pattern: str) -> str:
    """SQLite's GLOB is the shell's (*, ?, [...]), case-sensitive like case names; fnmatch's [!x] is
    SQLite's [^x]."""
    return pattern.replace("[!", "[^")


# ---------------------------------------------------------------------------------------------------------
# Text

def _gpu_text(gpu: str, devices: int) -> str:
    return f"{devices}x {gpu}" if devices > 1 else gpu


def format_runs(found: List[dict], db) -> str:
    n = len(found)
    lines = [f"{resolve(db)}: {n} run{'s' if n != 1 else ''}, newest first"]
    rows = [(str(r["id"]), r["started"], _gpu_text(r["gpu"], r["device_count"]), r["driver_release"],
             r["git_sha"], str(r["cases"]), ", ".join(f"{k} {v}" for k, v in r["statuses"].items()),
             r["source"]) for r in found]
    lines += fmt.table(("run", "started", "gpu", "driver", "sha", "cases", "statuses", "source"), rows, right=(0, 5))
    return "\n".join(lines) + "\n"


def _status_text(row: dict) -> str:
    """The status, and what vmmcheck said when expectations or a rerun rewrote it."""
    if row["raw_status"] != row["status"]:
        return f"{row['status']} (was {row['raw_status']})"
    return row["status"]


def format_trend(found: List[dict]) -> str:
    lines = []
    for case in found:
        runs_ = case["runs"]
        if lines:
            lines.append("")
        lines.append(f"{case['case']}  ({case['family']}, {case['expectation']}; "
                     f"{len(runs_)} run{'s' if len(runs_) != 1 else ''}, newest first)")
        rows = [(str(r["run_id"]), _gpu_text(r["gpu"], r["device_count"]), r["driver_release"], r["git_sha"],
                 r["started"], _status_text(r), f"{r['weak']}/{r['weak_of']}" + (" judged" if r["judged"]
                                                                                  is not None else ""),
                 fmt.percent(r["weak_rate"]), fmt.rate(r["rate"])) for r in runs_]
        lines += fmt.table(("run", "gpu", "driver", "sha", "started", "status", "weak", "weak rate", "inst/s"), rows,
                           right=(0, 7, 8), indent="  ")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------------------
# compare --against-history

def baseline_for(current: dict, db, schema_path: Optional[Path] = None):
    """(baseline document, its name for compare's heading): the newest stored run of CURRENT's GPU, with as
    many devices, that is not CURRENT itself (same content hash). Raises HistoryError when there is none."""
    path = resolve(db)
    gpu = model.gpu_name(current)
    conn = open_read(path)
    if conn is None:
        raise HistoryError(f"{path}: no earlier run of {gpu} (the history is empty or missing; "
                           f"`history add RESULTS.json` first)")
    try:
        row = conn.execute(
            # The same GPU in the same count: a two-GPU run has cases a one-GPU run cannot have.
            "SELECT id, source, git_sha, started, device_count, document FROM runs WHERE gpu = ? AND device_count = ? "
            "AND hash != ? ORDER BY started DESC, id DESC LIMIT 1",
            (gpu, len(current["context"].get("devices", [])), content_hash(current))).fetchone()
    except sqlite3.Error as e:
        raise _database_error(path, e) from None
    finally:
        conn.close()
    if row is None:
        raise HistoryError(f"{path}: no earlier run of {gpu} in the history (other than this run itself)")
    # Checked again as the file was on the way in: a store edited by hand, or a schema that changed since,
    # is one line, not a traceback inside compare.
    doc = load.parse(row["document"], f"{path}: run {row['id']}", load.read_schema(schema_path))
    # The device count is named: a run on two of the GPU matches too (same GPU name), and its multi-GPU
    # cases then show as appeared or vanished.
    name = (f"history run {row['id']} ({_gpu_text(gpu, row['device_count'])}, {row['source']}, "
            f"git {row['git_sha']}, started {row['started']})")
    return doc, name
