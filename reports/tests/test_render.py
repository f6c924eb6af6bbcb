"""render: the HTML page and the markdown hold every case, the right counts, in the right order."""

import base64
import re
import time

import pytest

from conftest import H200, H200_FAMILIES, make_doc, result, run_module, write_json
from vmmcheck_report import fmt, render

CASE_ROW = re.compile(r'<tr class="case[^"]*" id="case-([^"]+)" data-status="([^"]+)">')


@pytest.fixture(scope="session")
def h200_html(h200_doc_frozen):
    start = time.monotonic()
    html = render.render_html(h200_doc_frozen)
    elapsed = time.monotonic() - start
    assert elapsed < 15, f"rendering 216 cases took {elapsed:.1f} s"
    return html


def family_counts(html):
    """{family: {status: count}} read back from the families table."""
    out = {}
    for family, cells in re.findall(r'<tr class="family-row" data-family="([^"]+)">(.*?)</tr>', html, re.S):
        out[family] = {s: int(n) for s, n in re.findall(r'data-status="([^"]+)">(\d+)</td>', cells)}
    return out


def test_title_names_gpu_and_driver(h200_html):
    assert "<title>vmmcheck — NVIDIA H200, driver 580.159.04 (CUDA 13.0)</title>" in h200_html


def test_every_case_has_a_row(h200_html, h200_doc_frozen):
    rows = CASE_ROW.findall(h200_html)
    assert len(rows) == 216
    assert {name for name, _ in rows} == {r["name"] for r in h200_doc_frozen["results"]}
    assert {status for _, status in rows} == {"Pass"}


def test_family_table(h200_html):
    counts = family_counts(h200_html)
    assert {f: c["total"] for f, c in counts.items()} == H200_FAMILIES
    assert all(c["Pass"] == c["total"] and c["Fail"] == 0 for c in counts.values())
    footer = re.search(r"<tfoot>.*?</tfoot>", h200_html, re.S).group(0)
    totals = dict(re.findall(r'<th class="num" data-status="([^"]+)">(\d+)</th>', footer))
    assert totals == {"Pass": "216", "Fail": "0", "Crash": "0", "Timeout": "0", "Error": "0",
                      "NotSupported": "0", "total": "216"}


def test_context_block(h200_html):
    for text in ("NVIDIA H200 (device 0)", "580.159.04", "CUDA 13.0", "48fe82165f48", "2026-11-29T19:32:06Z",
                 "certifying", "10M × 4 iterations"):
        assert text in h200_html
    assert "NOT certifying" not in h200_html


def test_self_contained_with_one_png_per_case(h200_html):
    assert not re.search(r'(src|href)="(https?:)?//', h200_html), "no external URLs"
    assert "<link" not in h200_html and "<script src" not in h200_html
    images = re.findall(r'<img src="data:image/png;base64,([^"]+)"', h200_html)
    assert len(images) == 216
    for data in set(images):
        assert base64.b64decode(data)[:8] == b"\x89PNG\r\n\x1a\n"


def test_all_pass_families_closed_rule_and_citation_dash(h200_html):
    assert h200_html.count('<details class="family"') == 4
    assert '<details class="family" id="fam-alias.kernels" open>' not in h200_html
    assert h200_html.count('<td class="rule">—</td>') == 216
    assert h200_html.count('<td class="citation">—</td>') == 216


def case_rows(html):
    """{case name: the row's HTML}."""
    return dict(re.findall(r'<tr class="case[^"]*" id="case-([^"]+)".*?>(.*?)</tr>', html, re.S))


def test_undefined_cases_show_weak_rate(h200_html, h200_doc_frozen):
    rows = case_rows(h200_html)
    undefined = [r for r in h200_doc_frozen["results"] if r["expectation"] == "undefined"]
    assert len(undefined) == 98
    for r in undefined:
        shown = f'<td class="num">{fmt.percent(r["weak"] / r["instances"])}<div class="muted">{fmt.count(r["weak"])} weak'
        assert shown in rows[r["name"]], r["name"]
    # Spot-check the arithmetic on one real case: 776013 of 10813440 instances were weak.
    assert '<td class="num">7.18%<div class="muted">776k weak' in rows["alias.mp.alias.flagalias.nofence.cta"]
    required = [r["name"] for r in h200_doc_frozen["results"] if r["expectation"] == "required"]
    assert all("weak</div>" not in rows[name] for name in required)


