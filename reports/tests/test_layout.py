"""The package's layout: no import cycle among its modules.

Every module is parsed with `ast`, and every import of a sibling counts -- those inside a function too, since
a lazy import is how a cycle hides (bench.py and bench_plots.py imported each other so). Run as a script, it
prints each module's imports of its siblings and the cycles, if any:

    .venv/bin/python reports/tests/test_layout.py
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, List, Set

PACKAGE = Path(__file__).resolve().parent.parent / "vmmcheck_report"


def imports(package: Path = PACKAGE) -> Dict[str, Set[str]]:
    """Module -> the sibling modules it imports (`from . import x`, `from .x import y`,
    `import vmmcheck_report.x`, `from vmmcheck_report.x import y`)."""
    modules = {p.stem for p in package.glob("*.py")}
    graph: Dict[str, Set[str]] = {}
    for path in sorted(package.glob("*.py")):
        found: Set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ImportFrom):
                parts = (node.module or "").split(".")
                if node.level == 0:  # absolute: only this package's
                    if parts[0] != package.name:
                        continue
                    parts = parts[1:]
                elif node.level > 1:  # above the package
                    continue
                # `from . import x, y` names modules; `from .x import y` names one.
                found |= {parts[0]} if parts and parts[0] else {a.name for a in node.names}
            elif isinstance(node, ast.Import):
                found |= {a.name.split(".")[1] for a in node.names if a.name.startswith(package.name + ".")}
        graph[path.stem] = (found & modules) - {path.stem}
    return graph


def cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """One cycle through each strongly connected group of modules, as [a, b, ..., a] (Tarjan's algorithm)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    groups: List[List[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [_cycle_through(min(g), set(g), graph) for g in groups]


def _cycle_through(start: str, members: Set[str], graph: Dict[str, Set[str]]) -> List[str]:
    """The shortest path from `start` back to it through `members` (breadth first); a strongly connected
    group of two or more modules always has one."""
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        reached = []
        for v in frontier:
            for w in sorted(graph[v] & members):
                if w == start:
                    return paths[v] + [start]
                if w not in paths:
                    paths[w] = paths[v] + [w]
                    reached.append(w)
        frontier = reached
    raise AssertionError(f"no cycle through {start}")


def test_the_package_has_no_import_cycle():
    found = cycles(imports())
    assert not found, "import cycle(s) in vmmcheck_report: " + "; ".join(" -> ".join(c) for c in found)


def test_the_check_sees_lazy_imports_and_names_a_cycle():
    graph = imports()
    # A lazy import (inside a function) counts: cli imports its commands' modules that way.
    assert {"bench", "bench_html", "figures", "render"} <= graph["cli"]
    assert graph["bench_plots"] >= {"bench"} and "bench_plots" not in graph["bench"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


if __name__ == "__main__":
    g = imports()
    for module, deps in g.items():
        print(f"{module:14} -> {', '.join(sorted(deps))}")
    print("cycles:", "; ".join(" -> ".join(c) for c in cycles(g)) or "none")
