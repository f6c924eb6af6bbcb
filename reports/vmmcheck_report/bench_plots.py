"""Plots of bench rows (bench.py) as inline SVG, for bench_html.py's pages: matplotlib's object API on its SVG
canvas, never pyplot.

One figure per group of rows, drawn the way the group's axes ask:

* `vmm`: p50 (bars: the p50's confidence interval) against `size`, log-log, one line per operation;
* `chunks`: p50 against `chunks`, log-log, one line per `total`;
* `grow`: the p50 of each step against the size it reaches (`to`), one line per way of growing, and beside it
  the cumulative p50 (the time to grow to that size);
* `access`: bars per memory kind (and size), one view against two, one panel per benchmark;
* `ipc` and any other group: a bar per row, one panel per unit.

`compare_group` draws the same with two runs, BASE dashed and faded, NEW solid, and adds the slowdown ratio of
every compared row with its bootstrap interval against the thresholds.

Output is deterministic: svg.hashsalt is fixed, the SVG carries no date or creator, and text stays text
(svg.fonttype none) in the DejaVu Sans matplotlib ships with. Each SVG's ids get a prefix of their own, so
that several plots inline in one page never share an id; the XML declaration and DOCTYPE are dropped.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

import matplotlib

matplotlib.use("Agg")  # no display on CI runners; must precede any backend use

from matplotlib.backends.backend_svg import FigureCanvasSVG  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import FixedLocator, NullLocator  # noqa: E402

from . import bench, fmt  # noqa: E402

RC = {
    "svg.hashsalt": "vmmcheck-bench",
    "svg.fonttype": "none",
    "font.family": "DejaVu Sans",
    "font.size": 8,
    "axes.titlesize": 9,
    "axes.labelsize": 8,
    "legend.fontsize": 7,
    "xtick.labelsize": 7,
    "ytick.labelsize": 7,
    "axes.spines.top": False,
    "axes.spines.right": False,
}
METADATA = {"Date": None, "Creator": None, "Format": None, "Type": None}
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf")
VERDICT_COLOURS = {"slower": "#b42318", "faster": "#1e7e34", "unresolved": "#b7791f", "same": "#6b7280"}
LINE_X = {"vmm": "size", "chunks": "chunks", "grow": "to"}   # groups drawn as lines, against which axis
WIDTH_IN = 7.2
HEIGHT_IN = 3.2
MAX_TICKS = 9


@dataclass
class Run:
    name: str               # "" for a report's one run; BASE / NEW for a comparison
    rows: Sequence[Mapping]
    style: str = "-"
    alpha: float = 1.0


def _solo(rows) -> List[Run]:
    return [Run("", rows)]


def _pair(base_rows, new_rows) -> List[Run]:
    return [Run("BASE", base_rows, "--", 0.45), Run("NEW", new_rows)]


# --- SVG -----------------------------------------------------------------------------------------------

_PROLOGUE = re.compile(r"^\s*<\?xml[^>]*\?>\s*(<!DOCTYPE[^>]*>\s*)?")
_COMMENT = re.compile(r"<!--.*?-->\s*", re.S)
_ID = re.compile(r'\bid="([^"]+)"')
_HREF = re.compile(r'((?:xlink:)?href)="#([^"]+)"')
_URL = re.compile(r"url\(#([^)]+)\)")


def _svg(fig: Figure, prefix: str, label: str) -> str:
    """The figure as an <svg> element to inline: no prologue, no comments, ids under `prefix`."""
    FigureCanvasSVG(fig)
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata=METADATA)
    text = _COMMENT.sub("", _PROLOGUE.sub("", buf.getvalue()))
    text = _ID.sub(lambda m: f'id="{prefix}-{m.group(1)}"', text)
    text = _HREF.sub(lambda m: f'{m.group(1)}="#{prefix}-{m.group(2)}"', text)
    text = _URL.sub(lambda m: f"url(#{prefix}-{m.group(1)})", text)
    label = label.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    return text.replace("<svg ", f'<svg class="plot" role="img" aria-label="{label}" '
                                 'style="max-width: 100%; height: auto" ', 1).strip() + "\n"


def _figure(panels: int = 1, height: float = HEIGHT_IN, width: Optional[float] = None):
    fig = Figure(figsize=(width or (WIDTH_IN if panels == 1 else 5.0 * panels), height), layout="constrained")
    axes = [fig.add_subplot(1, panels, i + 1) for i in range(panels)]
    return fig, axes


# --- helpers -------------------------------------------------------------------------------------------

def _interval(r: Mapping) -> Tuple[float, float]:
    """The p50's error bar: distances to the confidence bounds (0 where a bound is null)."""
    lo, hi = r["ci"]["p50"]
    return (r["p50"] - lo if lo is not None else 0.0), (hi - r["p50"] if hi is not None else 0.0)


