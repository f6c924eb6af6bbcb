"""bench-report, bench-compare and the `bench` figures: the schema, the statistics, the slowdown rule, the outputs.

No GPU has written a bench file yet, so the inputs are fixtures/bench/synthetic.json (made by make_synthetic.py
beside it, seed fixed) and copies of it changed by the tests. The slowdown tests also run on every committed
ci/results/bench/*.json, and are skipped, saying so, while there is none.
"""

from __future__ import annotations

import copy
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from conftest import FIXTURES, H200, run_module, write_json
from vmmcheck_report import bench, fmt

REPO = Path(__file__).resolve().parents[2]
SYNTHETIC = FIXTURES / "bench" / "synthetic.json"
# The committed runs (a rerun of the same build is the same kind of file: the main run stands for both).
COMMITTED = sorted(p for p in (REPO / "ci" / "results" / "bench").glob("*.json") if not p.name.endswith(".rerun.json"))
# Every bench file the slowdown tests run on: the synthetic one, then each committed run.
BENCH_FILES = [pytest.param(SYNTHETIC, id="synthetic")] + (
    [pytest.param(p, id=p.name) for p in COMMITTED] or
    [pytest.param(None, id="committed", marks=pytest.mark.skip(reason="no ci/results/bench/*.json committed yet"))])
GROUPS = ("vmm", "chunks", "ipc", "grow", "access")
MAP_2MIB = "vmm.map[size=2097152]"


@pytest.fixture(scope="module")
def synthetic():
    return bench.load(SYNTHETIC)


def scaled(doc: dict, rid: str, factor: float) -> dict:
    """A copy of `doc` with row `rid`'s samples and statistics multiplied by `factor`."""
    out = copy.deepcopy(doc)
    r = next(r for r in out["results"] if r["id"] == rid)
    r["values"] = [v * factor for v in r["values"]]
    for key in ("p50", "p90", "p99", "mean", "min", "max"):
        r[key] *= factor
    r["ci"] = {k: [None if b is None else b * factor for b in v] for k, v in r["ci"].items()}
    return out


def slowest_candidate(doc: dict, better: str = "lower", bench_name: str = "") -> str:
    """The row a slowdown test changes: vmm.map of 2 MiB where it resolves a 25% slowdown, else the `ok`
    row with the most samples among those that do (bench.smallest_flagged); a run whose rows vary so much
    between rounds that none does skips (the count is in docs/bench.md's figures)."""
    rows = [r for r in doc["results"] if bench.ok(r) and r["better"] == better
            and (not bench_name or r["bench"] == bench_name)]
    for r in sorted(rows, key=lambda r: (r["id"] != MAP_2MIB if better == "lower" and not bench_name else 0, -r["n"])):
        f = bench.smallest_flagged(r)
        if f is not None and f < 1.25:
            return r["id"]
    pytest.skip(f"no ok row with better={better} {bench_name} resolves a 25% slowdown")


# --- statistics ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 3, 10, 57, 200])
def test_quantile_matches_numpy_percentile(n):
    rng = np.random.default_rng(n)
    values = list(rng.lognormal(2.0, 0.5, n))
    for q in (0.0, 0.01, 0.25, 0.5, 0.9, 0.99, 1.0):
        assert bench.quantile(values, q) == pytest.approx(float(np.percentile(values, 100 * q)), rel=1e-12, abs=0)


def test_quantile_and_ci_agree_with_the_cases_vmmcheck_pins():
    """The cases tests/unit/test_bench.cpp pins for harness/bench/stats.cpp, so the two mirrors cannot drift."""
    x = [1.0, 2.0, 3.0, 4.0, 10.0]
    assert [bench.quantile(x, q) for q in (0.5, 0.9, 0.99, 0.0, 1.0)] == pytest.approx([3.0, 7.6, 9.76, 1.0, 10.0])
    assert bench.quantile([7.0], 0.5) == 7.0
    ranks = list(range(1, 101))                       # X(i) = i: the interval names its ranks
    assert bench.quantile_ci(ranks, 0.5, 0.95) == (41.0, 61.0)
    assert bench.quantile_ci(list(range(1, 31)), 0.99, 0.95)[1] is None
    assert None not in bench.quantile_ci(list(range(1, 1001)), 0.99, 0.95)


def test_quantile_refuses_nonsense():
    with pytest.raises(ValueError):
        bench.quantile([], 0.5)
    with pytest.raises(ValueError):
        bench.quantile([1.0], 1.5)


def test_quantile_ci_brackets_the_quantile_and_nulls_what_cannot_be_had():
    values = list(np.random.default_rng(7).lognormal(1.0, 0.3, 200))
    for q in (0.5, 0.9):
        lo, hi = bench.quantile_ci(values, q, 0.95)
        assert lo <= bench.quantile(values, q) <= hi
    # p99 of 200 samples: P(all 200 below the true p99) = 0.99^200 > 5%, so no upper bound (docs/bench.md).
    lo, hi = bench.quantile_ci(values, 0.99, 0.95)
    assert hi is None and lo is not None
    assert bench.quantile_ci([3.0], 0.5, 0.95) == (None, None)


