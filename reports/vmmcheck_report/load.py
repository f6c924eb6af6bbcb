"""The one loader every command uses: read a results file, check it, or say in one line why not.

A results file is either what ``vmmcheck run --json`` wrote (validated against schema/results.schema.json)
or what this driver wrote after applying expectations or reruns. The latter adds statuses and keys the
base schema does not know; rather than fork the schema, the additions are checked against the small
EXTENSION_SCHEMA below, then removed from a copy (each rewritten status mapped back to the
``original_status`` vmmcheck reported) and the copy is checked against the base schema. So a processed
file is held to exactly the same contract as the run it came from.
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Mapping, Optional

from . import jsontext, model

# schema/ at the repository root: reports/vmmcheck_report/../../schema
DEFAULT_SCHEMA = Path(__file__).resolve().parent.parent.parent / "schema" / "results.schema.json"

# Top-level key apply/rerun add: which expectation files were applied.
EXTRA_TOP_KEYS = ("expectations",)

EXTENSION_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "expectations": {
            "type": "object",
            "additionalProperties": {"type": ["string", "null"]},
        },
        "results": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "original_status": {"enum": list(model.BASE_STATUSES)},
                    "original_reason": {"type": "string"},
                    "note": {"type": "string"},
                    "attempts": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["attempt", "status"],
                            "properties": {
                                "attempt": {"type": "integer", "minimum": 1},
                                "status": {"enum": list(model.BASE_STATUSES)},
                                "exit_code": {"type": ["integer", "null"]},
                                "seconds": {"type": "number", "minimum": 0},
                                "reason": {"type": "string"},
                            },
                        },
                    },
                },
                # A status only this driver writes must say what vmmcheck reported.
                "if": {"properties": {"status": {"enum": list(model.DRIVER_STATUSES)}}, "required": ["status"]},
                "then": {"required": ["original_status"]},
            },
        },
    },
}


class LoadError(Exception):
    """A results file that cannot be used; str() is the one line to show, starting with the file name."""


def default_schema_path() -> Path:
    return DEFAULT_SCHEMA


def _json_path(path) -> str:
    """jsonschema's absolute_path as the reader writes it: results[3].status."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(document)"


def check_schema(schema: dict, instance, where: str) -> None:
    """LoadError naming `where` and the first place `instance` breaks `schema` (JSON Schema draft 7)."""
    # Imported here, not at the top: the readers that validate nothing (ci/weak_rows.py on the GPU machine,
    # whose python has no jsonschema) import this module too.
    import jsonschema

    validator = jsonschema.Draft7Validator(schema)
    error = jsonschema.exceptions.best_match(validator.iter_errors(instance))
    if error is not None:
        raise LoadError(f"{where}: {_json_path(error.absolute_path)}: {error.message}")


def read_schema(schema_path: Optional[Path] = None) -> dict:
    path = Path(schema_path) if schema_path else DEFAULT_SCHEMA
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LoadError(f"{path}: schema not found (pass --schema SCHEMA.json)") from None
    except (OSError, ValueError) as e:
        raise LoadError(f"{path}: cannot read the schema: {e}") from None


def strip_extensions(doc: dict) -> dict:
    """A copy of a processed document as vmmcheck wrote it: driver keys removed, statuses mapped back."""
    base = copy.deepcopy(doc)
    for key in EXTRA_TOP_KEYS:
        base.pop(key, None)
    for r in base.get("results", []):
        if not isinstance(r, dict):
            continue
        if r.get("status") in model.DRIVER_STATUSES:
            r["status"] = r["original_status"]
        for key in model.EXTRA_RESULT_KEYS:
            r.pop(key, None)
    return base


# The texts (with the schema they were held to) that passed the schema checks in this process. Checking a
# results file of 750 cases against the schema is most of the time a command takes, and one command
# (figures, a report of several sections) loads the same file many times: the same text passes again.
_VALIDATED: set = set()


def _validation_key(text: str, schema: dict) -> tuple:
    return (hashlib.sha256(text.encode("utf-8")).digest(),
            hashlib.sha256(json.dumps(schema, sort_keys=True).encode("utf-8")).digest())


def parse(text: str, where: str, schema: dict) -> dict:
    """Check a document's text; `where` names it in messages."""
    if not text.strip():
        raise LoadError(f"{where}: empty file")
    if (deep := jsontext.too_deep(text)) is not None:
        raise LoadError(f"{where}: not a results file: {deep}")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        # A run cut short (disk full, killed) leaves text that stops mid-document: the error is at its very
        # end, or the text does not end with the closing brace every complete document ends with.
        end = text.rstrip()
        hint = " (truncated?)" if e.pos >= len(end) - 1 or not end.endswith("}") else ""
        raise LoadError(f"{where}: not JSON: {e}{hint}") from None
    key = _validation_key(text, schema)
    if key not in _VALIDATED:
        check_schema(EXTENSION_SCHEMA, doc, where)
        check_schema(schema, strip_extensions(doc), where)
        _VALIDATED.add(key)
    seen = {}
    for i, r in enumerate(doc["results"]):
        if r["name"] in seen:
            raise LoadError(f"{where}: results[{i}].name: {r['name']!r} repeats results[{seen[r['name']]}]")
        seen[r["name"]] = i
        check_counts(r, f"{where}: results[{i}]")
    return doc


# The most instances a count can be: vmmcheck counts them in 64-bit integers.
MOST_COUNT = 2 ** 63 - 1


def check_counts(r: Mapping, where: str) -> None:
    """What the schema cannot say of one result's counts: each a whole number vmmcheck could have counted
    (1e30 is not), at most as many weak outcomes and judged instances as instances."""
    for key in ("instances", "weak", "judged"):
        v = r.get(key)
        if v is None:
            continue
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MOST_COUNT:
            raise LoadError(f"{where}.{key}: {v!r} is no count (a whole number from 0 to 2^63-1)")
    n = r.get("instances")
    for key in ("weak", "judged"):
        if n is not None and r.get(key) is not None and r[key] > n:
            raise LoadError(f"{where}.{key}: {r[key]} is more than its {n} instances")


# The largest file the driver reads: a results file of the whole suite is about 1 MiB, a bench file less.
MOST_BYTES = 256 * 2 ** 20


def read_text(path, what: str = "results file") -> str:
    """The UTF-8 text of `path`; LoadError naming the file and what is wrong (missing, a folder, not text)."""
    where = str(path)
    try:
        size = Path(path).stat().st_size
    except OSError:
        size = 0
    if size > MOST_BYTES:   # a run of every case is about a megabyte: this is not one, and reading it would not end soon
        raise LoadError(f"{where}: {size} bytes, more than a {what} holds (at most {MOST_BYTES // 2**20} MiB)")
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise LoadError(f"{where}: no such file") from None
    except IsADirectoryError:
        raise LoadError(f"{where}: is a directory, not a {what}") from None
    except OSError as e:
        raise LoadError(f"{where}: cannot read: {e.strerror or e}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise LoadError(f"{where}: not JSON: not UTF-8 text (byte {e.start})") from None


def load(path, schema_path: Optional[Path] = None) -> dict:
    """Read and check one results file; raises LoadError with a one-line message naming the file."""
    return parse(read_text(path), str(path), read_schema(schema_path))


def dump(doc: dict, path) -> None:
    """Write a document the way vmmcheck does (keys in the order they came, two-space indent), so diffs stay
    small and a record's axes keep the order of its name's segments."""
    Path(path).write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
