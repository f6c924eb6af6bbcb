"""`compare`: what changed between a baseline run and the current one, and whether it is worse.

Statuses are compared as the documents hold them, so two runs that went through `apply` compare their
adjusted statuses (a known failure is not a regression twice). Every status has a rank (model.Status.rank):
Pass, UnexpectedPass, ExpectedFail, Skip 0 < NotSupported 1 < Warning, Flake 2 < Fail, Crash, Timeout, Error 3.

Regressions -- any one makes compare exit 1:

* worsened: a case in both runs whose rank is higher now (Warning -> Fail, Pass -> NotSupported,
  NotSupported -> Fail, Pass -> Flake);
* new failing: a case only CURRENT has, with a status of rank 3;
* missing: a case of BASELINE that CURRENT lacks -- a case that stopped running is not a pass. With
  --allow-missing such cases are listed as vanished instead, and are no regression.

Other differences, listed and never failing:

* improvement: a case in both whose rank is lower now (Fail -> Pass, NotSupported -> Pass, Fail -> ExpectedFail);
* other status change: the same rank, another status (Fail -> Crash, Pass -> ExpectedFail, Warning -> Flake);
* appeared: a case only CURRENT has, not failing; vanished: as missing, with --allow-missing;
* renamed: a litmus row of BASELINE that CURRENT runs under another name -- the hand-written case it now
  stands for (`case NAME` in its file: a retired family's, docs/litmus.md); its name in BASELINE is its
  row's, rebuilt from CURRENT's axes. Not missing;
* lost power: a required or fault case whose control showed a forbidden outcome in the baseline and not
  now (docs/design.md, "Power"): its Pass proves less than it did;
* weak-rate change: an `undefined` case whose weak/instances moved by more than an absolute threshold;
* rate change: instances per second (model.rate) moved by more than a relative threshold; skipped when
  either run took no measurable time, or when one measured GPU time and the other only wall time
  (the two clocks measure different things).

Every output (text and HTML) says things in one order: first the verdict (``REGRESSED: 3 regressions (1
worsened, 0 new failing, 2 missing)`` or ``OK: no regression``), then both runs -- file, GPU, device count,
driver release and CUDA driver, git sha -- with a note where they differ in GPU count, GPU or driver (a case
may then differ for the machine, not the change), then the regressions grouped worsened / new failing /
missing, one ``name: Before -> After`` line each, then the other sections in the order above.
"""

from __future__ import annotations

import json

from dataclasses import dataclass, field
from typing import List, Mapping, Optional

from . import fmt, model
from .model import row_name  # a litmus row's own name (compare.row_name, as callers know it)

ABSENT = "(absent)"   # the side of a change where the case is not in the run


@dataclass
class Change:
    name: str
    before: Optional[str]          # baseline status (None: the case is new)
    after: Optional[str]           # current status (None: the case is not in CURRENT)
    detail: str = ""


@dataclass
class Comparison:
    baseline: str                  # the runs as named on the command line (or the history run)
    current: str
    baseline_run: str = ""         # model.describe_machine of each
    current_run: str = ""
    allow_missing: bool = False
    notes: List[str] = field(default_factory=list)
    worsened: List[Change] = field(default_factory=list)
    new_failing: List[Change] = field(default_factory=list)
    missing: List[Change] = field(default_factory=list)
    improvements: List[Change] = field(default_factory=list)
    other_status_changes: List[Change] = field(default_factory=list)
    appeared: List[Change] = field(default_factory=list)
    vanished: List[Change] = field(default_factory=list)
    renamed: List[Change] = field(default_factory=list)
    lost_power: List[Change] = field(default_factory=list)
    weak_rate_changes: List[Change] = field(default_factory=list)
    rate_changes: List[Change] = field(default_factory=list)

    # (attribute, heading): the regressions, in the order every output lists them.
    REGRESSIONS = (
        ("worsened", "Worsened"),
        ("new_failing", "New failing"),
        ("missing", "Missing"),
    )
    # The other differences, after the regressions.
    SECTIONS = (
        ("improvements", "Improvements"),
        ("other_status_changes", "Other status changes"),
        ("appeared", "Appeared"),
        ("vanished", "Vanished"),
        ("renamed", "Renamed"),
        ("lost_power", "Lost power"),
        ("weak_rate_changes", "Weak-outcome rate changes"),
        ("rate_changes", "Instances/s changes"),
    )

    @property
    def regressions(self) -> List[Change]:
        return [c for attr, _ in self.REGRESSIONS for c in getattr(self, attr)]

    def regression_groups(self):
        """[(heading, [Change])] for the kinds of regression that have entries."""
        return [(title, getattr(self, attr)) for attr, title in self.REGRESSIONS if getattr(self, attr)]

    def sections(self):
        """[(heading, [Change])] for the other categories that have entries."""
        return [(title, getattr(self, attr)) for attr, title in self.SECTIONS if getattr(self, attr)]

    @property
    def empty(self) -> bool:
        return not self.regressions and not self.sections()

    @property
    def exit_code(self) -> int:
        return 1 if self.regressions else 0

    def verdict(self) -> str:
        """The first line of every output: what the gate decided, and of what."""
        n = len(self.regressions)
        if not n:
            return "OK: no regression"
        return (f"REGRESSED: {n} regression{'s' if n != 1 else ''} ({len(self.worsened)} worsened, "
                f"{len(self.new_failing)} new failing, {len(self.missing)} missing)")


