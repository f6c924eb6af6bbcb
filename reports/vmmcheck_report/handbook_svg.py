"""The handbook's pictures, as SVG text written here (no plotting library, no fonts embedded):

- a litmus shape: threads as columns, program order downward, reads-from and operation-boundary edges;
- a family heatmap: one row per case, one column per results file, each cell coloured by the case's status
  and labelled with its weak-outcome rate.

`vmmcheck list --json` does not carry a case's shape, so `shape_for_case` builds it from the case's pattern
and axes, for the patterns whose shape is a small litmus test (same_thread, message_passing, kernel_pair,
resident, rmw). Every other pattern returns None and the handbook shows the family's snippet instead.

Output is deterministic: no ids from counters shared across pictures, numbers printed with fixed precision.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Mapping, Optional, Sequence, Tuple
from xml.sax.saxutils import escape

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
    same_cta = ax.get("partner") == "same_cta"
    wlabel, rlabel = ("writer warp", "reader warp") if same_cta else ("writer", "reader")
    wsub, rsub = ("warp w of a CTA", "another warp, same CTA") if same_cta else ("CTA 0", "CTA 1")
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

STATUS_COLOUR = {"Pass": "#2e9e4f", "Fail": "#d92d20", "Crash": "#7a1010", "Timeout": "#9e1c1c",
                 "Error": "#b54708", "NotSupported": "#c9ced6", "Warning": "#f2b705",
                 "UnexpectedPass": "#e04f9a", "Flake": "#f59e0b", "ExpectedFail": "#f97316", "Skip": "#dfe3e8"}
DARK_TEXT = {"NotSupported", "Warning", "Skip", "Flake"}


def _pct(x: float) -> str:
    if x == 0:
        return "0%"
    if x < 1e-4:
        return f"{x * 100:.1e}%"
    return f"{x * 100:.3g}%"


def heatmap_cell(record: Optional[Mapping]) -> Tuple[str, str, str]:
    """(status, fill colour, label) of one case in one run; status "" when the run lacks the case."""
    if record is None:
        return "", "#ffffff", "—"
    status = record.get("status", "")
    inst = record.get("instances") or 0
    label = _pct(record.get("weak", 0) / inst) if inst else ("n/s" if status == "NotSupported" else "·")
    return status, STATUS_COLOUR.get(status, "#9ca3af"), label


def render_heatmap(title: str, rows: Sequence[str], columns: Sequence[str],
                   cells: Sequence[Sequence[Optional[Mapping]]]) -> str:
    """rows: case labels; columns: run labels; cells[row][column]: the result record or None."""
    label_w = max([len(r) for r in rows] + [12]) * 6.6 + 20
    col_w, row_h, head_h = 150.0, 18.0, 64.0
    width = label_w + col_w * len(columns) + 20
    statuses = [s for s in STATUS_COLOUR if any(heatmap_cell(c)[0] == s for row in cells for c in row)]
    height = head_h + row_h * len(rows) + 30 + 20 * ((len(statuses) + 3) // 4 + 1)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(width)}" height="{_f(height)}" '
           f'viewBox="0 0 {_f(width)} {_f(height)}" font-family="{FONT}" font-size="11">',
           f"<title>{escape(title)}</title>",
           f'<rect width="{_f(width)}" height="{_f(height)}" fill="#ffffff"/>',
           f'<text x="10" y="18" font-size="14" font-weight="700">{escape(title)}</text>']
    for j, c in enumerate(columns):
        x = label_w + j * col_w + col_w / 2
        parts = c.split("\n")
        for k, part in enumerate(parts):
            out.append(f'<text class="colhead" x="{_f(x)}" y="{_f(head_h - 8 - 13 * (len(parts) - 1 - k))}" '
                       f'text-anchor="middle" font-weight="600">{escape(part)}</text>')
    for i, r in enumerate(rows):
        y = head_h + i * row_h
        out.append(f'<text x="{_f(label_w - 8)}" y="{_f(y + 13)}" text-anchor="end" font-family="{MONO}" '
                   f'font-size="10.5">{escape(r)}</text>')
        for j in range(len(columns)):
            status, fill, label = heatmap_cell(cells[i][j])
            x = label_w + j * col_w
            tip = f"{r}: {status or 'not in this run'} {label}"
            out.append(f'<rect class="cell" data-status="{escape(status)}" x="{_f(x + 1)}" y="{_f(y + 1)}" '
                       f'width="{_f(col_w - 2)}" height="{_f(row_h - 2)}" fill="{fill}" stroke="#e5e7eb">'
                       f"<title>{escape(tip)}</title></rect>")
            colour = "#111827" if (status in DARK_TEXT or not status) else "#ffffff"
            out.append(f'<text x="{_f(x + col_w / 2)}" y="{_f(y + 13)}" text-anchor="middle" fill="{colour}">'
                       f"{escape(label)}</text>")
    y = head_h + row_h * len(rows) + 24
    out.append(f'<text x="10" y="{_f(y)}" fill="#374151">cell: weak outcomes / instances, coloured by status; '
               "— not in that run; · ran no instances</text>")
    for k, s in enumerate(statuses):
        x = 10 + (k % 4) * 150
        yy = y + 20 * (k // 4 + 1)
        out.append(f'<rect x="{_f(x)}" y="{_f(yy - 11)}" width="14" height="14" fill="{STATUS_COLOUR[s]}"/>'
                   f'<text x="{_f(x + 20)}" y="{_f(yy)}">{escape(s)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
