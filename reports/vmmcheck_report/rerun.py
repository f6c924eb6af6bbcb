"""`rerun`: run each unexpected failure again, alone, to tell a flake from a real failure.

Before rerunning anything, the machine is asked what it is (`vmmcheck probe --json -`): rerunning a run of
one GPU or driver on another says nothing about the run. No GPU here (the probe exits 77, or finds no
device) is exit 77, "nothing can run here"; a machine whose device at the run's index (context.device) has
another name than the run's GPU, or whose driver release differs from the run's (both known), is exit 2,
one line naming both. Nothing is rerun in either case. A run with nothing to rerun asks nothing.

A case that passes on any rerun becomes Flake, never Pass: it did fail once, and a memory-model bug that
shows up one time in N is still a bug worth seeing. Every attempt is recorded in the result's
``attempts``. A case that fails every rerun keeps its status (and the run keeps exiting 1). An attempt
that comes back NotSupported means the case cannot run here (a policy, a device the machine lacks): its
reruns stop, it keeps its status, its note says "could not rerun here: <reason>", and it is no failed
rerun. When every case rerun came back NotSupported, the rerun told nothing: exit 77.
"""

from __future__ import annotations

import copy
import json
import os
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Callable, List, Mapping, Optional, Sequence

from . import expectations, jsontext, load, model

PROBE_ARGS = ("probe", "--json", "-")
EXIT_NOTHING_RAN = 77   # vmmcheck's "nothing could run here"


class Refused(Exception):
    """The rerun cannot be done here; `code` is the exit code (77: no GPU; 2: another machine), str() the one
    line to show."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code


# What a rerun may take at most when --attempt-timeout says nothing: a case's own isolation limit is 120 s.
DEFAULT_TIMEOUT = 600.0


def _run_bounded(cmd: Sequence[str], timeout: Optional[float], **kw) -> subprocess.CompletedProcess:
    """subprocess.run in a process group of its own, under `timeout` (DEFAULT_TIMEOUT when None): past it
    the whole group is killed -- vmmcheck and the isolated children it started -- and TimeoutExpired
    raised, as subprocess.run raises it."""
    limit = DEFAULT_TIMEOUT if timeout is None else timeout
    with subprocess.Popen(cmd, start_new_session=True, **kw) as proc:
        try:
            out, err = proc.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise
        return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def probe(vmmcheck: str, timeout: Optional[float] = None) -> dict:
    """What `vmmcheck probe --json -` says of this machine (its JSON). Refused(77) where it finds no GPU or
    driver (exit 77, or no device); Refused(2) where it cannot be run or says nothing usable."""
    cmd = [vmmcheck, *PROBE_ARGS]
    where = " ".join(cmd)
    try:
        # errors="replace": what a program prints is not ours to trust as UTF-8; bytes that are not become U+FFFD.
        proc = _run_bounded(cmd, timeout, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace")
    except subprocess.TimeoutExpired:
        raise Refused(2, f"rerun: {where}: ran past {timeout or DEFAULT_TIMEOUT} s") from None
    except OSError as e:
        raise Refused(2, f"rerun: cannot run {vmmcheck}: {e.strerror or e}") from None
    last = (proc.stderr.strip().splitlines() or [""])[-1].strip()
    if proc.returncode == EXIT_NOTHING_RAN:
        raise Refused(EXIT_NOTHING_RAN, f"rerun: nothing can run here: {last or 'the probe found no GPU'}")
    if proc.returncode != 0:
        raise Refused(2, f"rerun: {where}: exit {proc.returncode}" + (f": {last}" if last else ""))
    if jsontext.too_deep(proc.stdout) is not None:   # json.loads would recurse past Python's stack
        raise Refused(2, f"rerun: {where}: not a vmmcheck-probe document (nested too deep)")
    try:
        found = json.loads(proc.stdout)
    except ValueError:
        raise Refused(2, f"rerun: {where}: did not print JSON") from None
    schema = found.get("schema") if isinstance(found, dict) else None
    if not isinstance(found, dict) or not isinstance(found.get("devices"), list) or \
            not all(isinstance(d, dict) for d in found["devices"]) or \
            (schema is not None and not str(schema).startswith("vmmcheck-probe/")):
        raise Refused(2, f"rerun: {where}: not a vmmcheck-probe document")
    if not found["devices"]:
        raise Refused(EXIT_NOTHING_RAN, "rerun: nothing can run here: the probe found no GPU")
    return found


def check_machine(doc: Mapping, found: Mapping, where: str = "results") -> None:
    """Refused(2) when the machine the probe describes is not the one the run was on: another device at the
    run's index, or another driver release (where both are known)."""
    ctx = doc["context"]
    index = ctx.get("device")
    mine = next((d for d in found["devices"] if d.get("index") == index), None)
    release = ctx.get("driver_release") or ""
    here_release = found.get("driver_release") or ""
    differs = mine is None or mine.get("name") != model.gpu_name(doc) or \
        (release and here_release and release != here_release)
    if not differs:
        return
    if mine is None:
        names = ", ".join(f"{d.get('name')} at {d.get('index')}" for d in found["devices"])
        here = f"no device {index} ({names})"
    else:
        here = mine.get("name")
    raise Refused(2, f"rerun: {where}: results are of {model.gpu_name(doc)}, driver {release or 'unknown'}; this "
                     f"machine has {here}, driver {here_release or 'unknown'} -- rerun on the machine of the run")


