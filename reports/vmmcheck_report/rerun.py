"""`rerun`: run each unexpected failure again, alone, to tell a flake from a real failure.

A case that passes on any rerun becomes Flake, never Pass: it did fail once, and a memory-model bug that
shows up one time in N is still a bug worth seeing. Every attempt is recorded in the result's
``attempts``. A case that fails every rerun keeps its status (and the run keeps exiting 1).
"""

from __future__ import annotations

import copy
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Callable, List, Mapping, Optional, Sequence

from . import expectations, load, model


def attempt_once(vmmcheck: str, name: str, extra: Sequence[str], number: int, schema: Optional[Path],
                 timeout: Optional[float]) -> dict:
    """Run one case once (`vmmcheck run --filter NAME --json TMP`); what it did, as an attempt record."""
    with tempfile.TemporaryDirectory(prefix="vmmcheck-rerun-") as tmp:
        out = Path(tmp) / "result.json"
        cmd = [vmmcheck, "run", "--filter", name, "--json", str(out), *extra]
        start = time.monotonic()
        try:
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"attempt": number, "status": "Timeout", "exit_code": None,
                    "seconds": time.monotonic() - start, "reason": f"vmmcheck ran past {timeout} s"}
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
    times; stops at the first pass."""
    out = copy.deepcopy(doc)
    for r in out["results"]:
        if r["status"] not in model.FAILING:
            continue
        tries: List[dict] = []
        for number in range(1, attempts + 1):
            tries.append(attempt_once(vmmcheck, r["name"], extra, number, schema, timeout))
            progress(f"rerun {number}/{attempts} {r['name']}: {tries[-1]['status']}")
            if tries[-1]["status"] == "Pass":
                break
        r["attempts"] = tries
        if tries and tries[-1]["status"] == "Pass":
            r["original_status"] = model.raw_status(r)
            r["status"] = "Flake"
            note = f"{r['original_status']} in the run, passed on rerun {len(tries)} of {attempts}"
        else:
            note = f"failed all {len(tries)} reruns: " + ", ".join(t["status"] for t in tries)
        r["note"] = "; ".join(filter(None, [r.get("note"), note]))  # keep what apply said
    out["totals"] = model.count_statuses(out["results"])
    return out


def apply_then_rerun(doc: Mapping, exp: expectations.Expectations, **kwargs) -> dict:
    """What the `rerun` command does: expectations first (known failures need no rerun), then reruns."""
    return rerun(expectations.apply(doc, exp), **kwargs)