def machine_notes(baseline: Mapping, current: Mapping) -> List[str]:
    """What differs between the two machines: a case may then differ for the machine, not for the change."""
    notes = []
    nb, nc = (len(d["context"].get("devices", [])) for d in (baseline, current))
    if nb != nc:
        notes.append(f"the runs differ in GPU count: {nb} in BASELINE, {nc} in CURRENT -- cases that need two "
                     f"GPUs run only in one")
    gb, gc = model.gpu_name(baseline), model.gpu_name(current)
    if gb != gc:
        notes.append(f"the runs are of different GPUs: {gb} in BASELINE, {gc} in CURRENT -- a status may differ "
                     f"for the GPU, not the change")

    def driver(doc):
        ctx = doc["context"]
        return f"{ctx.get('driver_release') or 'unknown release'} (CUDA {ctx.get('driver') or '?'})"
    if driver(baseline) != driver(current):
        notes.append(f"the runs differ in driver: {driver(baseline)} in BASELINE, {driver(current)} in CURRENT "
                     f"-- a status may differ for the driver, not the change")
    notes += provenance_notes(baseline, current)
    return notes


def _knob(v) -> str:
    """A knob's value as the results file writes it (true, not True; - for absent)."""
    return "-" if v is None else json.dumps(v) if isinstance(v, bool) else str(v)


# Stress knobs added after results files were first written, with what a file from before them ran under:
# a missing one is that, not a difference (harness/run/records/stress_params.hpp). distinct_addresses is
# on by default since it came, but the files before it ran without: comparing one with a run after it
# names the change.
LATER_KNOBS = {"loads_before_stores": False, "distinct_addresses": False}


def _with_later_knobs(params):
    """A stress params object with the knobs it predates filled in at their defaults."""
    return {**LATER_KNOBS, **params} if isinstance(params, Mapping) else params


def _row_knobs(budget: Mapping):
    """A run's per-row knobs, each entry's params with the later knobs filled in."""
    rows = budget.get("row_stress_params")
    if not isinstance(rows, list):
        return rows
    return [{**e, "params": _with_later_knobs(e.get("params"))} if isinstance(e, Mapping) else e for e in rows]


def provenance_notes(baseline: Mapping, current: Mapping) -> List[str]:
    """What differs in how the runs were made: the tool (its version and git sha: a newer vmmcheck may judge
    or name a case differently), its budget and its stress knobs (a case may show more or fewer weak
    outcomes for them)."""
    notes = []

    def tool(doc):
        ctx = doc["context"]
        return f"vmmcheck {ctx.get('tool_version', '?')} (git {ctx.get('git_sha', '?')})"
    if tool(baseline) != tool(current):
        notes.append(f"the runs are of different tools: {tool(baseline)} in BASELINE, {tool(current)} in CURRENT "
                     f"-- a status may differ for the tool's change")
    bb, bc = (d["context"].get("budget", {}) for d in (baseline, current))

    def differing(a: Mapping, b: Mapping, skip=()) -> str:
        return ", ".join(f"{k} {_knob(a.get(k))} -> {_knob(b.get(k))}"
                         for k in sorted(set(a) | set(b)) if k not in skip and a.get(k) != b.get(k))
    budget = differing(bb, bc, ("stress_params", "row_stress_params", "certifying"))
    if budget:
        notes.append(f"the runs differ in budget: {budget} -- weak-outcome counts and power may differ for it")
    stress = differing(_with_later_knobs(bb.get("stress_params") or {}), _with_later_knobs(bc.get("stress_params") or {}))
    if _row_knobs(bb) != _row_knobs(bc):
        stress += ("; " if stress else "") + "per-row knobs differ"
    if stress:
        notes.append(f"the runs differ in stress: {stress} -- weak-outcome counts and power may differ for it")
    return notes


def _status_change(name: str, before: str, after: str) -> Optional[tuple]:
    """(category, Change) for a status difference of a case both runs have, or None when it is the same:
    by rank (model.rank), worse, better, or only different."""
    if before == after:
        return None
    change = Change(name, before, after)
    rb, ra = model.rank(before), model.rank(after)
    if ra > rb:
        return "worsened", change
    if ra < rb:
        return "improvements", change
    return "other_status_changes", change