def test_quantile_ci_covers_as_claimed():
    """The order-statistic interval of the median covers the true median at least 95% of the time."""
    rng = np.random.default_rng(11)
    hits = 0
    for _ in range(400):
        lo, hi = bench.quantile_ci(list(rng.standard_normal(30)), 0.5, 0.95)
        hits += lo <= 0.0 <= hi
    assert hits / 400 >= 0.93


@pytest.mark.parametrize("path", BENCH_FILES)
def test_row_statistics_are_those_of_its_samples(path):
    """p50/p90/p99, min, max and n as docs/bench.md defines them, recomputed from each row's values."""
    doc = bench.load(path)
    for r in doc["results"]:
        if not bench.ok(r):
            continue
        assert r["n"] == len(r["values"])
        for q in (0.5, 0.9, 0.99):
            assert r[f"p{int(q * 100)}"] == pytest.approx(bench.quantile(r["values"], q), rel=1e-9), r["id"]
        assert (r["min"], r["max"]) == (min(r["values"]), max(r["values"])), r["id"]


def test_synthetic_intervals_are_those_of_quantile_ci(synthetic):
    for r in synthetic["results"]:
        if bench.ok(r):
            assert r["ci"] == bench.summarize(r["values"], synthetic["settings"]["confidence"])["ci"], r["id"]


def test_verdict_boundaries():
    assert bench.verdict(1.21, 1.3, 0.2) == "slower"
    assert bench.verdict(1.2, 1.3, 0.2) == "unresolved"    # the lower bound must lie beyond the threshold
    assert bench.verdict(0.7, 0.83, 0.2) == "faster"
    assert bench.verdict(0.7, 1 / 1.2, 0.2) == "unresolved"
    assert bench.verdict(0.9, 1.4, 0.2) == "unresolved"    # could be 40% slower, could be 10% faster
    assert bench.verdict(0.9, 1.15, 0.2) == "same"         # no change as large as the threshold
    assert bench.verdict(1 / 1.2, 1.2, 0.2) == "same"


# --- the schema and the loader -------------------------------------------------------------------------

def test_the_fixture_has_every_group_and_a_row_that_did_not_run_in_each(synthetic):
    assert synthetic["schema"] == "vmmcheck-bench/1"
    by_group = bench.groups(synthetic["results"])
    assert tuple(by_group) == GROUPS
    for name, rows in by_group.items():
        assert any(bench.ok(r) for r in rows) and any(not bench.ok(r) for r in rows), name
    ns = next(r for r in synthetic["results"] if r["id"] == "vmm.set_access[size=2097152,devices=2]")
    assert ns["status"] == "not_supported" and ns["why"]
    assert {r["n"] for r in synthetic["results"] if bench.ok(r) and r["axes"].get("size") == 2 ** 21} == {200}
    assert all(10 <= r["n"] <= 20 for r in synthetic["results"] if bench.ok(r) and r["axes"].get("size", 0) >= 2 ** 30)


def _first_ok(doc):
    return next(r for r in doc["results"] if bench.ok(r))


def _without(key):
    def change(doc):
        del _first_ok(doc)[key]
    return change


def _set(key, value, row=_first_ok):
    def change(doc):
        row(doc)[key] = value
    return change


def _not_ok(doc):
    return next(r for r in doc["results"] if not bench.ok(r))


BAD_DOCS = {
    # name: (change, words of the one-line message)
    "row without p50": (_without("p50"), ["results[0]", "'p50' is a required property"]),
    "row without values": (_without("values"), ["results[0]", "'values' is a required property"]),
    "bad status": (_set("status", "fine"), ["results[0].status", "'fine' is not one of"]),
    "not ok without why": (lambda d: _not_ok(d).pop("why"), ["'why' is a required property"]),
    "bad unit": (_set("unit", "ms"), ["results[0].unit", "'ms' is not one of"]),
    "bad better": (_set("better", "faster"), ["results[0].better"]),
    "ci bound a string": (lambda d: _first_ok(d)["ci"].update(p50=["1", 2.0]), ["results[0].ci.p50[0]"]),
    "ci of one bound": (lambda d: _first_ok(d)["ci"].update(p50=[1.0]), ["results[0].ci.p50"]),
    "n not the sample count": (_set("n", 3), ["results[0].n", "3", "values"]),
    "no settings": (lambda d: d.pop("settings"), ["'settings' is a required property"]),
    "another schema": (lambda d: d.update(schema="vmmcheck-bench/9"), ["not a vmmcheck-bench/1 file"]),
    "repeated id": (lambda d: d["results"].append(copy.deepcopy(d["results"][0])), ["repeats results[0]"]),
    # Samples are times and bandwidths: none below 0 (the schema), and the row's figures are its samples'.
    "a negative sample": (lambda d: _first_ok(d)["values"].__setitem__(0, -1.0),
                          ["results[0].values[0]", "-1.0 is less than the minimum of 0"]),
    "p50 not its values'": (lambda d: _first_ok(d).update(p50=_first_ok(d)["p50"] * 2),
                            ["results[0].p50", "but the row's values give"]),
    "min not its values'": (lambda d: _first_ok(d).update(min=_first_ok(d)["min"] / 2),
                            ["results[0].min", "but the row's values give"]),
    "max not its values'": (lambda d: _first_ok(d).update(max=_first_ok(d)["max"] * 2),
                            ["results[0].max", "but the row's values give"]),
}


