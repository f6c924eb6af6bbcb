"""`merge SHARD.json... -o OUT.json`: the results files of `vmmcheck run --shard K/N`, one run again.

`run --shard K/N` runs the cases whose name hashes to shard K: ``fnv1a_64(name) % N + 1``, FNV-1a of 64 bits
over the name's UTF-8 bytes (docs/design.md, "Case lists and shards"). Merging refuses -- exit 2, one line
naming the files -- what would not be one run:

* an input without ``context.shard`` (not what run --shard wrote);
* inputs of different shard counts N, or two inputs of the same shard K;
* inputs of different machines or builds: the devices (their names and count), driver, driver release,
  vmmcheck version, git sha, budget, filter, and the case tables' and case list's file names must be the
  same (the folders they lie in and the device index may differ: shards run on several machines, or side
  by side on the GPUs of one host);
* a case in two inputs, or a case in an input that belongs to another shard.

The output is the first input's context without ``shard``, ``started`` the earliest start, ``resumed`` the
inputs' resumptions together (where any), and ``merged``: per input, in shard order, its shard, start and
case count. Results come in shard order, each file's in its own order; totals are recomputed; a top-level
``expectations`` (apply, rerun) is kept only when every input has the same. Shards not given are named in a
warning on stderr and the file is still written: compared with a full run, their cases show as missing.
"""

from __future__ import annotations

import copy
import json
from pathlib import PurePosixPath
from typing import List, Mapping, Optional, Sequence, Tuple

from . import load, model

FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
MASK_64 = (1 << 64) - 1

# The most shards `run --shard K/N` takes: N of at most nine digits (harness/model/shard.cpp, parse_count);
# schema/results.schema.json says the same of context.shard. A count above it is no file run wrote.
MOST_SHARDS = 999_999_999

# What must be the same in every shard's context for them to be one run.
SAME_MACHINE = ("driver", "driver_release", "tool_version", "git_sha", "budget", "cases_path", "filter", "caselist")


class MergeError(Exception):
    """Inputs that are not the shards of one run; str() is the one line to show, naming the files."""


def fnv1a_64(data: bytes) -> int:
    """FNV-1a, 64 bits: for each byte, xor it in, then multiply by the prime (mod 2^64)."""
    h = FNV_OFFSET
    for byte in data:
        h = ((h ^ byte) * FNV_PRIME) & MASK_64
    return h


def shard_of(name: str, count: int) -> int:
    """The shard (1..count) `run --shard K/count` puts a case in."""
    return fnv1a_64(name.encode("utf-8")) % count + 1


def _shard_text(shard: Mapping) -> str:
    return f"{shard['index']}/{shard['count']}"


def _machine(doc: Mapping) -> dict:
    """The parts of a context that make two shards one run (SAME_MACHINE, and the devices' names). The case
    tables and the case list are compared by file name: shards run on different machines, whose checkouts
    lie in different folders (the git sha already says the shipped tables are the same)."""
    ctx = doc["context"]
    out = {key: ctx.get(key) for key in SAME_MACHINE}
    out["cases_path"] = ",".join(PurePosixPath(p).name for p in (ctx.get("cases_path") or "").split(","))
    if out["caselist"] is not None:
        out["caselist"] = PurePosixPath(out["caselist"]).name
    out["devices"] = [d.get("name") for d in ctx.get("devices", [])]
    out["schema_version"] = doc.get("schema_version")
    return out


def _describe(key: str, value) -> str:
    if key == "devices":
        return f"{len(value)} device{'s' if len(value) != 1 else ''} ({', '.join(value) or 'none'})"
    if value is None:
        return "none"
    return json.dumps(value, separators=(",", ":")) if isinstance(value, (dict, list)) else str(value)


