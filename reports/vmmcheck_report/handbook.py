"""The handbook: every rule vmmcheck checks, its litmus shape, and what each GPU did (issue 22).

    python -m vmmcheck_report.handbook --cases-json LIST.json [RESULTS.json...] -o DIR

LIST.json is `vmmcheck list --json`; each RESULTS.json is a `vmmcheck run` results file. DIR gets a static
site that opens from disk (relative links only, no server, no external URL) and one Markdown file,
DIR/handbook.md:

    index.html              the first page for newcomers, the families and every rule
    rule-<family>-<n>.html  one page per rule
    family-<family>.html    a family's heatmap: its cases as a grid over its axes, one grid per run, each cell
                            coloured by the weak rate and marked with the status
    litmus.html             the rows of the litmus files; litmus-file-<stem>.html, a file's text
    compiler.html           when the compiler changes a litmus test: the finding, and the ptxas matrix
                            (--toolchain-matrix, ci/results/toolchain/matrix.json) beside the rows each run
                            attributed to the compiler
    svg/                    the diagrams and heatmaps (SVG written by handbook_svg)
    handbook.css, handbook.md

Rules: cases are grouped by the (rule, citation) pair they carry, in the list's order. That is finer than a
family (alias.mp states six rules: CTA scope, no fence, a proxy fence, the model's reading...) and coarser
than a case, and it is what a reader asks about: "what is promised here, and how do we know". A rule page
is named after the family that states it first and its rank there.

`vmmcheck list --json` carries each family's source table (cases/*.toml): when it can be read, the page
also shows the family's snippet with the case's axis codes filled in and the verdict's `why`; the litmus
files beside it (cases/litmus/) are copied in as pages. Neither is needed: without them those parts are
left out.

Output is a function of the inputs alone (no time stamp, no absolute path), so the same inputs give
byte-identical files.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Sequence

try:
    import tomllib
except ImportError:  # Python < 3.11: the snippets are optional
    tomllib = None

import jinja2

from . import fmt, handbook_svg, jsontext, load, model, outputs, toolchain
from .render import new_environment

PROG = "vmmcheck_report handbook"


def _mirror_file(family: str) -> Optional[str]:
    """The litmus file (cases/litmus/) that holds a hand-written family's cases, if one does."""
    stem = model.LITMUS_MIRRORS.get(family)
    return f"{stem}.test" if stem else None


EXPECTATION_TEXT = {
    "required": "Required: every instance must show an allowed outcome; one forbidden outcome fails the case.",
    "undefined": "Undefined: nothing is promised. The case measures how often the weak outcome shows; any "
                 "outcome passes.",
    "model": "Required by the PTX proxy model, where the prose is unclear: a forbidden outcome is a Warning, "
             "not a Fail.",
    "fault": "Must fault: the access has to end the kernel with an error, not complete.",
    "rejected": "Must be rejected: the driver has to refuse the call with an error and leave its state intact.",
    "api": "An API contract: the call must return what its documentation says.",
}


class HandbookError(Exception):
    """An input that cannot be used; str() is the one line to print."""


# ------------------------------------------------------------------------------------------- inputs


_STRINGS = {"type": "array", "items": {"type": "string"}}
_SCALAR = {"type": ["string", "number", "boolean"]}
# What the handbook reads of `vmmcheck list --json`, each the type it uses it as: the rest is not read.
CASES_SCHEMA = {
    "type": "object",
    "required": ["families", "cases"],
    "properties": {
        "families": {"type": "array", "items": {
            "type": "object", "required": ["name"],
            "properties": {
                "name": {"type": "string"}, "title": {"type": "string"}, "pattern": {"type": "string"},
                "source": {"type": "string"}, "fixed": {"type": ["object", "null"], "additionalProperties": _SCALAR},
                "axes": {"type": "array", "items": {
                    "type": "object", "required": ["name"],
                    "properties": {"name": {"type": "string"},
                                   "values": {"type": "array", "items": {
                                       "type": "object", "properties": {"value": _SCALAR, "code": _SCALAR}}}}}},
                "outcomes": {"type": "array", "items": {"type": "object"}},
            }}},
        "cases": {"type": "array", "items": {
            "type": "object",
            "properties": {
                "pattern": {"type": ["string", "null"]}, "why": {"type": ["string", "null"]},
                "source": {"type": "string"},
                "axes": {"type": ["object", "null"], "additionalProperties": _SCALAR},
                "derivation": {"type": ["object", "null"], "properties": {
                    "modelled": {"type": "boolean"}, "by": {"type": "string"}, "expectation": {"type": "string"},
                    "outcomes": _STRINGS, "steps": _STRINGS, "because": {"type": "string"}},
                    "if": {"properties": {"modelled": {"const": True}}, "required": ["modelled"]},
                    "then": {"required": ["by", "expectation"]}},
                "shape": {"type": ["object", "null"], "required": ["threads"], "properties": {
                    "threads": {"type": "array", "items": {
                        "type": "object", "required": ["name", "gpu", "cta", "ops"],
                        "properties": {"name": {"type": "string"}, "gpu": _SCALAR, "cta": _SCALAR, "ops": _STRINGS}}},
                    "boundaries": {"type": "array", "items": {
                        "type": "array", "minItems": 2, "maxItems": 2,
                        "items": {"type": "integer", "minimum": 0}}},
                    "weak": {"type": ["string", "null"]}}},
            }}},
    },
}


