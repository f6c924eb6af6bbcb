"""Output files never clobber another kind of document (docs/design.md, "Output files").

Every JSON document vmmcheck and this driver write is of one kind, read off its top level alone
(tests/corpus/documents/README.md, the rule the C++ reader follows too):

* an object whose ``"schema"`` is ``"vmmcheck-<kind>/<version>"``: that kind (model, list, probe, bench,
  bench-compare, selftest, stress-params); any other string ``"schema"`` is no kind (kind_of);
* an object with ``"schema_version"``, a ``"context"`` whose ``"tool"`` is ``"vmmcheck"``, and ``"results"``:
  ``results`` (``run --json``, and this driver's apply, rerun and merge);
* an object with ``"schema_version"``, ``"families"`` and ``"cases"``: ``list`` (lists from before the
  ``"schema"`` key);
* anything else -- another program's JSON, not JSON, an empty file, no file: no kind, not ours to protect.

Every command that writes a file claims it first (claim_output), before it does any work: a file that
holds a document of another kind is refused with one line (exit 2) and left as it was. So ``render r.json
-o r.json`` cannot turn a run into HTML, and ``bench-compare --json`` cannot overwrite a bench file. HTML,
XML, Markdown and text outputs are of no kind: they may replace only what is not a vmmcheck document.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Optional

from . import files, jsontext

PREFIX = "vmmcheck-"

# What a person knows each kind by, in the line that refuses to overwrite one (as vmmcheck says it).
DESCRIBED = {
    "results": "vmmcheck results (run --json)",
    "list": "a vmmcheck case list (list --json)",
    "model": "vmmcheck model verdicts (model --json)",
    "probe": "a vmmcheck probe (probe --json)",
    "bench": "vmmcheck bench rows (bench --json)",
    "bench-compare": "a vmmcheck bench comparison (bench-compare --json)",
    "selftest": "vmmcheck selftest findings (selftest --json)",
    "stress-params": "vmmcheck stress params (tune --out)",
}


class OutputError(Exception):
    """An output that must not be written; str() is the one line to show, naming the file."""


def kind_of(doc) -> Optional[str]:
    """The kind of a parsed document (the module docstring's rule), or None. Read as vmmcheck's own reader
    (harness/run/records/output_file.cpp) reads it, so the two agree beyond the corpus too: a string
    ``"schema"`` decides alone -- the kind is what lies between ``vmmcheck-`` and the last ``/``, and any
    other string is no kind; without one, the results and list shapes."""
    if not isinstance(doc, dict):
        return None
    schema = doc.get("schema")
    if isinstance(schema, str):
        slash = schema.rfind("/")
        if schema.startswith(PREFIX) and slash > len(PREFIX):
            return schema[len(PREFIX):slash]
        return None
    if "schema_version" not in doc:
        return None
    context = doc.get("context")
    if isinstance(context, dict) and context.get("tool") == "vmmcheck" and "results" in doc:
        return "results"
    if "families" in doc and "cases" in doc:
        return "list"
    return None


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def document_kind(path) -> Optional[str]:
    """The kind of the document in the file at `path`; None where there is no such file (or it is a folder),
    or it is not one of ours (not UTF-8, not JSON -- NaN included --, or JSON of another program)."""
    if files.special(path) or os.path.isdir(path):   # os.path.isdir: any error is "not a folder", as here
        return None
    try:
        text = Path(path).read_text(encoding="utf-8-sig")   # a byte-order mark is no reason to lose a file
    except (OSError, UnicodeDecodeError):
        return None
    if jsontext.too_deep(text) is not None:
        return None   # none of ours nests so deep
    try:
        doc = json.loads(text, parse_constant=_no_constant)
    except ValueError:
        return None
    return kind_of(doc)


def described(kind: str) -> str:
    return DESCRIBED.get(kind, f"a vmmcheck {kind} document")


def claim_output(path, kind: Optional[str], what: Optional[str] = None) -> None:
    """Raise OutputError when `path` exists and holds a vmmcheck document of another kind than `kind` (the
    kind about to be written there; None for a file of no kind: HTML, XML, Markdown, text). `what` names
    the output in the message ("HTML"); no path, or "-" (stdout), claims nothing."""
    if path is None or str(path) == "-":
        return
    special = files.special(path)
    if special:
        raise OutputError(f"{path}: not a regular file (a {special}); not writing "
                          f"{what or (described(kind) if kind else 'the output')} there (name another file)")
    found = document_kind(path)
    if found is not None and found != kind:
        what = what or (described(kind) if kind else "a file of no document kind")
        raise OutputError(f"{path}: holds {described(found)}; not overwriting it with {what} (name another file)")


def claim_outputs(claims, inputs=()) -> None:
    """What every command checks before any work, of every (path, kind, what) it will write: claim_output;
    no two outputs the same file; and none of them one of its `inputs` (refuse_input_as_output)."""
    seen = []
    for path, kind, what in claims:
        if path is None or str(path) == "-":
            continue
        claim_output(path, kind, what)
        refuse_input_as_output(path, [p for p in inputs if p is not None and str(p) != "-"])
        for other in seen:
            if _same_file(path, other):
                raise OutputError(f"{path}: named for two outputs (also as {other}); each output needs a file of its own")
        seen.append(path)


def _same_file(a, b) -> bool:
    a, b = Path(a), Path(b)
    try:
        if a.exists() and b.exists() and a.samefile(b):
            return True
    except OSError:
        pass
    return a.resolve() == b.resolve()


def refuse_input_as_output(path, inputs) -> None:
    """Raise OutputError when `path` names one of `inputs` (the same file, however spelt): a command whose
    output replaces one of the files it reads would lose what that file held (merge -o a.json a.json b.json)."""
    if path is None or str(path) == "-":
        return
    out = Path(path)
    for given in inputs:
        try:
            same = out.exists() and Path(given).exists() and out.samefile(given)
        except OSError:
            same = False
        if same or out.resolve() == Path(given).resolve():
            raise OutputError(f"{path}: is also an input ({given}); not replacing an input with the output (name another file)")
