"""render: the HTML page and the markdown hold every case, the right counts, in the right order."""

import base64
import json
import io
import re
import time
from html.parser import HTMLParser

import markupsafe
import matplotlib.image
import pytest

from conftest import H200, H200_FAMILIES, H200_TOTAL, make_doc, result, run_module, write_json
from vmmcheck_report import fmt, model, plots, render

CASE_ROW = re.compile(r'<tr class="case[^"]*" id="case-([^"]+)" data-status="([^"]+)">')


@pytest.fixture(scope="session")
def h200_html(h200_doc_frozen):
    start = time.monotonic()
    html = render.render_html(h200_doc_frozen)
    elapsed = time.monotonic() - start
    assert elapsed < 15, f"rendering {H200_TOTAL} cases took {elapsed:.1f} s"
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
    assert len(rows) == 243
    assert {name for name, _ in rows} == {r["name"] for r in h200_doc_frozen["results"]}
    assert {status for _, status in rows} == {"Pass"}


def test_family_table(h200_html):
    counts = family_counts(h200_html)
    assert {f: c["total"] for f, c in counts.items()} == H200_FAMILIES
    # Nothing failed, so the families keep the run's order.
    assert list(counts) == ["access", "alias.kernels", "alias.mp", "alias.resident", "alias.same_thread", "api",
                            "lifecycle", "lifecycle.unmap"]
    assert all(c["Pass"] == c["total"] and c["Fail"] == 0 for c in counts.values())
    footer = re.search(r"<tfoot>.*?</tfoot>", h200_html, re.S).group(0)
    totals = dict(re.findall(r'<th class="num" data-status="([^"]+)">(\d+)</th>', footer))
    assert totals == {"Pass": "243", "Fail": "0", "Crash": "0", "Timeout": "0", "Error": "0",
                      "NotSupported": "0", "Warning": "0", "total": "243"}


def test_context_block(h200_html):
    for text in ("NVIDIA H200 (device 0)", "580.159.04", "CUDA 13.0", "10a728a", "2026-11-29T20:23:57Z",
                 "certifying", "10M × 4 iterations"):
        assert text in h200_html
    assert "NOT certifying" not in h200_html


def test_self_contained_with_one_png_per_case(h200_html):
    assert not re.search(r'(src|href)="(https?:)?//', h200_html), "no external URLs"
    assert "<link" not in h200_html and "<script src" not in h200_html
    images = re.findall(r'<img src="data:image/png;base64,([^"]+)"', h200_html)
    assert len(images) == 243
    assert len(set(images)) == 45  # one per distinct histogram (plots.py caches them)
    for data in set(images):
        assert base64.b64decode(data)[:8] == b"\x89PNG\r\n\x1a\n"


def test_all_pass_families_closed(h200_html):
    assert h200_html.count('<details class="family"') == 8
    assert h200_html.count('<details class="family" id="fam-') == 8
    assert not re.search(r'<details class="family" id="fam-[^"]+" open>', h200_html)


def case_rows(html):
    """{case name: the row's HTML, without the <wbr> break hints}."""
    return {name: row.replace("<wbr>", "")
            for name, row in re.findall(r'<tr class="case[^"]*" id="case-([^"]+)".*?>(.*?)</tr>', html, re.S)}


def test_every_case_shows_its_rule_and_citation(h200_html, h200_doc_frozen):
    rows = case_rows(h200_html)
    assert '<td class="rule">—' not in h200_html  # every record of this run has both
    for r in h200_doc_frozen["results"]:
        rule, citation = markupsafe.escape(r["rule"]), markupsafe.escape(r["citation"])
        assert f'<td class="rule">{rule}<div class="citation">{citation}</div></td>' in rows[r["name"]], r["name"]
    # One read in full, quotes and all.
    assert rows["api.double_release"].count(
        '<td class="rule">cuMemRelease of a handle that is no longer valid is undefined behaviour.'
        '<div class="citation">CUDA Driver API cuMemRelease (&#34;If handle is not a valid handle the behavior '
        'is undefined&#34;)</div></td>') == 1


