"""`junit`: a results file as JUnit XML, for CI systems that show test results from it.

One <testsuite> per family; one <testcase> per case (classname = family, name = the dotted name, which
must be unique: CI systems merge or drop duplicates silently), with the case's pattern and axes as
<properties> where the results carry them (schema version 2). NotSupported and Skip are <skipped>, never
passes; vmmcheck's failures and UnexpectedPass are <failure> (type = the status) with the outcome
histogram in the text. ExpectedFail and Flake pass, with what happened in <system-out>.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Mapping

from . import model


class DuplicateName(ValueError):
    """Two results share a name; JUnit consumers would merge them."""


def _details(r: Mapping) -> str:
    lines = [f"status: {r['status']}" + (f" (vmmcheck: {r['original_status']})" if "original_status" in r else ""),
             f"expectation: {r['expectation']}",
             f"instances: {r['instances']}, weak: {r['weak']}",
             "histogram:"]
    lines += [f"  {k}: {v}" for k, v in r["histogram"].items()] or ["  (empty)"]
    for key in ("rule", "citation", "reason", "note"):
        if r.get(key):
            lines.append(f"{key}: {r[key]}")
    p = model.power(r)
    if p:
        lines.append(f"power: {'yes' if p['discriminating'] else 'NO'} (control {p['control']}, without "
                     f"{p['mechanism']}: {p['violations']} of {p['instances']} forbidden)")
    lines += [f"rerun {a['attempt']}: {a['status']} {a.get('reason', '')}".rstrip() for a in r.get("attempts", [])]
    return "\n".join(lines) + "\n"


def _properties(case: ET.Element, r: Mapping) -> None:
    """The case's pattern and axes (schema version 2) as JUnit properties, so a CI view can filter by them."""
    pairs = ([("pattern", model.pattern(r))] if model.pattern(r) else []) + \
        [(f"axis.{axis}", value) for axis, value in model.axes(r).items()]
    if pairs:
        props = ET.SubElement(case, "properties")
        for name, value in pairs:
            ET.SubElement(props, "property", name=name, value=value)


def to_xml(doc: Mapping) -> ET.ElementTree:
    results = doc["results"]
    names = [r["name"] for r in results]
    if len(set(names)) != len(names):
        dups = sorted({n for n in names if names.count(n) > 1})
        raise DuplicateName(f"duplicate case names: {', '.join(dups)}")

    root = ET.Element("testsuites", name=f"vmmcheck {model.describe_run(doc)}")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    total_time = 0.0
    for family, rs in model.families(results).items():
        suite = ET.SubElement(root, "testsuite", name=family)
        counts = {"tests": len(rs), "failures": 0, "errors": 0, "skipped": 0}
        time = sum(r["seconds"] for r in rs)
        for r in rs:
            case = ET.SubElement(suite, "testcase", classname=family, name=r["name"], time=f"{r['seconds']:.6f}")
            _properties(case, r)
            kind = model.STATUS[r["status"]].kind
            message = r.get("note") or r["reason"] or r["status"]
            if kind == model.SKIPPED:
                ET.SubElement(case, "skipped", message=message)
                counts["skipped"] += 1
            elif kind == model.FAILURE:
                failure = ET.SubElement(case, "failure", message=message, type=r["status"])
                failure.text = _details(r)
                counts["failures"] += 1
            elif kind == model.TOLERATED:
                ET.SubElement(case, "system-out").text = _details(r)
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
        suite.set("time", f"{time:.6f}")
        total_time += time
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("time", f"{total_time:.6f}")
    ET.indent(root)
    return ET.ElementTree(root)


def write(doc: Mapping, path) -> None:
    """The XML to `path`, or to stdout for "-" (as every command's output)."""
    if str(path) == "-":
        import sys

        # What the file would hold, byte for byte.
        sys.stdout.write(ET.tostring(to_xml(doc).getroot(), encoding="utf-8", xml_declaration=True).decode("utf-8"))
        return
    to_xml(doc).write(path, encoding="utf-8", xml_declaration=True)
