"""The handbook (issue 22): generation from a small case list and results, its links, its diagrams, its
determinism and its refusals; and headless Chromium over every page (skipped without Chromium).

Fixtures: handbook-list.json is 12 cases of five families cut from `vmmcheck list --json` (their `source`
points at the shipped cases/*.toml, relative to the fixture, so snippets and litmus files are found);
handbook-results.json is those cases, and four litmus rows, from the committed one-H200 run.
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from conftest import FIXTURES, REPORTS
from vmmcheck_report import browser, handbook, handbook_svg

LIST = FIXTURES / "handbook-list.json"
RESULTS = FIXTURES / "handbook-results.json"


def second_run(tmp_path: Path) -> Path:
    """The same run as if from another driver, one case failing: a second heatmap column."""
    doc = json.loads(RESULTS.read_text())
    doc["context"]["driver_release"] = "999.1"
    for r in doc["results"]:
        if r["name"] == "alias.mp.alias.flagsame.wfence.gpu":
            r["status"], r["weak"], r["reason"] = "Fail", 3, "stale data seen"
    from vmmcheck_report import model
    doc["totals"] = model.count_statuses(doc["results"])
    p = tmp_path / "other-driver.json"
    p.write_text(json.dumps(doc))
    return p


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("handbook")
    out = tmp / "site"
    rc = handbook.main(["--cases-json", str(LIST), str(RESULTS), str(second_run(tmp)), "-o", str(out)])
    assert rc == 0
    return out


# ------------------------------------------------------------------------------------------ generation


def test_files(site):
    names = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    assert {"index.html", "handbook.md", "handbook.css", "litmus.html"} <= names
    rules = sorted(n for n in names if n.startswith("rule-"))
    # One page per (rule, citation) of the fixture's cases.
    cases = json.loads(LIST.read_text())["cases"]
    assert len(rules) == len({(c["rule"], c["citation"]) for c in cases})
    families = {c["family"] for c in cases}
    assert {f"family-{f}.html" for f in families} <= names
    assert {f"svg/heatmap-{f}.svg" for f in families} <= names
    assert "litmus-file-alias_mp.html" in names


def test_rule_page_content(site):
    page = (site / "rule-alias.mp-2.html").read_text()
    assert "fence.proxy.alias lies on the causality path" in page          # the rule
    assert "proxy-preserved base causality order" in page                   # its citation
    assert "Required: every instance" in page                               # the expectation
    assert "carries the order across the aliases" in page                   # why (from the fixture's alias_mp.toml)
    assert 'src="svg/rule-alias.mp-2.svg"' in page                          # the diagram
    assert "release_store_gpu(&amp;flag_A[i], v);" in page                  # the snippet, axes filled in
    assert "control without fence.proxy.alias" in page                      # the control
    assert "NVIDIA H200, driver 580.159.04" in page and "driver 999.1" in page
    assert 'href="litmus-file-alias_mp.html"' in page                       # the litmus mirror
    assert ">Fail<" in page                                                 # the second run's failure
    # The oracle's derivation (list --json "derivation"): by the model, with the axioms that rule it out.
    assert "Derived by the PTX proxy model: required (allowed: new)" in page
    assert "breaks an axiom: causality" in page


def test_a_case_nothing_models_says_why(site):
    page = next(p.read_text() for p in site.glob("rule-access*.html") if "Not derived by the oracle" in p.read_text()
                or "Derived by the contract structure" in p.read_text())
    assert "Derived by the contract structure" in page or "Not derived by the oracle" in page


def test_snippet_when_no_shape(site):
    page = (site / "rule-access-1.html").read_text()
    assert "svg/rule-access" not in page
    assert "<pre>" in page and "Must fault" in page


def test_litmus_page(site):
    page = (site / "litmus.html").read_text()
    assert page.count('class="name">litmus.mp.') == 4
    assert "/work/" not in page


def test_heatmap(site):
    svg = (site / "svg/heatmap-alias.mp.svg").read_text()
    assert svg.count('class="cell"') == 3 * 2                               # 3 cases, a grid for each of 2 runs
    assert 'data-status="Fail"' in svg and 'data-status="Pass"' in svg
    assert "999.1" in svg
    # The fixture's three alias.mp cases differ in data and fence (flag follows from data): the grid's axes.
    assert "rows: data · columns: fence" in svg


def test_first_page_links_rules_and_states_no_number(site):
    page = (site / "index.html").read_text()
    start = page.index('id="start"')
    prose = page[start:page.index('id="runs"')]
    for topic in ("fence.proxy.alias orders", "Operation boundaries", "resident-grid clause", "Access rights"):
        assert topic in prose
    assert re.search(r'href="rule-alias.same_thread-\d+.html"', prose)
    # Measured numbers come only from the results files, in tables: none in the newcomer's prose.
    import html
    text = html.unescape(re.sub(r"<[^>]+>", " ", prose))
    text = re.sub(r"\b(rule|alias|access|lifecycle|api|proxy)[\w.-]*\d", " ", text)
    assert not re.search(r"\d+(\.\d+)?\s*%|\b\d{2,}\b", text), text


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        for key in ("href", "src"):
            if a.get(key):
                self.refs.append(a[key])


def _parse(path: Path) -> _Links:
    p = _Links()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def test_every_internal_link_resolves(site):
    pages = sorted(site.glob("*.html"))
    parsed = {p.name: _parse(p) for p in pages}
    checked = 0
    for name, links in parsed.items():
        for ref in links.refs:
            assert not re.match(r"^[a-z]+:", ref), f"{name}: external or absolute link {ref}"
            path, _, frag = ref.partition("#")
            target = (site / name).parent / path if path else site / name
            assert target.resolve().is_file(), f"{name}: {ref} does not resolve"
            if frag and target.suffix == ".html":
                assert frag in parsed[target.name].ids, f"{name}: {ref}: no id {frag}"
            checked += 1
    assert checked > 100
    css = (site / "handbook.css").read_text()
    assert "http" not in css and "@import" not in css


def test_markdown_links_resolve(site):
    md = (site / "handbook.md").read_text()
    ids = set(re.findall(r'<a id="([^"]+)"></a>', md))
    for target in re.findall(r"\]\(([^)]+)\)", md):
        assert not target.startswith("http"), target
        if target.startswith("#"):
            assert target[1:] in ids, target
        else:
            assert (site / target).is_file(), target
    assert "## Rules" in md and "![litmus shape of" in md and "/work/" not in md


def test_deterministic(tmp_path):
    other = second_run(tmp_path)
    outs = []
    for n in ("a", "b"):
        out = tmp_path / n
        assert handbook.main(["--cases-json", str(LIST), str(RESULTS), str(other), "-o", str(out)]) == 0
        outs.append({p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()})
    assert outs[0] == outs[1]


def test_regenerating_removes_stale_pages(tmp_path):
    out = tmp_path / "site"
    (out / "svg").mkdir(parents=True)
    (out / "rule-gone-1.html").write_text("old")
    (out / "svg" / "rule-gone-1.svg").write_text("old")
    (out / "notes.txt").write_text("mine")
    assert handbook.main(["--cases-json", str(LIST), "-o", str(out)]) == 0
    assert not (out / "rule-gone-1.html").exists() and not (out / "svg" / "rule-gone-1.svg").exists()
    assert (out / "notes.txt").read_text() == "mine"
    assert "No results files were given" in (out / "index.html").read_text()


def test_runs_as_module(tmp_path):
    import os
    out = tmp_path / "site"
    proc = subprocess.run([sys.executable, "-m", "vmmcheck_report.handbook", "--cases-json", str(LIST),
                           str(RESULTS), "-o", str(out)], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(REPORTS)))
    assert proc.returncode == 0, proc.stderr
    assert (out / "index.html").is_file()


# ------------------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("content, message", [
    (None, "no such file"),
    ('{"families": [], "cases": [', "not JSON"),
    ('{"families": []}', "not a case list"),
    ('{"families": [], "cases": [{"name": "x"}]}', "cases[0].family"),
])
def test_bad_case_list_exits_2_with_one_line(tmp_path, capsys, content, message):
    path = tmp_path / "list.json"
    if content is not None:
        path.write_text(content)
    rc = handbook.main(["--cases-json", str(path), "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert rc == 2
    assert err.count("\n") == 1 and message in err and str(path) in err
    assert not (tmp_path / "out").exists()


def _list_with(change):
    doc = json.loads(LIST.read_text())
    change(doc)
    return doc


@pytest.mark.parametrize("change, message", [
    (lambda d: d["families"][0].update(axes="x"), "families[0].axes: 'x' is not of type 'array'"),
    (lambda d: d["families"][0]["axes"][0].update(values=None), "families[0].axes[0].values: None is not of type"),
    (lambda d: d["cases"][0].update(derivation="x"), "cases[0].derivation: 'x' is not of type 'object', 'null'"),
    (lambda d: d["cases"][0].update(axes=[1]), "cases[0].axes: [1] is not of type 'object', 'null'"),
    (lambda d: d["cases"][0].update(shape={"weak": "x"}), "cases[0].shape: 'threads' is a required property"),
    (lambda d: d["cases"][0].update(shape={"threads": [], "boundaries": [[0, 1]]}),
     "cases[0].shape.boundaries[0]: no thread 1"),
])
def test_a_case_list_is_checked_where_the_handbook_reads_it(tmp_path, capsys, change, message):
    path = tmp_path / "list.json"
    path.write_text(json.dumps(_list_with(change)))
    rc = handbook.main(["--cases-json", str(path), str(RESULTS), "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and f"{path}: {message}" in err, err
    assert not (tmp_path / "out").exists()


def test_a_bad_command_line_is_one_line(capsys):
    assert handbook.main([]) == 2
    err = capsys.readouterr().err
    assert err == ("vmmcheck_report handbook: the following arguments are required: --cases-json, -o/--output "
                   "(vmmcheck_report handbook --help)\n")
    assert handbook.main(["--cases-json", "x", "--bogus", "-o", "d"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_bad_results_exit_2_with_one_line(tmp_path, capsys):
    bad = tmp_path / "r.json"
    bad.write_text('{"schema_version": 2, "results": [')
    rc = handbook.main(["--cases-json", str(LIST), str(bad), "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "not JSON" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("content, message", [
    ('{"a": 1}', 'not a vmmcheck-toolchain-matrix/1 file (no "schema" key)'),
    ("[]", "not a vmmcheck-toolchain-matrix/1 file: the document is a JSON array, not an object"),
    ("RESULTS", "not a vmmcheck-toolchain-matrix/1 file but a `vmmcheck run` results file"),
    ('{"schema": "vmmcheck-toolchain-matrix/1", "rows": 3}', "not a vmmcheck-toolchain-matrix/1 file: no 'versions' key"),
    ('{"schema": "vmmcheck-toolchain-matrix/1", "versions": [], "rows": 3, "arch": "sm_90", "disassembler": "x"}',
     "not a vmmcheck-toolchain-matrix/1 file: 'versions' is a JSON array, not object"),
    ("{oops", "not JSON"),
], ids=["object", "array", "results", "no-versions", "versions-array", "not-json"])
def test_a_toolchain_matrix_of_the_wrong_kind_exits_2_with_one_line(tmp_path, capsys, content, message):
    """--toolchain-matrix given another file: refused naming it and the kind expected (it was a KeyError
    'versions' from toolchain.levels)."""
    path = tmp_path / "matrix.json"
    path.write_text(RESULTS.read_text() if content == "RESULTS" else content)
    rc = handbook.main(["--cases-json", str(LIST), str(RESULTS), "--toolchain-matrix", str(path),
                        "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert rc == 2, err
    assert err.count("\n") == 1 and f"{path}: " in err and message in err, err
    assert not (tmp_path / "out").exists()


# -------------------------------------------------------------------------------------------- diagrams


def _family(name):
    return next(f for f in json.loads(LIST.read_text())["families"] if f["name"] == name)


def _case(name):
    return next(c for c in json.loads(LIST.read_text())["cases"] if c["name"] == name)


def _svg(case_name, family):
    shape = handbook_svg.shape_for_case(_case(case_name), _family(family))
    assert shape is not None
    return shape, handbook_svg.render_shape(shape)


def _check_svg(svg):
    import xml.etree.ElementTree as ET
    root = ET.fromstring(svg)                    # well-formed
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def test_diagram_message_passing_across_an_operation_boundary():
    """Writer operation, then reader operation ordered by the stream: two columns, the boundary edge, the
    reads-from in question; without an order there is no boundary edge."""
    shape, svg = _svg("alias.kernels.kernel.kernel.stream.alias", "alias.kernels")
    _check_svg(svg)
    assert svg.count('class="column"') == 2
    assert svg.count('class="edge edge-boundary"') == 1 and 'marker-end="url(#arrow-boundary)"' in svg
    assert svg.count('class="edge edge-rf-maybe"') == 1
    assert "fill kernel: st [A], NEW" in svg and "count kernel: ld [B]" in svg
    assert "stream order" in svg
    race = handbook_svg.render_shape(handbook_svg.shape_for_case(
        _case("alias.kernels.kernel.kernel.none.alias"), _family("alias.kernels")))
    assert "edge-boundary" not in race.split("</defs>")[1] and "race" in race


def test_diagram_message_passing_between_two_threads():
    shape, svg = _svg("alias.mp.alias.flagsame.wfence.gpu", "alias.mp")
    _check_svg(svg)
    assert [c.label for c in shape.columns] == ["writer", "reader"]
    assert svg.count('class="edge edge-rf"') == 1 and svg.count('class="edge edge-rf-maybe"') == 1
    # Program order: one arrow between consecutive instructions of each thread (3 writer, 3 reader ops).
    assert svg.count('class="po"') == 2 + 2
    assert svg.count("fence.proxy.alias") == 1 and "st.release.gpu [flag_A], 1" in svg
    assert "ld r2, [data_B]" in svg


def test_diagram_same_thread_through_two_aliases():
    shape, svg = _svg("alias.same_thread.alias.weak.fence", "alias.same_thread")
    _check_svg(svg)
    assert svg.count('class="column"') == 1
    assert "st.global [A], 1" in svg and "ld.global r1, [B]" in svg and "fence.proxy.alias" in svg
    assert svg.count('class="edge edge-rf-maybe"') == 1          # the loop from the store to the read
    assert "one physical word" in svg
    _, nofence = _svg("alias.same_thread.alias.weak.nofence", "alias.same_thread")
    assert "fence.proxy.alias" not in nofence


def test_diagram_resident_reader():
    shape, svg = _svg("alias.resident.alias.weak.kernelsignal", "alias.resident")
    _check_svg(svg)
    assert [c.label for c in shape.columns] == ["resident reader grid", "writing operation", "signal kernel"]
    for kind in ("rf", "rf-maybe", "boundary", "sync"):
        assert svg.count(f'class="edge edge-{kind}"') == 1, kind
    assert "ld.acquire.sys r1, [flag]" in svg and "ld.global r2, [B]" in svg


def test_diagram_from_the_models_shape_in_the_list():
    """A pattern without a hand drawing gets the shape `vmmcheck list --json` gives: threads as columns, the
    boundary as an edge from the writer's last operation to the reader's first."""
    case = {"name": "peer.kernels.x", "pattern": "peer_pair",
            "shape": {"threads": [{"name": "writer", "gpu": 0, "cta": 0, "resident": False, "ops": ["st [A], 1"]},
                                  {"name": "reader", "gpu": 1, "cta": 0, "resident": False,
                                   "ops": ["fence.proxy.alias", "ld r, [B]"]}],
                      "boundaries": [[0, 1]], "weak": "r != 1"}}
    shape = handbook_svg.shape_for_case(case, {"name": "peer.kernels", "pattern": "peer_pair"})
    assert [c.label for c in shape.columns] == ["writer", "reader"]
    assert shape.columns[1].sub == "GPU 1, CTA 0" and shape.columns[1].ops[0].kind == "fence"
    assert [(e.kind, e.src, e.dst) for e in shape.edges] == [("boundary", (0, 0), (1, 0))]
    svg = handbook_svg.render_shape(shape)
    _check_svg(svg)
    assert "ld r, [B]" in svg and "may r != 1 ?" in svg


def test_no_shape_for_other_patterns():
    assert handbook_svg.shape_for_case(_case("access.none.read"), _family("access")) is None


# -------------------------------------------------------------------------------------------- heatmaps

SVG_NS = "{http://www.w3.org/2000/svg}"

# A family of two axes, as `vmmcheck list --json` gives it: the values in the family's order (not alphabetical).
GRID_FAMILY = {"name": "fam", "axes": [
    {"name": "view", "values": [{"value": "same"}, {"value": "alias"}, {"value": "offset"}]},
    {"name": "fence", "values": [{"value": "none"}, {"value": "writer"}]},
    {"name": "scope", "values": [{"value": "gpu"}]}]}          # one value: no dimension of the grid


def grid_cases(skip=()):
    return [{"name": f"fam.{v}.{f}.gpu", "axes": {"view": v, "fence": f, "scope": "gpu"}}
            for v in ("offset", "same", "alias") for f in ("writer", "none") if (v, f) not in skip]


def rec(status="Pass", weak=0, instances=1000):
    return {"status": status, "weak": weak, "instances": instances}


def heatmap(runs, family=GRID_FAMILY, cases=None):
    grid = handbook_svg.grid_layout(family, cases if cases is not None else grid_cases())
    return _check_svg(handbook_svg.render_heatmap("t", grid, runs))


def cells(root):
    """case name -> (the cell's <g>, its <rect>), of the first run's grid."""
    run = root.find(f"{SVG_NS}g[@class='run']")
    return {g.get("data-case"): (g, g.find(f"{SVG_NS}rect")) for g in run.iter(f"{SVG_NS}g") if g.get("class") == "cell"}


def luminance(hex_colour):
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_heatmap_fill_follows_the_weak_rate():
    """Cells of one status differ in fill when their weak rates differ, agree when the rates agree, and a
    higher rate is darker: the colour is the rate, not the status."""
    records = {"fam.same.none.gpu": rec(weak=0), "fam.same.writer.gpu": rec(weak=2, instances=10_000_000),
               "fam.alias.none.gpu": rec(weak=50), "fam.alias.writer.gpu": rec(weak=500),
               "fam.offset.none.gpu": rec(weak=5, instances=100), "fam.offset.writer.gpu": rec(weak=0, instances=0)}
    fill = {name: r.get("fill") for name, (_, r) in cells(heatmap([("run", records)])).items()}
    assert len(fill) == 6
    assert len({g.get("data-status") for g, _ in cells(heatmap([("run", records)])).values()}) == 1  # all Pass
    assert fill["fam.alias.none.gpu"] != fill["fam.alias.writer.gpu"]                 # 5% and 50%
    assert fill["fam.alias.none.gpu"] == fill["fam.offset.none.gpu"]                  # 5% both
    order = ["fam.same.none.gpu", "fam.same.writer.gpu", "fam.alias.none.gpu", "fam.alias.writer.gpu"]
    lum = [luminance(fill[n]) for n in order]                                         # 0, 2e-7, 5%, 50%
    assert lum == sorted(lum, reverse=True) and len(set(lum)) == 4
    assert fill["fam.offset.writer.gpu"] == handbook_svg.NO_RATE_FILL                 # ran no instances
    # A failure keeps the fill of its rate: the status is the mark, not the colour.
    failed = dict(records, **{"fam.alias.none.gpu": rec("Fail", weak=50)})
    assert cells(heatmap([("run", failed)]))["fam.alias.none.gpu"][1].get("fill") == fill["fam.alias.none.gpu"]


def test_heatmap_marks_the_status_and_explains_it():
    records = {"fam.same.none.gpu": rec("Pass"), "fam.same.writer.gpu": rec("Warning", weak=3),
               "fam.alias.none.gpu": rec("Fail", weak=3), "fam.alias.writer.gpu": rec("NotSupported", instances=0),
               "fam.offset.none.gpu": rec("Crash", instances=0)}                     # fam.offset.writer.gpu: not run
    root = heatmap([("run", records)])
    marks = {}
    for name, (g, _) in cells(root).items():
        paths = [e.get("class") for e in g.iter(f"{SVG_NS}path") if e.get("class")]
        assert len(paths) == 1, name
        marks[name] = paths[0]
        tip = g.find(f"{SVG_NS}title").text
        assert tip.startswith(name + ": ")
        if name in records and records[name]["instances"]:
            assert f"{records[name]['status']}, weak {records[name]['weak']} / 1k instances" in tip
    assert marks == {"fam.same.none.gpu": "mark mark-pass", "fam.same.writer.gpu": "mark mark-warn",
                     "fam.alias.none.gpu": "mark mark-fail", "fam.alias.writer.gpu": "mark mark-skip",
                     "fam.offset.none.gpu": "mark mark-fail", "fam.offset.writer.gpu": "mark mark-skip"}
    assert "not in this run" in cells(root)["fam.offset.writer.gpu"][0].find(f"{SVG_NS}title").text
    legend = "".join(root.find(f"{SVG_NS}g[@class='legend']").itertext())
    for words in ("weak outcomes / instances", "passed", "warning", "failed", "not supported", "0.01%", "100%"):
        assert words in legend, words
    legend_marks = {e.get("class") for e in root.find(f"{SVG_NS}g[@class='legend']").iter(f"{SVG_NS}path")}
    assert {"mark mark-pass", "mark mark-warn", "mark mark-fail", "mark mark-skip"} <= legend_marks


def _labels(root, cls):
    run = root.find(f"{SVG_NS}g[@class='run']")
    return [(t.get("x"), t.get("y"), "".join(t.itertext()).replace(t.findtext(f"{SVG_NS}title") or "", ""))
            for t in run.iter(f"{SVG_NS}text") if t.get("class") == cls]


def test_heatmap_is_a_grid_over_the_family_axes():
    """Rows are the first axis's values, columns the second's, each in the family's order (not the cases'), the
    one-valued axis is left out, and every case sits where its row and its column cross."""
    root = heatmap([("run", {c["name"]: rec() for c in grid_cases()})])
    cols = _labels(root, "col-label")
    rows = _labels(root, "row-label")
    assert [text for _, _, text in cols] == ["none", "writer"]
    assert [text for _, _, text in rows] == ["same", "alias", "offset"]
    names = [t.text for t in root.iter(f"{SVG_NS}text") if t.get("class") == "axis-name"]
    assert names[:2] == ["fence", "view"] and "scope" not in names
    col_x = {text: float(x) for x, _, text in cols}
    row_y = {text: float(y) for _, y, text in rows}
    for name, (g, r) in cells(root).items():
        _, view, fence, _ = name.split(".")
        cx, cy = float(r.get("x")) + float(r.get("width")) / 2, float(r.get("y")) + float(r.get("height")) / 2
        assert abs(cx - col_x[fence]) < 1, name
        assert abs(cy - row_y[view]) < 8, name
    assert "rows: view · columns: fence" in "".join(root.itertext())


def test_heatmap_leaves_a_missing_combination_empty():
    cases = grid_cases(skip={("same", "writer")})
    root = heatmap([("run", {c["name"]: rec() for c in cases})], cases=cases)
    assert len(cells(root)) == 5 and "fam.same.writer.gpu" not in cells(root)


def test_heatmap_two_axes_per_side_span_the_outer_values():
    family = {"name": "f", "axes": [{"name": a, "values": [{"value": v} for v in vs]} for a, vs in
                                    [("a", "xy"), ("b", "pq"), ("c", "mn"), ("d", "uv")]]}
    cases = [{"name": f"f.{a}{b}{c}{d}", "axes": {"a": a, "b": b, "c": c, "d": d}}
             for a in "xy" for b in "pq" for c in "mn" for d in "uv"]
    grid = handbook_svg.grid_layout(family, cases)
    assert [x.name for x in grid.rows] == ["a", "b"] and [x.name for x in grid.columns] == ["c", "d"]
    assert grid.row_keys == [("x", "p"), ("x", "q"), ("y", "p"), ("y", "q")]
    root = _check_svg(handbook_svg.render_heatmap("t", grid, [("run", {c["name"]: rec() for c in cases})]))
    # The outer column axis is written once per group, the inner once per column; likewise the rows.
    assert [t for _, _, t in _labels(root, "col-label")] == ["m", "n", "u", "v", "u", "v"]
    assert [t for _, _, t in _labels(root, "row-label")] == ["x", "p", "q", "y", "p", "q"]


def test_heatmap_axis_fixed_by_another_is_a_label_not_a_dimension():
    """Litmus rows: the instance fixes the command and the expectation. The command becomes a label beside the
    instance (no 40 x 40 diagonal); assert/permit, the coarsest, the columns."""
    family = {"name": "litmus.mp", "axes": [{"name": "file", "values": [{"value": "mp"}]},
                                            {"name": "instance", "values": []}, {"name": "command", "values": []},
                                            {"name": "expect", "values": [{"value": "assert"}, {"value": "permit"}]}]}
    cases = [{"name": f"litmus.mp.{i}.cmd{i}", "axes": {"file": "mp", "instance": str(i), "command": f"cmd{i}",
                                                        "expect": "assert" if i % 3 else "permit"}} for i in range(7)]
    grid = handbook_svg.grid_layout(family, cases)
    assert [a.name for a in grid.rows] == ["instance"] and [a.name for a in grid.columns] == ["expect"]
    assert [a.name for a in grid.labels] == ["command"]
    assert len(grid.row_keys) == 7 and grid.column_keys == [("assert",), ("permit",)]
    assert grid.row_labels[("3",)] == ("cmd3",)


def test_heatmap_cases_without_axes_one_row_each():
    grid = handbook_svg.grid_layout({"name": "old"}, [{"name": "old.a"}, {"name": "old.b"}])
    assert grid.row_keys == [("a",), ("b",)] and grid.columns == []


def test_heatmap_one_grid_per_run():
    runs = [("run A", {c["name"]: rec() for c in grid_cases()}), ("run B", {"fam.same.none.gpu": rec("Fail")}),
            ("run C", {"other.case": rec()})]
    root = heatmap(runs)
    panels = [g for g in root.iter(f"{SVG_NS}g") if g.get("class") == "run"]
    assert [g.get("data-run") for g in panels] == ["run A", "run B"]
    assert all(len([c for c in g.iter(f"{SVG_NS}g") if c.get("class") == "cell"]) == 6 for g in panels)
    assert "run C: none of these cases ran" in "".join(root.itertext())
    # One axis: the runs side by side as the columns, not one tall strip each.
    one_axis = {"name": "api", "axes": [{"name": "call", "values": [{"value": "x"}, {"value": "y"}]}]}
    cases = [{"name": "api.x", "axes": {"call": "x"}}, {"name": "api.y", "axes": {"call": "y"}}]
    root = heatmap([("run A", {"api.x": rec()}), ("run B", {"api.x": rec("Fail"), "api.y": rec()})], one_axis, cases)
    assert [t for _, _, t in _labels(root, "col-label")] == ["run 1", "run 2"]
    marks = [g.get("data-mark") for g in root.iter(f"{SVG_NS}g") if g.get("class") == "cell"]
    assert marks == ["pass", "fail", "skip", "pass"]                  # x in A, x in B, y in A (absent), y in B
    assert "run 1: run A · run 2: run B" in "".join(root.itertext())


def test_family_page_shows_the_heatmap_inline(site):
    """Inline, so that a cell's tooltip shows; the SVG file is there too (the Markdown shows it)."""
    page = (site / "family-alias.mp.html").read_text()
    assert page.count('<g class="cell"') == 3 * 2 and 'href="svg/heatmap-alias.mp.svg"' in page
    assert "alias.mp.alias.flagsame.wfence.gpu: Fail, weak 3 / " in page