def load_cases(path: Path) -> dict:
    """Read and check `vmmcheck list --json`."""
    where = str(path)
    try:
        text = load.read_text(path, "case list")   # the one reader of input files: no FIFO, no folder, UTF-8
    except load.LoadError as e:
        raise HandbookError(str(e)) from None
    if (deep := jsontext.too_deep(text)) is not None:
        raise HandbookError(f"{where}: not a case list: {deep}")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise HandbookError(f"{where}: not JSON: {e}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("cases"), list) or not isinstance(
            doc.get("families"), list):
        raise HandbookError(f"{where}: not a case list (vmmcheck list --json): no 'families' and 'cases' lists")
    for i, f in enumerate(doc["families"]):
        if not isinstance(f, dict) or not isinstance(f.get("name"), str):
            raise HandbookError(f"{where}: families[{i}]: no name")
    for i, c in enumerate(doc["cases"]):
        if not isinstance(c, dict):
            raise HandbookError(f"{where}: cases[{i}]: not an object")
        for key in ("name", "family", "rule", "citation", "expectation"):
            if not isinstance(c.get(key), str):
                raise HandbookError(f"{where}: cases[{i}].{key}: missing or not a string")
    try:
        if (bad := load.unencodable(doc, text)) is not None:
            raise load.LoadError(f"{where}: {bad}")
        load.check_schema(CASES_SCHEMA, doc, where)
    except load.LoadError as e:
        raise HandbookError(str(e)) from None
    for i, c in enumerate(doc["cases"]):
        threads = len((c.get("shape") or {}).get("threads", []))
        for j, pair in enumerate((c.get("shape") or {}).get("boundaries", [])):
            if max(pair) >= threads:
                raise HandbookError(f"{where}: cases[{i}].shape.boundaries[{j}]: no thread {max(pair)} "
                                    f"(the shape has {threads})")
    return doc


@dataclass
class Run:
    path: Path
    doc: dict
    stem: str
    label: str                       # "NVIDIA H200, driver 580.159.04" / "2× NVIDIA H200, ..."
    by_name: Dict[str, dict] = field(default_factory=dict)


def load_runs(paths: Sequence[Path]) -> List[Run]:
    runs: List[Run] = []
    for p in paths:
        try:
            doc = load.load(p)
        except load.LoadError as e:
            raise HandbookError(str(e)) from None
        ctx = doc["context"]
        devices = ctx.get("devices") or []
        names = sorted({d.get("name", "?") for d in devices})
        gpu = " + ".join(names) if len(names) > 1 else model.gpu_name(doc)
        if len(devices) > 1 and len(names) == 1:
            gpu = f"{len(devices)}× {gpu}"
        release = ctx.get("driver_release") or "unknown"
        label = f"{gpu}, driver {release}"
        runs.append(Run(Path(p), doc, Path(p).stem, label, {r["name"]: r for r in doc["results"]}))
    seen: Dict[str, int] = {}
    for r in runs:                       # two runs of one GPU and driver: tell them apart by file
        seen[r.label] = seen.get(r.label, 0) + 1
    for r in runs:
        if seen[r.label] > 1:
            r.label += f" ({r.stem})"
    return runs


def _source_path(list_path: Path, source: str) -> Path:
    p = Path(source)
    return p if p.is_absolute() else (list_path.parent / p)


