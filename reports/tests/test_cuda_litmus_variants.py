"""ci/cuda_litmus_variants.py: cuda-litmus's published variants as litmus rows -- their names, placements and
programs -- and the table of the model's verdicts beside cuda-litmus's: how it is checked again without a
checkout (with a made-up vmmcheck), what a GPU run adds, and the figure docs/litmus.md shows of it."""

from __future__ import annotations

import importlib.util
import json
import os
import stat
import sys
from pathlib import Path

import pytest

from vmmcheck_report import figures

REPO = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("cuda_litmus_variants", REPO / "ci" / "cuda_litmus_variants.py")
clv = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(clv)

TABLE = REPO / "ci/results/cuda-litmus/variants.json"


def test_every_published_variant_is_a_row_of_its_own():
    names = clv.row_names()
    assert len(names) == 1306 and len(set(names.values())) == 1306
    committed = {e["variant"] for e in json.loads(TABLE.read_text())["variants"]}
    assert set(names.values()) == committed
    # a row's name is the variant's, lower-cased, in its test's file
    assert names["litmus.two_2w_variants.0.tb_01_scope_block_no_fence_release"] == "two_2w_TB_01_SCOPE_BLOCK_NO_FENCE_RELEASE"


def test_a_tb_group_is_one_cta():
    assert clv.placement("012", 3) == ["d0.b0.t0", "d0.b0.t1", "d0.b0.t2"]
    assert clv.placement("1_02", 3) == ["d0.b1.t0", "d0.b0.t0", "d0.b1.t1"]
    assert clv.placement("0_1_2_3", 4) == ["d0.b0.t0", "d0.b1.t0", "d0.b2.t0", "d0.b3.t0"]
    with pytest.raises(ValueError):
        clv.placement("01", 3)


def program_of(test: str, variant: str) -> list:
    for name, groups, scope, fence_scope, k in clv.variants(test):
        if name == variant:
            return clv.program(test, groups, scope, fence_scope, k)
    raise KeyError(variant)


def test_a_variant_is_its_kernel_as_libcu_compiles_it():
    # rwc STORE_SC: thread 1's first load acquires, thread 2's store is seq_cst (a fence.sc, then relaxed)
    p = program_of("rwc", "TB_0_1_2_SCOPE_DEVICE_NO_FENCE_STORE_SC")
    assert p[:3] == ["d0.b0.t0", "d0.b1.t0", "d0.b2.t0"]
    assert p[3:] == ["st.relaxed.gpu [x], 1;", "ld.acquire.gpu r0, [x];", "", "ld.relaxed.gpu r1, [y];",
                     "fence.sc.gpu; st.relaxed.gpu [y], 1;", "", "ld.relaxed.gpu r2, [x];"]
    # isa2 at .cta with fences at .gpu in threads 0 and 2, thread 1's store releasing
    p = program_of("isa2", "TB_01_2_SCOPE_BLOCK_FENCE_SCOPE_DEVICE_THREAD_0_2_FENCE_REL")
    assert p == ["d0.b0.t0", "d0.b0.t1", "d0.b1.t0",
                 "st.relaxed.cta [x], 1;", "fence.acq_rel.gpu;", "st.relaxed.cta [y], 1;",
                 "ld.relaxed.cta r0, [y];", "", "st.release.cta [z], 1;",
                 "ld.relaxed.cta r1, [z];", "fence.acq_rel.gpu;", "ld.relaxed.cta r2, [x];"]
    # wrw+2w ACQUIRE: thread 1's load acquires and thread 2's second store releases
    p = program_of("wrw_2w", "TB_0_1_2_SCOPE_DEVICE_NO_FENCE_ACQUIRE")
    assert p[3:] == ["st.relaxed.gpu [x], 2;", "ld.acquire.gpu r0, [x];", "", "st.relaxed.gpu [y], 1;",
                     "st.relaxed.gpu [y], 2;", "", "st.release.gpu [x], 1;"]
    # the paper's DISALLOWED: every store release, every load acquire, fence.sc at the default scope (.sys)
    p = program_of("paper_example1", "TB_0_1_2_3_SCOPE_DEVICE_NO_FENCE_DISALLOWED")
    assert "fence.sc.sys;" in p and "st.release.gpu [a], 1;" in p and "ld.acquire.gpu r2, [x];" in p
    assert not any("relaxed" in t for t in p)