def test_schema_accepts_null_ci_bounds(tmp_path, synthetic):
    doc = copy.deepcopy(synthetic)
    _first_ok(doc)["ci"]["p99"] = [None, None]
    assert bench.load(write_json(tmp_path / "b.json", doc))["results"][0]["ci"]["p99"] == [None, None]


@pytest.mark.parametrize("kind", sorted(BAD_DOCS))
def test_schema_rejects(kind, tmp_path, synthetic, run_cli):
    change, words = BAD_DOCS[kind]
    doc = copy.deepcopy(synthetic)
    change(doc)
    path = write_json(tmp_path / "bad.json", doc)
    with pytest.raises(bench.LoadError) as e:
        bench.load(path)
    assert str(e.value).startswith(f"{path}: ")
    for word in words:
        assert word in str(e.value)
    rc, out, err = run_cli("bench-compare", SYNTHETIC, path)
    assert rc == 2 and out == "" and err == str(e.value) + "\n"


BAD_INPUT = {
    "missing file": (lambda p: None, ["no such file"]),
    "empty": (lambda p: p.write_text(""), ["empty file"]),
    "truncated": (lambda p: p.write_text(SYNTHETIC.read_text()[:5000]), ["not JSON", "truncated?"]),
    "NaN": (lambda p: p.write_text(SYNTHETIC.read_text().replace('"p50": ', '"p50": NaN, "x": ', 1)), ["NaN"]),
    "a results file": (lambda p: p.write_text(H200.read_text()), ["not a vmmcheck-bench/1 file"]),
}


@pytest.mark.parametrize("kind", sorted(BAD_INPUT))
@pytest.mark.parametrize("command", ["bench-compare", "bench-report"])
def test_bad_input_is_one_line_exit_2(kind, command, tmp_path, run_cli):
    make, words = BAD_INPUT[kind]
    path = tmp_path / "bench.json"
    make(path)
    args = [SYNTHETIC, path] if command == "bench-compare" else [path]
    rc, out, err = run_cli(command, *args, "--html", tmp_path / "out.html")
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"{path}: "), err
    for word in words:
        assert word in err
    assert not (tmp_path / "out.html").exists()


def test_negative_samples_are_refused_by_bench_report_too(tmp_path, synthetic, run_cli):
    doc = copy.deepcopy(synthetic)
    _first_ok(doc)["values"] = [-v for v in _first_ok(doc)["values"]]
    path = write_json(tmp_path / "neg.json", doc)
    rc, out, err = run_cli("bench-report", path)
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"{path}: results[0].values[") and "minimum of 0" in err, err


@pytest.mark.parametrize("side", ["NEW", "BASE"])
def test_a_file_with_no_rows_is_nothing_to_compare(side, tmp_path, synthetic, run_cli):
    """A bench run that measured nothing (a --filter that matched no row) vouches for nothing: exit 2, not a
    pass with "no row ran in both files"."""
    doc = copy.deepcopy(synthetic)
    doc["results"] = []
    empty = write_json(tmp_path / "empty.json", doc)
    args = (SYNTHETIC, empty) if side == "NEW" else (empty, SYNTHETIC)
    rc, out, err = run_cli("bench-compare", *args, "--json", tmp_path / "c.json")
    assert rc == 2 and out == ""
    assert err == f"{empty}: no rows (results is empty): nothing to compare\n"
    assert not (tmp_path / "c.json").exists()


def test_no_row_in_both_files_fails_unless_allowed(tmp_path, synthetic, run_cli):
    """Both files have rows but none ran in both: the gate compared nothing, so it fails (exit 1), as
    `compare` fails on a case CURRENT lacks; --allow-missing lets it pass."""
    doc = copy.deepcopy(synthetic)
    doc["results"] = [dict(r, id=r["id"].replace("[", "_other[", 1) if "[" in r["id"] else r["id"] + "_other",
                           bench=r["bench"] + "_other") for r in doc["results"]]
    other = write_json(tmp_path / "other.json", doc)
    rc, out, err = run_cli("bench-compare", SYNTHETIC, other, "--json", tmp_path / "c.json")
    assert rc == 1 and err == ""
    assert "no row ran in both files" in out
    assert out.rstrip().splitlines()[-1].endswith("; fails: no row ran in both files")
    data = json.loads((tmp_path / "c.json").read_text())
    assert data["exit_code"] == 1 and data["failing"] == ["no row ran in both files"]
    rc, out, _ = run_cli("bench-compare", SYNTHETIC, other, "--allow-missing")
    assert rc == 0 and "no row ran in both files" in out
    # With rows compared, a row only in BASE is listed and fails nothing (--allow-missing or not).
    assert run_cli("bench-compare", SYNTHETIC, SYNTHETIC)[0] == 0


@pytest.mark.parametrize("threshold", ["0", "-0.2", "nan", "inf", "abc"])
def test_threshold_must_be_positive(threshold, run_cli):
    rc, out, err = run_cli("bench-compare", SYNTHETIC, SYNTHETIC, "--threshold", threshold)
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and "--threshold" in err and "> 0" in err


def test_bad_input_subprocess_has_no_traceback(tmp_path):
    proc = run_module("bench-compare", SYNTHETIC, tmp_path / "nope.json")
    assert proc.returncode == 2
    assert proc.stderr == f"{tmp_path / 'nope.json'}: no such file\n" and proc.stdout == ""


