"""`render`: one results file as a self-contained HTML page, or as markdown.

The page is a single file (inline CSS, plots as data URIs, no external URL) so that CI can keep it as an
artifact and anyone can open it offline. Families with unexpected results come first and are open;
within a family the worst cases come first, so what needs attention is at the top.
"""

from __future__ import annotations

import re
from typing import Mapping, Optional

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
    """A dotted name that may wrap after its dots (and nowhere else): long names stay readable."""
    return markupsafe.Markup(".<wbr>").join(markupsafe.escape(part) for part in name.split("."))


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
        "axes": model.axes(r),
        "rule": r.get("rule") or "—",
        "citation": r.get("citation") or "",  # HTML: under the rule, only when there is one
        "expectation": r["expectation"],
        "status": r["status"],
        "kind": kind,
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


def view_model(doc: Mapping, with_plots: bool = True) -> dict:
    """Everything the templates show, computed once here so that HTML and markdown agree."""
    results = doc["results"]
    columns = model.statuses_in(r["status"] for r in results)
    fams = []
    for name, rs in model.families(results).items():
        counts = model.count_statuses(rs)
        unexpected = sum(1 for r in rs if r["status"] in model.UNEXPECTED)
        cases = [_case_view(r, with_plots)
                 for r in sorted(rs, key=lambda r: model.severity(r["status"]))]  # stable: run order within a status
        fams.append({
            "name": name,
            "pattern": next((model.pattern(r) for r in rs if model.pattern(r)), None),
            "axis_summary": model.axis_summary(rs),
            "counts": counts,
            "total": len(rs),
            "unexpected": unexpected,
            "cases": cases,
            # Only `undefined` cases have a weak rate: a family without one gets no (empty) column for it.
            "has_weak": any(c["weak_rate"] is not None for c in cases),
            "power": model.power_tally(rs),
        })
    fams.sort(key=lambda f: 0 if f["unexpected"] else 1)  # stable: run order otherwise
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
        "power": model.power_tally(results),
        "has_power": any(model.power(r) for r in results),
    }


def render_html(doc: Mapping, open_all: bool = False) -> str:
    """The report page; `open_all` expands every family (for screenshots), otherwise only failing ones."""
    return environment().get_template("report.html.j2").render(open_all=open_all, **view_model(doc))


def render_markdown(doc: Mapping) -> str:
    return environment().get_template("report.md.j2").render(**view_model(doc, with_plots=False))