def read_tables(list_path: Path, families: Sequence[Mapping]) -> Dict[str, dict]:
    """family -> its parsed case table, where `source` names a readable one."""
    out: Dict[str, dict] = {}
    if tomllib is None:
        return out
    for f in families:
        src = f.get("source")
        if not src:
            continue
        try:
            out[f["name"]] = tomllib.loads(_source_path(list_path, src).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
    return out


def find_litmus_dir(list_path: Path, families: Sequence[Mapping]) -> Optional[Path]:
    for f in families:
        if f.get("source"):
            d = _source_path(list_path, f["source"]).parent / "litmus"
            if d.is_dir():
                return d
    return None


_ABS_CASES = re.compile(r"(?:/[^\s;:,]*)?/(cases/)")


def clean(text: str) -> str:
    """Absolute paths into a checkout (/work/main/cases/litmus/CoRR.test) shown from the repository root."""
    return _ABS_CASES.sub(r"\1", text)


def snippet_for(case: Mapping, family: Mapping, table: Optional[Mapping]) -> str:
    """The family's snippet with {axis} holes filled with the case's codes (as `vmmcheck explain` does)."""
    if not table or not table.get("snippet"):
        return ""
    codes: Dict[str, str] = {}
    for a in table.get("axis", []):
        for v in a.get("values", []):
            if v.get("value") == (case.get("axes") or {}).get(a.get("name")):
                codes[a["name"]] = str(v.get("code", v.get("value")))
    for k, v in (family.get("fixed") or {}).items():
        codes.setdefault(k, str(v))
    return re.sub(r"\{(\w+)\}", lambda m: codes.get(m.group(1), m.group(0)), table["snippet"]).strip("\n")


def why_for(rule: str, table: Optional[Mapping]) -> str:
    for v in (table or {}).get("verdict", []):
        if v.get("rule") == rule and v.get("why"):
            return v["why"]
    return ""


# -------------------------------------------------------------------------------------------- model


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9._]+", "-", text.lower()).strip("-") or "x"


def _cell(r: Optional[Mapping]) -> Optional[dict]:
    """What one run did with one case, ready for a template."""
    if r is None:
        return None
    p = r.get("power")
    kind = model.STATUS[r["status"]].kind if r["status"] in model.STATUS else "failure"
    return {"status": r["status"], "kind": kind, "weak": r.get("weak", 0), "instances": r.get("instances", 0),
            "weak_rate": model.weak_fraction(r), "histogram": r.get("histogram") or {}, "reason": clean(r.get("reason", "")),
            "power": None if p is None else {
                "mechanism": p.get("mechanism", ""), "status": p.get("status", ""),
                "violations": p.get("violations", 0), "instances": p.get("instances", 0),
                "discriminating": bool(p.get("discriminating")), "mutant": p.get("mutant", "")}}