def check_shards(inputs: Sequence[Tuple[str, Mapping]]) -> List[Tuple[str, Mapping]]:
    """The inputs in shard order, after every check of the module docstring; MergeError on the first that
    fails."""
    for path, doc in inputs:
        if "shard" not in doc["context"]:
            raise MergeError(f"{path}: not a shard: no context.shard (merge takes what `vmmcheck run --shard K/N` "
                             f"wrote)")
    for path, doc in inputs:
        shard = doc["context"]["shard"]
        if shard["count"] > MOST_SHARDS or shard["index"] > MOST_SHARDS:
            raise MergeError(f"{path}: context.shard: {_shard_text(shard)}: more shards than `run --shard K/N` takes "
                             f"(N at most {MOST_SHARDS})")
    first_path, first = inputs[0]
    count = first["context"]["shard"]["count"]
    for path, doc in inputs[1:]:
        other = doc["context"]["shard"]
        if other["count"] != count:
            raise MergeError(f"{first_path}, {path}: shard counts differ ({_shard_text(first['context']['shard'])} "
                             f"and {_shard_text(other)})")
    seen = {}
    for path, doc in inputs:
        k = doc["context"]["shard"]["index"]
        if k in seen:
            raise MergeError(f"{seen[k]}, {path}: both are shard {k}/{count}")
        if k > count:
            raise MergeError(f"{path}: shard {k}/{count} is not a shard of {count}")
        seen[k] = path
    want = _machine(first)
    for path, doc in inputs[1:]:
        got = _machine(doc)
        for key in want:
            if got[key] != want[key]:
                raise MergeError(f"{first_path}, {path}: not one run: {key} {_describe(key, want[key])} in "
                                 f"{first_path}, {_describe(key, got[key])} in {path}")
    owner = {}
    for path, doc in inputs:
        k = doc["context"]["shard"]["index"]
        for r in doc["results"]:
            name = r["name"]
            if name in owner:
                raise MergeError(f"{owner[name]}, {path}: case {name} is in both (the shards overlap)")
            owner[name] = path
            belongs = shard_of(name, count)
            if belongs != k:
                raise MergeError(f"{path}: case {name} belongs to shard {belongs}/{count}, not {k}/{count}: not "
                                 f"what `run --shard {k}/{count}` wrote")
    return sorted(inputs, key=lambda item: item[1]["context"]["shard"]["index"])


def missing_shards(inputs: Sequence[Tuple[str, Mapping]]) -> List[Tuple[int, int]]:
    """The shards of N that no input is, as runs (first, last) in order: from the shards given, never by
    counting to N (N may be large, and one input of N leaves N - 1 missing)."""
    count = inputs[0][1]["context"]["shard"]["count"]
    gone, after = [], 0
    for k in sorted({doc["context"]["shard"]["index"] for _, doc in inputs}) + [count + 1]:
        if k > after + 1:
            gone.append((after + 1, k - 1))
        after = k
    return gone


def merge(inputs: Sequence[Tuple[str, Mapping]]) -> dict:
    """One results document from the shards [(path, document)] (the module docstring's rules)."""
    if not inputs:
        raise MergeError("merge: no input")
    ordered = check_shards(inputs)
    first = ordered[0][1]
    ctx = copy.deepcopy(first["context"])
    del ctx["shard"]
    ctx["started"] = min(doc["context"]["started"] for _, doc in ordered)
    resumed = sorted(t for _, doc in ordered for t in doc["context"].get("resumed", []))
    ctx.pop("resumed", None)
    if resumed:
        ctx["resumed"] = resumed
    ctx["merged"] = [{"shard": dict(doc["context"]["shard"]), "started": doc["context"]["started"],
                      "cases": len(doc["results"])} for _, doc in ordered]
    results = [copy.deepcopy(r) for _, doc in ordered for r in doc["results"]]
    out = {"schema_version": first["schema_version"], "context": ctx,
           "totals": model.count_statuses(results), "results": results}
    expectations = [doc.get("expectations") for _, doc in ordered]
    if expectations[0] is not None and all(e == expectations[0] for e in expectations):
        out["expectations"] = copy.deepcopy(expectations[0])
    return out


def warning(inputs: Sequence[Tuple[str, Mapping]], output: str) -> Optional[str]:
    """The stderr line for shards not given, or None when all N are there."""
    gone = missing_shards(inputs)
    if not gone:
        return None
    count = inputs[0][1]["context"]["shard"]["count"]
    n = sum(last - first + 1 for first, last in gone)
    names = ", ".join(f"{first}/{count}" if first == last else
                      f"{first}/{count}, {last}/{count}" if last == first + 1 else f"{first}/{count} to {last}/{count}"
                      for first, last in gone[:20]) + (f", ... ({len(gone) - 20} more runs)" if len(gone) > 20 else "")
    return (f"merge: warning: {output} lacks shard{'s' if n != 1 else ''} {names} ({count - n} of "
            f"{count} given): compared with a full run, their cases show as missing")


def merge_files(paths: Sequence, output, schema_path=None) -> Tuple[dict, Optional[str]]:
    """Load every shard (load.load: one line naming a bad file), merge, check the result against the schema
    as any results file is, and write it to `output`. Returns (the document, the warning line or None)."""
    schema = load.read_schema(schema_path)
    inputs = [(str(p), load.parse(load.read_text(p), str(p), schema)) for p in paths]
    out = merge(inputs)
    load.parse(json.dumps(out), f"{output} (merged)", schema)   # never write what could not be read back
    load.dump(out, output)
    return out, warning(inputs, str(output))
