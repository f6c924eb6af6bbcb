"""Number formatting, and the aligned text table, shared by every output: the text, Markdown and HTML reports
(count, seconds, rate and percent are also jinja2 filters, render.py), bench-report and bench-compare, and the
measured sections of README.md and docs/ (figures.py).

Two kinds of number keep two rules side by side, each the one that committed, generated files already show:
magnitudes as `count` (three significant digits: 1.05M) in the reports and docs/handbook/, as `short` (one
decimal: 1.3M) in README.md's figures (checked by `figures --check`); shares as `percent` of a fraction (two
digits below 0.01%: 0.0001%) in the reports and the handbook, as `pct` of a part and a whole (three: 0.00303%)
in README.md. Making them one would rewrite those files.
"""

from __future__ import annotations

import math
from typing import Iterable, List, Optional, Sequence, Tuple

_SI = ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))


def count(n: Optional[float]) -> str:
    """16777216 -> "16.8M": histograms hold tens of millions; three digits say enough."""
    if n is None:
        return "—"
    for scale, suffix in _SI:
        if abs(n) >= scale:
            return f"{n / scale:.3g}{suffix}"
    # Below 1000 a count is exact (12, 0); a fractional figure (a rate of 2.58676/s) gets three digits too.
    return f"{n:g}" if float(n).is_integer() else f"{n:.3g}"


def seconds(s: Optional[float]) -> str:
    """A duration in the unit that keeps it readable (cases take microseconds to seconds)."""
    if s is None:
        return "—"
    if s == 0:
        return "0"
    if s < 1e-3:
        return f"{s * 1e6:.3g} µs"
    if s < 1:
        return f"{s * 1e3:.3g} ms"
    return f"{s:.3g} s"


def rate(r: Optional[float]) -> str:
    """Instances per second."""
    return "—" if r is None else f"{count(r)}/s"


def percent(x: Optional[float]) -> str:
    """A fraction as a percentage, keeping small nonzero weak-outcome rates visible."""
    if x is None:
        return "—"
    if x == 0:
        return "0%"
    if abs(x) < 1e-4:
        return f"{x * 100:.2g}%"
    return f"{x * 100:.3g}%"


def signed_percent(x: float) -> str:
    """A relative change: "+31%" / "-40%"."""
    return f"{x * 100:+.0f}%"


# --- the figures of README.md and docs/, and of the bench outputs ------------------------------------------

def exact(n: int) -> str:
    """12,345,678: exact counts, with thousands separators."""
    return f"{n:,}"


def short(n: float) -> str:
    """10.8M, 4.2M, 13k: magnitudes, for instance totals."""
    for div, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(n) >= div:
            v = n / div
            return f"{v:.0f}{unit}" if v >= 100 else f"{v:.1f}{unit}".replace(".0" + unit, unit)
    return f"{n:g}"


def pct(part: int, whole: int) -> str:
    """A share, three significant digits: 0.0213%, 1.5%, 99.4%; exactly 0 and 100 as such."""
    if whole == 0:
        return "-"
    if part == 0:
        return "0%"
    if part == whole:
        return "100%"
    v = 100.0 * part / whole
    s = f"{v:.3g}"
    if "e" in s:
        s = f"{v:.6f}".rstrip("0")
    return s + "%"


def pct_range(shares: Sequence[Tuple[int, int]]) -> str:
    """min-max of part/whole over the pairs, as pct(); "-" when there are none."""
    if not shares:
        return "-"
    lo = min(shares, key=lambda s: s[0] / s[1])
    hi = max(shares, key=lambda s: s[0] / s[1])
    a, b = pct(*lo), pct(*hi)
    return a if a == b else f"{a} - {b}"


def sig(v: Optional[float], missing: str = "—", thousands: str = ",") -> str:
    """A measured figure, three significant digits, no exponent: 0.0412, 9.60, 38.7, 337, 3,443.

    Whole numbers from 100, their thousands grouped with `thousands`: bench-report and bench-compare pass ""
    (3443), as the pages they made in ci/results/bench/ at 8b4f51a (in git history) show."""
    if v is None:
        return missing
    if v == 0:
        return "0"
    if abs(v) >= 100:
        return f"{v:,.0f}".replace(",", thousands)
    return f"{v:.{2 - math.floor(math.log10(abs(v)))}f}"


def times(ratio: float) -> str:
    """A ratio of two figures: 1.25x, 22.4x, 0.915x."""
    return sig(ratio) + "x"


def byte_size(n: float) -> str:
    """A byte count: 2 MiB, 1.75 GiB, 4 KiB, 512 B."""
    for unit, div in (("TiB", 2 ** 40), ("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if abs(n) >= div:
            return f"{n / div:.4g} {unit}"
    return f"{n:g} B"


# --- text tables ---------------------------------------------------------------------------------------------

def table(header: Sequence[str], rows: Sequence[Sequence[str]], right: Iterable[int] = (),
          indent: str = "") -> List[str]:
    """A plain-text table: columns padded to their widest cell, two spaces apart, the `right` ones (numbers)
    right-aligned; each line after `indent`, trailing blanks dropped."""
    right = set(right)
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]
    lines = []
    for row in [header, *rows]:
        cells = [str(c).rjust(w) if i in right else str(c).ljust(w) for i, (c, w) in enumerate(zip(row, widths))]
        lines.append((indent + "  ".join(cells)).rstrip())
    return lines