def build(cases_doc: Mapping, runs: Sequence[Run], list_path: Path) -> dict:
    families = {f["name"]: f for f in cases_doc["families"]}
    tables = read_tables(list_path, cases_doc["families"])
    litmus_dir = find_litmus_dir(list_path, cases_doc["families"])
    litmus_files: Dict[str, dict] = {}
    if litmus_dir is not None:
        for p in sorted(litmus_dir.glob("*.test")):
            try:
                text = p.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            litmus_files[p.stem.lower()] = {"file": p.name, "stem": p.stem, "text": text,
                                            "page": f"litmus-file-{slugify(p.stem)}.html"}

    rules: List[dict] = []
    by_key: Dict[tuple, dict] = {}
    case_rule: Dict[str, dict] = {}
    for c in cases_doc["cases"]:
        key = (c["rule"], c["citation"])
        rule = by_key.get(key)
        if rule is None:
            rule = {"rule": c["rule"], "citation": clean(c["citation"]), "families": [], "cases": [],
                    "expectations": [], "whys": []}
            by_key[key] = rule
            rules.append(rule)
        fam = families.get(c["family"], {"name": c["family"]})
        table = tables.get(c["family"])
        if c["family"] not in rule["families"]:
            rule["families"].append(c["family"])
        if c["expectation"] not in rule["expectations"]:
            rule["expectations"].append(c["expectation"])
        why = why_for(c["rule"], table)
        if why and not rule["whys"]:      # families sharing a rule word its derivation alike: the first says it
            rule["whys"].append(why)
        rule["cases"].append({"name": c["name"], "family": c["family"], "axes": c.get("axes") or {},
                              "expectation": c["expectation"], "case": c, "fam": fam, "table": table,
                              "runs": [_cell(run.by_name.get(c["name"])) for run in runs]})
        case_rule[c["name"]] = rule
    # A rule's home is the family with most of its cases (the first such in the list): alias.same_thread, not
    # alias.memory.same_thread, which states the same rule on other memory. Its page is named after the home
    # family and the rule's rank among the rules that family is home to.
    per_family_rank: Dict[str, int] = {}
    for rule in rules:
        counts = [sum(1 for x in rule["cases"] if x["family"] == f) for f in rule["families"]]
        rule["family"] = rule["families"][counts.index(max(counts))]
        per_family_rank[rule["family"]] = per_family_rank.get(rule["family"], 0) + 1
        rule["slug"] = f"{slugify(rule['family'])}-{per_family_rank[rule['family']]}"
        rule["page"] = f"rule-{rule['slug']}.html"

    for rule in rules:
        rule["expectation_texts"] = [EXPECTATION_TEXT.get(e, e) for e in rule["expectations"]]
        # The picture: the first case with a litmus shape; the snippet: that case's, or the first case's.
        shown = next((x for x in rule["cases"] if handbook_svg.shape_for_case(x["case"], x["fam"])), None)
        rule["diagram"] = None
        if shown is not None:
            shape = handbook_svg.shape_for_case(shown["case"], shown["fam"])
            rule["diagram"] = {"file": f"svg/rule-{rule['slug']}.svg", "case": shown["name"], "title": shape.title,
                               "svg": handbook_svg.render_shape(shape)}
        pick = shown or rule["cases"][0]
        rule["snippet_case"] = pick["name"]
        rule["snippet"] = snippet_for(pick["case"], pick["fam"], pick["table"])
        mirror = _mirror_file(rule["family"])
        rule["litmus"] = None
        if mirror:
            found = litmus_files.get(Path(mirror).stem.lower())
            rule["litmus"] = {"file": mirror, "page": found["page"] if found else None}
        rule["derivations"] = derivations(rule["cases"])
        rule["summary"] = [summarise([x["runs"][i] for x in rule["cases"]]) for i in range(len(runs))]
        rule["controls"] = sum(1 for x in rule["cases"] if any(c and c["power"] for c in x["runs"]))

    fams = []
    for name, f in families.items():
        frules = [r for r in rules if r["family"] == name or name in r["families"]]
        fcases = [c for c in cases_doc["cases"] if c["family"] == name]
        if not fcases:
            continue
        grid = handbook_svg.grid_layout(f, fcases)
        svg = handbook_svg.render_heatmap(f"{name}: weak rate per case, over its axes", grid,
                                          [(run.label, run.by_name) for run in runs])
        fams.append({"name": name, "slug": slugify(name), "page": f"family-{slugify(name)}.html",
                     "title": f.get("title", ""), "pattern": f.get("pattern", ""),
                     "source": clean(f.get("source", "")), "axes": f.get("axes", []),
                     "outcomes": f.get("outcomes", []), "rules": frules, "cases": len(fcases),
                     "heatmap": {"file": f"svg/heatmap-{slugify(name)}.svg", "svg": svg,
                                 "rows": [a.name for a in grid.rows], "columns": [a.name for a in grid.columns]},
                     "summary": [summarise([_cell(run.by_name.get(c["name"])) for c in fcases]) for run in runs],
                     "litmus": _mirror_file(name)})

    listed = {r["name"]: r for r in cases_doc.get("litmus_rows", [])}
    for lf in litmus_files.values():
        # A template's row (an instance of it) has a test of its own; a plain file's row is the file.
        lf["rows"] = [dict(r, test=row_test(r.get("source", "")) if (r.get("axes") or {}).get("instance", "none") != "none" else "")
                      for r in cases_doc.get("litmus_rows", []) if Path(r.get("file", "")).name == lf["file"]]
    litmus = litmus_rows(runs, litmus_files, listed)
    return {"runs": runs, "rules": rules, "families": fams, "case_rule": case_rule, "litmus": litmus,
            "litmus_files": [litmus_files[k] for k in sorted(litmus_files)],
            "topics": topics(cases_doc["cases"], case_rule, {f["name"]: f for f in fams},
                             cases_doc.get("litmus_rows", []), litmus_files),
            "cases": len(cases_doc["cases"])}