def test_the_files_hold_every_row_and_each_row_fills_every_hole(tmp_path):
    names = clv.generate(tmp_path)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == sorted(f"{t}_variants.test" for t in clv.TESTS)
    rows = 0
    for path in tmp_path.iterdir():
        head, _, table = path.read_text().partition("$$\n")
        holes = head.count("$")
        for line in table.splitlines():
            assert len(line.split(" | ")) == holes, (path.name, line)
            rows += 1
    assert rows == len(names) == 1306


def fake_vmmcheck(tmp_path: Path, forbids: set) -> str:
    """A vmmcheck whose `model --json OUT DIR` answers every generated row: allowed unless its variant is in
    `forbids` (under both readings)."""
    rows = {row: variant for row, variant in clv.row_names().items()}
    data = tmp_path / "answers.json"
    data.write_text(json.dumps({row: variant not in forbids for row, variant in rows.items()}))
    script = tmp_path / "vmmcheck"
    script.write_text(f"""#!{sys.executable}
import json, sys
if sys.argv[1] == "--version":
    print("0.1.0 (git fake)"); sys.exit(0)
answers = json.load(open({str(data)!r}))
out = sys.argv[sys.argv.index("--json") + 1]
json.dump({{"schema": "vmmcheck-model/1", "rows": [{{"name": n, "isa_allows": a, "artifact_allows": a}}
           for n, a in answers.items()]}}, open(out, "w"))
sys.exit(0 if all(answers.values()) else 1)
""")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


def test_verify_names_each_variant_whose_verdict_moved(tmp_path):
    doc = json.loads(TABLE.read_text())
    forbidden_now = {e["variant"] for e in doc["variants"] if not e["model_isa"]}
    assert clv.verify(fake_vmmcheck(tmp_path, forbidden_now), TABLE) == []
    # the model forbidding one more variant: it moved from the table, and from cuda-litmus's base model
    moved = "iriw_TB_0_1_2_3_SCOPE_DEVICE_NO_FENCE_RELAXED"
    problems = clv.verify(fake_vmmcheck(tmp_path, forbidden_now | {moved}), TABLE)
    assert len(problems) == 4 and all(p.startswith(moved + ":") for p in problems)
    assert f"{moved}: the model's isa reading now forbids it, the table allows it" in problems
    assert f"{moved}: the model's artifact reading forbids it, cuda-litmus's base model allows it" in problems
    # a summary that is not its entries' (a hand edit)
    doc["summary"]["seen_h100"] += 1
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(doc))
    assert clv.verify(fake_vmmcheck(tmp_path, forbidden_now), edited) == [
        "the table's summary is not what its variants give (summarise)"]


