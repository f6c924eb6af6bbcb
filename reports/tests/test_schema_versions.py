"""Results of schema version 1 (names only) and version 2 (each record's pattern and axes): load, render,
compare and junit read both, and use the axes where a record has them instead of parsing names."""

import json
import re
import xml.etree.ElementTree as ET

import pytest

from conftest import H200, H200_TOTAL, H200_V2, H200_V2_TOTAL, run_module, write_json
from vmmcheck_report import compare, fmt, junit, load, model, render


@pytest.fixture(scope="module")
def v1():
    return load.load(H200)


@pytest.fixture(scope="module")
def v2():
    return load.load(H200_V2)


def test_both_versions_load(v1, v2):
    assert v1["schema_version"] == 1 and len(v1["results"]) == H200_TOTAL
    assert not any("axes" in r or "pattern" in r for r in v1["results"])
    assert v2["schema_version"] == 2 and len(v2["results"]) == H200_V2_TOTAL
    assert all(r["pattern"] and r["axes"] for r in v2["results"])
    by_name = {r["name"]: r for r in v2["results"]}
    assert by_name["alias.mp.alias.flagsame.wfence.sys"]["axes"] == {
        "data": "alias", "flag": "same", "fence": "writer", "scope": "sys"}
    assert by_name["alias.rmw.alias.gpu"]["pattern"] == "rmw"


def test_a_version_2_record_without_axes_is_refused(tmp_path, v2):
    doc = json.loads(H200_V2.read_text())
    del doc["results"][5]["axes"]
    with pytest.raises(load.LoadError, match=r"results\[5\].*'axes' is a required property"):
        load.load(write_json(tmp_path / "no-axes.json", doc))
    # The same record is fine in a version-1 document.
    doc["schema_version"] = 1
    load.load(write_json(tmp_path / "v1.json", doc))


def test_render_shows_each_cases_axes_only_where_recorded(v1, v2):
    html2 = render.render_html(v2)
    row = re.search(r'<tr class="case[^"]*" id="case-alias\.mp\.alias\.flagsame\.wfence\.sys".*?</tr>', html2, re.S).group(0)
    for axis, value in (("data", "alias"), ("flag", "same"), ("fence", "writer"), ("scope", "sys")):
        assert f'<span class="axis">{axis}=<b>{value}</b></span>' in row
    html1 = render.render_html(v1)
    assert 'class="axes"' not in html1 and 'class="axis-summary"' not in html1


def summary_rows(html, family):
    table = re.search(rf'<table class="axis-summary" data-family="{re.escape(family)}">.*?</table>', html, re.S).group(0)
    rows = {}
    for axis, value, cells in re.findall(r'<tr data-axis="([^"]+)" data-value="([^"]+)">(.*?)</tr>', table, re.S):
        numbers = re.findall(r'<td class="num[^"]*">([^<]*)', cells)
        rows[(axis, value)] = numbers
    return rows


def test_axis_summary_is_computed_from_the_records(v2):
    html = render.render_html(v2)
    rows = summary_rows(html, "alias.same_thread")
    records = [r for r in v2["results"] if r["family"] == "alias.same_thread"]
    for (axis, value), cells in rows.items():
        mine = [r for r in records if r["axes"][axis] == value]
        assert int(cells[0]) == len(mine)  # cases
        weak = sum(r["weak"] for r in mine if r["expectation"] == "undefined")
        inst = sum(r["instances"] for r in mine if r["expectation"] == "undefined")
        if inst:
            assert cells[2].strip().startswith(fmt.percent(weak / inst)), (axis, value, cells)
    # Every axis and value of the family is there, in the family's own terms.
    assert {a for a, _ in rows} == {"view", "load", "fence"}
    assert ("fence", "proxy_alias") in rows and ("view", "offset") in rows