def compare(baseline: Mapping, current: Mapping, rate_threshold: float = 0.25, weak_threshold: float = 0.01,
            baseline_name: str = "baseline", current_name: str = "current", allow_missing: bool = False) -> Comparison:
    """The differences of CURRENT from BASELINE, sorted into the categories of the module docstring. A case
    BASELINE has and CURRENT lacks is a regression (missing) unless `allow_missing` (then: vanished)."""
    out = Comparison(baseline=baseline_name, current=current_name, baseline_run=model.describe_machine(baseline),
                     current_run=model.describe_machine(current), allow_missing=allow_missing,
                     notes=machine_notes(baseline, current))
    before = {r["name"]: r for r in baseline["results"]}
    after = {r["name"]: r for r in current["results"]}
    renamed = {row_name(r): r for r in current["results"] if model.stands_for_case(r)}
    for name, b in before.items():
        if name in after:
            continue
        if name in renamed:
            a = renamed[name]
            out.renamed.append(Change(name, b["status"], a["status"], f"now {a['name']}"))
            _compare_pair(out, name, b, a, rate_threshold, weak_threshold)  # the row against its own record
        else:
            (out.vanished if allow_missing else out.missing).append(Change(name, b["status"], None))
    for name, a in after.items():
        b = before.get(name)
        if b is None:
            failing = model.rank(a["status"]) >= model.RANK_FAILING
            (out.new_failing if failing else out.appeared).append(Change(name, None, a["status"]))
            continue
        _compare_pair(out, name, b, a, rate_threshold, weak_threshold)
    return out


def _compare_pair(out: Comparison, name: str, b: Mapping, a: Mapping, rate_threshold: float, weak_threshold: float) -> None:
    """What changed between one record of BASELINE and one of CURRENT: status, power, weak rate, rate."""
    status = _status_change(name, b["status"], a["status"])
    if status:
        getattr(out, status[0]).append(status[1])
    pb, pa = model.power(b), model.power(a)
    if pb and pa and pb["discriminating"] and not pa["discriminating"]:
        out.lost_power.append(Change(name, b["status"], a["status"],
                                     f"its control ({pa['control']}, without {pa['mechanism']}) showed "
                                     f"{pb['violations']} forbidden outcomes before, {pa['violations']} of "
                                     f"{pa['instances']} now"))
    wb, wa = model.weak_rate(b), model.weak_rate(a)
    if wb is not None and wa is not None and abs(wa - wb) > weak_threshold:
        out.weak_rate_changes.append(Change(name, b["status"], a["status"],
                                            f"weak rate {fmt.percent(wb)} -> {fmt.percent(wa)}"))
    rb, ra = model.rate(b), model.rate(a)
    if rb is not None and ra is not None and model.rate_basis(b) == model.rate_basis(a):
        rel = (ra - rb) / rb
        if abs(rel) > rate_threshold:
            out.rate_changes.append(Change(name, b["status"], a["status"],
                                           f"{fmt.rate(rb)} -> {fmt.rate(ra)} ({fmt.signed_percent(rel)}, "
                                           f"{model.rate_basis(a)} time)"))


def _line(c: Change) -> str:
    """"name: Before -> After", "(absent)" on the side that lacks the case; the detail after a colon."""
    if c.before != c.after:
        text = f"{c.name}: {c.before or ABSENT} -> {c.after or ABSENT}"
    else:
        text = c.name
    return f"{text}: {c.detail}" if c.detail else text


def header_lines(cmp: Comparison) -> List[str]:
    """Both runs (file, then the machine and build), then a note per way the machines differ."""
    lines = [f"baseline: {cmp.baseline}", f"          {cmp.baseline_run}",
             f"current:  {cmp.current}", f"          {cmp.current_run}"]
    return lines + [f"note: {n}" for n in cmp.notes]


def format_text(cmp: Comparison) -> str:
    lines = [cmp.verdict(), *header_lines(cmp)]
    if cmp.empty:
        lines.append("no differences")
    if cmp.regressions:
        lines += ["", f"Regressions ({len(cmp.regressions)}):"]
        for title, changes in cmp.regression_groups():
            lines.append(f"  {title} ({len(changes)}):")
            lines.extend(f"    {_line(c)}" for c in changes)
    for title, changes in cmp.sections():
        lines.append("")
        lines.append(f"{title} ({len(changes)}):")
        lines.extend(f"  {_line(c)}" for c in changes)
    return "\n".join(lines) + "\n"


def format_html(cmp: Comparison) -> str:
    from .render import environment

    return environment().get_template("compare.html.j2").render(
        title=f"vmmcheck comparison — {cmp.current} against {cmp.baseline}", cmp=cmp)
