"""The one loader every command uses: read a results file, check it, or say in one line why not.

A results file is either what ``vmmcheck run --json`` wrote (validated against schema/results.schema.json)
or what this driver wrote after applying expectations or reruns. The latter adds statuses and keys the
base schema does not know; rather than fork the schema, the additions are checked against the small
EXTENSION_SCHEMA below, then removed from a copy (each rewritten status mapped back to the
``original_status`` vmmcheck reported) and the copy is checked against the base schema. So a processed
file is held to exactly the same contract as the run it came from.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import os
import re
import stat
from pathlib import Path
from typing import Mapping, Optional, Sequence

from . import files, jsontext, model

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


class OneLineParser(argparse.ArgumentParser):
    """argparse, with a bad command line said in one line (the problem, then where the usage is), exit 2, as
    every bad input is -- not the usage block and the error below it. Every command's parser is one."""

    def error(self, message):
        self.exit(2, f"{self.prog}: {message} ({self.prog} --help)\n")


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
    """The JSON Schema at `schema_path` (default: schema/results.schema.json), itself checked: a JSON object
    that is a valid draft-7 schema. LoadError naming the file otherwise -- a schema that is no schema would
    fail only later, inside the validator, as a traceback."""
    path = Path(schema_path) if schema_path else DEFAULT_SCHEMA
    if not path.exists() and not path.is_symlink():
        raise LoadError(f"{path}: schema not found (pass --schema SCHEMA.json)")
    text = read_text(path, "schema")
    if (deep := jsontext.too_deep(text)) is not None:
        raise LoadError(f"{path}: not a JSON Schema: {deep}")
    try:
        schema = json.loads(text)
    except ValueError as e:
        raise LoadError(f"{path}: cannot read the schema: {e}") from None
    if not isinstance(schema, dict):
        raise LoadError(f"{path}: not a JSON Schema: the document is a JSON {_json_type(schema)}, not an object")
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    if digest not in _CHECKED_SCHEMAS:   # figures reads the same schema for every section
        import jsonschema

        try:
            jsonschema.Draft7Validator.check_schema(schema)
        except jsonschema.SchemaError as e:
            raise LoadError(f"{path}: not a valid JSON Schema (draft 7): {_json_path(e.absolute_path)}: "
                            f"{_one_line(e.message)}") from None
        if (bad := _unresolved_ref(schema)) is not None:
            raise LoadError(f"{path}: not a valid JSON Schema (draft 7): {bad}")
        _CHECKED_SCHEMAS.add(digest)
    return schema


def _unresolved_ref(schema: dict) -> Optional[str]:
    """The first "$ref" of `schema` that does not point into the schema itself, said in words; None when every
    one does. check_schema does not look: the validator would fail on it mid-document (or go to the network
    for a URL)."""
    from urllib.parse import unquote

    stack = [(schema, "")]
    while stack:
        node, at = stack.pop()
        if isinstance(node, list):
            stack.extend((v, f"{at}[{i}]") for i, v in enumerate(node))
            continue
        if not isinstance(node, dict):
            continue
        ref = node.get("$ref")
        if isinstance(ref, str):
            where = f"{at}.$ref" if at else "$ref"
            if not ref.startswith("#"):
                return f"{where}: {ref!r} is not in this file (only references within the schema, #/..., are followed)"
            target = schema
            for part in [unquote(t).replace("~1", "/").replace("~0", "~") for t in ref[1:].split("/")[1:]]:
                if isinstance(target, dict) and part in target:
                    target = target[part]
                elif isinstance(target, list) and part.isdigit() and int(part) < len(target):
                    target = target[int(part)]
                else:
                    return f"{where}: {ref!r} points to nothing in the schema"
        stack.extend((v, f"{at}.{k}" if at else str(k)) for k, v in node.items() if k not in ("enum", "const"))
    return None


# The schema texts check_schema found valid in this process.
_CHECKED_SCHEMAS: set = set()


