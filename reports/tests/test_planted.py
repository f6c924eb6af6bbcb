"""The planted self-test run (55 cases, two planted Crash and two planted Timeout) renders as a failing run:
failing families first and open, the failing rows first, red, with vmmcheck's reason; junit has 4 failures.

The fixture is a frozen copy of ci/results/nvidia-h200_driver-580.159.04.planted.json.
"""

import re
import xml.etree.ElementTree as ET

import markupsafe
import pytest

from conftest import PLANTED
from vmmcheck_report import load, render

# The planted failures, worst first as the report orders them: (name, status, reason).
FAILURES = [
    ("planted.gpu.trap", "Crash", "a device fault ended the context: cudaErrorLaunchFailure (719) from "
                                  "`cudaStreamSynchronize(s.stream(0))` at /work/main/harness/run/planted_cases.cpp:29"),
    ("planted.gpu.spin", "Timeout", "no result within 5 s; the child was killed"),
    ("planted.host.crash", "Crash", "the child was killed by SIGSEGV"),
    ("planted.host.hang", "Timeout", "no result within 5 s; the child was killed"),
]


@pytest.fixture(scope="module")
def planted_doc():
    return load.load(PLANTED)


@pytest.fixture(scope="module")
def planted_html(planted_doc):
    return render.render_html(planted_doc)


def rows(html):
    """[(name, status, row class, the row's HTML without <wbr> break hints)] in page order."""
    return [(name, status, cls, body.replace("<wbr>", "")) for cls, name, status, body in re.findall(
        r'<tr class="case([^"]*)" id="case-([^"]+)" data-status="([^"]+)">(.*?)</tr>', html, re.S)]


def test_the_fixture(planted_doc):
    assert len(planted_doc["results"]) == 55
    assert planted_doc["totals"] == {"Pass": 51, "Fail": 0, "Crash": 2, "Timeout": 2, "Error": 0,
                                     "NotSupported": 0}


def test_verdict_and_totals(planted_html):
    assert '<p class="verdict bad" id="verdict">4 unexpected results of 55 cases</p>' in planted_html
    footer = re.search(r"<tfoot>.*?</tfoot>", planted_html, re.S).group(0)
    assert dict(re.findall(r'<th class="num" data-status="([^"]+)">(\d+)</th>', footer)) == {
        "Pass": "51", "Fail": "0", "Crash": "2", "Timeout": "2", "Error": "0", "NotSupported": "0", "Warning": "0",
        "total": "55"}


def test_failing_families_first_and_open(planted_html):
    families = re.findall(r'<details class="family" id="fam-([^"]+)"( open)?>', planted_html)
    assert families == [("planted.gpu", " open"), ("planted.host", " open"), ("access", ""),
                        ("alias.same_thread", ""), ("lifecycle", ""), ("lifecycle.unmap", "")]
    table = [f for f in re.findall(r'<tr class="family-row" data-family="([^"]+)">', planted_html)]
    assert table == ["planted.gpu", "planted.host", "access", "alias.same_thread", "lifecycle", "lifecycle.unmap"]


def test_crash_and_timeout_rows_first_with_their_reasons(planted_html):
    found = rows(planted_html)
    assert len(found) == 55
    assert [(n, s) for n, s, _, _ in found[:6]] == [
        ("planted.gpu.trap", "Crash"), ("planted.gpu.spin", "Timeout"), ("planted.gpu.ok", "Pass"),
        ("planted.host.crash", "Crash"), ("planted.host.hang", "Timeout"), ("planted.host.ok", "Pass")]
    by_name = {n: (s, cls, body) for n, s, cls, body in found}
    for name, status, reason in FAILURES:
        shown, cls, body = by_name[name]
        assert shown == status and cls == " kind-failure-row", name
        assert f'<span class="badge kind-failure">{status}</span>' in body
        assert f'<td class="reason">{markupsafe.escape(reason)}' in body, name
        # Nothing ran: no instances per second to show.
        assert '<td class="num" title="0 instances; per second over wall time">0</td>' in body
    assert sum(1 for _, _, cls, _ in found if cls == " kind-failure-row") == 4
    # The failing rows keep their rule and citation too.
    assert ('A planted kernel must run to its end; the trap and the spin are planted to fail as Crash and '
            'Timeout.<div class="citation">vmmcheck DESIGN.md, Isolation</div>') in by_name["planted.gpu.trap"][2]


def test_markdown(planted_doc):
    md = render.render_markdown(planted_doc)
    assert "**4 unexpected results of 55 cases.**" in md
    sections = re.findall(r"^## (\S+) \((\d+) cases(?:, (\d+) unexpected)?\)$", md, re.M)
    assert sections[:3] == [("planted.gpu", "3", "2"), ("planted.host", "3", "2"), ("access", "12", "")]
    assert "| Crash | 0 |" in md and "the child was killed by SIGSEGV |" in md


def test_junit_has_the_four_failures(tmp_path, run_cli):
    rc, out, err = run_cli("junit", PLANTED, "-o", tmp_path / "j.xml")
    assert (rc, out, err) == (0, "", "")  # junit reports failures; it does not gate on them
    root = ET.parse(tmp_path / "j.xml").getroot()
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == ("55", "4", "0", "0")
    suites = {s.get("name"): (s.get("tests"), s.get("failures")) for s in root.findall("testsuite")}
    assert suites == {"alias.same_thread": ("30", "0"), "access": ("12", "0"), "lifecycle": ("5", "0"),
                      "planted.gpu": ("3", "2"), "planted.host": ("3", "2"), "lifecycle.unmap": ("2", "0")}
    failures = {c.get("name"): c.find("failure") for c in root.iter("testcase") if c.find("failure") is not None}
    assert {name: (f.get("type"), f.get("message")) for name, f in failures.items()} == {
        name: (status, reason) for name, status, reason in FAILURES}
    trap = failures["planted.gpu.trap"].text
    assert "status: Crash\n" in trap and "  done: 0\n" in trap
    assert "citation: vmmcheck DESIGN.md, Isolation\n" in trap