def test_fault_and_api_cases(h200_html, h200_doc_frozen):
    rows = case_rows(h200_html)
    by_class = {}
    for r in h200_doc_frozen["results"]:
        by_class.setdefault(r["expectation"], []).append(r["name"])
    assert {k: len(v) for k, v in by_class.items()} == {"required": 129, "undefined": 107, "fault": 6, "api": 1}
    assert by_class["fault"] == ["access.none.read", "access.none.write", "access.read.write",
                                 "access.read_after_rw.write", "access.subrange_outside.read",
                                 "access.subrange_outside.write"]
    assert by_class["api"] == ["api.granularity"]
    for name in by_class["fault"]:
        row = rows[name]
        assert "<td>fault</td>" in row and 'title="completed=0 fault=1 wrong=0"' in row
        assert "the access faulted: cudaErrorIllegalAddress" in row
    # Instances per second under the instances: 1 instance in 0.387 s.
    assert '>1<div class="muted rate">2.7/s</div></td>' in rows["access.none.read"]
    granularity = rows["api.granularity"]
    assert "<td>api</td>" in granularity and 'title="CUDA_ERROR_INVALID_VALUE=0 CUDA_SUCCESS=1"' in granularity
    assert "the driver returned CUDA_SUCCESS; minimum 2 MiB, recommended 2 MiB" in granularity
    # The status-named bins in full in the plot's hover text; the row breaks the long names at "_".
    assert 'title="CUDA_ERROR_INVALID_VALUE=0 CUDA_ERROR_UNKNOWN=1 CUDA_SUCCESS=0"' in rows["api.import_invalid_fd"]
    assert "the driver returned CUDA_<wbr>ERROR_<wbr>UNKNOWN" in h200_html
    # Only families with `undefined` cases have a weak-rate column: not access, not lifecycle.
    heads = dict(re.findall(r'<details class="family" id="fam-([^"]+)">.*?<thead>(.*?)</thead>', h200_html, re.S))
    assert sorted(f for f, head in heads.items() if "Weak rate" in head) == [
        "alias.kernels", "alias.mp", "alias.resident", "alias.same_thread", "api", "lifecycle.unmap"]


def _png_alpha(uri):
    return matplotlib.image.imread(io.BytesIO(base64.b64decode(uri.split(",", 1)[1])), format="png")[:, :, 3]


@pytest.mark.parametrize("histogram", [
    {"CUDA_ERROR_INVALID_VALUE": 0, "CUDA_ERROR_UNKNOWN": 1, "CUDA_SUCCESS": 0},
    {"completed": 0, "fault": 1, "unmap_refused": 0, "wrong": 0},
    {"CUDA_ERROR_NOT_PERMITTED": 3, "an_outcome_name_far_longer_than_any_real_one": 16777216},
])
def test_plot_labels_are_never_clipped(histogram):
    """Labels sit inside the picture: its left and right edges are transparent (nothing cut off there)."""
    plots._render.cache_clear()
    alpha = _png_alpha(plots.histogram_uri(histogram, "passed"))
    assert alpha.shape[1] == round(plots.WIDTH_IN * plots.DPI)
    assert alpha[:, :2].max() == 0 and alpha[:, -2:].max() == 0


def test_soft_breaks_in_long_identifiers():
    br = lambda text: str(render._soft_break(text))  # noqa: E731
    assert br("returned CUDA_ERROR_INVALID_VALUE; a <b>") == "returned CUDA_<wbr>ERROR_<wbr>INVALID_<wbr>VALUE; a &lt;b&gt;"
    assert br("from `cudaStreamSynchronize(s.stream(0))` at /work/main/planted_cases.cpp:29") == (
        "from `cudaStreamSynchronize(<wbr>s.stream(<wbr>0))` at /work/<wbr>main/<wbr>planted_<wbr>cases.cpp:29")
    # Camel-case humps only in names too long for a column; "(" after a space is no break point.
    assert br("cuMemGetAllocationGranularity; cudaErrorIllegalAddress (PROT_READ)") == (
        "cu<wbr>Mem<wbr>Get<wbr>Allocation<wbr>Granularity; cudaErrorIllegalAddress (PROT_<wbr>READ)")
    assert br("") == "" and br("—") == "—"


