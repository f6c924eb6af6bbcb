"""The handbook's pictures, as SVG text written here (no plotting library, no fonts embedded):

- a litmus shape: threads as columns, program order downward, reads-from and operation-boundary edges;
- a family heatmap: the family's cases as a grid over its axes, one grid per results file, each cell
  coloured by the case's weak-outcome rate and marked with its status.

`vmmcheck list --json` does not carry a case's shape, so `shape_for_case` builds it from the case's pattern
and axes, for the patterns whose shape is a small litmus test (same_thread, message_passing, kernel_pair,
resident, rmw). Every other pattern returns None and the handbook shows the family's snippet instead.

Output is deterministic: no ids from counters shared across pictures, numbers printed with fixed precision.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Dict, List, Mapping, Optional, Sequence, Tuple
from xml.sax.saxutils import escape

from . import fmt, model

# --------------------------------------------------------------------------------------------- shapes


@dataclass
class Op:
    text: str
    row: int                 # vertical slot; program order within a column is increasing rows
    kind: str = "access"     # access | fence | op | note
    note: str = ""           # a short gloss under the instruction


@dataclass
class Column:
    label: str
    sub: str = ""
    ops: List[Op] = field(default_factory=list)


@dataclass
class Edge:
    kind: str                # rf (reads-from, promised) | rf-maybe (the outcome under test) | boundary | sync
    src: Tuple[int, int]     # (column, op index in that column)
    dst: Tuple[int, int]
    label: str = ""          # a few words on the arrow
    detail: str = ""         # a longer gloss, in the legend


@dataclass
class Shape:
    title: str
    columns: List[Column]
    edges: List[Edge] = field(default_factory=list)
    init: str = ""           # the initial state, drawn above the columns
    question: str = ""       # the outcome the case asks about, drawn under the columns


VIEW_LETTER = {"same": "A", "alias": "B", "offset": "C", "first": "A", "second": "B"}


def _view(value: Optional[str]) -> str:
    return VIEW_LETTER.get(value or "same", value or "A")


def _code(family: Mapping, axis: str, value: Optional[str], default: str) -> str:
    """The family's code text for one axis value (e.g. load=weak -> "ld.global"), or `default`."""
    for a in family.get("axes", []):
        if a.get("name") == axis:
            for v in a.get("values", []):
                if v.get("value") == value and v.get("code"):
                    return str(v["code"])
    return default


def _axes(case: Mapping, family: Mapping) -> Dict[str, str]:
    out = dict(family.get("fixed") or {})
    out.update(case.get("axes") or {})
    return {k: str(v) for k, v in out.items()}


def _same_thread(case, family) -> Shape:
    ax = _axes(case, family)
    v = _view(ax.get("view"))
    ld = _code(family, "load", ax.get("load"), "ld.global")
    ld = ld if ld.startswith("ld") else "ld.global"
    ops = [Op(f"{ld} r0, [{v}]", 0, note="warms the line with 0"),
           Op("st.global [A], 1", 1)]
    row = 2
    if ax.get("fence", "none") not in ("none", ""):
        ops.append(Op("fence.proxy.alias", row, kind="fence"))
        row += 1
    ops.append(Op(f"{ld} r1, [{v}]", row, note="1, or stale 0?"))
    views = "one address" if v == "A" else f"A and {v}: two virtual addresses of one word"
    return Shape(title=f"One thread, {views}", columns=[Column("thread t0", "one kernel", ops)],
                 edges=[Edge("rf-maybe", (0, 1), (0, len(ops) - 1), "r1 reads 1?", "does the second read see the write?")],
                 init="[A] = 0" if v == "A" else f"[A] = [{v}] = 0 (one physical word)",
                 question="r1 == 1 ?")


def _message_passing(case, family) -> Shape:
    ax = _axes(case, family)
    dv, fv = _view(ax.get("data")), _view(ax.get("flag"))
    scope = ax.get("scope", "gpu")
    fence = ax.get("fence", "none")
    wlabel, rlabel, wsub, rsub = "writer", "reader", "CTA 0", "CTA 1"  # alias.memory.mp: always two CTAs
    writer = [Op("st [data_A], 1", 0)]
    if fence in ("writer", "both"):
        writer.append(Op("fence.proxy.alias", 1, kind="fence"))
    writer.append(Op(f"st.release.{scope} [flag_A], 1", 2))
    reader = [Op(f"ld r0, [data_{dv}]", 0, note="warms the line with 0"),
              Op(f"ld.acquire.{scope} r1, [flag_{fv}]", 3, note="spins until it reads 1")]
    if fence in ("reader", "both"):
        reader.append(Op("fence.proxy.alias", 4, kind="fence"))
    reader.append(Op(f"ld r2, [data_{dv}]", 5, note="1, or stale 0?"))
    init = "data = flag = 0"
    if "memory" in ax:
        init += f" ({ax['memory']} memory)"
    return Shape(title="Message passing: data, then a flag",
                 columns=[Column(wlabel, wsub, writer), Column(rlabel, rsub, reader)],
                 edges=[Edge("rf", (0, len(writer) - 1), (1, 1), "rf", "the acquire reads the release's 1"),
                        Edge("rf-maybe", (0, 0), (1, len(reader) - 1), "r2 reads 1?",
                             "does the data read see the data write?")],
                 init=init, question="r1 == 1 implies r2 == 1 ?")