def _json_type(value) -> str:
    """The JSON name of a parsed value's type: object, array, string, number, boolean, null."""
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if value is None:
        return "null"
    return "number"


def _one_line(text: str, most: int = 200) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= most else text[: most - 3] + "..."


def check_document(doc, where: str, kind: str, schemas: Sequence[str] = (),
                   keys: Optional[Mapping[str, type]] = None) -> dict:
    """`doc` as a document of `kind` (the words for it in messages, e.g. "vmmcheck-knobs/1"), or LoadError
    naming `where` and the kind expected: an object; when `schemas` is given, its "schema" one of them; and
    holding each of `keys` with a value of its type (dict, list, str, int, ... or a tuple of them). The one
    check every reader of a JSON file of its own kind makes before it reads the keys it needs."""
    if not isinstance(doc, dict):
        raise LoadError(f"{where}: not a {kind} file: the document is a JSON {_json_type(doc)}, not an object")
    if schemas and doc.get("schema") not in schemas:
        if "schema" not in doc and "schema_version" in doc:
            raise LoadError(f"{where}: not a {kind} file but a `vmmcheck run` results file")
        got = f"schema {doc['schema']!r}" if "schema" in doc else "no \"schema\" key"
        raise LoadError(f"{where}: not a {kind} file ({got})")
    for key, want in (keys or {}).items():
        if key not in doc:
            raise LoadError(f"{where}: not a {kind} file: no {key!r} key")
        value = doc[key]
        types = want if isinstance(want, tuple) else (want,)
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            names = " or ".join(dict.fromkeys(_json_type(t()) for t in types))
            raise LoadError(f"{where}: not a {kind} file: {key!r} is a JSON {_json_type(value)}, not {names}")
    return doc


def check_json_text(text: str, where: str, what: str) -> None:
    """What every JSON input is refused for before it is parsed: no text at all, or nesting past the bound."""
    if not text.strip():
        raise LoadError(f"{where}: empty file")
    if (deep := jsontext.too_deep(text)) is not None:
        raise LoadError(f"{where}: not a {what}: {deep}")


def read_document(path, kind: str, schemas: Sequence[str] = (), keys: Optional[Mapping[str, type]] = None,
                  where: Optional[str] = None) -> dict:
    """Read a JSON file of `kind` that has no JSON Schema of its own (the figures' sources, the toolchain
    matrix): read_text, then JSON, then check_document. LoadError, one line naming the file, otherwise."""
    where = str(path) if where is None else where
    try:
        text = read_text(path, f"{kind} file")
    except LoadError as e:   # read_text names the path as given; the caller may show it otherwise
        raise LoadError(where + str(e)[len(str(path)):]) from None
    check_json_text(text, where, f"{kind} file")
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise LoadError(f"{where}: not JSON: {e}") from None
    if (bad := unencodable(doc, text)) is not None:
        raise LoadError(f"{where}: {bad}")
    return check_document(doc, where, kind, schemas, keys)


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
    check_json_text(text, where, "results file")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        # A run cut short (disk full, killed) leaves text that stops mid-document: the error is at its very
        # end, or the text does not end with the closing brace every complete document ends with.
        end = text.rstrip()
        hint = " (truncated?)" if e.pos >= len(end) - 1 or not end.endswith("}") else ""
        raise LoadError(f"{where}: not JSON: {e}{hint}") from None
    if (bad := unencodable(doc, text)) is not None:
        raise LoadError(f"{where}: {bad}")
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
        axes = r.get("axes")
        if r.get("pattern") == "litmus" and isinstance(axes, dict) and ("file" in axes) != ("command" in axes):
            # A litmus row's own name is litmus.<file>[.<instance>].<command> (model.row_name): one without
            # the other names no row.
            missing = "command" if "file" in axes else "file"
            raise LoadError(f"{where}: results[{i}].axes: a litmus row with no {missing!r} axis")
    return doc