# --- the comparison ------------------------------------------------------------------------------------

def test_a_run_against_itself_flags_nothing(synthetic, run_cli):
    cmp = bench.compare(synthetic, synthetic)
    assert not cmp.flagged and cmp.exit_code == 0
    assert {r.verdict for r in cmp.rows} <= {"same", "unresolved"}
    assert all(r.ratio == 1.0 and r.low <= 1.0 <= r.high for r in cmp.rows)
    assert len(cmp.rows) == sum(1 for r in synthetic["results"] if bench.ok(r))
    assert len(cmp.not_compared) == sum(1 for r in synthetic["results"] if not bench.ok(r))
    assert not cmp.only_base and not cmp.only_new
    rc, out, err = run_cli("bench-compare", SYNTHETIC, SYNTHETIC)
    assert rc == 0 and err == ""
    c = cmp.counts()
    assert out.endswith(f"0 slower, 0 faster, {c['unresolved']} unresolved, {c['same']} same; "
                        f"{len(cmp.not_compared)} not compared\n")


@pytest.mark.parametrize("path", BENCH_FILES)
def test_25_percent_slower_is_flagged_and_exits_1(path, tmp_path, run_cli):
    doc = bench.load(path)
    rid = slowest_candidate(doc)
    new = write_json(tmp_path / "new.json", scaled(doc, rid, 1.25))
    cmp = bench.compare(doc, bench.load(new))
    assert [r.id for r in cmp.flagged] == [rid]
    assert cmp.flagged[0].ratio == pytest.approx(1.25)
    assert all(r.verdict in ("same", "unresolved") for r in cmp.rows if r.id != rid)
    rc, out, err = run_cli("bench-compare", path, new)
    assert rc == 1 and err == ""
    table = out.split("\n\n")[1].splitlines()
    assert table[1].startswith("slower") and rid in table[1]          # flagged rows first
    assert sum(line.startswith("slower") for line in table) == 1
    assert out.rstrip().splitlines()[-1].startswith("1 slower, 0 faster")


@pytest.mark.parametrize("path", BENCH_FILES)
def test_5_percent_slower_is_not_flagged(path, tmp_path, run_cli):
    doc = bench.load(path)
    rid = slowest_candidate(doc)
    new = write_json(tmp_path / "new.json", scaled(doc, rid, 1.05))
    cmp = bench.compare(doc, bench.load(new))
    assert not cmp.flagged
    assert next(r for r in cmp.rows if r.id == rid).ratio == pytest.approx(1.05)
    rc, out, _ = run_cli("bench-compare", path, new)
    assert rc == 0 and "\nslower" not in out


@pytest.mark.parametrize("path", BENCH_FILES)
def test_bandwidth_down_by_a_fifth_is_flagged(path, tmp_path, run_cli):
    """Higher is better for bandwidth: NEW at BASE/1.25 is a slowdown ratio of BASE/NEW = 1.25."""
    doc = bench.load(path)
    rid = slowest_candidate(doc, "higher", "access.bandwidth")
    new = write_json(tmp_path / "new.json", scaled(doc, rid, 1 / 1.25))
    cmp = bench.compare(doc, bench.load(new))
    assert [r.id for r in cmp.flagged] == [rid]
    assert cmp.flagged[0].better == "higher" and cmp.flagged[0].ratio == pytest.approx(1.25)
    rc, _, _ = run_cli("bench-compare", path, new)
    assert rc == 1


def test_faster_is_reported_not_flagged(synthetic, tmp_path, run_cli):
    new = write_json(tmp_path / "new.json", scaled(synthetic, MAP_2MIB, 0.75))
    cmp = bench.compare(synthetic, bench.load(new))
    assert [r.id for r in cmp.of("faster")] == [MAP_2MIB] and not cmp.flagged
    rc, out, _ = run_cli("bench-compare", SYNTHETIC, new)
    assert rc == 0 and "0 slower, 1 faster" in out


def test_a_higher_threshold_lets_a_25_percent_slowdown_pass(synthetic, tmp_path, run_cli):
    new = write_json(tmp_path / "new.json", scaled(synthetic, MAP_2MIB, 1.25))
    assert run_cli("bench-compare", SYNTHETIC, new, "--threshold", "0.3")[0] == 0
    assert run_cli("bench-compare", SYNTHETIC, new, "--threshold", "0.1")[0] == 1