_ORDER_LABEL = {"stream": "stream order (one stream)", "event": "event record, stream wait",
                "host": "host synchronises", "graph": "graph edge"}


def _kernel_pair(case, family) -> Shape:
    ax = _axes(case, family)
    v = _view(ax.get("view"))
    writer_kind, reader_kind, order = ax.get("writer", "kernel"), ax.get("reader", "kernel"), ax.get("order", "none")
    wtext = {"kernel": "fill kernel: st [A], NEW", "memcpy": "cudaMemcpyAsync into A",
             "memset": "cuMemsetD32Async on A"}.get(writer_kind, f"{writer_kind}: write A")
    rtext = {"kernel": f"count kernel: ld [{v}]", "kernel_nc": f"count kernel: ld.global.nc [{v}]",
             "memcpy": f"cudaMemcpyAsync out of {v}"}.get(reader_kind, f"{reader_kind}: read {v}")
    writer = Column("writing operation", "stream s1",
                    [Op("delay kernel", 0, kind="op", note="holds the writer back"), Op(wtext, 1, kind="op")])
    reader = Column("reading operation", "stream s1" if order == "stream" else "stream s2",
                    [Op(f"earlier read of [{v}]", 0, kind="note", note="caches hold OLD"),
                     Op(rtext, 3, kind="op", note="NEW, or OLD?")])
    edges = [Edge("rf-maybe", (0, 1), (1, 1), "reads NEW?", "does the reader see the writer's NEW?")]
    if order in _ORDER_LABEL:
        edges.insert(0, Edge("boundary", (0, 1), (1, 1), "boundary", _ORDER_LABEL[order]))
    init = "every word OLD" + (f" ({ax['memory']} memory)" if "memory" in ax else "")
    question = "reads NEW ?" if order in _ORDER_LABEL else "no boundary: the operations race"
    return Shape(title="Two device operations, one after the other", columns=[writer, reader], edges=edges,
                 init=init, question=question)


def _resident(case, family) -> Shape:
    ax = _axes(case, family)
    v = _view(ax.get("view"))
    ld = _code(family, "load", ax.get("load"), "ld.global")
    ld = ld if ld.startswith("ld") else "ld.global"
    flag_ld = "ld.relaxed.sys" if ax.get("flag_sync") == "relaxed" else "ld.acquire.sys"
    wtext = {"kernel": "fill kernel: st [A], NEW", "memcpy": "cudaMemcpyAsync into A",
             "memset": "cuMemsetD32Async on A"}.get(ax.get("writer", "kernel"), "write A")
    reader = Column("resident reader grid", "launched first", [
        Op(f"{ld} r0, [{v}]", 0, note="warms caches with OLD"),
        Op('signal "resident"', 1, kind="op"),
        Op(f"{flag_ld} r1, [flag]", 4, note="spins until 1"),
        Op(f"{ld} r2, [{v}]", 5, note="NEW, or OLD?")])
    writer = Column("writing operation", "stream s_write", [Op(wtext, 2, kind="op")])
    if ax.get("signal", "kernel") == "host":
        sig = Column("signal", "the host", [Op("host: sync, st [flag], 1", 3, kind="op")])
        blabel = "host synchronises"
    else:
        sig = Column("signal kernel", "after an event", [Op("st.release.sys [flag], 1", 3)])
        blabel = "event: writer completed"
    return Shape(title="A grid resident before the writer reads after it",
                 columns=[reader, writer, sig],
                 edges=[Edge("sync", (0, 1), (1, 0), "then", "the host starts the writer once every reader block is resident"),
                        Edge("boundary", (1, 0), (2, 0), "boundary", blabel),
                        Edge("rf", (2, 0), (0, 2), "rf", "the reader sees the flag"),
                        Edge("rf-maybe", (1, 0), (0, 3), "r2 reads NEW?", "does the resident grid see NEW?")],
                 init="every word OLD, flag = 0", question="r2 == NEW ?")


def _rmw(case, family) -> Shape:
    ax = _axes(case, family)
    v = _view(ax.get("view"))
    scope = ax.get("scope", "gpu")
    a = Column("even CTAs", "4 threads", [Op(f"atom.add.relaxed.{scope} [A], 1", 0, note="8 times")])
    b = Column("odd CTAs", "4 threads", [Op(f"atom.add.relaxed.{scope} [{v}], 1", 0, note="8 times")])
    after = Column("after the kernel", "the host", [Op("ld [A]", 2, kind="op", note="64, or fewer?")])
    return Shape(title="Atomic adds to one word through two views", columns=[a, b, after],
                 edges=[Edge("boundary", (0, 0), (2, 0), "", "the kernel completes"),
                        Edge("boundary", (1, 0), (2, 0), "", "the kernel completes")],
                 init="[A] = 0" if v == "A" else f"[A] = [{v}] = 0 (one physical word)",
                 question="[A] == 64 ?")


SHAPES = {"same_thread": _same_thread, "message_passing": _message_passing, "kernel_pair": _kernel_pair,
          "resident": _resident, "rmw": _rmw}