def derivations(rule_cases: Sequence[Mapping], most: int = 4) -> List[dict]:
    """The oracle's derivations of a rule's cases (`vmmcheck list --json`, "derivation"), one entry per distinct
    text with the cases that share it: how the expectation follows, by the PTX proxy model (the axioms that
    rule the weak outcome out, or the execution that shows it) or the contract structure; or why nothing
    models the case. At most `most` entries, the rest counted."""
    found: Dict[str, dict] = {}
    for x in rule_cases:
        d = x["case"].get("derivation")
        if not d:
            continue
        if d.get("modelled"):
            head = f"Derived by {d['by']}: {d['expectation']}" + (f" (allowed: {', '.join(d['outcomes'])})" if d.get("outcomes") else "")
            lines = list(d.get("steps", []))
        else:
            head, lines = "Not derived by the oracle: " + d.get("because", ""), []
        key = head + "\n" + "\n".join(lines)
        entry = found.setdefault(key, {"head": head, "steps": lines, "cases": []})
        entry["cases"].append(x["name"])
    out = sorted(found.values(), key=lambda e: -len(e["cases"]))
    for e in out:
        e["shown_cases"], e["more_cases"] = e["cases"][:3], max(0, len(e["cases"]) - 3)
    return out[:most] + ([{"head": f"... and {len(out) - most} other derivations", "steps": [], "cases": [],
                           "shown_cases": [], "more_cases": 0}] if len(out) > most else [])


def summarise(cells: Sequence[Optional[dict]]) -> dict:
    """Status counts, weak outcomes and instances, and controls, over some cases of one run."""
    counts: Dict[str, int] = {}
    weak = inst = ran = controls = discriminating = 0
    for c in cells:
        if c is None:
            continue
        ran += 1
        counts[c["status"]] = counts.get(c["status"], 0) + 1
        weak += c["weak"]
        inst += c["instances"]
        if c["power"]:
            controls += 1
            discriminating += c["power"]["discriminating"]
    order = [s for s in model.ALL_STATUSES if s in counts] + sorted(s for s in counts if s not in model.STATUS)
    return {"ran": ran, "statuses": [(s, counts[s], model.STATUS[s].kind if s in model.STATUS else "failure")
                                     for s in order],
            "weak": weak, "instances": inst, "weak_rate": weak / inst if inst else None,
            "controls": controls, "discriminating": discriminating}


def row_test(source: str) -> str:
    """A litmus row's own test (`list --json`'s "source": its template's holes filled) without the file's
    opening comment, which the file's page shows once; runs of blank lines made one, and none inside a
    thread's braces (where an empty hole left one)."""
    lines = source.splitlines()
    while lines and (not lines[0].strip() or lines[0].lstrip().startswith("//")):
        lines.pop(0)
    out: List[str] = []
    depth = 0
    for line in (l.rstrip() for l in lines):
        if line or (out and out[-1] and depth == 0):
            out.append(line)
        depth += line.count("{") - line.count("}")
    return "\n".join(out).strip("\n")


def litmus_rows(runs: Sequence[Run], files: Mapping[str, dict],
                listed: Optional[Mapping[str, Mapping]] = None) -> List[dict]:
    """Per litmus file (results with pattern "litmus"): its rows with each run's status and weak rate, and the
    model's answer and explanation where `vmmcheck list --json` gives them (`listed`, by case name): the same
    lines `vmmcheck explain` and `vmmcheck model --verbose` print."""
    listed = listed or {}
    groups: Dict[str, dict] = {}
    for i, run in enumerate(runs):
        for r in run.doc["results"]:
            if r.get("pattern") != "litmus":
                continue
            stem = (r.get("axes") or {}).get("file") or r["family"].split(".", 1)[-1]
            g = groups.setdefault(stem, {"stem": stem, "rows": {}, "file": files.get(stem.lower())})
            row = g["rows"].setdefault(r["name"], {"name": r["name"], "expectation": r["expectation"],
                                                   "rule": clean(r.get("rule", "")),
                                                   "model": listed.get(r["name"], {}).get("model", ""),
                                                   "explanation": listed.get(r["name"], {}).get("explanation", ""),
                                                   "runs": [None] * len(runs)})
            row["runs"][i] = _cell(r)
    out = []
    for stem in sorted(groups):
        g = groups[stem]
        rows = list(g["rows"].values())
        out.append({"stem": stem, "anchor": f"litmus-{slugify(stem)}", "file": g["file"], "rows": rows,
                    "summary": [summarise([row["runs"][i] for row in rows]) for i in range(len(runs))]})
    return out