# ------------------------------------------------------------------------------------------ in a browser

needs_chromium = pytest.mark.skipif(browser.find_chromium() is None, reason=browser.missing_reason())


COMMITTED = REPORTS.parent / "docs" / "handbook"


@needs_chromium
@pytest.mark.parametrize("which", ["fixture", "committed"])
def test_every_page_in_chromium(site, which):
    """Every page loads from disk: no console error (a missing file is one), every image decoded, every
    link to a file that exists -- of the fixture's handbook, and of the one committed in docs/handbook
    (generated from the committed H200 runs; ctest handbook.current keeps it current)."""
    pages = sorted((site if which == "fixture" else COMMITTED).glob("*.html"))
    assert pages
    with browser.headless(1200, 900) as driver:
        driver.get_log("browser")
        for page in pages:
            driver.get(page.as_uri())
            errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
            assert errors == [], (page.name, errors)
            imgs = driver.execute_script(
                "return [...document.images].map(i => [i.getAttribute('src'), i.complete && i.naturalWidth > 0])")
            assert all(ok for _, ok in imgs), (page.name, imgs)
            for href in driver.execute_script("return [...document.links].map(a => a.href)"):
                url = urlparse(href)
                assert url.scheme == "file", (page.name, href)
                assert Path(unquote(url.path)).is_file(), (page.name, href)
            assert driver.execute_script("return document.documentElement.scrollWidth") <= 1200, page.name