def test_rows_missing_or_not_run_are_listed_not_flagged(synthetic, tmp_path, run_cli):
    new_doc = copy.deepcopy(synthetic)
    new_doc["results"] = [r for r in new_doc["results"] if r["id"] != MAP_2MIB]
    broken = next(r for r in new_doc["results"] if r["id"] == "vmm.unmap[size=2097152]")
    for key in ("n", "p50", "p90", "p99", "mean", "min", "max", "ci", "values"):
        del broken[key]
    broken.update(status="error", why="cuMemUnmap: CUDA_ERROR_INVALID_VALUE")
    new_doc["results"].append({"id": "vmm.map[size=4096]", "bench": "vmm.map", "group": "vmm", "axes": {"size": 4096},
                               "unit": "us", "better": "lower", "status": "not_supported", "why": "below granularity"})
    new = write_json(tmp_path / "new.json", new_doc)
    cmp = bench.compare(synthetic, bench.load(new))
    assert not cmp.flagged and cmp.exit_code == 0
    assert [u.id for u in cmp.only_base] == [MAP_2MIB] and cmp.only_base[0].base_status == "ok"
    assert [u.id for u in cmp.only_new] == ["vmm.map[size=4096]"]
    unmap = next(u for u in cmp.not_compared if u.id == "vmm.unmap[size=2097152]")
    assert (unmap.base_status, unmap.new_status, unmap.new_why) == ("ok", "error", "cuMemUnmap: CUDA_ERROR_INVALID_VALUE")
    assert MAP_2MIB not in {r.id for r in cmp.rows}
    rc, out, _ = run_cli("bench-compare", SYNTHETIC, new, "--json", tmp_path / "c.json")
    assert rc == 0
    assert f"Only in BASE (1):\n  {MAP_2MIB}: BASE ok; not in NEW\n" in out
    assert "vmm.unmap[size=2097152]: BASE ok; NEW error (cuMemUnmap: CUDA_ERROR_INVALID_VALUE)" in out
    assert "Only in NEW (1):\n  vmm.map[size=4096]: not in BASE; NEW not_supported (below granularity)" in out
    data = json.loads((tmp_path / "c.json").read_text())
    assert data["schema"] == "vmmcheck-bench-compare/1" and data["exit_code"] == 0
    assert data["only_in_base"][0]["id"] == MAP_2MIB and data["counts"]["only_in_new"] == 1


def test_the_same_files_give_the_same_answer(synthetic, tmp_path, run_cli):
    new = write_json(tmp_path / "new.json", scaled(synthetic, MAP_2MIB, 1.22))
    outputs = []
    for i in range(2):
        rc, out, _ = run_cli("bench-compare", SYNTHETIC, new, "--json", tmp_path / f"c{i}.json",
                             "--html", tmp_path / f"c{i}.html")
        outputs.append((rc, out, (tmp_path / f"c{i}.json").read_text(), (tmp_path / f"c{i}.html").read_text()))
    assert outputs[0] == outputs[1]
    # Another process (another hash seed) gives the same text.
    proc = run_module("bench-compare", SYNTHETIC, new)
    assert (proc.returncode, proc.stdout) == outputs[0][:2]
    # A row's answer does not depend on the other rows: the same pair alone gives the same interval.
    alone = {k: v for k, v in synthetic.items()}
    alone["results"] = [r for r in synthetic["results"] if r["id"] == MAP_2MIB]
    alone_new = dict(alone, results=[r for r in bench.load(new)["results"] if r["id"] == MAP_2MIB])
    full = next(r for r in bench.compare(synthetic, bench.load(new)).rows if r.id == MAP_2MIB)
    single = bench.compare(alone, alone_new).rows[0]
    assert (single.low, single.high) == (full.low, full.high)


def test_different_gpus_and_quick_runs_are_noted(synthetic):
    other = copy.deepcopy(synthetic)
    other["context"]["devices"][0]["name"] = "NVIDIA B200"
    other["settings"]["quick"] = True
    text = bench.format_text(bench.compare(synthetic, other))
    assert "note: the runs are of different GPUs: NVIDIA H200 in BASE, NVIDIA B200 in NEW" in text
    assert "note: only NEW is a --quick run" in text


# --- the pages -----------------------------------------------------------------------------------------

def _external_references(html: str) -> list:
    """http(s) URLs other than the SVG/XLink namespace names every inline <svg> carries."""
    stripped = re.sub(r'xmlns(:\w+)?="http://www\.w3\.org/(2000/svg|1999/xlink)"', "", html)
    return re.findall(r"https?://[^\s\"'<>)]*", stripped)


def _sections(html: str) -> dict:
    return dict(re.findall(r'<section class="group" id="group-([a-z0-9_]+)">(.*?)</section>', html, re.S))


def test_bench_report_html_has_a_plot_per_group_and_nothing_external(tmp_path, run_cli, synthetic):
    out_html = tmp_path / "bench.html"
    rc, out, err = run_cli("bench-report", SYNTHETIC, "--html", out_html)
    assert rc == 0 and err == ""
    html = out_html.read_text()
    sections = _sections(html)
    assert tuple(sections) == GROUPS
    for name, body in sections.items():
        assert "<svg" in body, name
    assert html.count("<svg") == html.count("</svg>") >= len(GROUPS)
    assert _external_references(html) == []
    assert not re.search(r"<(script|link|img|iframe)\b", html)
    # No two inline SVGs share an id.
    ids = re.findall(r'\bid="([^"]+)"', html)
    assert len(ids) == len(set(ids))
    # Every row is in its table; a row that did not run says why.
    assert all(r["id"] in html for r in synthetic["results"])
    assert "needs two GPUs with peer access; this machine has 1" in html
    # The text on stdout: a line per row.
    assert out.count("\n") >= len(synthetic["results"]) and "vmm.set_access[size=2097152,devices=2]" in out
    # Deterministic.
    assert run_cli("bench-report", SYNTHETIC, "--html", tmp_path / "again.html")[0] == 0
    assert (tmp_path / "again.html").read_text() == html


