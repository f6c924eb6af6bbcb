"""The ptxas matrix of vmmcheck toolchain: its collection from toolchain JSON (ci/toolchain_matrix.py), the
table docs and the handbook show (vmmcheck_report.toolchain), the CI check's comparison, and the handbook's
compiler page."""
import importlib.util
import json
from pathlib import Path

from vmmcheck_report import handbook, toolchain

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("toolchain_matrix", ROOT / "ci" / "toolchain_matrix.py")
toolchain_matrix = importlib.util.module_from_spec(spec)
spec.loader.exec_module(toolchain_matrix)


def audit_doc(version="12.4.131"):
    """A `vmmcheck toolchain --json` document: two kernels, one ptxas, levels 0 and 3."""
    compiler = f"ptxas {version} (/x/ptxas)"
    return {
        "schema": "vmmcheck-toolchain/1", "arch": "sm_90", "disassembler": {"path": "/x/nvdisasm", "version": "13.2.51"},
        "compilers": [{"name": compiler, "ptxas": "/x/ptxas", "version": version}], "levels": [0, 3],
        "kernels": [
            {"name": "k1", "rows": ["alias_mp.1.a", "alias_mp.1b.a"], "audits": [
                {"compiler": compiler, "level": 0, "intact": True, "findings": []},
                {"compiler": compiler, "level": 3, "intact": False, "ptx_version_lowered_to": "8.4",
                 "findings": [{"problem": "merged", "litmus": "ld.weak r2, x"}]}]},
            {"name": "k2", "rows": ["CoWW.0.a"], "audits": [
                {"compiler": compiler, "level": 0, "intact": True, "findings": []},
                {"compiler": compiler, "level": 3, "intact": False, "findings": [{"problem": "elided", "litmus": "st.weak x, 1"}]}]},
        ]}


def matrix_of(tmp_path, docs):
    paths = []
    for i, d in enumerate(docs):
        p = tmp_path / f"{i}.json"
        p.write_text(json.dumps(d))
        paths.append(str(p))
    out = tmp_path / "matrix.json"
    toolchain_matrix.main(["collect", *paths, "--out", str(out)])
    return json.loads(out.read_text()), out


def test_collect_keeps_every_row_of_a_kernel_per_version_and_level(tmp_path):
    m, _ = matrix_of(tmp_path, [audit_doc("12.4.131"), audit_doc("13.0.88")])
    assert list(m["versions"]) == ["12.4.131", "13.0.88"]
    levels = m["versions"]["12.4.131"]["levels"]
    assert levels["0"] == []
    assert levels["3"] == [["CoWW.0.a", "elided", "st.weak x, 1"], ["alias_mp.1.a", "merged", "ld.weak r2, x"],
                           ["alias_mp.1b.a", "merged", "ld.weak r2, x"]]
    assert m["versions"]["12.4.131"]["ptx_version_lowered_to"] == "8.4"
    assert m["rows"] == 3


def test_the_table_counts_rows_that_broke_apart_from_rows_that_only_elided(tmp_path):
    m, _ = matrix_of(tmp_path, [audit_doc()])
    lines = toolchain.table_lines(m, "ci/results/toolchain/matrix.json")
    assert "| 12.4.131 (PTX .version lowered to 8.4) | 0 / 0 | 2 / 1 |" in lines
    broke = [line for line in lines if line.startswith("- `alias_mp`")]
    assert broke == ["- `alias_mp`: merged `ld.weak r2, x` in 2 rows (breaks the model): ptxas 12.4.131 -O3"]
    assert any(line.startswith("- `CoWW`: elided") and "allowed, untested" in line for line in lines)


def test_spans_join_contiguous_levels():
    assert toolchain.spans(["12.4 -O1", "12.4 -O2", "12.4 -O3", "13.0 -O3"]) == "12.4 -O1..-O3; 13.0 -O3"
    assert toolchain.spans(["12.4 -O1", "12.4 -O3"]) == "12.4 -O1, -O3"
    both = ["12.4 -O1", "12.4 -O2", "13.0 -O1", "13.0 -O2"]
    assert toolchain.spans(both, ["12.4", "13.0"]) == "every version (2) -O1..-O2"
    assert toolchain.spans(both, ["12.4", "12.8", "13.0"]) == "12.4, 13.0 -O1..-O2"


def test_the_check_names_new_and_gone_findings():
    expected = {"3": [["a", "merged", "ld x"]]}
    same = toolchain_matrix.differences(expected, {"3": [["a", "merged", "ld x"]]}, ["3"], "13.0.88")
    assert not [line for line in same if "NEW" in line or "GONE" in line]
    changed = toolchain_matrix.differences(expected, {"3": [["b", "lost", "st y"]]}, ["3"], "13.0.88")
    assert "ptxas 13.0.88 -O3: NEW b: lost `st y`" in changed
    assert any("GONE a: merged `ld x`" in line for line in changed)


def test_the_compiler_page_lists_the_rows_a_run_attributed_to_the_compiler(tmp_path):
    _, matrix = matrix_of(tmp_path, [audit_doc()])
    run = handbook.Run(Path("r.json"), {"results": [
        {"name": "litmus.alias_mp.1.a", "pattern": "litmus", "status": "Warning",
         "reason": "assert (r2 == 1): ...; but ptxas of NVRTC 13.0 broke the model in the machine code the GPU ran: "
                   "merged `ld.weak r2, x` of thread T1 (...) -- a toolchain finding"},
        {"name": "litmus.MP.0", "pattern": "litmus", "status": "Pass", "reason": "assert: holds"}]}, "r", "H200", "H200")
    view = handbook.compiler_view([run], matrix)
    assert view["attributed"][0]["rows"] == [{"name": "litmus.alias_mp.1.a", "status": "Warning",
                                              "why": "merged `ld.weak r2, x` of thread T1 (...)", "compiler": "ptxas of NVRTC 13.0"}]
    assert view["matrix"]["versions"][0]["cells"] == [(0, 0), (2, 1)]
    assert handbook.compiler_view([run], None)["matrix"] is None


def test_findings_are_grouped_by_the_litmus_file_of_the_row_name():
    # Shipped rows are named litmus.<file>.<row>.<command>: the group is the file, not "litmus".
    m = {"versions": {"13.0.88": {"levels": {"3": [["litmus.surface.2.cta_surface_to_generic", "reordered", "st.release.cta [flag], 1"],
                                                   ["litmus.coww.1.cta_weak", "elided", "st [x], 1"]]}}}}
    files = [w["file"] for w in toolchain.what_broke(m)]
    assert files == ["surface", "coww"]
    assert toolchain.file_of("alias_mp.1.a") == "alias_mp"