@needs_chromium
def test_screenshot_tool(tmp_path):
    proc = subprocess.run([sys.executable, str(REPORTS / "tools" / "handbook_screenshots.py"), "--cases-json",
                           str(LIST), str(RESULTS), "-o", str(tmp_path), "--rule", "alias.mp-2",
                           "--width", "800", "--height", "600"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    for name in ("handbook-index.png", "handbook-rule.png", "handbook-heatmap.png"):
        data = (tmp_path / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 1_000_000


def test_litmus_rows_carry_the_models_explanation(tmp_path):
    """A row's explanation from `list --json` (the lines `vmmcheck explain` prints) is on the litmus page under
    the row and on its file's page; a vacuous row is marked there."""
    doc = json.loads(LIST.read_text())
    because = ("the model forbids r0 == 1 && r1 == 0: the one candidate execution showing it breaks an axiom: causality\n"
               "      -rf->       t1: ld.acquire.cta r0, [flag]   (the release and the acquire synchronize)")
    doc["litmus_rows"] = [{"name": "litmus.mp.0.cta_rel_acq", "file": str(REPORTS.parent / "cases/litmus/MP.test"),
                           "line": 12, "expect": "assert", "condition": "not (r0 == 1 && r1 == 0)", "model": "holds",
                           "vacuous": True, "explanation": because, "axes": {"file": "mp", "instance": "0"},
                           "source": "// MP -- message passing.\n// more of the file's comment\n\n.global x;\n\n\n"
                                     "d0.b0.t0 {\n  st [x], 1;\n  \n  st.release.cta [flag], 1;\n}\n"}]
    # The fixture's family sources are relative to it: keep them resolvable from the copy.
    for fam in doc["families"]:
        if fam.get("source") and not Path(fam["source"]).is_absolute():
            fam["source"] = str((LIST.parent / fam["source"]).resolve())
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps(doc))
    out = tmp_path / "site"
    assert handbook.main(["--cases-json", str(listed), str(RESULTS), "-o", str(out)]) == 0
    page = (out / "litmus.html").read_text()
    assert "the model: holds" in page and "-rf-&gt;       t1: ld.acquire.cta r0, [flag]" in page
    file_page = (out / "litmus-file-mp.html").read_text()
    assert 'id="litmus.mp.0.cta_rel_acq"' in file_page and "<b>vacuous</b>" in file_page
    assert "the one candidate execution showing it breaks an axiom: causality" in file_page
    # MP.test is a template: under each row its own test, the file's comment left to the file's text above.
    assert ("<summary>its test, the template's holes filled</summary><pre>.global x;\n\nd0.b0.t0 {\n  st [x], 1;\n"
            "  st.release.cta [flag], 1;\n}</pre>") in file_page, file_page


def test_a_topic_of_a_retired_family_links_its_litmus_rows():
    """alias.rmw's cases are litmus rows now (`case NAME`): the topic on atomics links the file's page."""
    rows = [{"name": "alias.rmw.same.gpu", "expect": "assert", "condition": "[x] == 3", "model": "holds"},
            {"name": "alias.rmw.alias.gpu", "expect": "permit", "condition": "not ([x] == 3)", "model": "allowed"}]
    files = {"alias_rmw": {"file": "alias_rmw.test", "page": "litmus-file-alias_rmw.html"}}
    found = handbook.topics([], {}, {}, rows, files)
    atomics = next(t for t in found if t["title"].startswith("Atomics through two aliases"))
    assert [(l["case"], l["rule"]["page"]) for l in atomics["links"]] == [("alias.rmw.alias.gpu", "litmus-file-alias_rmw.html")]
    assert "the model: allowed" in atomics["links"][0]["rule"]["rule"]
    # Without the rows, no link (and no error).
    assert next(t for t in handbook.topics([], {}, {}) if t["title"].startswith("Atomics"))["links"] == []


def test_a_rows_test_drops_the_files_comment_and_extra_blank_lines():
    assert handbook.row_test("// a\n//b\n\n.global x;\n\n\n\nd0.b0.t0 {\n}\n\n") == ".global x;\n\nd0.b0.t0 {\n}"
    assert handbook.row_test("") == ""
    assert handbook.row_test("  // indented comment\nd0.b0.t0 { // kept: not the opening comment\n}") == \
        "d0.b0.t0 { // kept: not the opening comment\n}"
