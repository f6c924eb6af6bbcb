"""Limits on JSON text before Python's parser sees it: json.loads recurses once per nested array or object,
and a document nested some thousands deep ends in a RecursionError traceback rather than one line. No
document vmmcheck writes nests deeper than a dozen levels."""

from __future__ import annotations

from typing import Optional

MOST_DEPTH = 64


def too_deep(text: str, most: int = MOST_DEPTH) -> Optional[str]:
    """Why `text` nests arrays and objects deeper than `most` ("nested more than 64 deep at character N"),
    or None. Strings are skipped as JSON reads them (a bracket inside one nests nothing)."""
    depth = 0
    in_string = escaped = False
    for i, c in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > most:
                return f"arrays and objects nested more than {most} deep (at character {i + 1})"
        elif c in "]}":
            depth -= 1
    return None
