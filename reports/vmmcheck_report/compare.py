"""`compare`: what changed between a baseline run and the current one.

Statuses are compared as the documents hold them, so two runs that went through `apply` compare their
adjusted statuses (a known failure is not a regression twice). Categories:

* regression: baseline Pass, current Fail/Crash/Timeout/Error  (the only one that makes compare exit 1)
* fix: baseline Fail/Crash/Timeout/Error/ExpectedFail, current Pass/UnexpectedPass
* appeared / vanished: a case only one run has
* new NotSupported: NotSupported now, something else before
* new flake: Flake now, something else before
* other status change: any status change none of the above names (e.g. Fail -> Crash)
* lost power: a required or fault case whose control showed a forbidden outcome in the baseline and not
  now (docs/design.md, "Power"): its Pass proves less than it did. Flagged, not a regression.
* weak-rate change: an `undefined` case whose weak/instances moved by more than an absolute threshold
* rate change: instances per second (model.rate) moved by more than a relative threshold; skipped when
  either run took no measurable time, or when one measured GPU time and the other only wall time
  (the two clocks measure different things).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Mapping, Optional

from . import fmt, model

PASSING = frozenset({"Pass", "UnexpectedPass"})
WAS_FAILING = model.FAILING | {"ExpectedFail"}


@dataclass
class Change:
    name: str
    before: Optional[str]          # baseline status (None: the case is new)
    after: Optional[str]           # current status (None: the case vanished)
    detail: str = ""


@dataclass
class Comparison:
    baseline: str
    current: str
    regressions: List[Change] = field(default_factory=list)
    fixes: List[Change] = field(default_factory=list)
    appeared: List[Change] = field(default_factory=list)
    vanished: List[Change] = field(default_factory=list)
    new_not_supported: List[Change] = field(default_factory=list)
    new_flakes: List[Change] = field(default_factory=list)
    other_status_changes: List[Change] = field(default_factory=list)
    lost_power: List[Change] = field(default_factory=list)
    weak_rate_changes: List[Change] = field(default_factory=list)
    rate_changes: List[Change] = field(default_factory=list)

    # (attribute, heading) in the order every output lists them: what breaks the gate first.
    SECTIONS = (
        ("regressions", "Regressions"),
        ("fixes", "Fixes"),
        ("appeared", "Appeared"),
        ("vanished", "Vanished"),
        ("new_not_supported", "New NotSupported"),
        ("new_flakes", "New flakes"),
        ("other_status_changes", "Other status changes"),
        ("lost_power", "Lost power"),
        ("weak_rate_changes", "Weak-outcome rate changes"),
        ("rate_changes", "Instances/s changes"),
    )

    def sections(self):
        """[(heading, [Change])] for the categories that have entries."""
        return [(title, getattr(self, attr)) for attr, title in self.SECTIONS if getattr(self, attr)]

    @property
    def empty(self) -> bool:
        return not self.sections()

    @property
    def exit_code(self) -> int:
        return 1 if self.regressions else 0


def _status_change(name: str, before: str, after: str) -> Optional[tuple]:
    """(category, Change) for a status difference, or None when the status is the same."""
    if before == after:
        return None
    change = Change(name, before, after)
    if before == "Pass" and after in model.FAILING:
        return "regressions", change
    if before in WAS_FAILING and after in PASSING:
        return "fixes", change
    if after == "NotSupported":
        return "new_not_supported", change
    if after == "Flake":
        return "new_flakes", change
    return "other_status_changes", change


def compare(baseline: Mapping, current: Mapping, rate_threshold: float = 0.25, weak_threshold: float = 0.01,
            baseline_name: str = "baseline", current_name: str = "current") -> Comparison:
    out = Comparison(baseline=f"{baseline_name} ({model.describe_run(baseline)})",
                     current=f"{current_name} ({model.describe_run(current)})")
    before = {r["name"]: r for r in baseline["results"]}
    after = {r["name"]: r for r in current["results"]}
    for name, b in before.items():
        if name not in after:
            out.vanished.append(Change(name, b["status"], None))
    for name, a in after.items():
        b = before.get(name)
        if b is None:
            out.appeared.append(Change(name, None, a["status"]))
            continue
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
    return out


def _line(c: Change) -> str:
    if c.before is None:
        text = f"{c.name}: new, {c.after}"
    elif c.after is None:
        text = f"{c.name}: gone (was {c.before})"
    elif c.before != c.after:
        text = f"{c.name}: {c.before} -> {c.after}"
    else:
        text = c.name
    return f"{text}: {c.detail}" if c.detail else text


def format_text(cmp: Comparison) -> str:
    lines = [f"baseline: {cmp.baseline}", f"current:  {cmp.current}"]
    if cmp.empty:
        lines.append("no differences")
    for title, changes in cmp.sections():
        lines.append("")
        lines.append(f"{title} ({len(changes)}):")
        lines.extend(f"  {_line(c)}" for c in changes)
    lines.append("")
    lines.append(f"{len(cmp.regressions)} regression{'s' if len(cmp.regressions) != 1 else ''}")
    return "\n".join(lines) + "\n"


def format_html(cmp: Comparison) -> str:
    from .render import environment

    return environment().get_template("compare.html.j2").render(
        title=f"vmmcheck comparison — {cmp.current} against {cmp.baseline}", cmp=cmp)