def test_bench_report_markdown(run_cli, synthetic):
    rc, out, _ = run_cli("bench-report", SYNTHETIC, "--markdown")
    assert rc == 0
    for g in GROUPS:
        assert f"\n## {g}\n" in out
    r = next(r for r in synthetic["results"] if r["id"] == MAP_2MIB)
    assert f"| `{MAP_2MIB}` | {r['n']} | {bench.num(r['p50'])} {bench.interval_text(r['ci']['p50'])} |" in out
    assert "| `vmm.set_access[size=2097152,devices=2]` | — | not_supported: needs two GPUs" in out


def test_bench_compare_html(synthetic, tmp_path, run_cli):
    new = write_json(tmp_path / "new.json", scaled(synthetic, MAP_2MIB, 1.25))
    rc, _, _ = run_cli("bench-compare", SYNTHETIC, new, "--html", tmp_path / "c.html")
    assert rc == 1
    html = (tmp_path / "c.html").read_text()
    assert '1 row slower</p>' in html
    first = re.search(r'<table class="rows" id="compared">.*?<tbody>\s*<tr class="(\w+)">.*?<td class="id">([^<]+)<',
                      html, re.S)
    assert first.groups() == ("slower", MAP_2MIB)
    sections = _sections(html)
    assert tuple(sections) == GROUPS
    for name, body in sections.items():
        assert body.count("<svg") == 2, name  # both runs' p50s, and the ratios
    assert _external_references(html) == []
    ids = re.findall(r'\bid="([^"]+)"', html)
    assert len(ids) == len(set(ids))


# --- figures -------------------------------------------------------------------------------------------

def test_figures_bench_kind(tmp_path, synthetic, run_cli):
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "bench.json").write_text(SYNTHETIC.read_text())
    readme = tmp_path / "README.md"
    readme.write_text("# x\n\n<!-- figures: bench ci/bench.json -->\n<!-- /figures -->\n")
    rc, out, _ = run_cli("figures", "--root", tmp_path, readme)
    assert rc == 0, out
    text = readme.read_text()
    rows = {r["id"]: r for r in synthetic["results"]}
    m, a = rows[MAP_2MIB], rows["vmm.set_access[size=2097152,devices=1]"]
    total = fmt.sig(m["p50"] + a["p50"])
    assert f"{fmt.sig(m['p50'])} + {fmt.sig(a['p50'])} = {total} us." in text
    assert "From `ci/bench.json` (git synthetic; NVIDIA H200, driver 580.159.04 (CUDA 13.0); 1 GPU visible)" in text
    # The VMM calls at 2 MiB and at the largest size (16 GiB); a row that did not run says why.
    assert f"| `vmm.map` | 2 MiB | {fmt.sig(m['p50'])} us |" in text
    assert "| `vmm.release` | 16 GiB |" in text
    assert "| `vmm.set_access` devices=2 | 2 MiB | not_supported: needs two GPUs with peer access" in text
    # One chunk against the most chunks, of the largest total.
    one, most = rows["chunks.map[total=1073741824,chunks=1]"], rows["chunks.map[total=1073741824,chunks=128]"]
    assert f"as 1 chunk {fmt.sig(one['p50'])} us, as 128 chunks {fmt.sig(most['p50'])} us " \
           f"({fmt.times(most['p50'] / one['p50'])})" in text
    # Growing: the largest size both ways reached (step 8 of cudaMalloc ran out of memory), and the sums.
    v = [r for r in synthetic["results"] if r["bench"] == "grow.vmm" and r["axes"]["step"] <= 7]
    c = [r for r in synthetic["results"] if r["bench"] == "grow.cudamalloc" and bench.ok(r)]
    assert "Growing to 1.75 GiB (step 7)" in text
    assert f"{fmt.sig(sum(r['p50'] for r in v))} us against {fmt.sig(sum(r['p50'] for r in c))} us" in text
    # One view against two, at the largest size.
    b1 = rows["access.bandwidth[memory=device,views=1,size=4294967296]"]
    b2 = rows["access.bandwidth[memory=device,views=2,size=4294967296]"]
    assert (f"| `access.bandwidth` | device | 4 GiB | {fmt.sig(b1['p50'])} GB/s | {fmt.sig(b2['p50'])} GB/s | "
            f"{fmt.times(b2['p50'] / b1['p50'])} |") in text
    # And --check agrees with what it wrote.
    rc, out, _ = run_cli("figures", "--check", "--root", tmp_path, readme)
    assert rc == 0 and out.strip().endswith("0 differences")


def test_figures_bench_kind_without_headline_rows(tmp_path, synthetic, run_cli):
    doc = copy.deepcopy(synthetic)
    doc["results"] = [r for r in doc["results"] if r["bench"] == "vmm.free"]
    write_json(tmp_path / "b.json", doc)
    readme = tmp_path / "README.md"
    readme.write_text("<!-- figures: bench b.json -->\n<!-- /figures -->\n")
    rc, _, err = run_cli("figures", "--root", tmp_path, readme)
    assert rc == 2 and "b.json: no headline row" in err and err.count("\n") == 1


# --- rounds: a cost that shifts between processes -------------------------------------------------------