def test_the_summary_and_what_a_gpu_run_adds():
    entries = [
        {"variant": "iriw_TB_0_1_2_3_SCOPE_DEVICE_NO_FENCE_RELAXED", "model_isa": True, "model_artifact": True,
         "base": True, "strengthened": True, "seen": ["a100", "h100"]},
        {"variant": "iriw_TB_0123_SCOPE_BLOCK_NO_FENCE_RELAXED", "model_isa": True, "model_artifact": True,
         "base": True, "strengthened": True, "seen": []},
        {"variant": "iriw_TB_02_1_3_SCOPE_DEVICE_NO_FENCE_RELAXED", "model_isa": True, "model_artifact": True,
         "base": True, "strengthened": True, "seen": [], "ran": False},
        {"variant": "two_2w_TB_0_1_SCOPE_DEVICE_NO_FENCE_RELEASE", "model_isa": True, "model_artifact": True,
         "base": True, "strengthened": False, "seen": []},
        {"variant": "isa2_TB_0_1_2_SCOPE_DEVICE_FENCE_SCOPE_DEVICE_ALL_FENCE", "model_isa": False,
         "model_artifact": False, "base": False, "strengthened": False, "seen": []},
    ]
    s = clv.summarise(entries)
    assert (s["variants"], s["agree_base"], s["allowed"], s["seen_h100"], s["allowed_one_cta"], s["only_base"],
            s["only_base_seen"], s["never_ran"]) == (5, 5, 4, 1, 1, 1, 0, 1)
    assert s["by_test"]["iriw"]["variants"] == 3 and s["by_test"]["two_2w"]["only_base"] == 1
    assert "gpu_judged" not in s
    doc = {"schema": clv.SCHEMA, "summary": s, "variants": entries}
    rows = {v: r for r, v in clv.row_names().items()}
    run = {"context": {"devices": [{"name": "NVIDIA H200"}], "driver_release": "580.159.04", "git_sha": "abc"},
           "results": [{"name": rows[entries[0]["variant"]], "status": "Pass", "judged": 100, "weak": 0},
                       {"name": rows[entries[1]["variant"]], "status": "Error", "judged": 0, "weak": 0},
                       {"name": rows[entries[3]["variant"]], "status": "Pass", "judged": 100, "weak": 7},
                       {"name": rows[entries[4]["variant"]], "status": "Fail", "judged": 100, "weak": 2}]}
    clv.add_gpu_results(doc, run)
    s = doc["summary"]
    # an Error judged nothing; the Fail showed an outcome the model forbids
    assert (s["gpu_judged"], s["gpu_shown"], s["gpu_seen_h100"], s["gpu_shown_where_h100_did"],
            s["gpu_shown_where_none_did"], s["gpu_shown_only_base"]) == (3, 2, 1, 0, 2, 1)
    assert s["gpu_failed"] == [entries[4]["variant"]]
    assert s["gpu_statuses"] == {"Pass": 2, "Error": 1, "Fail": 1, "not in the run": 1}
    assert entries[2]["gpu_run"] == {"status": "not in the run"}


def test_the_log_names_the_variants_that_never_ran(tmp_path):
    log = tmp_path / "gh200.txt"
    log.write_text("Iteration: 0\n"
                   "  Test iriw-TB_02_1_3-SCOPE_BLOCK-NO_FENCE-RELAXED weak: 0, total: 0, rate: 0 per second\n"
                   "  Test wrw+2w-TB_02_1-SCOPE_DEVICE-NO_FENCE-ACQUIRE weak: 0, total: 0, rate: 0 per second\n"
                   "  Test 3.2w-TB_012-SCOPE_BLOCK-NO_FENCE-RELAXED weak: 0, total: 0, rate: 0 per second\n"
                   "Iteration: 1\n"
                   "  Test 3.2w-TB_012-SCOPE_BLOCK-NO_FENCE-RELAXED weak: 0, total: 83028000, rate: 0 per second\n")
    # the kernel's file names and TB_02_1 are results.csv's test names and TB_1_02; a variant with instances
    # in some iteration ran
    assert clv.never_ran_in_log(log) == ["iriw_TB_02_1_3_SCOPE_BLOCK_NO_FENCE_RELAXED",
                                         "wrw_2w_TB_1_02_SCOPE_DEVICE_NO_FENCE_ACQUIRE"]
    assert clv.never_ran("iriw_TB_02_1_3_SCOPE_BLOCK_NO_FENCE_RELAXED")
    assert not clv.never_ran("iriw_TB_0_1_2_3_SCOPE_BLOCK_NO_FENCE_RELAXED")


def test_a_results_csv_value_the_script_does_not_know_is_refused(tmp_path):
    path = tmp_path / "results.csv"
    path.write_text("test,base,strengthened,a100,h100,gh200\n"
                    "iriw_TB_0123_SCOPE_BLOCK_NO_FENCE_RELAXED,INSTANCE,INSTANCE,seen,,not seen\n")
    with pytest.raises(SystemExit, match="h100=''"):
        clv.published(path)


