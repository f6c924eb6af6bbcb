"""What a status means, and the few numbers every command derives from a result record.

Everything that orders or classifies statuses, or computes a rate, reads it from here, so that render,
compare, expectations, rerun and junit cannot disagree (docs/design.md, "Statuses and exit codes").
A result document is kept as the plain dict the loader returns; these are functions over it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Mapping, Optional, Sequence

# What kind of outcome a status is. Only "failure" makes a run exit 1.
FAILURE = "failure"    # unexpected: the run is not clean
TOLERATED = "tolerated"  # failed, but a human said that is known (ExpectedFail) or it passed on rerun (Flake)
SKIPPED = "skipped"    # did not run here; never counted as a pass
PASSED = "passed"


@dataclass(frozen=True)
class Status:
    name: str
    kind: str
    base: bool      # vmmcheck's own verdict (the schema's original_status); False: a baseline's rewrite of one
    severity: int   # 0 is worst: failing cases sort first
    rank: int       # for compare: a case whose rank is higher in CURRENT is a regression (see RANK_FAILING)
    description: str


# The one status table: display order (columns of every table) is the order of the rows. Names, kinds and
# base are schema/statuses.json's, which the C++ enum shares (reports/tests/test_statuses.py checks this side).
STATUS_TABLE: Sequence[Status] = (
    Status("Pass", PASSED, True, 9, 0, "the observed outcomes are the allowed ones"),
    Status("Fail", FAILURE, True, 3, 3, "an outcome the rules forbid was observed"),
    Status("Crash", FAILURE, True, 0, 3, "the case's child process died"),
    Status("Timeout", FAILURE, True, 1, 3, "the case ran past its hard timeout"),
    Status("Error", FAILURE, True, 2, 3, "the harness itself failed"),
    Status("NotSupported", SKIPPED, True, 7, 1, "the GPU, driver, host or policy cannot run it"),
    Status("Warning", TOLERATED, True, 5, 2, "a `model` case showed an outcome only the PTX model forbids, or the driver accepted a forbidden call with the state intact"),
    Status("UnexpectedPass", FAILURE, False, 4, 0, "listed as an expected failure, but passed"),
    Status("Flake", TOLERATED, False, 5, 2, "failed, but passed on a rerun or matches a flake pattern"),
    Status("ExpectedFail", TOLERATED, False, 6, 0, "failed exactly as the expectation file says"),
    Status("Skip", SKIPPED, False, 8, 0, "skipped by an expectation file"),
)

STATUS = {s.name: s for s in STATUS_TABLE}
ALL_STATUSES = tuple(s.name for s in STATUS_TABLE)
BASE_STATUSES = tuple(s.name for s in STATUS_TABLE if s.base)
DRIVER_STATUSES = tuple(s.name for s in STATUS_TABLE if not s.base)
# vmmcheck's own failing statuses: what fails.txt may list, what rerun retries, what a regression turns into.
FAILING = frozenset(s.name for s in STATUS_TABLE if s.base and s.kind == FAILURE)
# What makes a run not clean once expectations are applied.
UNEXPECTED = frozenset(s.name for s in STATUS_TABLE if s.kind == FAILURE)
SKIPS = frozenset(s.name for s in STATUS_TABLE if s.kind == SKIPPED)

# Ranks (Status.rank), what compare gates on: 0 passed or was set aside by a human (Pass; UnexpectedPass, the pass
# it is; ExpectedFail and Skip, which an expectation file answers for) < 1 did not run here (NotSupported) < 2
# ran, and something was off once (Warning; Flake, which failed once) < 3 failed (Fail, Crash, Timeout, Error).
RANK_FAILING = max(s.rank for s in STATUS_TABLE)

# Keys this driver adds to a result record (see load.py, which validates them).
EXTRA_RESULT_KEYS = ("original_status", "original_reason", "note", "attempts")


def severity(status: str) -> int:
    """Sort key, worst first; an unknown status sorts last rather than failing the report."""
    s = STATUS.get(status)
    return s.severity if s else len(STATUS_TABLE)


# What a reader looks at first, in this order: a status that makes the run unclean, then one that ran and was off
# once (rank 2: Warning, Flake). Everything else passed, was set aside by a human, or could not run here.
ATTENTION_FAILURE = "failure"
ATTENTION_WARNING = "warning"
ATTENTION_ORDER = (ATTENTION_FAILURE, ATTENTION_WARNING)


def attention(status: str) -> Optional[str]:
    """"failure", "warning" or None: which list the report shows the case in before all the others. An unknown
    status is a failure, as in rank(): nobody can vouch for it."""
    s = STATUS.get(status)
    if s is None or s.kind == FAILURE:
        return ATTENTION_FAILURE
    return ATTENTION_WARNING if s.rank == 2 else None


def rank(status: str) -> int:
    """How bad a status is for compare (Status.rank); an unknown status ranks as failing: a status nobody knows
    is no reason to let a run through the gate."""
    s = STATUS.get(status)
    return s.rank if s else RANK_FAILING


def statuses_in(counts: Iterable[str]) -> list:
    """The table's columns: vmmcheck's own (base) statuses always, the others only where some result has them."""
    present = set(counts)
    return [s.name for s in STATUS_TABLE if s.base or s.name in present]


def count_statuses(results: Iterable[Mapping]) -> dict:
    """Totals by status, recomputed from the records (the source of truth), with vmmcheck's own always there."""
    totals = {name: 0 for name in BASE_STATUSES}
    for r in results:
        totals[r["status"]] = totals.get(r["status"], 0) + 1
    return {name: totals.get(name, 0) for name in statuses_in(totals)}