def _with_rounds(doc: dict, rid: str, centres, n: int = 100, spread: float = 0.02, seed: int = 1) -> dict:
    """A copy of `doc` whose row `rid` has one round per centre: n samples around it each (lognormal,
    `spread` wide), as `vmmcheck bench --rounds` pools them."""
    out = copy.deepcopy(doc)
    r = next(r for r in out["results"] if r["id"] == rid)
    rng = np.random.default_rng(seed)
    r["values"] = [float(c * v) for c in centres for v in rng.lognormal(0.0, spread, n)]
    r["rounds"] = [n] * len(centres)
    r.update(bench.summarize(r["values"]))
    return out


def test_a_cost_that_shifts_between_processes_is_not_a_slowdown(synthetic):
    # What the H200 showed: an fd import took 16 us in some processes and 25 us in others. Two runs of
    # three rounds each, in different mixes of the two, are the same machine and the same driver.
    base = _with_rounds(synthetic, MAP_2MIB, [16, 25, 16], seed=1)
    new = _with_rounds(synthetic, MAP_2MIB, [25, 25, 16], seed=2)
    row = next(r for r in bench.compare(base, new).rows if r.id == MAP_2MIB)
    assert row.verdict == "unresolved", (row.low, row.high)  # not flagged: its spread is wider than 20%
    # Resampling the pooled samples alone (ignoring the rounds) would have called it a slowdown.
    b = next(r for r in base["results"] if r["id"] == MAP_2MIB)
    a = next(r for r in new["results"] if r["id"] == MAP_2MIB)
    low, high = bench.bootstrap_ratio(b["values"], a["values"], "lower", MAP_2MIB)
    assert bench.verdict(low, high, bench.DEFAULT_THRESHOLD) == "slower"


def test_a_steady_cost_made_25_percent_slower_is_flagged_across_rounds(synthetic):
    base = _with_rounds(synthetic, MAP_2MIB, [20, 20.4, 19.8])
    slower = scaled(base, MAP_2MIB, 1.25)
    row = next(r for r in bench.compare(base, slower).rows if r.id == MAP_2MIB)
    assert row.verdict == "slower" and row.low > 1.2, (row.low, row.high)
    row5 = next(r for r in bench.compare(base, scaled(base, MAP_2MIB, 1.05)).rows if r.id == MAP_2MIB)
    assert row5.verdict == "same"


def test_rounds_that_do_not_add_up_are_one_pool(synthetic):
    doc = _with_rounds(synthetic, MAP_2MIB, [20, 21])
    r = next(r for r in doc["results"] if r["id"] == MAP_2MIB)
    assert bench._rounds_of(r["values"], r["rounds"]) == [100, 100]
    assert bench._rounds_of(r["values"], [100, 99]) is None
    assert bench._rounds_of(r["values"], [200]) is None


def test_the_smallest_flagged_slowdown_is_what_the_compare_flags(synthetic):
    rid = slowest_candidate(synthetic)
    row = next(r for r in synthetic["results"] if r["id"] == rid)
    f = bench.smallest_flagged(row)
    assert f is not None and f > 1.0
    just_above, just_below = scaled(synthetic, rid, f * 1.001), scaled(synthetic, rid, f * 0.999)
    assert next(r for r in bench.compare(synthetic, just_above).rows if r.id == rid).verdict == "slower"
    assert next(r for r in bench.compare(synthetic, just_below).rows if r.id == rid).verdict != "slower"


# --- rounds to resolve an unresolved row, --fail-on-unresolved ------------------------------------------

@pytest.mark.parametrize("ratio, low, high, rounds, want", [
    # Above 1.2, the lower side reaching below it: s = (ln 1.25 - ln 1.2) / (ln 1.25 - ln 1.1) = 0.3193.
    (1.25, 1.1, 1.4, 3, 30),
    # Between the bounds, the upper side over 1.2: s = ln 1.2 / ln 1.3 = 0.6949.
    (1.0, 0.9, 1.3, 2, 5),
    # Over both bounds: both sides must clear theirs, the smaller s (ln 1.2 / ln 1.5 = 0.4497) counts.
    (1.0, 0.7, 1.5, 3, 15),
    # Faster than 1/1.2, the upper side reaching above it: s = (ln 1.2 + ln 0.8) / (ln 0.8 - ln 0.85) = 0.6734.
    (0.8, 0.7, 0.85, 1, 3),
    # The ratio outside its interval: the interval's geometric centre ln(1.3)/2 stands for it.
    (1.5, 1.0, 1.3, 1, 7),
    # On the bound: more rounds cannot move it off.
    (1.2, 1.1, 1.3, 3, None),
    # Not unresolved: nothing to say.
    (1.0, 0.95, 1.05, 3, None),
    (1.5, 1.3, 1.7, 3, None),
])
def test_rounds_needed_by_hand(ratio, low, high, rounds, want):
    assert bench.rounds_needed(ratio, low, high, 0.2, rounds) == want


def test_one_more_round_at_least():
    """An interval just short of resolving still needs a round more than it has."""
    assert bench.rounds_needed(1.3, 1.2 - 1e-9, 1.4, 0.2, 3) == 4


def _replicated(doc: dict, rid: str, times: int) -> dict:
    """`doc` with row `rid`'s rounds repeated `times` times: more rounds of the same spread, the same median."""
    out = copy.deepcopy(doc)
    r = next(r for r in out["results"] if r["id"] == rid)
    edges = np.cumsum([0] + r["rounds"])
    chunks = [r["values"][edges[i]:edges[i + 1]] for i in range(len(r["rounds"]))]
    r["values"] = [v for _ in range(times) for c in chunks for v in c]
    r["rounds"] = r["rounds"] * times
    r.update(bench.summarize(r["values"]))
    return out