def test_axis_summary_model():
    results = [
        {"name": "f.a.x", "family": "f", "status": "Pass", "expectation": "undefined", "weak": 5, "instances": 10,
         "axes": {"v": "a", "w": "x"}},
        {"name": "f.b.x", "family": "f", "status": "Fail", "expectation": "required", "weak": 1, "instances": 10,
         "axes": {"v": "b", "w": "x"}},
        {"name": "f.b.y", "family": "f", "status": "Pass", "expectation": "undefined", "weak": 0, "instances": 30,
         "axes": {"v": "b", "w": "y"}},
    ]
    summary = {s["axis"]: {v["value"]: v for v in s["values"]} for s in model.axis_summary(results)}
    assert summary["v"]["a"]["weak_rate"] == 0.5
    assert summary["v"]["b"]["cases"] == 2 and summary["v"]["b"]["unexpected"] == 1
    assert summary["v"]["b"]["weak_rate"] == 0.0  # only the undefined case's 0 of 30 counts
    assert summary["w"]["x"]["weak_rate"] == 0.5 and summary["w"]["y"]["instances"] == 30
    assert model.axis_summary([{**r, "axes": None} for r in results]) == []


def test_markdown_has_the_axes_column(v1, v2):
    md2 = render.render_markdown(v2)
    assert "| `alias.rmw.alias.gpu` | view=alias scope=gpu |" in md2
    md1 = render.render_markdown(v1)
    assert "| `alias.rmw" not in md1 and "| `api.granularity` | — |" in md1


def test_compare_the_version_1_run_with_the_version_2_run(v1, v2):
    """The version-2 run has every case of the version-1 run and alias.rmw besides: six cases appeared, all
    passing, so no regression; none is missing."""
    cmp = compare.compare(v1, v2)
    assert cmp.regressions == [] and cmp.missing == [] and cmp.vanished == [] and cmp.exit_code == 0
    assert sorted(c.name for c in cmp.appeared) == sorted(r["name"] for r in v2["results"] if r["family"] == "alias.rmw")
    assert len(cmp.appeared) == 6 and {c.after for c in cmp.appeared} == {"Pass"}
    # The other way round, the six are missing: a case that stopped running is a regression.
    back = compare.compare(v2, v1)
    assert sorted(c.name for c in back.missing) == sorted(c.name for c in cmp.appeared) and back.exit_code == 1
    assert compare.compare(v2, v1, allow_missing=True).exit_code == 0


def test_compare_cli_on_both_files(tmp_path):
    proc = run_module("compare", H200, H200_V2)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("OK: no regression\n")
    assert "Appeared (6):" in proc.stdout and "Missing" not in proc.stdout and "Vanished" not in proc.stdout
    proc = run_module("compare", H200_V2, H200)
    assert proc.returncode == 1 and proc.stdout.startswith(
        "REGRESSED: 6 regressions (0 worsened, 0 new failing, 6 missing)\n")


def test_junit_carries_pattern_and_axes_as_properties(tmp_path, v1, v2):
    root = junit.to_xml(v2).getroot()
    case = next(c for c in root.iter("testcase") if c.get("name") == "alias.kernels.memset.kernel_nc.graph.offset")
    props = {p.get("name"): p.get("value") for p in case.find("properties")}
    assert props == {"pattern": "kernel_pair", "axis.writer": "memset", "axis.reader": "kernel_nc",
                     "axis.order": "graph", "axis.view": "offset"}
    assert root.get("tests") == str(H200_V2_TOTAL)
    assert junit.to_xml(v1).getroot().find(".//properties") is None
    proc = run_module("junit", H200_V2, "-o", tmp_path / "v2.xml")
    assert proc.returncode == 0, proc.stderr
    assert len(ET.parse(tmp_path / "v2.xml").getroot().findall(".//testcase/properties")) == H200_V2_TOTAL


@pytest.mark.parametrize("path", [H200, H200_V2], ids=["v1", "v2"])
def test_render_cli_on_both_versions(tmp_path, path):
    proc = run_module("render", path, "-o", tmp_path / "r.html")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "r.html").read_text().count('<tr class="case') == len(json.loads(path.read_text())["results"])
