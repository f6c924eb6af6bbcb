"""junit: one suite per family, unique names, skips as skipped, failures with their histogram."""

import xml.etree.ElementTree as ET

import pytest

from conftest import H200, H200_FAMILIES, make_doc, result, run_module
from vmmcheck_report import junit


def test_h200_structure(tmp_path, run_cli):
    rc, out, err = run_cli("junit", H200, "-o", tmp_path / "j.xml")
    assert (rc, err) == (0, "")
    root = ET.parse(tmp_path / "j.xml").getroot()
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("skipped")) == ("243", "0", "0")
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert {name: int(s.get("tests")) for name, s in suites.items()} == H200_FAMILIES
    cases = root.findall("testsuite/testcase")
    names = [c.get("name") for c in cases]
    assert len(names) == 243 == len(set(names))
    for name, suite in suites.items():
        assert all(c.get("classname") == name and c.get("name").startswith(name + ".")
                   for c in suite.findall("testcase"))
    assert not root.findall(".//failure") and not root.findall(".//skipped")
    first = cases[0]
    assert first.get("name") == "access.none.read" and first.get("time") == "0.370967"


def test_statuses_map_to_elements(tmp_path):
    doc = make_doc([
        result("alias.mp.a.pass"),
        result("alias.mp.a.fail", "Fail", histogram={"new": 90, "stale": 10}, weak=10, reason="10 stale reads"),
        result("alias.mp.a.crash", "Crash", histogram={}, instances=0, reason="signal 11"),
        result("alias.mp.a.timeout", "Timeout", reason="ran past 2 s"),
        result("alias.mp.a.error", "Error", reason="cuMemCreate failed"),
        result("alias.mp.a.ns", "NotSupported", reason="needs 2 GPUs"),
        result("alias.kernels.b.skip", "Skip", original_status="Fail", reason="skipped by x-skips.txt"),
        result("alias.kernels.b.up", "UnexpectedPass", original_status="Pass", note="listed at f:2, but passed"),
        result("alias.kernels.b.xf", "ExpectedFail", original_status="Fail", note="expected Fail (f:4): issue 9"),
        result("alias.kernels.b.flake", "Flake", original_status="Fail"),
    ])
    out = tmp_path / "j.xml"
    junit.write(doc, out)
    root = ET.parse(out).getroot()
    assert (root.get("tests"), root.get("failures"), root.get("skipped")) == ("10", "5", "2")
    mp, kernels = root.findall("testsuite")
    assert (mp.get("tests"), mp.get("failures"), mp.get("skipped")) == ("6", "4", "1")
    assert (kernels.get("tests"), kernels.get("failures"), kernels.get("skipped")) == ("4", "1", "1")
    case = {c.get("name"): c for c in root.iter("testcase")}
    failure = case["alias.mp.a.fail"].find("failure")
    assert failure.get("message") == "10 stale reads" and failure.get("type") == "Fail"
    assert "  new: 90\n  stale: 10\n" in failure.text
    assert case["alias.mp.a.crash"].find("failure").get("type") == "Crash"
    assert "(empty)" in case["alias.mp.a.crash"].find("failure").text
    assert case["alias.mp.a.ns"].find("skipped").get("message") == "needs 2 GPUs"
    assert case["alias.kernels.b.skip"].find("skipped").get("message") == "skipped by x-skips.txt"
    assert case["alias.kernels.b.up"].find("failure").get("message") == "listed at f:2, but passed"
    assert list(case["alias.mp.a.pass"]) == []
    assert "issue 9" in case["alias.kernels.b.xf"].find("system-out").text
    assert case["alias.kernels.b.xf"].find("failure") is None


def test_empty_run(tmp_path):
    junit.write(make_doc([]), tmp_path / "j.xml")
    root = ET.parse(tmp_path / "j.xml").getroot()
    assert root.get("tests") == "0" and root.findall("testsuite") == []


def test_duplicate_names_refused():
    doc = make_doc([result("alias.mp.a.b"), result("alias.mp.a.b", "Fail")])
    with pytest.raises(junit.DuplicateName, match="alias.mp.a.b"):
        junit.to_xml(doc)


def test_subprocess(tmp_path):
    proc = run_module("junit", H200, "-o", tmp_path / "j.xml")
    assert proc.returncode == 0 and proc.stderr == ""
    assert ET.parse(tmp_path / "j.xml").getroot().get("tests") == "243"
