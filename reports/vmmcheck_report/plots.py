"""Small outcome-histogram bar plots, as PNG data URIs the HTML report embeds (no external files).

A report holds one plot per case (216 and more) but few distinct histograms (36 on the H200 run), so
plots are cached by content. Figures are built with matplotlib's object API on the Agg canvas, never
through pyplot: nothing global is registered, so nothing has to be closed and nothing leaks.
"""

from __future__ import annotations

import base64
import functools
import io
from typing import Mapping, Optional, Tuple

import matplotlib

matplotlib.use("Agg")  # no display on CI runners; must precede any backend use

from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from . import fmt  # noqa: E402

DPI = 100
WIDTH_IN = 2.1
ROW_IN = 0.17

# Bar colour by kind of status (model.py kinds): passing cases grey-blue, failing red, tolerated amber.
COLOURS = {"passed": "#4a78a8", "failure": "#c0392b", "tolerated": "#d68910", "skipped": "#95a5a6"}


def histogram_uri(histogram: Mapping[str, int], kind: str) -> Optional[str]:
    """data:image/png URI of a horizontal bar plot of the outcome counts; None for an empty histogram."""
    if not histogram:
        return None
    return _render(tuple(histogram.items()), COLOURS.get(kind, COLOURS["passed"]))


@functools.lru_cache(maxsize=512)
def _render(items: Tuple[Tuple[str, int], ...], colour: str) -> str:
    labels = [k for k, _ in items]
    values = [v for _, v in items]
    fig = Figure(figsize=(WIDTH_IN, 0.16 + ROW_IN * len(items)), dpi=DPI)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.3, 0.04, 0.46, 0.92))
    y = range(len(items))
    ax.barh(y, values, color=colour, height=0.7)
    ax.set_yticks(list(y), labels, fontsize=8)
    ax.invert_yaxis()  # first outcome on top, as in the JSON
    ax.set_xlim(0, max(values) or 1)
    ax.set_xticks([])
    ax.tick_params(axis="y", length=0, pad=3)
    for side in ("top", "right", "bottom"):
        ax.spines[side].set_visible(False)
    for i, v in enumerate(values):
        # Counts sit right of the axes (clip_on=False), so a full bar never hides its number.
        ax.text(max(values) * 1.03 if max(values) else 0.03, i, fmt.count(v), va="center", fontsize=7.5,
                clip_on=False, color="#333333")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, transparent=True)  # takes the row colour of a failing case
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")