@pytest.mark.parametrize("base_centres, new_centres", [([20, 22, 19], [23, 25, 21]), ([20, 23, 21], [26, 24, 27])])
def test_the_estimate_is_about_what_resolves_it(synthetic, base_centres, new_centres):
    """Runs of more rounds of the same spread: a third of the estimate leaves the row unresolved, twice it
    resolves it."""
    base = _with_rounds(synthetic, MAP_2MIB, base_centres, seed=1)
    new = _with_rounds(synthetic, MAP_2MIB, new_centres, seed=2)
    row = next(r for r in bench.compare(base, new).rows if r.id == MAP_2MIB)
    assert row.verdict == "unresolved" and row.rounds_now == 3
    need = row.rounds_to_resolve
    assert need is not None and need > 3
    for rounds, resolved in ((need // 3, False), (2 * need, True)):
        times = max(1, math.ceil(rounds / 3))
        again = next(r for r in bench.compare(_replicated(base, MAP_2MIB, times), _replicated(new, MAP_2MIB, times)).rows
                     if r.id == MAP_2MIB)
        assert (again.verdict != "unresolved") == resolved, (rounds, again.verdict, again.low, again.high)


def test_a_row_without_rounds_counts_one(synthetic):
    base = _with_rounds(synthetic, MAP_2MIB, [20, 22, 19], seed=1)
    new = copy.deepcopy(base)
    r = next(r for r in new["results"] if r["id"] == MAP_2MIB)
    del r["rounds"]
    assert next(c for c in bench.compare(base, new).rows if c.id == MAP_2MIB).rounds_now == 1


@pytest.fixture
def unresolved_pair(synthetic, tmp_path):
    """Two files whose vmm.map of 2 MiB is unresolved (a cost that shifts between rounds), the rest the same."""
    base = write_json(tmp_path / "base.json", _with_rounds(synthetic, MAP_2MIB, [20, 22, 19], seed=1))
    new = write_json(tmp_path / "new.json", _with_rounds(synthetic, MAP_2MIB, [23, 25, 21], seed=2))
    return base, new


def test_unresolved_rows_say_how_many_rounds_would_resolve_them(unresolved_pair, tmp_path, run_cli):
    base, new = unresolved_pair
    cmp = bench.compare(bench.load(base), bench.load(new))
    row = next(r for r in cmp.rows if r.id == MAP_2MIB)
    assert row.verdict == "unresolved" and all(r.verdict == "same" for r in cmp.rows if r.id != MAP_2MIB)
    rc, out, _ = run_cli("bench-compare", base, new, "--json", tmp_path / "c.json", "--html", tmp_path / "c.html")
    assert rc == 0
    line = f"  {MAP_2MIB}: about {row.rounds_to_resolve} rounds in each run would resolve it (now 3 rounds)"
    assert f"\nUnresolved (1): rounds that would resolve each, from its spread:\n{line}\n" in out
    assert out.rstrip().splitlines()[-1] == "0 slower, 0 faster, 1 unresolved, 71 same; 16 not compared"
    doc = json.loads((tmp_path / "c.json").read_text())
    fields = {r["id"]: (r["rounds_now"], r["rounds_to_resolve"]) for r in doc["rows"]}
    assert fields[MAP_2MIB] == (3, row.rounds_to_resolve)
    assert all(v[1] is None for k, v in fields.items() if k != MAP_2MIB)
    html = (tmp_path / "c.html").read_text()
    assert f'<td class="resolve">about {row.rounds_to_resolve} rounds in each run would resolve it' in html
    assert html.count('<td class="resolve"></td>') == len(cmp.rows) - 1


def test_fail_on_unresolved(unresolved_pair, tmp_path, run_cli):
    base, new = unresolved_pair
    rc, out, _ = run_cli("bench-compare", base, new, "--fail-on-unresolved", "--json", tmp_path / "c.json",
                         "--html", tmp_path / "c.html")
    assert rc == 1
    assert out.rstrip().splitlines()[-1] == ("0 slower, 0 faster, 1 unresolved, 71 same; 16 not compared; "
                                             "fails: 1 unresolved (--fail-on-unresolved)")
    doc = json.loads((tmp_path / "c.json").read_text())
    assert doc["exit_code"] == 1 and doc["failing"] == ["1 unresolved (--fail-on-unresolved)"]
    assert "No row slower; fails: 1 unresolved (--fail-on-unresolved)</p>" in (tmp_path / "c.html").read_text()
    # Nothing unresolved: the flag changes nothing but the summary.
    rc, out, _ = run_cli("bench-compare", SYNTHETIC, SYNTHETIC, "--fail-on-unresolved")
    assert rc == 0 and out.rstrip().endswith("; fails: nothing")
    # Slower and unresolved: both named.
    slower = write_json(tmp_path / "slower.json", scaled(bench.load(new), "vmm.map[size=67108864]", 1.5))
    rc, out, _ = run_cli("bench-compare", base, slower, "--fail-on-unresolved")
    assert rc == 1 and out.rstrip().endswith("; fails: 1 slower, 1 unresolved (--fail-on-unresolved)")