def test_plot_labels_shorten_cuda_statuses():
    assert [plots.short_label(k) for k in ("CUDA_SUCCESS", "CUDA_ERROR_INVALID_VALUE", "CUDA_ERROR_UNKNOWN",
                                           "unmap_refused", "new", "CUDA_")] == [
        "SUCCESS", "INVALID_VALUE", "UNKNOWN", "unmap_refused", "new", "CUDA_"]
    long = plots.short_label("an_outcome_name_far_longer_than_any_real_one")
    assert len(long) == plots.LABEL_MAX and long == "an_outcome_n…l_one"


def test_undefined_cases_show_weak_rate(h200_html, h200_doc_frozen):
    rows = case_rows(h200_html)
    undefined = [r for r in h200_doc_frozen["results"] if r["expectation"] == "undefined"]
    assert len(undefined) == 107
    for r in undefined:
        shown = f'<td class="num">{fmt.percent(r["weak"] / r["instances"])}<div class="muted">{fmt.count(r["weak"])} weak'
        assert shown in rows[r["name"]], r["name"]
    # Spot-check the arithmetic on one real case: 778894 of 10813440 instances were weak (7.203%).
    assert '<td class="num">7.2%<div class="muted">779k weak' in rows["alias.mp.alias.flagalias.nofence.cta"]
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
    assert '<td class="rule">Either value may be read.<div class="citation">PTX ISA 8.5 §9.7.12.15</div></td>' in html
    assert html.count('<td class="rule">—</td>') == 4  # results from before 0.2 have neither
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
                                                "NotSupported": 5, "Warning": 0, "total": 5}}
    assert "No unexpected results in 5 cases" in html
    assert html.count("needs 2 GPUs") == 5


def test_markdown(h200_doc_frozen):
    md = render.render_markdown(h200_doc_frozen)
    assert md.startswith("# vmmcheck — NVIDIA H200, driver 580.159.04 (CUDA 13.0)\n")
    case_rows = re.findall(r"^\| `([^`]+)` \|.*\| (Pass|Fail) \|", md, re.M)
    assert len(case_rows) == 243
    for family, n in H200_FAMILIES.items():
        assert re.search(rf"^\| {re.escape(family)} \| {n} \| 0 \| 0 \| 0 \| 0 \| 0 \| 0 \| {n} \|$", md, re.M)
    assert "| 243 | 0 | 0 | 0 | 0 | 0 | 0 | 243 |" in md
    assert ("| `api.granularity` | — | cuMemGetAllocationGranularity calculates the minimal or the recommended "
            "granularity of a valid allocation description. | CUDA Driver API cuMemGetAllocationGranularity; "
            "CUDA Programming Guide 4.17.3.1 | api | Pass |") in md
    assert "data:image" not in md


def test_markdown_escapes_pipes():
    md = render.render_markdown(make_doc([result("alias.mp.a.b", "Fail", reason="a | b\nc")]))
    assert "a \\| b c" in md


def test_cli_writes_html_and_markdown(tmp_path, run_cli):
    rc, out, err = run_cli("render", H200, "-o", tmp_path / "r.html")
    assert (rc, out, err) == (0, "", "")
    assert len(CASE_ROW.findall((tmp_path / "r.html").read_text())) == 243
    rc, out, _ = run_cli("render", H200, "--markdown")
    assert rc == 0 and out.startswith("# vmmcheck — NVIDIA H200")


