"""Small outcome-histogram bar plots, as PNG data URIs the HTML report embeds (no external files).

A report holds one plot per case (243 and more) but few distinct histograms (43 on the H200 run), so
plots are cached by content. Figures are built with matplotlib's object API on the Agg canvas, never
through pyplot: nothing global is registered, so nothing has to be closed and nothing leaks.

Outcome names run from "new" to CUDA driver statuses ("CUDA_ERROR_INVALID_VALUE", the bins of an `api`
case). Labels drop the "CUDA_" / "CUDA_ERROR_" prefix every such bin shares, longer ones are cut with an
ellipsis, and the label column is as wide as the widest label: no label is ever clipped. The full names
stay in the <img>'s alt and title text (model.histogram_text).
"""

from __future__ import annotations

import base64
import functools
import io
import re
from typing import Mapping, Optional, Tuple

import matplotlib

matplotlib.use("Agg")  # no display on CI runners; must precede any backend use

from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from . import fmt  # noqa: E402

DPI = 100
WIDTH_IN = 2.1
ROW_IN = 0.17
FONT = 8
LABEL_MAX = 18          # characters a label keeps; longer ones are cut with an ellipsis
LABEL_MIN_PX = 60       # the label column is at least this wide, so short-labelled plots line up
COUNT_PX = 38           # room right of the bars for the count ("16.8M")

# Bar colour by kind of status (model.py kinds): passing cases grey-blue, failing red, tolerated amber.
COLOURS = {"passed": "#4a78a8", "failure": "#c0392b", "tolerated": "#d68910", "skipped": "#95a5a6"}

_CUDA_PREFIX = re.compile(r"^CUDA_(ERROR_)?(?=[A-Z0-9])")


def short_label(name: str) -> str:
    """The label a bar shows: "CUDA_ERROR_INVALID_VALUE" -> "INVALID_VALUE", "CUDA_SUCCESS" -> "SUCCESS";
    anything still longer than LABEL_MAX characters keeps its start and end around an ellipsis."""
    label = _CUDA_PREFIX.sub("", name) or name
    if len(label) > LABEL_MAX:
        keep = LABEL_MAX - 1
        label = label[: keep - keep // 3] + "…" + label[len(label) - keep // 3:]
    return label


def histogram_uri(histogram: Mapping[str, int], kind: str) -> Optional[str]:
    """data:image/png URI of a horizontal bar plot of the outcome counts; None for an empty histogram."""
    if not histogram:
        return None
    return _render(tuple(histogram.items()), COLOURS.get(kind, COLOURS["passed"]))


@functools.lru_cache(maxsize=512)
def _render(items: Tuple[Tuple[str, int], ...], colour: str) -> str:
    labels = [short_label(k) for k, _ in items]
    values = [v for _, v in items]
    width_px = WIDTH_IN * DPI
    fig = Figure(figsize=(WIDTH_IN, 0.16 + ROW_IN * len(items)), dpi=DPI)
    canvas = FigureCanvasAgg(fig)
    # Measure the labels first, then place the axes right of the widest one.
    renderer = canvas.get_renderer()
    texts = [fig.text(0, 0, label, fontsize=FONT) for label in labels]
    label_px = max([LABEL_MIN_PX] + [t.get_window_extent(renderer).width + 6 for t in texts])
    for t in texts:
        t.remove()
    left = label_px / width_px
    ax = fig.add_axes((left, 0.04, max(0.2, 1 - left - COUNT_PX / width_px), 0.92))
    y = range(len(items))
    ax.barh(y, values, color=colour, height=0.7)
    ax.set_yticks(list(y), labels, fontsize=FONT)
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
