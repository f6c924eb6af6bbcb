"""The HTML pages of `bench-report` and `bench-compare`: bench.py's tables with bench_plots.py's plots.

A module of its own so that the dependency runs one way: the plots read bench.py's rows and comparisons, and
these pages read both; bench.py, which the text, Markdown and JSON outputs need, imports no plotting.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Dict, List, Mapping

import markupsafe

from . import bench, bench_plots
from .render import environment


def render_html(doc: Mapping, name: str) -> str:
    """One run: bench.report_view, with each group's plots."""
    view = bench.report_view(doc, name)
    rows = bench.groups(doc["results"])
    for section in view["groups"]:
        plots = bench_plots.report_group(section["name"], rows[section["name"]])
        section["plots"] = [markupsafe.Markup(p) for p in plots]
    return environment().get_template("bench_report.html.j2").render(**view)


def format_html(cmp: bench.BenchComparison, base: Mapping, new: Mapping) -> str:
    """The comparison table, the rows not compared, and per group base-vs-new p50 plots and the ratios."""
    by_group: Dict[str, List[bench.Compared]] = {}
    for r in cmp.rows:
        by_group.setdefault(r.group, []).append(r)
    base_groups, new_groups = bench.groups(base["results"]), bench.groups(new["results"])
    names = list(dict.fromkeys([*base_groups, *new_groups]))
    sections = []
    for g in names:
        plots = bench_plots.compare_group(g, base_groups.get(g, []), new_groups.get(g, []),
                                          by_group.get(g, []), cmp.threshold)
        sections.append({"name": g, "plots": [markupsafe.Markup(p) for p in plots],
                         "compared": len(by_group.get(g, []))})
    return environment().get_template("bench_compare.html.j2").render(
        title=f"vmmcheck bench comparison — {cmp.new} against {cmp.base}", cmp=cmp, rule=bench.rule_text(cmp),
        rows=[dict(asdict(r), ratio_text=bench.ratio_text(r), base_text=f"{bench.num(r.base_p50)} {r.unit}",
                   new_text=f"{bench.num(r.new_p50)} {r.unit}",
                   resolve_text=bench.resolve_text(r) if r.verdict == "unresolved" else "") for r in cmp.rows],
        lists=[(title, [{"line": bench.uncompared_line(u), "id": u.id, "base": u.base_status, "new": u.new_status,
                         "base_why": u.base_why, "new_why": u.new_why, "why": u.why} for u in items])
               for title, items in (("Not compared", cmp.not_compared), ("Only in BASE", cmp.only_base),
                                    ("Only in NEW", cmp.only_new)) if items],
        sections=sections)