def test_cli_subprocess_from_reports_dir(tmp_path):
    """`python3 -m vmmcheck_report` from reports/ (cwd on the path) works too."""
    doc = write_json(tmp_path / "f.json", failing_doc())
    proc = run_module("render", doc, "--markdown", cwd=H200.parent.parent.parent)
    assert proc.returncode == 0, proc.stderr
    assert "## alias.resident (3 cases, 2 unexpected)" in proc.stdout


# ------------------------------------------------------------------- failures and warnings first, as linked tiles


class _Page(HTMLParser):
    """Every id on the page, and the tiles (<a class="tile ...">) and status totals in page order."""

    def __init__(self):
        super().__init__()
        self.ids, self.tiles, self.totals, self.order = set(), [], [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
            self.order.append(a["id"])
        cls = (a.get("class") or "").split()
        if tag == "a" and "tile" in cls:
            self.tiles.append(a)
            self.order.append(f"tile:{a['data-case']}")
        if "total" in cls:
            self.totals.append((tag, a))


def parse_page(html):
    page = _Page()
    page.feed(html)
    return page


def mixed_doc():
    """Passes first in the run, the warnings and failures after them, in families of their own and mixed."""
    return make_doc([
        result("alias.kernels.a.ok"),
        result("alias.kernels.b.skip", "NotSupported", histogram={}, instances=0, reason="needs 2 GPUs"),
        result("alias.mp.a.ok"),
        result("alias.mp.b.model", "Warning", weak=3, reason="only the PTX model forbids it"),
        result("alias.rmw.a.ok"),
        result("alias.rmw.b.lost", "Fail", weak=5, reason="5 lost updates"),
        result("alias.rmw.c.crash", "Crash", histogram={}, instances=0, reason="signal 11"),
        result("api.calls.flaky", "Flake", reason="passed on rerun"),
        result("api.calls.ok"),
    ])


def test_failures_then_warnings_come_first_as_tiles():
    html = render.render_html(mixed_doc())
    page = parse_page(html)
    tiles = [(t["data-case"], t["data-status"]) for t in page.tiles]
    assert tiles == [("alias.rmw.c.crash", "Crash"), ("alias.rmw.b.lost", "Fail"),
                     ("alias.mp.b.model", "Warning"), ("api.calls.flaky", "Flake")]
    # The tiles come before everything else about the run: the context, the families table, the case rows.
    first_tile = page.order.index("tile:alias.rmw.c.crash")
    assert page.order.index("attention-failure") < first_tile < page.order.index("attention-warning")
    for later in ("context", "families", "case-alias.kernels.a.ok"):
        assert page.order.index(f"tile:{tiles[-1][0]}") < page.order.index(later), later
    # Passing and not-supported cases get no tile.
    assert not {"alias.kernels.a.ok", "alias.kernels.b.skip"} & {name for name, _ in tiles}


def test_every_tile_links_to_its_case_row():
    html = render.render_html(mixed_doc())
    page = parse_page(html)
    rows = dict(CASE_ROW.findall(html))
    assert page.tiles
    for tile in page.tiles:
        target = tile["href"]
        assert target.startswith("#") and target[1:] in page.ids, target
        # ... and the element it names is that case's row, with the status the tile shows.
        assert target == f"#case-{tile['data-case']}" and rows[tile["data-case"]] == tile["data-status"]


def test_status_totals_link_to_their_tiles():
    page = parse_page(render.render_html(mixed_doc()))
    links = {a["data-status"]: a.get("href") for tag, a in page.totals if tag == "a"}
    assert links == {"Fail": "#attention-failure", "Crash": "#attention-failure", "Warning": "#attention-warning",
                     "Flake": "#attention-warning"}
    assert all(href[1:] in page.ids for href in links.values())
    # Statuses without a tile (Pass, NotSupported, the zero counts) are no links.
    assert {a["data-status"] for tag, a in page.totals if tag == "div"} >= {"Pass", "NotSupported", "Timeout"}


def test_families_with_failures_then_warnings_first_and_open():
    html = render.render_html(mixed_doc())
    families = re.findall(r'<details class="family" id="fam-([^"]+)"( open)?>', html)
    assert families == [("alias.rmw", " open"), ("alias.mp", " open"), ("api.calls", " open"), ("alias.kernels", "")]
    # Within a family the worst first: the warning above the pass it followed in the run.
    rows = [name for name, _ in CASE_ROW.findall(html)]
    assert rows.index("alias.mp.b.model") < rows.index("alias.mp.a.ok")


def test_all_pass_run_has_no_tiles(h200_html):
    page = parse_page(h200_html)
    assert page.tiles == [] and "attention-failure" not in page.ids
    assert all(tag == "div" for tag, _ in page.totals)


def test_markdown_lists_failures_then_warnings_first():
    md = render.render_markdown(mixed_doc())
    failures, warnings, context = md.index("## Failures (2)"), md.index("## Warnings (2)"), md.index("## Context")
    assert failures < warnings < context
    assert md.index("- **Crash** `alias.rmw.c.crash`: signal 11") < md.index("- **Fail** `alias.rmw.b.lost`") < warnings
    assert warnings < md.index("- **Warning** `alias.mp.b.model`") < md.index("- **Flake** `api.calls.flaky`") < context
    assert "## Failures" not in render.render_markdown(make_doc([result("alias.mp.a.ok")]))


def test_a_lone_surrogate_escape_is_bad_input(tmp_path, run_cli):
    """"\\ud800" is legal JSON and passes the schema, but no UTF-8 output can hold it: refused in one line
    naming the file and where, by every command, before anything is written."""
    doc = make_doc([result("access.none.read", reason="x")])
    text = json.dumps(doc).replace('"reason": "x"', '"reason": "\\ud800"')
    path = tmp_path / "s.json"
    path.write_text(text)
    good = write_json(tmp_path / "good.json", make_doc([result("access.none.read")]))
    line = f"{path}: results[0].reason: '\\ud800' is not Unicode text (a lone surrogate escape)\n"
    for args in (("render", path, "-o", tmp_path / "r.html"), ("render", path, "--markdown"),
                 ("compare", good, path), ("history", "add", path, "--db", tmp_path / "h.db")):
        rc, out, err = run_cli(*args)
        assert rc == 2 and err == line, (args, err)
    assert not (tmp_path / "h.db").exists() and not (tmp_path / "r.html").exists()
    # A surrogate pair is a character like any other.
    path.write_text(text.replace('"\\ud800"', '"\\ud83d\\ude00"'))
    assert run_cli("render", path, "-o", tmp_path / "r.html")[0] == 0


def test_an_attempt_without_a_reason_renders(tmp_path, run_cli):
    """The driver's extension schema asks an attempt for its number and status only: the page shows it."""
    r = result("access.none.read", status="Flake", original_status="Fail", note="flaky",
               attempts=[{"attempt": 1, "status": "Pass"}, {"attempt": 2, "status": "Fail", "reason": "why"}])
    doc = make_doc([r])
    path = write_json(tmp_path / "a.json", doc)
    rc, _, err = run_cli("render", path, "-o", tmp_path / "r.html")
    assert rc == 0, err
    html = (tmp_path / "r.html").read_text()
    assert "rerun 1: Pass</li>" in html and "rerun 2: Fail — why" in html


@pytest.mark.parametrize("value, words", [(2 ** 64, "is no count (a whole number from 0 to 2^63-1)"),
                                          (101, "is more than its 100 instances")])
def test_a_histogram_bin_past_any_count_is_bad_input(tmp_path, run_cli, value, words):
    path = write_json(tmp_path / "h.json", make_doc([result("access.none.read", histogram={"completed": value})]))
    rc, _, err = run_cli("render", path, "-o", tmp_path / "r.html")
    assert rc == 2 and err == f"{path}: results[0].histogram.completed: {value} {words}\n", err