# The first page: what a newcomer needs, each point linked to the rule that states it and its evidence.
# (family, axes the case must have): the rule page of the first such case in the list.
TOPICS = [
    ("What a virtual alias is",
     "With the CUDA virtual memory management API you create physical memory once (cuMemCreate), reserve "
     "virtual address ranges (cuMemAddressReserve) and map the same memory into more than one of them "
     "(cuMemMap). Each mapping is a view: A, B, C in these pages. They are different addresses of one set of "
     "bytes, so a value written through A is, in the end, the value read through B. The rules are about "
     "when \"in the end\" arrives.",
     [("alias.same_thread", {"view": "same", "load": "weak", "fence": "nofence"}, "one thread, one address: the baseline"),
      ("alias.kernels", {"view": "alias", "order": "stream"}, "two kernels, two views")]),
    ("Inside one kernel, aliases are not coherent",
     "Within a single kernel (more generally, one device operation), a write through view A and a read "
     "through view B of the same bytes are not ordered, even in one thread: the read may return the old "
     "value. Message passing with a flag does not help when the data is read through another alias.",
     [("alias.same_thread", {"view": "alias", "load": "weak", "fence": "nofence"}, "one thread writes A, reads B"),
      ("alias.mp", {"data": "alias", "flag": "flagsame", "fence": "nofence", "scope": "gpu"},
       "message passing, data read through B")]),
    ("fence.proxy.alias orders accesses through different aliases",
     "The PTX instruction fence.proxy.alias (cuda::ptx::fence_proxy_alias) between the write and the read "
     "makes them ordered. In message passing it may stand on the writer's side, before the release, or on "
     "the reader's side, after the acquire: it must lie on the causality path between the two accesses.",
     [("alias.same_thread", {"view": "alias", "load": "weak", "fence": "fence"}, "the fence in one thread"),
      ("alias.mp", {"data": "alias", "flag": "flagsame", "fence": "wfence", "scope": "gpu"}, "the fence on the writer's side")]),
    ("Operation boundaries make aliases coherent",
     "Two device operations (kernels, copies, memsets) ordered by the stream, an event, a host "
     "synchronisation or a graph edge see each other's writes through any alias. Two operations with "
     "nothing between them race, alias or not.",
     [("alias.kernels", {"view": "alias", "order": "stream"}, "ordered by the stream"),
      ("alias.kernels", {"view": "alias", "order": "none"}, "not ordered: a race")]),
    ("The resident-grid clause",
     "A boundary only helps operations that start after it. A grid that was already running (resident) "
     "before the writing operation, and reads after that operation completed, is still incoherent with it "
     "through other aliases. Through the writer's own address it reads the new value.",
     [("alias.resident", {"view": "alias", "load": "weak"}, "a resident grid reading through B"),
      ("alias.resident", {"view": "same", "load": "weak"}, "the same grid reading through A")]),
    ("Atomics through two aliases are not atomic with each other",
     "PTX atomicity holds between operations at the same virtual address. Atomic adds through A and "
     "through B to the same bytes may lose updates.",
     [("alias.rmw", {"view": "alias"}, "atomic adds through A and B")]),
    ("Access rights and lifecycle",
     "A mapping is usable by a device only after cuMemSetAccess grants it, and only with the rights "
     "granted: touching it otherwise faults. Memory stays alive while any mapping of it does; unmapping, "
     "releasing and remapping follow a contract the driver checks.",
     [("access", {"grant": "none"}, "no access granted"),
      ("access", {"grant": "read", "op": "write"}, "writing through a read-only grant"),
      ("lifecycle", {}, "release, remap and unmap"),
      ("api", {}, "the API contract")]),
    ("Where the PTX proxy model comes in",
     "PTX describes memory through proxies: generic loads and stores, textures, surfaces, the async "
     "(TMA) path. Accesses through different proxies, like accesses through different aliases, need a "
     "proxy fence. NVIDIA's formal proxy model (the mixedproxy artifact) decides small litmus tests; where "
     "it goes further than the prose, the case says \"model\" and a forbidden outcome is a warning, not "
     "a failure.",
     [("alias.mp", {"data": "same", "flag": "flagalias", "scope": "gpu"}, "a flag read through an alias: the model's reading"),
      ("proxy.texture", {}, "texture reads of written memory"),
      ("proxy.async", {}, "the async proxy")]),
]


def _has_segments(name: str, family: str, want: Mapping[str, str]) -> bool:
    """Whether a case name (family.<segments>) has each wanted value as a segment after the family's."""
    rest = name[len(family):] + "."
    return all("." + v + "." in rest for v in want.values())


