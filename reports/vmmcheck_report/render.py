"""`render`: one results file as a self-contained HTML page, or as markdown.

The page is a single file (inline CSS, plots as data URIs, no external URL) so that CI can keep it as an
artifact and anyone can open it offline. Families with unexpected results come first and are open;
within a family the worst cases come first, so what needs attention is at the top.
"""

from __future__ import annotations

from typing import Mapping, Optional

import jinja2
import markupsafe

from . import fmt, model

_ENV: Optional[jinja2.Environment] = None


def environment() -> jinja2.Environment:
    """The templates live in the package (templates/*.j2, shipped as package data)."""
    global _ENV
    if _ENV is None:
        _ENV = jinja2.Environment(
            loader=jinja2.PackageLoader("vmmcheck_report", "templates"),
            autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2",), default_for_string=False),
            trim_blocks=True,
            lstrip_blocks=True,
            undefined=jinja2.StrictUndefined,  # a typo in a template is an error, not an empty cell
        )
        _ENV.filters.update(count=fmt.count, seconds=fmt.seconds, rate=fmt.rate, percent=fmt.percent,
                            signed_percent=fmt.signed_percent, mdcell=_markdown_cell,
                            dotbreak=_dot_break)
        _ENV.globals.update(STATUS=model.STATUS)
    return _ENV


def _dot_break(name: str) -> markupsafe.Markup:
    """A dotted name that may wrap after its dots (and nowhere else): long names stay readable."""
    return markupsafe.Markup(".<wbr>").join(markupsafe.escape(part) for part in name.split("."))


def _markdown_cell(text: str) -> str:
    """Text that cannot break a markdown table row: no pipes, no newlines."""
    return " ".join(str(text).split()).replace("|", "\\|")


def _case_view(r: Mapping, with_plots: bool) -> dict:
    kind = model.STATUS[r["status"]].kind if r["status"] in model.STATUS else model.FAILURE
    view = {
        "name": r["name"],
        "rule": r.get("rule") or "—",
        "citation": r.get("citation") or "—",
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
        cases = sorted(rs, key=lambda r: model.severity(r["status"]))  # stable: run order within a status
        fams.append({
            "name": name,
            "counts": counts,
            "total": len(rs),
            "unexpected": unexpected,
            "cases": [_case_view(r, with_plots) for r in cases],
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
    }


def render_html(doc: Mapping, open_all: bool = False) -> str:
    """The report page; `open_all` expands every family (for screenshots), otherwise only failing ones."""
    return environment().get_template("report.html.j2").render(open_all=open_all, **view_model(doc))


def render_markdown(doc: Mapping) -> str:
    return environment().get_template("report.md.j2").render(**view_model(doc, with_plots=False))