def _colours(labels: Sequence[str]) -> Dict[str, str]:
    return {label: PALETTE[i % len(PALETTE)] for i, label in enumerate(dict.fromkeys(labels))}


def _number(v: float) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _series(rows: Sequence[Mapping], x: str, drop: Sequence[str]) -> Dict[str, List[Mapping]]:
    """ok rows with a numeric `x` axis, by label (the bench and the axes not in `drop`), sorted by x."""
    out: Dict[str, List[Mapping]] = {}
    for r in rows:
        if bench.ok(r) and _number(r["axes"].get(x)):
            out.setdefault(bench.row_label(r, drop), []).append(r)
    return {k: sorted(v, key=lambda r: r["axes"][x]) for k, v in out.items()}


def _tick_text(axis: str, v: float) -> str:
    return fmt.byte_size(v) if axis in bench.BYTE_AXES else f"{v:g}"


def _arithmetic(xs: Sequence[float]) -> bool:
    """Evenly spaced (grow's steps of one chunk each): drawn on a linear axis, not a log one."""
    xs = sorted(set(xs))
    gaps = [b - a for a, b in zip(xs, xs[1:])]
    return len(xs) >= 3 and max(gaps) <= 1.01 * min(gaps)


def _x_ticks(ax, axis: str, xs: Sequence[float], most: int = MAX_TICKS) -> None:
    xs = sorted(set(xs))
    step = max(1, -(-len(xs) // most))
    xs = xs[::step]
    ax.xaxis.set_major_locator(FixedLocator(xs))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xticklabels([_tick_text(axis, v) for v in xs])


def _log_if_positive(ax, which: str, values: Sequence[float], spread: float = 1.0) -> None:
    """Log scale where every value is positive and max/min exceeds `spread`."""
    values = [v for v in values if v is not None]
    if values and min(values) > 0 and max(values) / min(values) > spread:
        (ax.set_yscale if which == "y" else ax.set_xscale)("log")


def _unit_label(rows: Sequence[Mapping]) -> str:
    units = list(dict.fromkeys(r["unit"] for r in rows))
    return "p50 (" + ", ".join(units) + ")"


def _run_legend(runs: Sequence[Run]) -> List:
    """Legend handles for the runs' line styles, where there is more than one run."""
    if len(runs) < 2:
        return []
    return [Line2D([], [], color="#444444", linestyle=r.style, alpha=max(r.alpha, 0.6), label=r.name) for r in runs]


def _note_status(ax, y: float, text: str, horizontal: bool = True) -> None:
    if horizontal:
        ax.text(0.015, y, text, transform=ax.get_yaxis_transform(), va="center", fontsize=6.5, color="#9a6700")
    else:
        ax.text(y, 0.02, text, transform=ax.get_xaxis_transform(), ha="center", va="bottom", rotation=90,
                fontsize=6.5, color="#9a6700")


# --- the kinds of panel --------------------------------------------------------------------------------

def _lines(ax, runs: Sequence[Run], x: str, drop: Sequence[str], colours: Dict[str, str],
           cumulative: bool = False, most_ticks: int = MAX_TICKS) -> List[float]:
    """p50 against axis `x`, one line per series and run; returns every y drawn."""
    ys_all, xs_all = [], []
    for run in runs:
        for label, rows in _series(run.rows, x, drop).items():
            xs = [r["axes"][x] for r in rows]
            ys = [r["p50"] for r in rows]
            if cumulative:
                total, ys = 0.0, []
                for r in rows:
                    total += r["p50"]
                    ys.append(total)
                yerr = None
            else:
                bars = [_interval(r) for r in rows]
                yerr = [[b[0] for b in bars], [b[1] for b in bars]]
            ax.errorbar(xs, ys, yerr=yerr, color=colours[label], linestyle=run.style, alpha=run.alpha,
                        marker="o", markersize=2.8, linewidth=1.1, elinewidth=0.8, capsize=2,
                        label=label if run is runs[-1] else None)
            xs_all += xs
            ys_all += ys
    if xs_all:
        if not _arithmetic(xs_all) and max(xs_all) / min(xs_all) > 4:
            ax.set_xscale("log", base=2)
        _x_ticks(ax, x, xs_all, most_ticks)
        _log_if_positive(ax, "y", ys_all)
    ax.set_xlabel(x)
    ax.grid(True, which="major", linewidth=0.4, alpha=0.5)
    return ys_all


def _line_figure(group: str, runs: Sequence[Run], x: str, prefix: str, drop: Sequence[str] = ()) -> str:
    drop = (x, *drop)
    colours = _colours([label for run in runs for label in _series(run.rows, x, drop)])
    fig, (ax,) = _figure()
    _lines(ax, runs, x, drop, colours)
    rows = [r for run in runs for r in run.rows if bench.ok(r)]
    ax.set_ylabel(_unit_label(rows))
    ax.set_title(f"{group}: p50 against {x}" + (" (BASE dashed, NEW solid)" if len(runs) > 1 else ""))
    handles, _ = ax.get_legend_handles_labels()
    ax.legend(handles=handles + _run_legend(runs), loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return _svg(fig, prefix, f"{group}: p50 against {x}")


def _grow_figure(runs: Sequence[Run], prefix: str) -> str:
    drop = ("to", "step")
    colours = _colours([label for run in runs for label in _series(run.rows, "to", drop)])
    fig, (step, total) = _figure(2)
    _lines(step, runs, "to", drop, colours, most_ticks=5)
    _lines(total, runs, "to", drop, colours, cumulative=True, most_ticks=5)
    rows = [r for run in runs for r in run.rows if bench.ok(r)]
    step.set_ylabel(_unit_label(rows))
    total.set_ylabel("sum of the p50s up to here (" + ", ".join(dict.fromkeys(r["unit"] for r in rows)) + ")")
    suffix = " (BASE dashed, NEW solid)" if len(runs) > 1 else ""
    step.set_title("grow: each step, against the size it reaches" + suffix)
    total.set_title("grow: cumulative, against the size reached")
    handles, _ = step.get_legend_handles_labels()
    step.legend(handles=handles + _run_legend(runs), loc="upper left", frameon=False)
    return _svg(fig, prefix, "grow: per step and cumulative p50 against the size reached")


def _bars(ax, runs: Sequence[Run], rows_of_panel, colour: str) -> None:
    """Horizontal bars, one per row label (and run), p50 with its interval; rows not ok say their status."""
    labels = list(dict.fromkeys(bench.row_label(r) for run in runs for r in rows_of_panel(run)))
    height = 0.8 / len(runs)
    values = []
    for k, run in enumerate(runs):
        by_label = {bench.row_label(r): r for r in rows_of_panel(run)}
        for i, label in enumerate(labels):
            r = by_label.get(label)
            y = i - 0.4 + height * (k + 0.5)
            if r is None:
                continue
            if not bench.ok(r):
                _note_status(ax, y, f"{run.name + ' ' if run.name else ''}{r['status']}")
                continue
            lo, hi = _interval(r)
            ax.barh(y, r["p50"], height=height * 0.92, color=colour, alpha=run.alpha,
                    xerr=[[lo], [hi]], error_kw={"elinewidth": 0.8, "capsize": 2})
            values.append(r["p50"])
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    _log_if_positive(ax, "x", values, spread=30.0)
    ax.grid(True, axis="x", linewidth=0.4, alpha=0.5)


def _bar_figure(group: str, runs: Sequence[Run], prefix: str) -> str:
    units = list(dict.fromkeys(r["unit"] for run in runs for r in run.rows))
    labels = {unit: list(dict.fromkeys(bench.row_label(r) for run in runs for r in run.rows if r["unit"] == unit))
              for unit in units}
    tallest = max(len(v) for v in labels.values())
    fig, axes = _figure(len(units), height=max(1.6, 0.6 + 0.24 * tallest * (1 + 0.5 * (len(runs) - 1))))
    for i, (ax, unit) in enumerate(zip(axes, units)):
        _bars(ax, runs, lambda run, unit=unit: [r for r in run.rows if r["unit"] == unit], PALETTE[i % len(PALETTE)])
        ax.set_xlabel(f"p50 ({unit})")
    axes[0].set_title(f"{group}: p50 of each row" + (" (BASE faded, NEW solid)" if len(runs) > 1 else ""))
    return _svg(fig, prefix, f"{group}: p50 of each row")


def _access_figure(runs: Sequence[Run], prefix: str) -> str:
    """Per benchmark a panel: per memory kind (and size) the p50 through one view beside two."""
    benches = list(dict.fromkeys(r["bench"] for run in runs for r in run.rows))
    fig, axes = _figure(len(benches), height=3.0, width=5.6 * len(benches))
    views = sorted({r["axes"]["views"] for run in runs for r in run.rows if "views" in r["axes"]}, key=str)
    view_colour = {v: PALETTE[i % len(PALETTE)] for i, v in enumerate(views)}
    for ax, name in zip(axes, benches):
        rows = [r for run in runs for r in run.rows if r["bench"] == name]
        cats = list(dict.fromkeys(tuple((k, v) for k, v in r["axes"].items() if k != "views") for r in rows))
        width = 0.8 / (len(views) * len(runs))
        values = []
        ran = {tuple((a, b) for a, b in r["axes"].items() if a != "views") for r in rows if bench.ok(r)}
        for i, cat in enumerate(cats):
            if cat not in ran:   # nothing of it ran: one note, its statuses
                statuses = ", ".join(dict.fromkeys(r["status"] for r in rows
                                                   if tuple((a, b) for a, b in r["axes"].items() if a != "views") == cat))
                _note_status(ax, i, statuses, horizontal=False)
        for k, run in enumerate(runs):
            by_key = {(tuple((a, b) for a, b in r["axes"].items() if a != "views"), r["axes"].get("views")): r
                      for r in run.rows if r["bench"] == name}
            for j, v in enumerate(views):
                for i, cat in enumerate(cats):
                    r = by_key.get((cat, v))
                    x = i - 0.4 + width * (j * len(runs) + k + 0.5)
                    if r is None:
                        continue
                    if not bench.ok(r):
                        if cat in ran:
                            _note_status(ax, x, r["status"], horizontal=False)
                        continue
                    lo, hi = _interval(r)
                    ax.bar(x, r["p50"], width=width * 0.92, color=view_colour[v], alpha=run.alpha,
                           yerr=[[lo], [hi]], error_kw={"elinewidth": 0.8, "capsize": 2})
                    values.append(r["p50"])
        ax.set_xticks(range(len(cats)), ["\n".join(str(val) if key not in bench.BYTE_AXES else fmt.byte_size(val)
                                                   for key, val in cat) for cat in cats])
        _log_if_positive(ax, "y", values, spread=30.0)
        units = ", ".join(dict.fromkeys(r["unit"] for r in rows))
        better = rows[0]["better"] if rows else "lower"
        ax.set_ylabel(f"p50 ({units}), {better} is better")
        ax.set_title(name + (" (BASE faded)" if len(runs) > 1 else ""))
        ax.grid(True, axis="y", linewidth=0.4, alpha=0.5)
    handles = [Patch(color=view_colour[v], label=f"views={v}") for v in views]
    fig.legend(handles=handles, loc="outside right upper", frameon=False)
    return _svg(fig, prefix, "access: one view against two, per memory kind")


def _figures(group: str, runs: Sequence[Run], prefix: str) -> List[str]:
    if not any(bench.ok(r) for run in runs for r in run.rows):
        return []
    x = LINE_X.get(group)
    has_x = x is not None and any(bench.ok(r) and _number(r["axes"].get(x)) for run in runs for r in run.rows)
    if group == "grow" and has_x:
        return [_grow_figure(runs, f"{prefix}-0")]
    if has_x:
        return [_line_figure(group, runs, x, f"{prefix}-0")]
    if group == "access" and any("views" in r["axes"] for run in runs for r in run.rows):
        return [_access_figure(runs, f"{prefix}-0")]
    return [_bar_figure(group, runs, f"{prefix}-0")]


def _styled(fn):
    def wrapper(*args, **kwargs):
        with matplotlib.rc_context(RC):
            return fn(*args, **kwargs)
    wrapper.__doc__ = fn.__doc__
    wrapper.__name__ = fn.__name__
    return wrapper


@_styled
def report_group(group: str, rows: Sequence[Mapping]) -> List[str]:
    """The SVG plots of one group of one run (none where no row of it ran)."""
    return _figures(group, _solo(rows), f"r-{group}")


def _ratio_figure(group: str, compared: Sequence["bench.Compared"], threshold: float, prefix: str) -> str:
    fig, (ax,) = _figure(height=0.9 + 0.17 * len(compared))
    labels = [bench.row_label({"bench": c.bench, "group": c.group, "axes": c.axes}) for c in compared]
    for i, c in enumerate(compared):
        ax.errorbar([c.ratio], [i], xerr=[[c.ratio - min(c.low, c.ratio)], [max(c.high, c.ratio) - c.ratio]],
                    fmt="o", markersize=3, color=VERDICT_COLOURS[c.verdict], elinewidth=1.0, capsize=2)
    ax.axvline(1.0, color="#444444", linewidth=0.8)
    ax.axvline(1.0 + threshold, color=VERDICT_COLOURS["slower"], linewidth=0.8, linestyle=":")
    ax.axvline(1.0 / (1.0 + threshold), color=VERDICT_COLOURS["faster"], linewidth=0.8, linestyle=":")
    ax.set_yticks(range(len(labels)), labels)
    ax.set_ylim(len(labels) - 0.5, -0.5)
    ax.set_xscale("log")
    lows = [min(c.low, c.ratio) for c in compared] + [1.0 / (1.0 + threshold) / 1.05]
    highs = [max(c.high, c.ratio) for c in compared] + [(1.0 + threshold) * 1.05]
    ax.set_xlim(min(lows) / 1.05, max(highs) * 1.05)
    ax.xaxis.set_major_locator(FixedLocator(sorted({0.5, 1 / (1 + threshold), 1.0, 1 + threshold, 2.0})))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xticklabels([f"{v:.3g}" for v in sorted({0.5, 1 / (1 + threshold), 1.0, 1 + threshold, 2.0})])
    ax.set_xlabel("slowdown ratio of the p50s with its bootstrap interval (above 1: NEW slower)")
    ax.set_title(f"{group}: NEW against BASE")
    ax.grid(True, axis="x", linewidth=0.4, alpha=0.5)
    return _svg(fig, prefix, f"{group}: slowdown ratios")


@_styled
def compare_group(group: str, base_rows: Sequence[Mapping], new_rows: Sequence[Mapping],
                  compared: Sequence["bench.Compared"], threshold: float) -> List[str]:
    """The SVG plots of one group of two runs: their p50s together, then each compared row's ratio."""
    out = _figures(group, _pair(base_rows, new_rows), f"c-{group}")
    if compared:
        out.append(_ratio_figure(group, compared, threshold, f"c-{group}-ratio"))
    return out