def test_the_figure_of_the_committed_table(tmp_path):
    text = "\n".join(figures.cuda_litmus_variants(figures.Source(TABLE, "variants.json")))
    doc = json.loads(TABLE.read_text())
    n = doc["summary"]["variants"]
    assert f"| **all** | {n} |" in text
    assert f"agrees with cuda-litmus's base model on {doc['summary']['agree_base']} of {n} variants" in text
    # The H200's run in it: what it showed, against the H100's, and nothing the model forbids.
    s = doc["summary"]
    assert (f"of the {s['gpu_judged']} rows that judged their instances, {s['gpu_shown']} showed their weak outcome -- "
            f"{s['gpu_shown_where_h100_did']} of the {s['gpu_seen_h100']} the H100 showed") in text
    assert "Outcomes the model forbids: none." in text
    bad = tmp_path / "other.json"
    bad.write_text(json.dumps({"schema": "vmmcheck-dat3m-check/1"}))
    with pytest.raises(figures.FiguresError, match="not a vmmcheck-cuda-litmus-variants/1 file"):
        figures.cuda_litmus_variants(figures.Source(bad, "other.json"))


def test_the_figure_with_a_gpu_run(tmp_path):
    doc = json.loads(TABLE.read_text())
    rows = {v: r for r, v in clv.row_names().items()}
    shown = "two_2w_TB_0_1_SCOPE_DEVICE_NO_FENCE_RELAXED"  # the H100 showed it
    run = {"context": {"devices": [{"name": "NVIDIA H200"}], "driver_release": "580.159.04", "git_sha": "0123456789abcdef",
                       "budget": {"instances": 100000000}},
           "results": [{"name": rows[e["variant"]], "status": "Pass", "judged": 1000,
                        "weak": 5 if e["variant"] == shown else 0} for e in doc["variants"]]}
    clv.add_gpu_results(doc, run)
    path = tmp_path / "variants.json"
    path.write_text(clv.dump(doc))
    text = "\n".join(figures.cuda_litmus_variants(figures.Source(path, "variants.json")))
    n_h100 = doc["summary"]["seen_h100"]
    assert f"| **all** | 1306 |" in text and f"| 1 of 1306 | 1 of {n_h100} |" in text
    assert "On the GPU (NVIDIA H200, driver 580.159.04, vmmcheck git 0123456789ab; `vmmcheck run --litmus DIR --instances 100000000`" in text
    assert f"1 showed their weak outcome -- 1 of the {n_h100} the H100 showed" in text
    assert "Outcomes the model forbids: none." in text


def test_each_tests_variants_take_its_tuned_knobs():
    bench = json.loads((REPO / "ci/results/cuda-litmus/nvidia-h200_driver-580.159.04.json").read_text())
    doc = clv.tuned_params(bench)
    assert doc["schema"] == "vmmcheck-stress-params/1" and doc["params"] == {}
    # every test with variants, none without (mp, z6-1)
    assert sorted(r["rows"] for r in doc["rows"]) == sorted(f"litmus.{t}_variants.*" for t in clv.TESTS)
    by_test = {t["test"]: t for t in bench["tests"]}
    wrw = next(r for r in doc["rows"] if r["rows"] == "litmus.wrw_2w_variants.*")
    assert wrw["params"] == by_test["wrw+2w"]["vmmcheck_long"]["params"]
    per_instance = clv.tuned_params(bench, "instance")
    wrw = next(r for r in per_instance["rows"] if r["rows"] == "litmus.wrw_2w_variants.*")
    assert wrw["params"] == by_test["wrw+2w"]["vmmcheck_tuned"]["params"]


def test_one_tests_knobs_alone_are_a_start_file(tmp_path):
    bench = REPO / "ci/results/cuda-litmus/nvidia-h200_driver-580.159.04.json"
    out = tmp_path / "wrc.json"
    assert clv.main(["params", "--bench", str(bench), "--test", "wrc", str(out)]) == 0
    doc = json.loads(out.read_text())
    wrc = next(t for t in json.loads(bench.read_text())["tests"] if t["test"] == "wrc")
    assert doc["params"] == wrc["vmmcheck_long"]["params"] and "rows" not in doc
    assert clv.main(["params", "--bench", str(bench), "--test", "nope", str(tmp_path / "n.json")]) == 2