def failing_doc():
    return make_doc([
        result("alias.kernels.a.ok"),
        result("alias.mp.a.ok", expectation="undefined", histogram={"new": 75, "stale": 25}, weak=25,
               rule="Either value may be read.", citation="PTX ISA 8.5 §9.7.12.15"),
        result("alias.resident.a.ok"),
        result("alias.resident.b.fails", "Fail", histogram={"new": 90, "old": 10}, reason="10 stale reads"),
        result("alias.resident.c.crash", "Crash", histogram={}, instances=0, reason="signal 11"),
    ])


def test_failures_first_and_open():
    html = render.render_html(failing_doc())
    families = re.findall(r'<details class="family" id="fam-([^"]+)"( open)?>', html)
    assert families[0] == ("alias.resident", " open")
    assert [f for f, _ in families[1:]] == ["alias.kernels", "alias.mp"]
    assert all(not opened for _, opened in families[1:])
    rows = CASE_ROW.findall(html)
    assert rows[:3] == [("alias.resident.c.crash", "Crash"), ("alias.resident.b.fails", "Fail"),
                        ("alias.resident.a.ok", "Pass")]
    assert "2 unexpected results of 5 cases" in html
    assert "10 stale reads" in html and "signal 11" in html


def test_rule_citation_weak_rate_and_empty_histogram():
    html = render.render_html(failing_doc())
    assert '<td class="rule">Either value may be read.</td>' in html
    assert '<td class="citation">PTX ISA 8.5 §9.7.12.15</td>' in html
    assert '<td class="num">25%<div class="muted">25 weak</div>' in html
    assert len(re.findall(r"<img ", html)) == 4  # the crash has an empty histogram: no plot


def test_empty_run():
    html = render.render_html(make_doc([]))
    assert CASE_ROW.findall(html) == []
    assert "This run has no results" in html and "No cases ran." in html


def test_all_not_supported():
    doc = make_doc([result(f"alias.mp.c{i}.x", "NotSupported", histogram={}, instances=0,
                           reason="needs 2 GPUs") for i in range(5)])
    html = render.render_html(doc)
    assert family_counts(html) == {"alias.mp": {"Pass": 0, "Fail": 0, "Crash": 0, "Timeout": 0, "Error": 0,
                                                "NotSupported": 5, "total": 5}}
    assert "No unexpected results in 5 cases" in html
    assert html.count("needs 2 GPUs") == 5


def test_markdown(h200_doc_frozen):
    md = render.render_markdown(h200_doc_frozen)
    assert md.startswith("# vmmcheck — NVIDIA H200, driver 580.159.04 (CUDA 13.0)\n")
    case_rows = re.findall(r"^\| `(alias\.[^`]+)` \|.*\| (Pass|Fail) \|", md, re.M)
    assert len(case_rows) == 216
    for family, n in H200_FAMILIES.items():
        assert re.search(rf"^\| {re.escape(family)} \| {n} \| 0 \| 0 \| 0 \| 0 \| 0 \| {n} \|$", md, re.M)
    assert "| 216 | 0 | 0 | 0 | 0 | 0 | 216 |" in md
    assert "data:image" not in md


def test_markdown_escapes_pipes():
    md = render.render_markdown(make_doc([result("alias.mp.a.b", "Fail", reason="a | b\nc")]))
    assert "a \\| b c" in md


def test_cli_writes_html_and_markdown(tmp_path, run_cli):
    rc, out, err = run_cli("render", H200, "-o", tmp_path / "r.html")
    assert (rc, out, err) == (0, "", "")
    assert len(CASE_ROW.findall((tmp_path / "r.html").read_text())) == 216
    rc, out, _ = run_cli("render", H200, "--markdown")
    assert rc == 0 and out.startswith("# vmmcheck — NVIDIA H200")


def test_cli_subprocess_from_reports_dir(tmp_path):
    """`python3 -m vmmcheck_report` from reports/ (cwd on the path) works too."""
    doc = write_json(tmp_path / "f.json", failing_doc())
    proc = run_module("render", doc, "--markdown", cwd=H200.parent.parent.parent)
    assert proc.returncode == 0, proc.stderr
    assert "## alias.resident (3 cases, 2 unexpected)" in proc.stdout
