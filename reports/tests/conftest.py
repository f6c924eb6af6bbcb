"""Shared fixtures: the frozen H200 runs (the full run and the planted self-test), a builder for synthetic runs, and ways to run the CLI.

reports/ goes on sys.path here, so the suite runs from the repository root (as ctest does:
`.venv/bin/python -m pytest reports/tests -q`) and from reports/ alike.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPORTS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPORTS))

from vmmcheck_report import cli, model  # noqa: E402

FIXTURES = Path(__file__).resolve().parent / "fixtures"
H200 = FIXTURES / "h200-580.159.04.json"
# Cases per family of the H200 run, as read from the fixture (243 in all, every one Pass).
H200_FAMILIES = {"alias.kernels": 105, "alias.mp": 63, "alias.same_thread": 30, "alias.resident": 18,
                 "access": 12, "api": 8, "lifecycle": 5, "lifecycle.unmap": 2}
H200_TOTAL = 243
# The planted self-test run (ci/results/nvidia-h200_driver-580.159.04.planted.json, frozen here): 55 cases,
# two planted Crash and two planted Timeout among them.
PLANTED = FIXTURES / "h200-580.159.04.planted.json"
# The same GPU and driver after the pattern registry (ci/results/nvidia-h200_driver-580.159.04.json at git
# e947235): results schema version 2, every record with its pattern and axes; the suite above plus alias.rmw.
H200_V2 = FIXTURES / "h200-580.159.04.v2.json"
H200_V2_TOTAL = 249


@pytest.fixture(scope="session")
def h200_doc_frozen():
    return json.loads(H200.read_text())


@pytest.fixture
def h200_doc(h200_doc_frozen):
    """A copy each test may change."""
    return copy.deepcopy(h200_doc_frozen)


def result(name, status="Pass", expectation="required", histogram=None, weak=0, instances=100,
           seconds=0.01, gpu_seconds=0.0, reason="", **extra):
    """One synthetic result record; the family is the name's first two components."""
    r = {"name": name, "family": ".".join(name.split(".")[:2]), "status": status, "expectation": expectation,
         "histogram": {"new": instances, "old": 0} if histogram is None else histogram, "weak": weak,
         "instances": instances, "seconds": seconds, "gpu_seconds": gpu_seconds, "reason": reason}
    r.update(extra)
    return r


def make_doc(results, like=None):
    """A valid results document around `results`, with the H200 run's context, totals recomputed."""
    base = json.loads(H200.read_text()) if like is None else like
    doc = {"schema_version": 1, "context": copy.deepcopy(base["context"]), "results": list(results)}
    doc["totals"] = model.count_statuses(doc["results"])
    return doc


def write_json(path: Path, doc) -> Path:
    path.write_text(json.dumps(doc, indent=2))
    return path


@pytest.fixture
def run_cli(capsys):
    """Run the CLI in-process: (exit code, stdout, stderr)."""
    def run(*args):
        rc = cli.main([str(a) for a in args])
        out = capsys.readouterr()
        return rc, out.out, out.err
    return run


def run_module(*args, cwd=None, env=None):
    """Run `python -m vmmcheck_report` as CI does, with reports/ on PYTHONPATH."""
    full_env = dict(os.environ, PYTHONPATH=str(REPORTS), **(env or {}))
    return subprocess.run([sys.executable, "-m", "vmmcheck_report", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd, env=full_env, timeout=120)
