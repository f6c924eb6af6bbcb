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
    assert "carries the order across the aliases" in page                   # why (from cases/alias_mp.toml)
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
    assert svg.count('class="cell"') == 3 * 2                               # 3 cases x 2 runs
    assert 'data-status="Fail"' in svg and 'data-status="Pass"' in svg
    assert "999.1" in svg


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


def test_bad_results_exit_2_with_one_line(tmp_path, capsys):
    bad = tmp_path / "r.json"
    bad.write_text('{"schema_version": 2, "results": [')
    rc = handbook.main(["--cases-json", str(LIST), str(bad), "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "not JSON" in err
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


def test_heatmap_cells():
    svg = handbook_svg.render_heatmap("t", ["a", "b"], ["run 1", "run 2"],
                                      [[{"status": "Pass", "weak": 1, "instances": 4}, None],
                                       [{"status": "NotSupported", "weak": 0, "instances": 0},
                                        {"status": "Fail", "weak": 0, "instances": 10}]])
    _check_svg(svg)
    assert svg.count('class="cell"') == 4
    assert ">25%<" in svg and ">—<" in svg and ">n/s<" in svg and 'data-status="Fail"' in svg


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