def unencodable(doc, text: str) -> Optional[str]:
    """Where `doc` (parsed from `text`) holds a string no UTF-8 file can: a lone surrogate escape such as
    "\\ud800", legal JSON that every writer (HTML, the terminal, SQLite) would fail on mid-output. None when
    there is none. The text decides whether to look: only an escape of \\ud800-\\udfff can make one."""
    if "\\u" not in text or not _SURROGATE_ESCAPE.search(text):
        return None
    stack = [(doc, "")]
    while stack:
        node, at = stack.pop()
        if isinstance(node, dict):
            for k, v in node.items():
                here = f"{at}.{k}" if at else str(k)
                if not _encodes(k):
                    return f"{at or '(document)'}: the key {ascii(k[:40])} is not Unicode text (a lone surrogate escape)"
                stack.append((v, here))
        elif isinstance(node, list):
            stack.extend((v, f"{at}[{i}]") for i, v in enumerate(node))
        elif isinstance(node, str) and not _encodes(node):
            return f"{at or '(document)'}: {ascii(node[:40])} is not Unicode text (a lone surrogate escape)"
    return None


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# The most instances a count can be: vmmcheck counts them in 64-bit integers.
MOST_COUNT = 2 ** 63 - 1


def check_counts(r: Mapping, where: str) -> None:
    """What the schema cannot say of one result's counts: each a whole number vmmcheck could have counted
    (1e30 is not), at most as many weak outcomes, judged instances and instances of any one outcome (a
    histogram bin) as instances."""
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
    # Each histogram bin counts instances of one outcome: a count vmmcheck could have made (a uint64 past
    # 2^63 is none -- and would overflow every plot), and no more than the instances there were.
    histogram = r.get("histogram")
    for outcome, v in (histogram.items() if isinstance(histogram, Mapping) else ()):
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MOST_COUNT:
            raise LoadError(f"{where}.histogram.{outcome}: {v!r} is no count (a whole number from 0 to 2^63-1)")
        if n is not None and v > n:
            raise LoadError(f"{where}.histogram.{outcome}: {v} is more than its {n} instances")


# The largest file the driver reads: a results file of the whole suite is about 1 MiB, a bench file less.
MOST_BYTES = 256 * 2 ** 20


def read_text(path, what: str = "results file") -> str:
    """The UTF-8 text of `path`; LoadError naming the file and what is wrong (missing, a folder, not text)."""
    raw = read_bytes(path, what)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise LoadError(f"{path}: not JSON: not UTF-8 text (byte {e.start})") from None


def read_bytes(path, what: str = "results file") -> bytes:
    """The bytes of `path`, a regular file of at most MOST_BYTES; LoadError naming the file and what is wrong
    (missing, a folder, a FIFO or device, too large, unreadable). Every input is read through here."""
    where = str(path)
    a = "an" if what[:1] in "aeiou" else "a"
    try:
        st = os.stat(path)
    except OSError:
        st = None
    size = st.st_size if st is not None else 0
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise LoadError(f"{where}: is a directory, not {a} {what}")
    if st is not None and (kind := files.kind_of_mode(st.st_mode)):
        raise LoadError(f"{where}: not a regular file (a {kind}), not {a} {what}")
    if size > MOST_BYTES:   # a run of every case is about a megabyte: this is not one, and reading it would not end soon
        raise LoadError(f"{where}: {size} bytes, more than {a} {what} holds (at most {MOST_BYTES // 2**20} MiB)")
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise LoadError(f"{where}: no such file") from None
    except IsADirectoryError:
        raise LoadError(f"{where}: is a directory, not {a} {what}") from None
    except OSError as e:
        raise LoadError(f"{where}: cannot read: {e.strerror or e}") from None
    return raw


def load(path, schema_path: Optional[Path] = None) -> dict:
    """Read and check one results file; raises LoadError with a one-line message naming the file."""
    return parse(read_text(path), str(path), read_schema(schema_path))


def dump(doc: dict, path) -> None:
    """Write a document the way vmmcheck does (keys in the order they came, two-space indent), so diffs stay
    small and a record's axes keep the order of its name's segments."""
    Path(path).write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