def raw_status(result: Mapping) -> str:
    """What vmmcheck itself reported, before expectations or reruns rewrote it."""
    return result.get("original_status", result["status"])


def rate(result: Mapping) -> Optional[float]:
    """Instances per second: over GPU time when the harness measured it, else over wall time; None when
    the case counted nothing or took no measurable time (nothing to compare: a case skipped here may
    still have spent wall time finding out)."""
    if not result.get("instances"):
        return None
    if result.get("gpu_seconds", 0) > 0:
        return result["instances"] / result["gpu_seconds"]
    if result.get("seconds", 0) > 0:
        return result["instances"] / result["seconds"]
    return None


def rate_basis(result: Mapping) -> Optional[str]:
    """Which clock rate() used: "gpu", "wall", or None."""
    if result.get("gpu_seconds", 0) > 0:
        return "gpu"
    if result.get("seconds", 0) > 0:
        return "wall"
    return None


def weak_rate(result: Mapping) -> Optional[float]:
    """Weak outcomes per instance, the figure an `undefined` case reports; None for other classes or
    when nothing ran."""
    if result.get("expectation") != "undefined" or not result.get("instances"):
        return None
    return result["weak"] / result["instances"]


def weak_fraction(result: Optional[Mapping]) -> Optional[float]:
    """weak / instances whatever the expectation class (for a required case, the share of forbidden outcomes):
    the one number the handbook shows for every case a run ran, where weak_rate() is the figure only an
    `undefined` case reports. None for a missing record or one that ran no instances."""
    if not result or not result.get("instances"):
        return None
    return result.get("weak", 0) / result["instances"]


def axes(result: Mapping) -> dict:
    """axis -> value of a case: what it is, without parsing its name. Empty for records of schema version 1
    (vmmcheck before the pattern registry), which carry only the dotted name."""
    return dict(result.get("axes") or {})


def pattern(result: Mapping) -> Optional[str]:
    """The pattern that ran the case (schema version 2), or None."""
    return result.get("pattern")


def axis_text(result: Mapping) -> str:
    """A case's axes on one line: "data=alias flag=same fence=writer scope=gpu"; empty for version 1."""
    return " ".join(f"{k}={v}" for k, v in axes(result).items())


def axis_summary(results: Sequence[Mapping]) -> list:
    """Per axis of a family's cases, per value: how many cases, how many unexpected, and the weak-outcome
    rate over the `undefined` cases that ran (instances-weighted). What a value of one axis does across
    all the others -- read from the records' axes, so empty for version-1 records.

    [{"axis": name, "values": [{"value", "cases", "unexpected", "weak", "instances", "weak_rate"}]}]"""
    order: dict = {}
    for r in results:
        for axis, value in axes(r).items():
            row = order.setdefault(axis, {}).setdefault(
                value, {"value": value, "cases": 0, "unexpected": 0, "weak": 0, "instances": 0})
            row["cases"] += 1
            row["unexpected"] += r["status"] in UNEXPECTED
            if weak_rate(r) is not None:
                row["weak"] += r["weak"]
                row["instances"] += r["instances"]
    out = []
    for axis, values in order.items():
        rows = list(values.values())
        for row in rows:
            row["weak_rate"] = row["weak"] / row["instances"] if row["instances"] else None
        out.append({"axis": axis, "values": rows})
    return out


