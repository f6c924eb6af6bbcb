"""Number formatting shared by the text, markdown and HTML outputs (also registered as jinja2 filters)."""

from __future__ import annotations

from typing import Optional

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
