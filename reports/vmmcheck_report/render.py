"""`render`: one results file as a self-contained HTML page, or as markdown.

The page is a single file (inline CSS, plots as data URIs, no external URL) so that CI can keep it as an
artifact and anyone can open it offline. What needs attention is at the top: a tile per failing case, then
per warning, each a link to the case's row; then the families, those with failures first, then those with
warnings (both open), and within a family the worst cases first.
"""

from __future__ import annotations

import re
from typing import Mapping, Optional, Sequence

import jinja2
import markupsafe

from . import fmt, model

_ENV: Optional[jinja2.Environment] = None


def new_environment(keep_trailing_newline: bool = False) -> jinja2.Environment:
    """The package's templates (templates/*.j2, shipped as package data), HTML autoescaped, a typo in a
    template an error rather than an empty cell; each user adds its own filters."""
    return jinja2.Environment(
        loader=jinja2.PackageLoader("vmmcheck_report", "templates"),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2",), default_for_string=False),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=keep_trailing_newline,
        undefined=jinja2.StrictUndefined,
    )


def environment() -> jinja2.Environment:
    global _ENV
    if _ENV is None:
        _ENV = new_environment()
        _ENV.filters.update(count=fmt.count, seconds=fmt.seconds, rate=fmt.rate, percent=fmt.percent,
                            signed_percent=fmt.signed_percent, mdcell=_markdown_cell,
                            dotbreak=_dot_break, softbreak=_soft_break)
        _ENV.globals.update(STATUS=model.STATUS)
    return _ENV


def _dot_break(name: str) -> markupsafe.Markup:
    """A dotted name that may wrap after its dots: long names stay readable. A part too long for the name
    column (a litmus row's command, control_same_flagalias_nofence_gpu_relaxed) may also wrap after its
    underscores, or it alone would widen the table past the page."""
    def part(text: str) -> markupsafe.Markup:
        if len(text) < _LONG_PART:
            return markupsafe.escape(text)
        return markupsafe.Markup("_<wbr>").join(markupsafe.escape(w) for w in text.split("_"))
    return markupsafe.Markup(".<wbr>").join(part(p) for p in name.split("."))


_LONG_PART = 24        # characters of 12px monospace that fit the name column's 180 pixels


# After the _ of CUDA_ERROR_X, and the / or ( inside a/path or f(x) (not the "/" or "(" that opens one).
_SOFT_BREAK = re.compile(r"(?<=_)(?=\w)|(?<=\w[/(])(?=\w)")
# Only names too long for a narrow column get hump breaks: a browser fills lines greedily, so a break point in
# cudaErrorIllegalAddress (23) would split it even where it fits on a line of its own.
_LONG_WORD = re.compile(r"[A-Za-z0-9]{24,}")      # cuMemGetAllocationGranularity, cuMemImportFromShareableHandle
_CAMEL_HUMP = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def _soft_break(text: str) -> markupsafe.Markup:
    """Prose that may wrap inside its long identifiers at natural points: after the underscores, slashes and
    parentheses (CUDA_ERROR_INVALID_VALUE, a source path, a call) and at the humps of a long camel-case name
    (cuMemGetAllocationGranularity), so that a narrow column breaks them there rather than at an arbitrary
    letter (the CSS allows that only as a last resort). The breaks are <wbr>: invisible, and not copied."""
    text = str(text)
    cuts = {m.start() for m in _SOFT_BREAK.finditer(text)}
    for word in _LONG_WORD.finditer(text):
        cuts.update(word.start() + m.start() for m in _CAMEL_HUMP.finditer(word.group()))
    bounds = [0, *sorted(cuts), len(text)]
    return markupsafe.Markup("<wbr>").join(markupsafe.escape(text[a:b]) for a, b in zip(bounds, bounds[1:]))


def _markdown_cell(text: str) -> str:
    """Text that cannot break a markdown table row: no pipes, no newlines."""
    return " ".join(str(text).split()).replace("|", "\\|")