def power(result: Mapping) -> Optional[dict]:
    """What the case's control did (docs/design.md, "Power"): the same case with its ordering mechanism
    removed. Present for required and fault cases of runs that measured it; None otherwise."""
    return result.get("power")


def power_tally(results: Iterable[Mapping]) -> dict:
    """How many required and fault cases, and litmus assert rows, have a control that showed a forbidden
    outcome here, and which do not; the rows apart from the cases, as `vmmcheck run`'s closing lines count
    them (run/records/power_tally.cpp). Cases without a measured control are not counted."""
    t = {"required": 0, "required_discriminating": 0, "fault": 0, "fault_discriminating": 0, "litmus": 0,
         "litmus_discriminating": 0, "not": [], "litmus_not": []}
    for r in results:
        p = power(r)
        if p is None:
            continue
        kind = ("litmus" if r.get("pattern") == "litmus" else "required" if r["expectation"] == "required"
                else "fault")
        t[kind] += 1
        if p["discriminating"]:
            t[kind + "_discriminating"] += 1
        else:
            t["litmus_not" if kind == "litmus" else "not"].append(r["name"])
    return t


def families(results: Iterable[Mapping]) -> dict:
    """Results grouped by family, families in the order the run produced them."""
    groups: dict = {}
    for r in results:
        groups.setdefault(r["family"], []).append(r)
    return groups


def gpu_name(doc: Mapping) -> str:
    """Name of the device the run used (context.device indexes context.devices)."""
    ctx = doc["context"]
    for d in ctx.get("devices", []):
        if d.get("index") == ctx.get("device"):
            return d["name"]
    return "unknown GPU"


def slug(text: str) -> str:
    """File-name form of a device name: "NVIDIA H200" -> "nvidia-h200"."""
    return re.sub(r"[^a-z0-9.]+", "-", text.lower()).strip("-") or "unknown"


def expectation_stem(doc: Mapping) -> str:
    """<gpu>-<driver release>: the prefix of this run's expectation files, e.g. nvidia-h200-580.159.04."""
    return f"{slug(gpu_name(doc))}-{slug(doc['context'].get('driver_release') or 'unknown')}"


def describe_run(doc: Mapping) -> str:
    """One line naming the run, for headings and titles."""
    ctx = doc["context"]
    release = ctx.get("driver_release") or "unknown release"
    return f"{gpu_name(doc)}, driver {release} (CUDA {ctx.get('driver') or '?'})"


def describe_machine(doc: Mapping) -> str:
    """What a run ran on and from, for compare's heading: "NVIDIA H200, 2 devices, driver 580.159.04 (CUDA 13.0),
    git 43ba0f9" -- the GPU the run used, how many the machine had, the driver and the build."""
    ctx = doc["context"]
    n = len(ctx.get("devices", []))
    return (f"{gpu_name(doc)}, {n} device{'s' if n != 1 else ''}, driver {ctx.get('driver_release') or 'unknown release'} "
            f"(CUDA {ctx.get('driver') or '?'}), git {ctx.get('git_sha') or '?'}")


def histogram_text(histogram: Mapping) -> str:
    """A histogram on one line: "new=16777216 old=0"."""
    return " ".join(f"{k}={v}" for k, v in histogram.items()) or "(empty)"


def row_name(r: Mapping) -> Optional[str]:
    """A litmus row's own name, litmus.<file>[.<instance>].<command>, from its axes (None for a case of
    the tables): the name it has unless its file says it stands for a case."""
    if r.get("pattern") != "litmus" or "file" not in r.get("axes", {}):
        return None
    axes = r["axes"]
    instance = "" if axes.get("instance", "none") == "none" else f".{axes['instance']}"
    return f"litmus.{axes['file']}{instance}.{axes['command']}"


def stands_for_case(r: Mapping) -> bool:
    """Whether a litmus row's record bears a case's name (`case NAME` in its file: a retired family's)."""
    own = row_name(r)
    return own is not None and own != r["name"]


# The hand-written families that cases/litmus/ also holds as litmus files (docs/litmus.md): family -> the
# file's stem (its rows' `file` axis). One table for the figures and the handbook.
LITMUS_MIRRORS = {"alias.same_thread": "alias_same_thread", "alias.mp": "alias_mp", "alias.mp_cta": "alias_mp_cta",
                  "alias.rmw": "alias_rmw", "alias.memory.mp": "alias_memory_mp",
                  "alias.memory.same_thread": "alias_memory_same_thread"}