def shape_from_list(shape: Mapping) -> Shape:
    """The litmus shape `vmmcheck list --json` gives for a case the PTX model decides ("shape": threads with
    their operations as a litmus file writes them, operation boundaries, the outcome asked about): the
    threads as columns, program order downward, each boundary an edge from the earlier thread's last
    operation to the later one's first. For the patterns drawn by hand above, those drawings say more."""
    columns = []
    for t in shape["threads"]:
        sub = f"GPU {t['gpu']}, CTA {t['cta']}" + (", already resident" if t.get("resident") else "")
        columns.append(Column(t["name"], sub, [Op(text, row, kind="fence" if text.startswith("fence") else "access")
                                               for row, text in enumerate(t["ops"])]))
    edges = [Edge("boundary", (a, len(columns[a].ops) - 1), (b, 0), "boundary",
                  "stream order, an event, host synchronisation or a graph edge")
             for a, b in shape.get("boundaries", []) if columns[a].ops and columns[b].ops]
    return Shape(title="The litmus shape the PTX model decides", columns=columns, edges=edges,
                 init="every location 0", question=f"may {shape['weak']} ?" if shape.get("weak") else "")


def shape_for_case(case: Mapping, family: Mapping) -> Optional[Shape]:
    """The litmus shape of a case: drawn by hand for the patterns above, else the model's shape from the
    list (shape_from_list); None where the PTX model says nothing about the case."""
    build = SHAPES.get(case.get("pattern") or family.get("pattern") or "")
    if build:
        return build(case, family)
    return shape_from_list(case["shape"]) if case.get("shape") else None


# ------------------------------------------------------------------------------------------ rendering

FONT = "DejaVu Sans, Verdana, sans-serif"
MONO = "DejaVu Sans Mono, Menlo, monospace"
CHAR_W = 7.3        # width of one 12px monospace character
ROW_H = 62
BOX_H = 40
TOP = 86

EDGE_STYLE = {
    "rf": ("#1f5fbf", "", 2.0),
    "rf-maybe": ("#c2410c", "6 4", 2.0),
    "boundary": ("#6d28d9", "", 3.0),
    "sync": ("#4b5563", "2 3", 1.6),
}
EDGE_NAME = {"rf": "reads-from", "rf-maybe": "reads-from? (the outcome under test)",
             "boundary": "operation boundary", "sync": "synchronisation"}
