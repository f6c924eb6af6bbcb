"""power: each required or fault case's control (the same case with its ordering mechanism removed) as the
report, compare and junit show it."""

import json
import re

import pytest

from conftest import make_doc, result, write_json
from vmmcheck_report import compare, junit, load, model, render


def power(control, violations, instances=1000, status="Pass", mechanism="the event"):
    return {"control": control, "mechanism": mechanism, "axes": {"order": "none"}, "status": status,
            "histogram": {"new": instances - violations, "old": violations}, "instances": instances,
            "violations": violations, "discriminating": status in ("Pass", "Fail") and violations > 0,
            "reason": ""}


@pytest.fixture
def doc():
    return make_doc([
        result("alias.kernels.kernel.event", power=power("alias.kernels.kernel.none", 400)),
        result("alias.kernels.kernel.stream", power=power("alias.kernels.kernel.none", 400, mechanism="stream order")),
        result("alias.kernels.kernel.host", power=power("alias.kernels.kernel.none", 0, mechanism="host synchronisation")),
        result("alias.kernels.kernel.none", expectation="undefined", histogram={"new": 600, "old": 400}, weak=400,
               instances=1000),
        result("access.none.read", expectation="fault", histogram={"fault": 1}, instances=1,
               power=power("access.readwrite.read", 1, instances=1, mechanism="the missing access right")),
    ])


def test_the_schema_takes_power(tmp_path, doc):
    load.load(write_json(tmp_path / "p.json", doc))
    doc["results"][0]["power"]["violations"] = -1
    with pytest.raises(load.LoadError, match=r"results\[0\]\.power\.violations"):
        load.load(write_json(tmp_path / "bad.json", doc))


def test_tally(doc):
    t = model.power_tally(doc["results"])
    assert (t["required"], t["required_discriminating"], t["fault"], t["fault_discriminating"]) == (3, 2, 1, 1)
    assert t["not"] == ["alias.kernels.kernel.host"]


def test_page_says_how_many_cases_are_discriminating(doc):
    html = render.render_html(doc)
    summary = re.search(r'<p class="power" id="power".*?</p>', html, re.S).group(0)
    assert "2 of 3 required and 1 of 1 fault cases discriminating here" in " ".join(summary.split())
    assert 'href="#case-alias.kernels.kernel.host"' in summary
    assert re.search(r'data-family="alias.kernels">.*?data-power="2/3"', html, re.S)
    assert '<th class="num" data-power="all">3/4</th>' in html  # the footer: every family
    row = re.search(r'id="case-alias.kernels.kernel.host".*?</tr>', html, re.S).group(0)
    assert '<div class="power-cell no"' in row and "power: NO" in row
    assert "without host synchronisation: 0 of 1k forbidden" in row
    undefined_row = re.search(r'id="case-alias.kernels.kernel.none".*?</tr>', html, re.S).group(0)
    assert "power-cell" not in undefined_row


def test_a_run_without_power_shows_none(doc):
    for r in doc["results"]:
        r.pop("power", None)
    html = render.render_html(doc)
    assert 'id="power"' not in html and "data-power" not in html


def test_markdown(doc):
    md = render.render_markdown(doc)
    assert "**Power:** 2 of 3 required and 1 of 1 fault cases discriminating here" in md
    assert "Not: `alias.kernels.kernel.host`." in md
    assert "| required (power: NO) |" in md


def test_compare_flags_a_case_that_lost_its_power(doc):
    before = json.loads(json.dumps(doc))
    after = json.loads(json.dumps(doc))
    after["results"][0]["power"] = power("alias.kernels.kernel.none", 0)
    cmp = compare.compare(before, after)
    assert [c.name for c in cmp.lost_power] == ["alias.kernels.kernel.event"]
    assert "400 forbidden outcomes before, 0 of 1000 now" in cmp.lost_power[0].detail
    assert cmp.exit_code == 0  # flagged, not a regression
    assert "Lost power (1):" in compare.format_text(cmp)
    # Gaining power, or a case without power on one side, is not flagged.
    assert compare.compare(after, before).lost_power == []
    del after["results"][0]["power"]
    assert compare.compare(before, after).lost_power == []


def test_junit_details_carry_power(doc):
    doc["results"][2]["status"] = "Fail"
    root = junit.to_xml(doc).getroot()
    failure = next(c for c in root.iter("testcase") if c.get("name") == "alias.kernels.kernel.host").find("failure")
    assert "power: NO (control alias.kernels.kernel.none, without host synchronisation: 0 of 1000 forbidden)" in failure.text


def test_the_budget_shows_every_stress_knob(doc):
    # Runs since stress params carry every knob (run --stress-params); older runs only the flag.
    doc["context"]["budget"]["stress_params"] = {"pre_accesses": 9, "barrier": True, "pattern": "store-load",
                                                 "threads_per_block": 512, "spin_timeout_us": 200}
    html = render.render_html(doc)
    assert re.search(r"pre_accesses <code>9</code>.*barrier <code>true</code>.*pattern <code>store-load</code>", html)
    del doc["context"]["budget"]["stress_params"]
    assert "pre_accesses <code>" not in render.render_html(doc)


def test_litmus_rows_power_shows_in_their_family_and_the_summary(doc):
    """The litmus assert rows' power counts in their family's Power column and in the summary, apart from
    the cases (as `vmmcheck run` says it): not a dash for every litmus family."""
    rows = [result(f"litmus.mp.{i}.x", expectation="required", pattern="litmus", family="litmus.mp",
                   power={"control": f"litmus.mp.{i}.x.ctl", "mechanism": "fence", "status": "Pass", "instances": 10,
                          "violations": 3 if i else 0, "discriminating": bool(i), "histogram": {}})
            for i in range(3)]
    for r in rows:
        r["axes"] = {"file": "mp", "instance": "none", "command": "x", "expect": "assert"}
    doc["results"] += rows
    html = render.render_html(doc)
    assert re.search(r'data-family="litmus.mp">.*?data-power="2/3"', html, re.S)
    summary = " ".join(re.search(r'<p class="power" id="power".*?</p>', html, re.S).group(0).split())
    assert "and 2 of 3 litmus assert rows, discriminating here" in summary