def _case_view(r: Mapping, with_plots: bool) -> dict:
    kind = model.STATUS[r["status"]].kind if r["status"] in model.STATUS else model.FAILURE
    view = {
        "name": r["name"],
        "family": r["family"],
        "axes": model.axes(r),
        "rule": r.get("rule") or "—",
        "citation": r.get("citation") or "",  # HTML: under the rule, only when there is one
        "expectation": r["expectation"],
        "status": r["status"],
        "kind": kind,
        "attention": model.attention(r["status"]),
        "original_status": r.get("original_status"),
        "instances": r["instances"],
        "seconds": r["seconds"],
        "gpu_seconds": r["gpu_seconds"],
        "rate": model.rate(r),
        "rate_basis": model.rate_basis(r),
        "weak": r["weak"],
        "weak_rate": model.weak_rate(r),
        "histogram": r["histogram"],
        "histogram_text": model.histogram_text(r["histogram"]),
        "reason": r["reason"],
        "power": model.power(r),
        "note": r.get("note", ""),
        "attempts": r.get("attempts", []),
        "plot": None,
    }
    if with_plots:
        from . import plots  # matplotlib is only needed for HTML

        view["plot"] = plots.histogram_uri(r["histogram"], kind)
    return view


ATTENTION_TITLE = {model.ATTENTION_FAILURE: "Failures", model.ATTENTION_WARNING: "Warnings"}


def attention_groups(cases: Sequence[dict]) -> list:
    """The cases a reader must look at, as the page's first tiles: failures, then warnings, each group worst
    first and in run order within a status. Groups without a case are left out, so an all-pass run shows none."""
    groups = []
    for which in model.ATTENTION_ORDER:
        members = sorted((c for c in cases if c["attention"] == which), key=lambda c: model.severity(c["status"]))
        if members:
            groups.append({"which": which, "title": ATTENTION_TITLE[which], "id": f"attention-{which}",
                           "cases": members})
    return groups


def _family_order(family: Mapping) -> int:
    """Families with failures first, then those with warnings, then the rest (stable: run order otherwise)."""
    if family["unexpected"]:
        return 0
    return 1 if family["warnings"] else 2


def view_model(doc: Mapping, with_plots: bool = True) -> dict:
    """Everything the templates show, computed once here so that HTML and markdown agree."""
    results = doc["results"]
    columns = model.statuses_in(r["status"] for r in results)
    fams = []
    for name, rs in model.families(results).items():
        counts = model.count_statuses(rs)
        cases = [_case_view(r, with_plots)
                 for r in sorted(rs, key=lambda r: model.severity(r["status"]))]  # stable: run order within a status
        fams.append({
            "name": name,
            "pattern": next((model.pattern(r) for r in rs if model.pattern(r)), None),
            "axis_summary": model.axis_summary(rs),
            "counts": counts,
            "total": len(rs),
            "unexpected": sum(1 for r in rs if r["status"] in model.UNEXPECTED),
            "warnings": sum(1 for c in cases if c["attention"] == model.ATTENTION_WARNING),
            "cases": cases,
            # Only `undefined` cases have a weak rate: a family without one gets no (empty) column for it.
            "has_weak": any(c["weak_rate"] is not None for c in cases),
            "power": model.power_tally(rs),
        })
    groups = attention_groups([c for f in fams for c in f["cases"]])  # before the sort: run order within a status
    fams.sort(key=_family_order)
    ctx = doc["context"]
    return {
        "title": f"vmmcheck — {model.describe_run(doc)}",
        "gpu": model.gpu_name(doc),
        "ctx": ctx,
        "budget": ctx["budget"],
        "devices": ctx["devices"],
        "expectations": doc.get("expectations"),
        "columns": columns,
        "totals": model.count_statuses(results),
        "total": len(results),
        "unexpected": sum(f["unexpected"] for f in fams),
        "families": fams,
        "attention": groups,
        # A status tile links to the tiles of its cases where the page lists them first.
        "status_links": {c["status"]: f"#{g['id']}" for g in groups for c in g["cases"]},
        "power": model.power_tally(results),
        "has_power": any(model.power(r) for r in results),
    }


def render_html(doc: Mapping, open_all: bool = False) -> str:
    """The report page; `open_all` expands every family (for screenshots), otherwise those with failures or
    warnings."""
    return environment().get_template("report.html.j2").render(open_all=open_all, **view_model(doc))


def render_markdown(doc: Mapping) -> str:
    return environment().get_template("report.md.j2").render(**view_model(doc, with_plots=False))