OP_FILL = {"access": "#ffffff", "fence": "#fef3c7", "op": "#eef2ff", "note": "#f3f4f6"}


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def render_shape(shape: Shape) -> str:
    """The shape as a standalone SVG document."""
    widths = []
    for c in shape.columns:
        longest = max([len(o.text) for o in c.ops] + [len(o.note) * 0.85 for o in c.ops] + [len(c.label), 10])
        widths.append(max(190.0, longest * CHAR_W + 34))
    gap = 150.0
    xs, x = [], 30.0
    for w in widths:
        xs.append(x)
        x += w + gap
    width = x - gap + 30
    if len(shape.columns) == 1 or any(e.src[0] == e.dst[0] for e in shape.edges):
        width += 110                      # room for loops out of the rightmost column
    details = {k: "; ".join(dict.fromkeys(e.detail for e in shape.edges if e.kind == k and e.detail))
               for k in EDGE_STYLE}
    width = max(width, 40 + CHAR_W * len(shape.init) + 90,
                *[100 + 6.6 * len(EDGE_NAME[k] + details[k]) for k in EDGE_STYLE if details[k]])
    max_row = max((o.row for c in shape.columns for o in c.ops), default=0)
    legend_y = TOP + (max_row + 1) * ROW_H + 34
    kinds = [k for k in EDGE_STYLE if any(e.kind == k for e in shape.edges)]
    height = legend_y + 22 * (len(kinds) + 1) + 10

    def box(ci: int, oi: int) -> Tuple[float, float, float, float]:
        op = shape.columns[ci].ops[oi]
        return xs[ci], TOP + op.row * ROW_H, widths[ci], BOX_H

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(width)}" height="{_f(height)}" '
           f'viewBox="0 0 {_f(width)} {_f(height)}" font-family="{FONT}" font-size="13">',
           f"<title>{escape(shape.title)}</title>", "<defs>"]
    for k, (colour, _, _) in EDGE_STYLE.items():
        out.append(f'<marker id="arrow-{k}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" '
                   f'markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/>'
                   "</marker>")
    out.append('<marker id="arrow-po" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
               'orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#9ca3af"/></marker>')
    out.append("</defs>")
    out.append(f'<rect width="{_f(width)}" height="{_f(height)}" fill="#ffffff"/>')
    if shape.init:
        out.append(f'<text class="init" x="30" y="22" font-family="{MONO}" font-size="12" fill="#374151">'
                   f"initially: {escape(shape.init)}</text>")
    for ci, c in enumerate(shape.columns):
        cx = xs[ci] + widths[ci] / 2
        bottom = TOP + (max_row + 1) * ROW_H - 10
        out.append(f'<g class="column" data-label="{escape(c.label)}">')
        out.append(f'<rect class="lane" x="{_f(xs[ci] - 8)}" y="36" width="{_f(widths[ci] + 16)}" '
                   f'height="{_f(bottom - 36)}" rx="8" fill="#f8fafc" stroke="#e5e7eb"/>')
        out.append(f'<text x="{_f(cx)}" y="54" text-anchor="middle" font-weight="700">{escape(c.label)}</text>')
        if c.sub:
            out.append(f'<text x="{_f(cx)}" y="70" text-anchor="middle" font-size="11" fill="#6b7280">'
                       f"{escape(c.sub)}</text>")
        for oi in range(1, len(c.ops)):          # program order: a grey arrow down the column
            _, y0, _, h0 = box(ci, oi - 1)
            _, y1, _, _ = box(ci, oi)
            out.append(f'<line class="po" x1="{_f(cx)}" y1="{_f(y0 + h0)}" x2="{_f(cx)}" y2="{_f(y1 - 2)}" '
                       'stroke="#9ca3af" stroke-width="1.4" marker-end="url(#arrow-po)"/>')
        for oi, op in enumerate(c.ops):
            x, y, w, h = box(ci, oi)
            dash = ' stroke-dasharray="4 3"' if op.kind == "note" else ""
            out.append(f'<rect class="op op-{op.kind}" x="{_f(x)}" y="{_f(y)}" width="{_f(w)}" height="{h}" '
                       f'rx="5" fill="{OP_FILL.get(op.kind, "#fff")}" stroke="#6b7280"{dash}/>')
            ty = y + (16 if op.note else 25)
            out.append(f'<text x="{_f(x + 10)}" y="{_f(ty)}" font-family="{MONO}" font-size="12">'
                       f"{escape(op.text)}</text>")
            if op.note:
                out.append(f'<text x="{_f(x + 10)}" y="{_f(y + 32)}" font-size="11" fill="#6b7280">'
                           f"{escape(op.note)}</text>")
        out.append("</g>")
    for ei, e in enumerate(shape.edges):
        colour, dash, sw = EDGE_STYLE[e.kind]
        sx, sy, swd, sh = box(*e.src)
        dx, dy, dwd, dh = box(*e.dst)
        if e.src[0] == e.dst[0]:                 # same column: a loop out to the right
            x0, y0 = sx + swd, sy + sh / 2
            x1, y1 = dx + dwd, dy + dh / 2
            bulge = 46 + 14 * ei
            d = f"M{_f(x0)},{_f(y0)} C{_f(x0 + bulge)},{_f(y0)} {_f(x1 + bulge)},{_f(y1)} {_f(x1 + 2)},{_f(y1)}"
            lx, ly = max(x0, x1) + bulge * 0.75 + 4, (y0 + y1) / 2
            anchor = "start"
        else:
            right = e.dst[0] > e.src[0]
            x0 = sx + swd if right else sx
            x1 = dx if right else dx + dwd
            # Two edges between one pair of boxes: the second leaves and arrives lower, and bends.
            off = 8 if e.kind in ("rf-maybe", "sync") else -8
            y0, y1 = sy + sh / 2 + off, dy + dh / 2 + off
            bend = 0 if e.kind == "boundary" else (24 if off > 0 else -24)
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2 + bend
            d = f"M{_f(x0)},{_f(y0)} Q{_f(mx)},{_f(my)} {_f(x1 + (-2 if right else 2))},{_f(y1)}"
            lx, ly = mx, my + (14 if off > 0 else -6)
            anchor = "middle"
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<path class="edge edge-{e.kind}" d="{d}" fill="none" stroke="{colour}" stroke-width="{sw}"'
                   f'{dash_attr} marker-end="url(#arrow-{e.kind})"/>')
        if e.label:
            out.append(f'<text class="edge-label" x="{_f(lx)}" y="{_f(ly)}" text-anchor="{anchor}" font-size="11" '
                       f'fill="{colour}" stroke="#ffffff" stroke-width="3" paint-order="stroke">{escape(e.label)}</text>')
    y = legend_y
    if shape.question:
        out.append(f'<text class="question" x="30" y="{_f(y)}" font-weight="700">the question: '
                   f"{escape(shape.question)}</text>")
    for k in kinds:
        y += 22
        colour, dash, sw = EDGE_STYLE[k]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<line x1="30" y1="{_f(y - 4)}" x2="70" y2="{_f(y - 4)}" stroke="{colour}" stroke-width="{sw}"'
                   f'{dash_attr} marker-end="url(#arrow-{k})"/>')
        gloss = f": {details[k]}" if details[k] else ""
        out.append(f'<text x="80" y="{_f(y)}" font-size="12">{escape(EDGE_NAME[k] + gloss)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------------------- heatmap
#
# A family's cases laid out over its axes (`vmmcheck list --json` families[].axes, each case's "axes"): the
# combinations of the first half of the axes are the rows, those of the rest the columns, so that one axis's
# effect reads along a row or down a column. One grid per run. A cell's fill is the case's weak rate (weak
# outcomes / instances) on a fixed logarithmic scale -- the same colour means the same rate on every page --
# and its mark is the status.


@dataclass
class GridAxis:
    name: str
    values: List[str]        # the values the family's cases take, in the family's order


@dataclass
class Grid:
    rows: List[GridAxis]     # outermost first
    columns: List[GridAxis]
    labels: List[GridAxis]   # axes whose value follows from the row axes': shown beside them, no dimension
    row_keys: List[Tuple[str, ...]]      # the row axes' values of each row that occurs, in value order
    column_keys: List[Tuple[str, ...]]
    cells: Dict[Tuple[Tuple[str, ...], Tuple[str, ...]], str]   # (row key, column key) -> case name
    row_labels: Dict[Tuple[str, ...], Tuple[str, ...]] = field(default_factory=dict)   # row key -> labels' values


def short_name(name: str, family: str) -> str:
    """A case's name without its family's prefix: alias.mp.alias.flagsame.wfence.gpu -> alias.flagsame.wfence.gpu."""
    return name[len(family) + 1:] if name.startswith(family + ".") else name


def _case_axes(cases: Sequence[Mapping]) -> Dict[str, Dict[str, str]]:
    """case name -> {axis: value}, the values as text (the list may give a number)."""
    return {c["name"]: {k: str(v) for k, v in (c.get("axes") or {}).items()} for c in cases}


def _varying_axes(family: Mapping, values: Mapping[str, Mapping[str, str]]) -> List[GridAxis]:
    """The axes on which the cases differ, in the family's order, each value in the family's order (values the
    list does not name, after those). An axis all cases agree on adds nothing to a grid."""
    declared = [(a["name"], [str(v.get("value")) for v in a.get("values", [])]) for a in family.get("axes", [])]
    for axes in values.values():          # axes the list does not declare, as the cases carry them
        for name in axes:
            if name not in dict(declared):
                declared.append((name, []))
    out = []
    for name, order in declared:
        seen = list(dict.fromkeys(a[name] for a in values.values() if name in a))
        if len(seen) > 1:
            out.append(GridAxis(name, [v for v in order if v in seen] + [v for v in seen if v not in order]))
    return out


def _determined(axis: GridAxis, by: Sequence[GridAxis], values: Mapping[str, Mapping[str, str]]) -> bool:
    """Whether the values of `by` fix the value of `axis` in every case (litmus rows: the instance fixes the
    command), so that the axis would only add an empty row or column per value."""
    if not by:
        return False
    seen: Dict[tuple, str] = {}
    for axes in values.values():
        key = tuple(axes.get(a.name, "") for a in by)
        if seen.setdefault(key, axes.get(axis.name, "")) != axes.get(axis.name, ""):
            return False
    return True


def _keys(axes: Sequence[GridAxis], values: Mapping[str, Mapping[str, str]]) -> List[Tuple[str, ...]]:
    """The combinations of these axes' values that some case has, in value order."""
    index = [{v: i for i, v in enumerate(a.values)} for a in axes]
    found = {tuple(vals.get(a.name, "") for a in axes) for vals in values.values()}
    return sorted(found, key=lambda k: tuple(ix.get(v, len(ix)) for ix, v in zip(index, k)))


def grid_layout(family: Mapping, cases: Sequence[Mapping]) -> Grid:
    """The family's cases as a grid over its axes. Axes on which the cases differ are kept, the coarsest
    first, unless the axes kept so far fix their value; the kept ones, in the family's order, are split: the
    first half (at least one) for the rows, the rest for the columns. Where the axes do not tell the cases
    apart (records without axes), one row per case."""
    values = _case_axes(cases)
    varying = _varying_axes(family, values)
    kept: List[GridAxis] = []
    for axis in sorted(varying, key=lambda a: len(a.values)):     # stable: the family's order among equals
        if not _determined(axis, kept, values):
            kept.append(axis)
    kept.sort(key=varying.index)
    split = max(1, len(kept) // 2)
    rows, columns = kept[:split], kept[split:]
    labels = [a for a in varying if a not in kept and _determined(a, rows, values)]
    def key(name: str, axes: Sequence[GridAxis]) -> Tuple[str, ...]:
        return tuple(values[name].get(a.name, "") for a in axes)

    cells = {(key(c["name"], rows), key(c["name"], columns)): c["name"] for c in cases}
    if not kept or len(cells) < len(cases):
        return _one_row_per_case(family, cases)
    return Grid(rows, columns, labels, _keys(rows, values), _keys(columns, values), cells,
                {key(c["name"], rows): key(c["name"], labels) for c in cases})


def _one_row_per_case(family: Mapping, cases: Sequence[Mapping]) -> Grid:
    """The grid of cases whose axes are unknown (results of schema version 1): a row each, by name."""
    names = [short_name(c["name"], family.get("name", "")) for c in cases]
    return Grid([GridAxis("case", names)], [], [], [(n,) for n in names], [()],
                {((n,), ()): c["name"] for n, c in zip(names, cases)})


# The colour scale: exactly 0, then one colour per decade from below 10^-6 up to 1 (ColorBrewer YlGnBu, which
# reads in grey and to the colour-blind). Weak rates span seven decades (a few in ten million to all), so a
# linear scale would show one colour.
ZERO_FILL = "#ffffd9"
WEAK_EDGES = (1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1)
WEAK_FILLS = ("#edf8b1", "#c7e9b4", "#7fcdbb", "#41b6c4", "#1d91c0", "#225ea8", "#0c2c84")
NO_RATE_FILL = "#d9dce1"     # not in this run, or it ran no instances (not supported, skipped)
DARK_FROM = 4                # WEAK_FILLS from this index on take a white mark


def weak_fill(rate: Optional[float]) -> str:
    """The fill of a cell: grey without a rate, else the rate's decade."""
    if rate is None:
        return NO_RATE_FILL
    if rate == 0:
        return ZERO_FILL
    return WEAK_FILLS[bisect.bisect_right(WEAK_EDGES, rate)]


# The status as a mark drawn in the cell (paths, not glyphs: no font has to have them).
MARK_OF_KIND = {model.PASSED: "pass", model.TOLERATED: "warn", model.FAILURE: "fail", model.SKIPPED: "skip"}
MARK_TEXT = {"pass": "passed", "warn": "warning, flake or expected failure",
             "fail": "failed (Fail, Crash, Timeout, Error, unexpected pass)",
             "skip": "not supported, skipped, or not in that run"}
MARK_COLOUR = {"fail": "#c81e1e", "warn": "#9a4d00"}        # else dark or white, against the fill
CELL_EDGE = {"fail": ("#c81e1e", 2.2), "warn": ("#d97706", 1.8)}


def status_mark(record: Optional[Mapping]) -> str:
    """pass | warn | fail | skip: the mark of a case in one run; an unknown status is a failure."""
    if record is None:
        return "skip"
    status = model.STATUS.get(record.get("status", ""))
    return MARK_OF_KIND[status.kind if status else model.FAILURE]


def _mark(kind: str, cx: float, cy: float, colour: str) -> str:
    """The mark centred at (cx, cy): a tick, a cross, an exclamation mark, a dash. A failure's and a warning's
    colour stands on a white halo, so it reads on the darkest fill too."""
    paths = {"pass": (f"M{_f(cx - 4.5)},{_f(cy)} l3.2,3.6 l6,-7.4", 1.8),
             "fail": (f"M{_f(cx - 4)},{_f(cy - 4)} l8,8 M{_f(cx + 4)},{_f(cy - 4)} l-8,8", 2.3),
             "warn": (f"M{_f(cx)},{_f(cy - 6)} v7.5 M{_f(cx)},{_f(cy + 4)} v1.6", 2.6),
             "skip": (f"M{_f(cx - 4)},{_f(cy)} h8", 1.6)}
    d, width = paths[kind]
    halo = (f'<path d="{d}" fill="none" stroke="#ffffff" stroke-width="{_f(width + 2.4)}" stroke-linecap="round"/>'
            if kind in MARK_COLOUR else "")
    return (f'{halo}<path class="mark mark-{kind}" d="{d}" fill="none" stroke="{colour}" stroke-width="{width}" '
            'stroke-linecap="round" stroke-linejoin="round"/>')


def _mark_colour(kind: str, fill: str) -> str:
    """A failure red, a warning amber; the other marks dark, or white on the dark end of the scale."""
    if kind in MARK_COLOUR:
        return MARK_COLOUR[kind]
    return "#ffffff" if fill in WEAK_FILLS[DARK_FROM:] else ("#6b7280" if kind == "skip" else "#1f2937")


def cell_tip(name: str, record: Optional[Mapping]) -> str:
    """The cell's hover text: the case, its status, weak / instances."""
    if record is None:
        return f"{name}: not in this run"
    rate = model.weak_fraction(record)
    weak = (f"weak {fmt.count(record.get('weak', 0))} / {fmt.count(record['instances'])} instances "
            f"({fmt.percent(rate)})") if rate is not None else "no instances"
    return f"{name}: {record.get('status', '?')}, {weak}"


CHAR = 6.6            # width of one 11px character
CELL_H = 24.0
LINE = 16.0           # a header line
GROUP_GAP = 5.0       # between groups of the outermost axis, on a side with two or more axes


def _text_w(text: str) -> float:
    return len(text) * CHAR


def _groups(keys: Sequence[Tuple[str, ...]], level: int) -> List[Tuple[int, int, str]]:
    """(first index, count, value) of the runs of equal prefixes up to `level`: a header's spans."""
    out: List[Tuple[int, int, str]] = []
    for i, k in enumerate(keys):
        if out and keys[out[-1][0]][:level + 1] == k[:level + 1]:
            out[-1] = (out[-1][0], out[-1][1] + 1, out[-1][2])
        else:
            out.append((i, 1, k[level]))
    return out


def _positions(keys: Sequence[Tuple[str, ...]], size: float, grouped: bool) -> List[float]:
    """Offsets of each row or column from the grid's edge, a gap between groups of the outermost axis."""
    pos, gaps = [], 0
    for i, k in enumerate(keys):
        if grouped and i and k[0] != keys[i - 1][0]:
            gaps += 1
        pos.append(i * size + gaps * GROUP_GAP)
    return pos


@dataclass
class _Frame:
    """Where a grid's parts go: the same for every run's panel."""
    label_x: List[float]      # left edge of each label column (row axes, then label axes)
    grid_x: float
    col_w: float
    col_pos: List[float]
    row_pos: List[float]
    head_h: float
    grid_w: float
    grid_h: float


def _frame(grid: Grid) -> _Frame:
    """Widths from the longest label of each label column and of the innermost column axis (a cell is as wide
    as its column's value, 30 to 120 pixels)."""
    label_axes = grid.rows + grid.labels
    label_values = [[(k + grid.row_labels.get(k, ()))[i] for k in grid.row_keys] for i in range(len(label_axes))]
    label_x, x = [], 10.0
    for axis, vals in zip(label_axes, label_values):
        label_x.append(x)
        x += max([_text_w(axis.name)] + [_text_w(v) for v in vals]) + 14
    # The column axes' names stand right-aligned left of their header lines: the label area must hold them.
    x = max(x, 10 + max([_text_w(a.name) + 14 for a in grid.columns], default=0))
    last = [k[-1] for k in grid.column_keys if k]
    col_w = min(120.0, max(30.0, max([_text_w(v) + 10 for v in last], default=30.0)))
    col_pos = _positions(grid.column_keys, col_w, len(grid.columns) > 1)
    row_pos = _positions(grid.row_keys, CELL_H, len(grid.rows) > 1)
    head_h = LINE * (len(grid.columns) + 1) + 4
    return _Frame(label_x, x + 6, col_w, col_pos, row_pos, head_h, col_pos[-1] + col_w, row_pos[-1] + CELL_H)


def _panel(grid: Grid, fr: _Frame, top: float, label: str, records: Sequence[Mapping[str, Mapping]]) -> List[str]:
    """One grid: its heading, the column headers, the row labels, the cells; records[j] holds the records
    (by case name) that column j shows."""
    out = [f'<g class="run" data-run="{escape(label)}">',
           f'<text x="10" y="{_f(top + 14)}" font-size="12.5" font-weight="700">{escape(label)}</text>']
    head = top + 22
    for level, axis in enumerate(grid.columns):          # header lines: the outer axes span their groups
        y = head + LINE * (level + 1) - 4
        out.append(f'<text class="axis-name" x="{_f(fr.grid_x - 8)}" y="{_f(y)}" text-anchor="end" '
                   f'font-style="italic" fill="#6b7280">{escape(axis.name)}</text>')
        for first, count, value in _groups(grid.column_keys, level):
            x0 = fr.grid_x + fr.col_pos[first]
            span = fr.col_pos[first + count - 1] + fr.col_w - fr.col_pos[first]
            shown = value if _text_w(value) <= span - 4 else value[:max(1, int((span - 4) / CHAR) - 1)] + "…"
            out.append(f'<text class="col-label" x="{_f(x0 + span / 2)}" y="{_f(y)}" text-anchor="middle">'
                       f"<title>{escape(axis.name)}={escape(value)}</title>{escape(shown)}</text>")
            if level < len(grid.columns) - 1:
                out.append(f'<line x1="{_f(x0 + 2)}" y1="{_f(y + 3)}" x2="{_f(x0 + span - 2)}" y2="{_f(y + 3)}" '
                           'stroke="#9ca3af"/>')
    y_names = head + LINE * (len(grid.columns) + 1) - 4
    for x, axis in zip(fr.label_x, grid.rows + grid.labels):
        out.append(f'<text class="axis-name" x="{_f(x)}" y="{_f(y_names)}" font-style="italic" fill="#6b7280">'
                   f"{escape(axis.name)}</text>")
    y0 = head + fr.head_h
    for i, rkey in enumerate(grid.row_keys):
        y = y0 + fr.row_pos[i]
        for level, (x, value) in enumerate(zip(fr.label_x, rkey + grid.row_labels.get(rkey, ()))):
            if level < len(grid.rows) - 1 and i and grid.row_keys[i - 1][:level + 1] == rkey[:level + 1]:
                continue                                  # an outer value only where its group starts
            colour = "#1f2937" if level < len(grid.rows) else "#6b7280"    # a label axis's value: grey
            out.append(f'<text class="row-label" x="{_f(x)}" y="{_f(y + CELL_H / 2 + 4)}" font-family="{MONO}" '
                       f'font-size="10.5" fill="{colour}">{escape(value)}</text>')
        for j, ckey in enumerate(grid.column_keys):
            name = grid.cells.get((rkey, ckey))
            if name is not None:
                out.append(_cell(name, records[j].get(name), fr.grid_x + fr.col_pos[j], y, fr.col_w))
    out.append("</g>")
    return out


def _cell(name: str, record: Optional[Mapping], x: float, y: float, w: float) -> str:
    """One case in one run: filled by its weak rate, outlined red or amber when it failed or warned, its mark
    in the middle and its tooltip."""
    fill = weak_fill(model.weak_fraction(record))
    kind = status_mark(record)
    edge, width = CELL_EDGE.get(kind, ("#ffffff", 1.5))
    status = record.get("status", "") if record else ""
    return (f'<g class="cell" data-case="{escape(name)}" data-status="{escape(status)}" data-mark="{kind}">'
            f"<title>{escape(cell_tip(name, record))}</title>"
            f'<rect x="{_f(x + 1)}" y="{_f(y + 1)}" width="{_f(w - 2)}" height="{_f(CELL_H - 2)}" rx="2" fill="{fill}" '
            f'stroke="{edge}" stroke-width="{width}"/>'
            f"{_mark(kind, x + w / 2, y + CELL_H / 2, _mark_colour(kind, fill))}</g>")


def _legend(top: float) -> Tuple[List[str], float, float]:
    """The colour scale (0, then a swatch per decade, ticks at the decades), the grey of no rate, and the marks
    two to a line; (svg, width, height)."""
    sw, h = 52.0, 14.0
    lead = "colour: weak outcomes / instances"
    out = [f'<g class="legend"><text x="10" y="{_f(top + 11)}" font-weight="600">{lead}</text>']
    x = 10 + _text_w(lead) + 14
    out.append(f'<rect class="swatch" x="{_f(x)}" y="{_f(top)}" width="28" height="{h}" fill="{ZERO_FILL}" stroke="#9ca3af"/>'
               f'<text x="{_f(x + 14)}" y="{_f(top + h + 12)}" text-anchor="middle" font-size="10">0</text>')
    x += 40
    for i, fill in enumerate(WEAK_FILLS):
        out.append(f'<rect class="swatch" x="{_f(x + i * sw)}" y="{_f(top)}" width="{_f(sw)}" height="{h}" fill="{fill}"/>')
    for i, edge in enumerate(WEAK_EDGES + (1.0,)):
        tx = x + (i + 1) * sw
        out.append(f'<line x1="{_f(tx)}" y1="{_f(top + h)}" x2="{_f(tx)}" y2="{_f(top + h + 3)}" stroke="#374151"/>'
                   f'<text x="{_f(tx)}" y="{_f(top + h + 13)}" text-anchor="middle" font-size="10">{fmt.percent(edge)}</text>')
    width = x + len(WEAK_FILLS) * sw + 24
    # (fill, dashed outline, mark, text): the two kinds of cell without a rate, then the four marks.
    entries = [(NO_RATE_FILL, False, "", "no instances, or not in that run"),
               ("#ffffff", True, "", "no case has those axis values (left empty)")]
    entries += [("#ffffff", False, kind, MARK_TEXT[kind]) for kind in ("pass", "warn", "fail", "skip")]
    col = 38 + max(_text_w(text) for *_, text in entries[::2]) + 24
    for i, (fill, dashed, kind, text) in enumerate(entries):
        x, y = 10 + (i % 2) * col, top + h + 40 + 24 * (i // 2)
        dash = ' stroke-dasharray="3 2"' if dashed else ""
        out.append(f'<rect x="{_f(x)}" y="{_f(y - 12)}" width="22" height="18" rx="2" fill="{fill}" stroke="#d1d5db"{dash}/>'
                   + (_mark(kind, x + 11, y - 3, _mark_colour(kind, fill)) if kind else "")
                   + f'<text x="{_f(x + 28)}" y="{_f(y + 1)}">{escape(text)}</text>')
        width = max(width, x + 28 + _text_w(text) + 10)
    out.append(f'<text x="10" y="{_f(y + 24)}" fill="#6b7280">Hover over a cell for the case, its status and weak / '
               "instances.</text></g>")
    return out, width, y + 34 - top


def _panels(grid: Grid, runs: Sequence[Tuple[str, Mapping[str, Mapping]]]) -> List[Tuple[Grid, str, list]]:
    """(grid, heading, records per column) of each picture: the grid once per run; but a grid without column
    axes (one axis, or none) takes the runs as its columns, side by side, rather than a tall strip per run."""
    if grid.columns or len(runs) < 2:
        return [(grid, label, [recs] * len(grid.column_keys)) for label, recs in runs]
    names = [f"run {i + 1}" for i in range(len(runs))]
    wide = Grid(grid.rows, [GridAxis("run", names)], grid.labels, grid.row_keys, [(n,) for n in names],
                {(rkey, (n,)): name for (rkey, _), name in grid.cells.items() for n in names}, grid.row_labels)
    heading = " · ".join(f"{n}: {label}" for n, (label, _) in zip(names, runs))
    return [(wide, heading, [recs for _, recs in runs])]


def render_heatmap(title: str, grid: Grid, runs: Sequence[Tuple[str, Mapping[str, Mapping]]]) -> str:
    """The family's grid for the runs (label, records by case name) that have any of its cases, under a title
    that names the axes, above the legend. A run without any of the family's cases gets a line, not a grid."""
    names = set(grid.cells.values())
    shown = [(label, recs) for label, recs in runs if names & set(recs)]
    missing = [label for label, recs in runs if not names & set(recs)]
    panels = _panels(grid, shown)
    fr = _frame(panels[0][0] if panels else grid)
    sides = [" × ".join(a.name for a in side) for side in (grid.rows, grid.columns)]
    subtitle = f"rows: {sides[0]}" + (f" · columns: {sides[1]}" if sides[1] else "") + \
               f" · {len(names)} case{'s' if len(names) != 1 else ''}"
    body: List[str] = []
    y = 52.0
    for panel_grid, heading, records in panels:
        body += _panel(panel_grid, fr, y, heading, records)
        y += 22 + fr.head_h + fr.grid_h + 18
    for label in missing:
        body.append(f'<text x="10" y="{_f(y + 12)}" fill="#6b7280">{escape(label)}: none of these cases ran</text>')
        y += 22
    if not runs:
        body.append(f'<text x="10" y="{_f(y + 12)}" fill="#6b7280">no results files were given</text>')
        y += 22
    legend, legend_w, legend_h = _legend(y + 8)
    headings = [10 + 7.4 * len(h) for _, h, _ in panels]
    width = max(fr.grid_x + fr.grid_w + 12, legend_w, 10 + 7.6 * len(title), 10 + _text_w(subtitle) + 10, *headings)
    height = y + 8 + legend_h
    head = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(width)}" height="{_f(height)}" '
            f'viewBox="0 0 {_f(width)} {_f(height)}" font-family="{FONT}" font-size="11">',
            f"<title>{escape(title)}</title>",
            f'<rect width="{_f(width)}" height="{_f(height)}" fill="#ffffff"/>',
            f'<text x="10" y="20" font-size="14" font-weight="700">{escape(title)}</text>',
            f'<text class="subtitle" x="10" y="38" fill="#374151">{escape(subtitle)}</text>']
    return "\n".join(head + body + legend + ["</svg>"]) + "\n"