def to_rerun(doc: Mapping) -> List[str]:
    """The cases rerun would run (expectations already applied): vmmcheck's failing statuses."""
    return [r["name"] for r in doc["results"] if r["status"] in model.FAILING]


def could_not_rerun(r: Mapping) -> bool:
    """A case whose reruns stopped because it came back NotSupported: it cannot run here."""
    return bool(r.get("attempts")) and r["attempts"][-1]["status"] == "NotSupported"


def attempt_once(vmmcheck: str, name: str, extra: Sequence[str], number: int, schema: Optional[Path],
                 timeout: Optional[float]) -> dict:
    """Run one case once (`vmmcheck run --filter NAME --json TMP`); what it did, as an attempt record."""
    with tempfile.TemporaryDirectory(prefix="vmmcheck-rerun-") as tmp:
        out = Path(tmp) / "result.json"
        cmd = [vmmcheck, "run", "--filter", name, "--json", str(out), *extra]
        start = time.monotonic()
        try:
            proc = _run_bounded(cmd, timeout, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
        except subprocess.TimeoutExpired:
            return {"attempt": number, "status": "Timeout", "exit_code": None,
                    "seconds": time.monotonic() - start, "reason": f"vmmcheck ran past {timeout or DEFAULT_TIMEOUT} s"}
        except OSError as e:
            return {"attempt": number, "status": "Error", "exit_code": None, "seconds": 0.0,
                    "reason": f"cannot run {vmmcheck}: {e.strerror or e}"}
        seconds = time.monotonic() - start
        record = {"attempt": number, "exit_code": proc.returncode, "seconds": seconds}
        try:
            doc = load.load(out, schema)
        except load.LoadError as e:
            tail = proc.stdout.strip().splitlines()[-1:] if proc.stdout else []
            return {**record, "status": "Error",
                    "reason": f"exit {proc.returncode}, no usable results ({e})" + (f": {tail[0]}" if tail else "")}
        match = [r for r in doc["results"] if r["name"] == name]
        if not match:
            return {**record, "status": "Error", "reason": f"exit {proc.returncode}; {name} not in its results"}
        return {**record, "status": model.raw_status(match[0]), "reason": match[0]["reason"]}


def rerun(doc: Mapping, vmmcheck: str, attempts: int = 3, extra: Sequence[str] = (),
          schema: Optional[Path] = None, timeout: Optional[float] = None,
          progress: Callable[[str], None] = lambda line: None) -> dict:
    """A copy of `doc` (expectations already applied) with each remaining failure rerun up to `attempts`
    times; a case stops at its first pass, or at its first NotSupported (it cannot run here)."""
    out = copy.deepcopy(doc)
    for r in out["results"]:
        if r["status"] not in model.FAILING:
            continue
        tries: List[dict] = []
        for number in range(1, attempts + 1):
            tries.append(attempt_once(vmmcheck, r["name"], extra, number, schema, timeout))
            status = tries[-1]["status"]
            progress(f"rerun {number}/{attempts} {r['name']}: {status}"
                     + (" (cannot run here: no more reruns)" if status == "NotSupported" else ""))
            if status in ("Pass", "NotSupported"):
                break
        r["attempts"] = tries
        if tries and tries[-1]["status"] == "Pass":
            r["original_status"] = model.raw_status(r)
            r["status"] = "Flake"
            note = f"{r['original_status']} in the run, passed on rerun {len(tries)} of {attempts}"
        elif tries and tries[-1]["status"] == "NotSupported":
            failed = tries[:-1]
            note = f"could not rerun here: {tries[-1].get('reason') or 'NotSupported'}" + (
                f" (after {len(failed)} failed rerun{'s' if len(failed) != 1 else ''}: "
                + ", ".join(t["status"] for t in failed) + ")" if failed else "")
        else:
            note = f"failed all {len(tries)} reruns: " + ", ".join(t["status"] for t in tries)
        r["note"] = "; ".join(filter(None, [r.get("note"), note]))  # keep what apply said
    out["totals"] = model.count_statuses(out["results"])
    return out


def apply_then_rerun(doc: Mapping, exp: expectations.Expectations, check: bool = False, where: str = "results",
                     **kwargs) -> dict:
    """What the `rerun` command does: expectations first (known failures need no rerun), then -- with `check`,
    and only when some case is to be rerun -- the machine is probed (probe, check_machine: Refused), then
    reruns."""
    applied = expectations.apply(doc, exp)
    if check and to_rerun(applied):
        check_machine(applied, probe(kwargs["vmmcheck"], kwargs.get("timeout")), where)
    return rerun(applied, **kwargs)


def nothing_rerun(doc: Mapping) -> Optional[str]:
    """The one line for exit 77 when every case rerun came back NotSupported (the rerun told nothing), else
    None."""
    tried = [r for r in doc["results"] if r.get("attempts")]
    if not tried or not all(could_not_rerun(r) for r in tried):
        return None
    r = tried[0]
    more = f" (and {len(tried) - 1} more)" if len(tried) > 1 else ""
    return (f"rerun: nothing could be rerun here: every case came back NotSupported -- {r['name']}: "
            f"{r['attempts'][-1].get('reason') or 'NotSupported'}{more}")