def topics(cases: Sequence[Mapping], case_rule: Mapping[str, dict], fams: Mapping[str, dict],
           rows: Sequence[Mapping] = (), litmus_files: Mapping[str, dict] = {}) -> List[dict]:
    out = []
    for title, text, refs in TOPICS:
        links = []
        for family, want, label in refs:
            # By the axes' values; else by name segments, what a retired family's reference gives.
            hit = next((c for c in cases if c["family"] == family and
                        all((c.get("axes") or {}).get(k) == v for k, v in want.items())), None)
            if hit is None:
                hit = next((c for c in cases if c["family"] == family and _has_segments(c["name"], family, want)), None)
            if hit is not None:
                r = case_rule[hit["name"]]
                f = fams.get(family)
                links.append({"label": label, "rule": r, "case": hit["name"],
                              "family_page": f["page"] if f else None})
                continue
            # A retired family: its cases are litmus rows that bear their names (family.<name segments>), so
            # its references give the segments (alias.mp's "flagsame", "nofence"); the link goes to the
            # file's page, with what the model says of the row.
            stem = model.LITMUS_MIRRORS.get(family)
            row = next((r for r in rows if stem and r["name"].startswith(family + ".") and
                        _has_segments(r["name"], family, want)), None)
            lf = litmus_files.get(stem or "")
            if row is not None and lf is not None:
                links.append({"label": label, "case": row["name"], "family_page": None,
                              "rule": {"page": lf["page"], "slug": "litmus-rows",
                                       "rule": f"{row['name']}: {row['expect']} ({row['condition']}) -- the model: "
                                               f"{row['model']} (cases/litmus/{lf['file']})"}})
        out.append({"title": title, "text": text, "links": links, "anchor": slugify(title)})
    return out


# ------------------------------------------------------------------------------------------- output

_ENV: Optional[jinja2.Environment] = None


def environment() -> jinja2.Environment:
    global _ENV
    if _ENV is None:
        _ENV = new_environment(keep_trailing_newline=True)
        _ENV.filters.update(count=fmt.count, percent=fmt.percent, md=_md_cell,
                            hist=lambda h: " ".join(f"{k}={fmt.count(v)}" for k, v in h.items()) or "(empty)")
    return _ENV


def _md_cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def render(view: dict) -> Dict[str, str]:
    """relative path -> file text, every file of the site."""
    env = environment()
    files: Dict[str, str] = {"handbook.css": env.get_template("handbook.css.j2").render()}
    common = {"runs": view["runs"], "families": view["families"], "rules": view["rules"],
              "litmus_files": view["litmus_files"], "litmus": view["litmus"]}
    files["index.html"] = env.get_template("handbook_index.html.j2").render(
        topics=view["topics"], ncases=view["cases"], **common)
    rule_t = env.get_template("handbook_rule.html.j2")
    for i, r in enumerate(view["rules"]):
        files[r["page"]] = rule_t.render(rule=r, prev=view["rules"][i - 1] if i else None,
                                         next=view["rules"][i + 1] if i + 1 < len(view["rules"]) else None,
                                         **common)
        if r["diagram"]:
            files[r["diagram"]["file"]] = r["diagram"]["svg"]
    fam_t = env.get_template("handbook_family.html.j2")
    for f in view["families"]:
        files[f["page"]] = fam_t.render(family=f, **common)
        files[f["heatmap"]["file"]] = f["heatmap"]["svg"]
    files["litmus.html"] = env.get_template("handbook_litmus.html.j2").render(**common)
    file_t = env.get_template("handbook_litmusfile.html.j2")
    for lf in view["litmus_files"]:
        files[lf["page"]] = file_t.render(lf=lf, **common)
    files["compiler.html"] = env.get_template("handbook_compiler.html.j2").render(compiler=view["compiler"], **common)
    files["handbook.md"] = env.get_template("handbook.md.j2").render(topics=view["topics"], ncases=view["cases"],
                                                                     compiler=view["compiler"], **common)
    return files


GENERATED = ("index.html", "handbook.css", "handbook.md", "litmus.html", "compiler.html")
GENERATED_GLOBS = ("rule-*.html", "family-*.html", "litmus-file-*.html", "svg/*.svg")


def write(files: Mapping[str, str], out: Path) -> None:
    """Write the site into `out`; every file is claimed first (outputs.claim_output: none of them may replace a
    vmmcheck document), so a refusal writes nothing."""
    for rel in sorted(files):
        outputs.claim_output(out / rel, None, "a handbook page")
    out.mkdir(parents=True, exist_ok=True)
    # Files a previous generation wrote that this one does not: removed, so the folder is what these inputs give.
    for pattern in GENERATED_GLOBS:
        for p in out.glob(pattern):
            if p.relative_to(out).as_posix() not in files:
                p.unlink()
    for rel, text in sorted(files.items()):
        p = out / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("utf-8")
        if not p.exists() or p.read_bytes() != data:
            p.write_bytes(data)


# What run says of a litmus row whose forbidden outcome the machine code explains (run/rows/row_result.cpp).
COMPILER_MARK = "broke the model in the machine code the GPU ran: "


def compiler_view(runs: Sequence[Run], matrix_path: Optional[Path]) -> dict:
    """The compiler page: the matrix (or None) and, per run, the rows it attributed to the compiler."""
    matrix = None
    if matrix_path is not None:
        try:
            doc = load.read_document(matrix_path, toolchain.KIND, toolchain.SCHEMAS, toolchain.KEYS)
        except load.LoadError as e:
            raise HandbookError(str(e)) from None
        lv = toolchain.levels(doc)
        matrix = {"file": Path(matrix_path).name, "rows": doc["rows"], "arch": doc["arch"], "disassembler": doc["disassembler"],
                  "levels": lv, "what": toolchain.what_broke(doc),
                  "versions": [{"version": v, "lowered": e.get("ptx_version_lowered_to"),
                                "cells": [toolchain.cell(e["levels"].get(x, [])) for x in lv]}
                               for v, e in doc["versions"].items()]}
        for w in matrix["what"]:
            w["spans"] = toolchain.spans(w["where"], list(doc["versions"]))
    attributed = []
    for run in runs:
        rows = []
        for r in run.doc["results"]:
            reason = r.get("reason") or ""
            if r.get("pattern") == "litmus" and COMPILER_MARK in reason:
                rows.append({"name": r["name"], "status": r["status"], "why": reason.split(COMPILER_MARK, 1)[1].split(" -- ")[0],
                             "compiler": reason.split("; but ", 1)[-1].split(" broke the model", 1)[0]})
        attributed.append({"label": run.label, "rows": rows})
    return {"matrix": matrix, "attributed": attributed}


def generate(cases_json: Path, results: Sequence[Path], out: Path, markdown_only: bool = False,
             toolchain_matrix: Optional[Path] = None) -> Dict[str, str]:
    cases_doc = load_cases(cases_json)
    runs = load_runs(results)
    view = build(cases_doc, runs, Path(cases_json))
    view["compiler"] = compiler_view(runs, toolchain_matrix)
    files = render(view)
    if markdown_only:
        files = {k: v for k, v in files.items() if k == "handbook.md" or k.startswith("svg/")}
    write(files, out)
    return files


def parser() -> argparse.ArgumentParser:
    # A bad command line in one line, as every other command says it.
    p = load.OneLineParser(prog=PROG, description="Write the handbook: every rule, its litmus shape and "
                                "what each GPU did, as a static site and one Markdown file.")
    p.add_argument("results", nargs="*", type=Path, help="results files (vmmcheck run), one heatmap column each")
    p.add_argument("--cases-json", type=Path, required=True, metavar="FILE",
                   help="the case list: vmmcheck list --json FILE")
    p.add_argument("-o", "--output", type=Path, required=True, metavar="DIR", help="folder to write")
    p.add_argument("--toolchain-matrix", type=Path, metavar="FILE",
                   help="the ptxas matrix of vmmcheck toolchain (ci/results/toolchain/matrix.json) for the compiler page")
    p.add_argument("--markdown-only", action="store_true",
                   help="write only DIR/handbook.md and the SVG it shows (for a small commit)")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Exit 0 when written; 2 for bad input (one line on stderr)."""
    try:
        args = parser().parse_args(None if argv is None else list(argv))
    except SystemExit as e:
        return int(e.code or 0)
    try:
        files = generate(args.cases_json, args.results, args.output, args.markdown_only, args.toolchain_matrix)
    except (HandbookError, outputs.OutputError) as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"{PROG}: {args.output}: cannot write: {e.strerror or e}", file=sys.stderr)
        return 2
    size = sum(len(t.encode("utf-8")) for t in files.values())
    print(f"{args.output}: {len(files)} files, {size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
