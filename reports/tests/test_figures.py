"""figures: README's and docs/' measured sections are generated from the committed results, and checked.

The first test is the one CI relies on: every generated section of the repository's documents is what
its file gives now. The others check that a changed results file is caught and named, what the
generators write for small synthetic runs, and that a broken marker is refused with file:line.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from conftest import make_doc, result, write_json
from vmmcheck_report import figures, fmt, load

REPO = Path(__file__).resolve().parents[2]
H200_RESULTS = "ci/results/nvidia-h200_driver-580.159.04.json"


def test_committed_documents_match_the_committed_results(run_cli):
    rc, out, err = run_cli("figures", "--check", "--root", REPO)
    assert rc == 0, out + err
    assert out.strip().endswith("0 differences")


@pytest.fixture
def scratch_repo(tmp_path):
    """The documents and the results they cite, copied: a repository to break."""
    for name in ("README.md", "docs", "ci/results", "ci/experiments"):
        src, dst = REPO / name, tmp_path / name
        dst.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if src.is_dir() else shutil.copy)(src, dst)
    return tmp_path


def test_a_changed_results_file_fails_the_check_and_names_the_section(run_cli, scratch_repo):
    path = scratch_repo / H200_RESULTS
    doc = json.loads(path.read_text())
    case = next(r for r in doc["results"] if r["name"] == "alias.same_thread.alias.weak.nofence")  # a row now
    case["histogram"]["r0=0 r1=0"] -= 1000  # a run that saw 1000 fewer stale loads
    case["histogram"]["r0=0 r1=1"] += 1000
    case["weak"] -= 1000
    write_json(path, doc)
    rc, out, _ = run_cli("figures", "--check", "--root", scratch_repo)
    assert rc == 1
    # The case table that shows that case, by file and line -- and nothing whose figures did not move
    # (the family table's range is set by other cases).
    assert f"README.md:" in out and f"section 'cases {H200_RESULTS} alias.same_thread.alias.*' differs" in out
    assert "run-summary" not in out and "api-statuses" not in out and "families" not in out
    # Regenerating makes the documents agree again.
    rc, _, _ = run_cli("figures", "--root", scratch_repo)
    assert rc == 0
    rc, out, _ = run_cli("figures", "--check", "--root", scratch_repo)
    assert rc == 0, out


def test_the_case_table_must_match_the_results(run_cli, scratch_repo):
    readme = scratch_repo / "README.md"
    # alias.rmw's cases are litmus rows that bear their names (a retired family): counted as its cases.
    readme.write_text(readme.read_text().replace(
        "(its hand-written kernel retired, docs/litmus.md) | 6 |", "(its hand-written kernel retired, docs/litmus.md) | 7 |"))
    rc, out, _ = run_cli("figures", "--check", "--root", scratch_repo)
    assert rc == 1
    assert "`alias.rmw` has 6 cases in the results, the table says 7" in out


def test_broken_markers_are_refused_with_file_and_line(run_cli, tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("text\n<!-- figures: run-summary x.json -->\nnever closed\n")
    rc, _, err = run_cli("figures", "--check", "--root", tmp_path, doc)
    assert rc == 2 and "doc.md:2: the figures section is never closed" in err
    doc.write_text("<!-- figures: nonsense x.json -->\n<!-- /figures -->\n")
    rc, _, err = run_cli("figures", "--check", "--root", tmp_path, doc)
    assert rc == 2 and "expected '<!-- figures: KIND PATH -->'" in err
    doc.write_text("<!-- figures: run-summary missing.json -->\n<!-- /figures -->\n")
    rc, _, err = run_cli("figures", "--check", "--root", tmp_path, doc)
    assert rc == 2 and "missing.json: no such file" in err
    doc.write_text("<!-- /figures -->\n")
    rc, _, err = run_cli("figures", "--check", "--root", tmp_path, doc)
    assert rc == 2 and "doc.md:1: <!-- /figures --> with no section open" in err


def test_a_document_that_cannot_be_read_as_text_is_one_line_exit_2(run_cli, tmp_path):
    """A marker with an unbalanced quote, a document that is not UTF-8, a FIFO: one line naming it, no hang."""
    import os
    import subprocess
    import sys

    from conftest import REPORTS

    doc = tmp_path / "doc.md"
    doc.write_text('<!-- figures: run-summary "x.json -->\n<!-- /figures -->\n')
    rc, _, err = run_cli("figures", "--check", "--root", tmp_path, doc)
    assert rc == 2 and err.startswith("doc.md:1: cannot read the marker") and "No closing quotation" in err, err
    doc.write_bytes(b"\xff\xfe text")
    rc, _, err = run_cli("figures", "--check", "--root", tmp_path, doc)
    assert rc == 2 and err == f"{doc}: not UTF-8 text (byte 0)\n", err
    fifo = tmp_path / "fifo.md"
    os.mkfifo(fifo)
    try:
        proc = subprocess.run([sys.executable, "-m", "vmmcheck_report", "figures", "--check", "--root", str(tmp_path),
                               str(fifo)], capture_output=True, text=True, timeout=30,
                              env=dict(os.environ, PYTHONPATH=str(REPORTS)))
    except subprocess.TimeoutExpired:
        pytest.fail("figures blocked reading a FIFO")
    assert proc.returncode == 2 and proc.stderr == f"{fifo}: not a regular file (a FIFO), not a document\n"


# The kinds whose source is a JSON file of its own kind (no JSON Schema): its "schema" value.
PLAIN_KINDS = {
    "bench-litmus": "vmmcheck-bench-litmus/1",
    "cuda-litmus-variants": "vmmcheck-cuda-litmus-variants/1",
    "cuda-litmus": "vmmcheck-bench-cuda-litmus/1",
    "dat3m": "vmmcheck-dat3m-check/1",
    "knobs": "vmmcheck-knobs/1",
    "permit-kinds": "vmmcheck-permit-kinds/1",
    "rows-tune": "vmmcheck-stress-params/1",
    "selftest": "vmmcheck-selftest/3",
    "toolchain": "vmmcheck-toolchain-matrix/1",
}


@pytest.mark.parametrize("source, words", [
    ("[]", "the document is a JSON array, not an object"),
    ('"text"', "the document is a JSON string, not an object"),
    ('{"a": 1}', '(no "schema" key)'),
    ("RESULTS", "but a `vmmcheck run` results file"),
    ("SCHEMA ONLY", "no '"),
    ("NOT JSON", "not JSON"),
], ids=["array", "string", "object", "results", "schema-only", "not-json"])
@pytest.mark.parametrize("kind", list(PLAIN_KINDS))
def test_a_source_of_the_wrong_kind_is_one_line_exit_2(kind, source, words, run_cli, tmp_path):
    """A marker naming a file of another kind (or a JSON array, or a file with the right "schema" and none of
    the keys) is refused naming the document's line, the file and the kind expected -- not a KeyError from
    the reader."""
    text = {"RESULTS": (REPO / H200_RESULTS).read_text(), "SCHEMA ONLY": json.dumps({"schema": PLAIN_KINDS[kind]}),
            "NOT JSON": "{oops"}.get(source, source)
    (tmp_path / "src.json").write_text(text)
    doc = tmp_path / "doc.md"
    doc.write_text(f"<!-- figures: {kind} src.json -->\nold\n<!-- /figures -->\n")
    rc, out, err = run_cli("figures", "--check", "--root", tmp_path, doc)
    assert rc == 2, out + err
    assert err.count("\n") == 1 and err.startswith(f"{doc.name}:1: src.json: "), err
    assert words in err, err
    if source not in ("NOT JSON",):
        expected = "vmmcheck-selftest/2 or /3" if kind == "selftest" else PLAIN_KINDS[kind]
        assert f"not a {expected} file" in err, err


def test_an_engine_json_of_the_wrong_kind_is_one_line_exit_2(run_cli, tmp_path):
    (tmp_path / "engine" / "before").mkdir(parents=True)
    (tmp_path / "engine" / "before" / "engine.json").write_text("[]")
    doc = tmp_path / "doc.md"
    doc.write_text("<!-- figures: engine engine -->\n<!-- /figures -->\n")
    rc, _, err = run_cli("figures", "--check", "--root", tmp_path, doc)
    assert rc == 2 and err.count("\n") == 1, err
    assert "engine/before/engine.json: not a bench-engine (engine.json) file: the document is a JSON array" in err


def synthetic(tmp_path) -> Path:
    power_yes = {"control": "alias.kernels.k.event.control", "mechanism": "the event", "mutant": "no-event-wait",
                 "axes": {}, "status": "Pass", "histogram": {"new": 75, "old": 25}, "instances": 100,
                 "violations": 25, "discriminating": True, "reason": ""}
    power_no = dict(power_yes, histogram={"new": 100, "old": 0}, violations=0, discriminating=False,
                    control="alias.kernels.k.host.control", mechanism="host synchronisation", mutant="no-host-sync")
    doc = make_doc([
        result("alias.kernels.k.event", power=power_yes),
        result("alias.kernels.k.host", power=power_no),
        result("alias.kernels.k.none", expectation="undefined", histogram={"new": 60, "old": 40}, weak=40),
        result("peer.kernels.a", status="NotSupported", histogram={"new": 0, "old": 0}, instances=0,
               reason="needs two GPUs"),
        result("peer.kernels.b", status="NotSupported", histogram={"new": 0, "old": 0}, instances=0,
               reason="needs two GPUs"),
    ])
    return write_json(tmp_path / "run.json", doc)


def test_what_the_generators_write(tmp_path):
    src = figures.Source(synthetic(tmp_path), "run.json")
    summary = "\n".join(figures.run_summary(src))
    assert "| Pass | 3 |" in summary and "| NotSupported | 2 |" in summary
    assert "- 2 `peer.kernels.*`: needs two GPUs" in summary
    assert "Power: 1 of 2 `required` and 0 of 0 `fault` cases discriminating" in summary
    fam = "\n".join(figures.families(src))
    assert "| `alias.kernels` | 3 | 3 | 0 | 0 | 1 of 2 | 40% | 25% |" in fam
    assert "| `peer.kernels` | 2 | 0 | 0 | 2 | - | - | - |" in fam
    power = "\n".join(figures.power_details(src))
    assert "| `alias.kernels.k.host` | itself under `no-host-sync` | host synchronisation | Pass | new=100 |" in power
    cases = "\n".join(figures.cases(src, "alias.kernels.*"))
    assert "25% forbidden without the event" in cases and "none forbidden without host synchronisation" in cases
    with pytest.raises(figures.FiguresError, match="no case matches"):
        figures.cases(src, "nothing.*")
    # cases-ran: a corpus of which the GPU runs a part shows what ran and counts the rest.
    ran = "\n".join(figures.cases_ran(src, "*"))
    assert "that ran (2 more did not)" in ran and "peer.kernels" not in ran and "alias.kernels" in ran
    with pytest.raises(figures.FiguresError, match="ran"):
        figures.cases_ran(src, "peer.kernels.*")


@pytest.mark.parametrize("part,whole,text", [(0, 10, "0%"), (10, 10, "100%"), (1, 3, "33.3%"),
                                              (335, 10813440, "0.0031%"), (1, 7, "14.3%")])
def test_shares_read_the_same_everywhere(part, whole, text):
    assert fmt.pct(part, whole) == text


def test_magnitudes_and_prefixes():
    assert fmt.short(10813440) == "10.8M" and fmt.short(4194304) == "4.2M" and fmt.short(16) == "16"
    assert fmt.pct_range([(1, 4), (3, 4)]) == "25% - 75%" and fmt.pct_range([]) == "-"
    assert figures.common_prefix(["peer.kernels.a", "peer.access.b"]) == "peer.*"
    assert figures.common_prefix(["lifecycle.partial_mapping"]) == "lifecycle.partial_mapping"


def test_shards_compares_the_merged_shards_with_the_full_run_name_by_name(tmp_path):
    """A shard whose case ended otherwise than in the full run is named, and compare's verdict follows it."""
    folder = tmp_path / "shards"
    shutil.copytree(REPO / "ci/results/shards", folder)
    src = figures.Source(folder, "shards")
    lines = figures.shards(src)
    assert any(line.startswith("`compare` of the full run (baseline) with the merged shards: OK") for line in lines)
    part = sorted(folder.glob("*.shard-1-of-3.json"))[0]
    doc = json.loads(part.read_text())
    changed = next(r for r in doc["results"] if r["status"] == "Pass")
    changed["status"], changed["reason"] = "Fail", "planted for the test"
    doc["totals"] = {k: sum(r["status"] == k for r in doc["results"]) for k in doc["totals"]}
    part.write_text(json.dumps(doc))
    lines = figures.shards(src)
    assert f"- `{changed['name']}`: Pass in the full run, Fail in its shard" in lines
    assert any("REGRESSED: 1 regression" in line and "(exit 1)" in line for line in lines)
    # A case in two shards is refused, naming the files.
    other = sorted(folder.glob("*.shard-2-of-3.json"))[0]
    doc2 = json.loads(other.read_text())
    doc2["results"].append(changed)
    other.write_text(json.dumps(doc2))
    with pytest.raises(figures.FiguresError, match="is in both"):
        figures.shards(src)


def _litmus_row(name, expect, power=None, weak=0, judged=100, gpu_seconds=1.0):
    stem, instance, command = name.split(".")[1:4]
    extra = {"pattern": "litmus", "axes": {"file": stem, "instance": instance, "command": command, "expect": expect},
             "judged": judged}
    if power is not None:
        extra["power"] = power
    return result(name, weak=weak, instances=judged, gpu_seconds=gpu_seconds, histogram={"r0=1": judged}, **extra)


def _power(violations, instances, tried):
    return {"control": tried[0]["control"], "mechanism": "m", "axes": {"control": "ctl"}, "status": "Pass",
            "histogram": {}, "instances": instances, "violations": violations, "discriminating": violations > 0,
            "reason": "", "tried": tried}


def test_litmus_power_counts_rows_and_lists_those_no_control_showed(tmp_path):
    shown = [{"control": "litmus.mp.0.a.ctl_relax_t1_0", "mechanism": "m", "status": "Pass", "instances": 100,
              "violations": 5, "reason": ""}]
    quiet = [{"control": "litmus.mp.1.b.ctl_narrow_t0_1", "mechanism": "m", "status": "Pass", "instances": 70,
              "violations": 0, "reason": ""},
             {"control": "litmus.mp.1.b.ctl_drop_t1_1", "mechanism": "m", "status": "Pass", "instances": 30,
              "violations": 0, "reason": ""}]
    doc = make_doc([_litmus_row("litmus.mp.0.a", "assert", _power(5, 100, shown)),
                    _litmus_row("litmus.mp.1.b", "assert", _power(0, 70, quiet)),
                    _litmus_row("litmus.mp.2.c", "permit", weak=3),
                    _litmus_row("litmus.mp.3.d", "permit")])
    path = write_json(tmp_path / "r.json", doc)
    text = "\n".join(figures.litmus_power(figures.Source(path, "r.json")))
    assert "1 of 2 litmus assert rows (50%)" in text, text
    assert "of 3 controls run; 1 of 2 permit rows showed their weak outcome" in text, text
    assert "| `mp` | 2 | 1 of 2 | 5% |" in text, text
    assert "| `litmus.mp.1.b` | 2 | 100 | `ctl_narrow_t0_1`, `ctl_drop_t1_1` |" in text, text
    assert "litmus.mp.0.a`" not in text.split("with what they tried")[1], text


def test_a_retired_familys_rows_are_its_cases(tmp_path):
    """Rows that bear a family's case names (`case NAME`) stand for it: the family is retired, not paired."""
    kept = _litmus_row("litmus.alias_mp.0.same_flagsame_nofence_cta", "permit", weak=9)
    hand = result("alias.mp.same.flagsame.nofence.cta", weak=1, instances=100, expectation="undefined")
    retired = _litmus_row("litmus.alias_rmw.0.same_gpu", "assert", _power(9, 10, [
        {"control": "litmus.alias_rmw.9.plain", "mechanism": "m", "status": "Pass", "instances": 10, "violations": 9,
         "reason": ""}]))
    retired["name"] = "alias.rmw.same.gpu"
    path = write_json(tmp_path / "r.json", make_doc([kept, hand, retired]))
    text = "\n".join(figures.litmus_vs_hand(figures.Source(path, "r.json")))
    assert "| `alias.rmw` | 1 | 1 | - | - | - | retired: its cases are rows of `alias_rmw.test` |" in text, text
    assert "| `alias.rmw.same.gpu` | assert | Pass |" in text and "- (retired: the row is the case) | - |" in text, text
    assert "The litmus row is at least as strong in 1 of 1 pairs." in text, text


def test_a_hand_written_spin_that_gave_up_is_listed_not_compared(tmp_path):
    """A case's timeout bin is not the outcome its question asks about: the pair is compared on the stale data
    alone, and both sides' spins at their bound are listed."""
    row = _litmus_row("litmus.alias_mp_cta.4.same_flagalias_wfence_cta", "assert",
                      _power(0, 80, [{"control": "litmus.alias_mp_cta.4.same_flagalias_wfence_cta.ctl_unordered",
                                      "mechanism": "m", "status": "Pass", "instances": 80, "violations": 0,
                                      "reason": ""}]), judged=96)
    row["instances"] = 100  # 4 of them at a spin's bound
    row["histogram"] = {"r0=0 r1=1 r2=1": 96, "r0=0 r1=timeout r2=1": 4}
    hand = result("alias.mp_cta.same.flagalias.wfence.cta", status="Warning", expectation="model", weak=3,
                  instances=100, histogram={"new": 97, "stale": 0, "timeout": 3})
    path = write_json(tmp_path / "r.json", make_doc([row, hand]))
    text = "\n".join(figures.litmus_vs_hand(figures.Source(path, "r.json")))
    line = next(l for l in text.splitlines() if l.startswith("| `litmus.alias_mp_cta.4."))
    assert line.endswith("| neither |"), line
    assert "; 4 at a spin's bound (4%)" in line and "; 3 at a spin's bound (3%)" in line, line
    assert "| `alias.mp_cta` | 1 | 1 | 0 | 0 | 1 | no: no side showed anything |" in text, text
    assert "| `alias.rmw` |" not in text and "| `alias.mp` |" not in text, "a family the run did not select"
    hand["histogram"] = {"new": 95, "stale": 2, "timeout": 3}
    hand["weak"] = 5
    path = write_json(tmp_path / "r.json", make_doc([row, hand]))
    text = "\n".join(figures.litmus_vs_hand(figures.Source(path, "r.json")))
    assert "| `alias.mp_cta` | 1 | 1 | 0 | 1 | 0 | no: 1 stronger by hand |" in text, text


def test_the_dat3m_table_counts_agreement_and_names_each_disagreement(tmp_path):
    doc = {"schema": "vmmcheck-dat3m-check/1", "dat3m_commit": "30640123b", "vmmcheck": "0.1.0 (git abc)",
           "summary": {"listed": 4, "decided": 2, "agree_isa": 1, "agree_artifact": 2, "agree_either": 2,
                       "would_run_on_gpu": 1, "unsupported": {"CTA barrier": 1}, "refused": 1, "missing": 0,
                       "not_on_gpu": {"needs a second GPU": 1}},
           "tests": [
               {"file": "litmus/PTX/a.litmus", "status": "decided", "agrees_isa": True, "agrees_artifact": True, "gpu": "runs"},
               {"file": "litmus/PTX/b.litmus", "status": "decided", "agrees_isa": False, "agrees_artifact": True,
                "gpu": "needs a second GPU"},
               {"file": "litmus/PTX/c.litmus", "status": "unsupported", "construct": "CTA barrier", "reason": "bar"},
               {"file": "litmus/PTX/d.litmus", "status": "refused", "reason": "d.exists: the model cannot take it: why"}]}
    path = tmp_path / "dat3m.json"
    path.write_text(json.dumps(doc))
    text = "\n".join(figures.dat3m(figures.Source(path, "dat3m.json")))
    assert "| 4 | 2 | 1 of 2 | 2 of 2 | 1 of 2 |" in text
    assert "| CTA barrier | 1 |" in text
    assert "refused: the model cannot take it: why (`d.litmus`)" in text
    assert "Disagreements with Dat3M: 1: `b.litmus` (ISA differs, artifact agrees)." in text
    doc["schema"] = "vmmcheck-model/1"
    path.write_text(json.dumps(doc))
    with pytest.raises(figures.FiguresError, match="not a vmmcheck-dat3m-check/1 file"):
        figures.dat3m(figures.Source(path, "dat3m.json"))


def test_the_cuda_litmus_table_says_how_vmmcheck_was_tuned(tmp_path):
    doc = json.loads((REPO / "ci/results/cuda-litmus/nvidia-h200_driver-580.159.04.json").read_text())
    doc.pop("vmmcheck_confirm", None)  # a search that kept its own best
    doc.pop("vmmcheck_started", None)  # ... and started from nothing
    for e in doc["tests"]:
        e.pop("vmmcheck_tuned_starts", None)
    path = tmp_path / "cl.json"
    path.write_text(json.dumps(doc))
    text = "\n".join(figures.cuda_litmus(figures.Source(path, "cl.json")))
    assert "vmmcheck's by `tune --litmus --per instance`;" in text and "--confirm" not in text
    doc["vmmcheck_confirm"] = 4
    path.write_text(json.dumps(doc))
    text = "\n".join(figures.cuda_litmus(figures.Source(path, "cl.json")))
    assert "`tune --litmus --per instance`, its 4 best draws measured again and the best of those kept (`--confirm 4`)" in text
    assert "tune --start" not in text and "earlier picks" not in text
    # Searches that drew earlier picks first say which tests kept one, and where it came from.
    doc["vmmcheck_started"] = True
    doc["tests"][0]["vmmcheck_tuned_starts"] = {"starts": ["params-from/params/a.json", "exp.json"], "kept_trial": 4,
                                                "kept_by": "confirmation", "kept_start": "exp.json"}
    doc["tests"][1]["vmmcheck_tuned_starts"] = {"starts": ["params-from/params/b.json"], "kept_trial": 30,
                                                "kept_by": "confirmation", "kept_start": None}
    doc["tests"][2]["vmmcheck_tuned_starts"] = {"starts": ["params-from/params/c.vmmcheck-speed-params.json"], "kept_trial": 3,
                                                "kept_by": "confirmation",
                                                "kept_start": "params-from/params/c.vmmcheck-speed-params.json"}
    doc["tests"][3]["vmmcheck_tuned_starts"] = {"starts": ["x.json"], "kept_trial": 1, "kept_by": "default: every draw failed a guard",
                                                "kept_start": None}
    path.write_text(json.dumps(doc))
    text = "\n".join(figures.cuda_litmus(figures.Source(path, "cl.json")))
    assert "its searches drawing earlier picks first (`tune --start`, counted among the draws)" in text
    first, third = doc["tests"][0]["test"], doc["tests"][2]["test"]
    assert (f"drew earlier picks first, 2 kept one -- `{first}` (`exp.json`), `{third}` (the earlier table's pick per GPU "
            "second) -- and 1 a draw of this call's (random, or refining the best so far, which can be a start), 1 one of "
            "the two fixed draws.") in text


def test_the_readme_headline_counts_the_tests_ahead(tmp_path):
    doc = json.loads((REPO / "ci/results/cuda-litmus/nvidia-h200_driver-580.159.04.json").read_text())
    for e in doc["tests"]:
        e["per_instance_ratio_tuned"], e["per_wall_second_ratio_long"] = 1.0, 10.0   # ahead by the least there is
    doc["tests"][0]["per_instance_ratio_tuned"] = 0.5
    doc["tests"][1]["per_wall_second_ratio_long"] = 9.9
    doc["tests"][2]["per_instance_ratio_tuned"] = None   # a run that did not work is not ahead
    path = tmp_path / "cl.json"
    path.write_text(json.dumps(doc))
    n = len(doc["tests"])
    (line,) = figures.cuda_litmus_headline(figures.Source(path, "cl.json"))
    assert f"on {n - 2} of its {n} tests, and shows at least ten times" in line and f"in long runs on {n - 1} of {n}" in line
    del doc["long"]
    path.write_text(json.dumps(doc))
    (line,) = figures.cuda_litmus_headline(figures.Source(path, "cl.json"))
    assert "long runs" not in line


def test_the_confirm_ab_shows_both_picks_and_what_differs(tmp_path):
    doc = json.loads((REPO / "ci/results/experiments/nvidia-h200_driver-580.159.04.tune-confirm-ab.json").read_text())
    e = doc["tests"][0]
    e["search_pick"] = {"trial": 20, "search_score": 4.0, "again_score": 3.9, "fresh": {"score": 3.5}}
    e["confirmed_pick"] = {"trial": 22, "search_score": 3.95, "again_score": None, "fresh": {"score": 3.75}}
    doc["tests"][1]["confirmed_pick"] = dict(doc["tests"][1]["search_pick"])
    path = tmp_path / "ab.json"
    path.write_text(json.dumps(doc))
    text = "\n".join(figures.tune_confirm_ab(figures.Source(path, "ab.json")))
    assert f"| `{e['test']}` | 20: 4.00, 3.90, 3.50 | 22: 3.95, -, 3.75 | 0.25 |" in text
    same = doc["tests"][1]["search_pick"]
    assert (f"| `{doc['tests'][1]['test']}` | {same['trial']}: {same['search_score']:.2f}, {same['again_score']:.2f}, "
            f"{same['fresh']['score']:.2f} | {same['trial']}: {same['search_score']:.2f}, {same['again_score']:.2f}, "
            f"{same['fresh']['score']:.2f} | same |") in text
    assert f"The picks differ on {doc['summary']['picks_differ']} of {doc['summary']['tests']} tests" in text
    doc["schema"] = "vmmcheck-bench-cuda-litmus/1"
    path.write_text(json.dumps(doc))
    with pytest.raises(figures.FiguresError, match="not a vmmcheck-tune-confirm-ab/1"):
        figures.tune_confirm_ab(figures.Source(path, "ab.json"))


def test_the_hand_edit_table_lists_only_runs_a_diff_made(run_cli, scratch_repo):
    # ci/results/experiments also keeps runs no hand edit made (the mirror tables' last runs): no row for
    # them, and no link to a diff that does not exist.
    rc, _, _ = run_cli("figures", "--root", scratch_repo)
    assert rc == 0
    readme = (scratch_repo / "README.md").read_text()
    section = readme[readme.index("<!-- figures: experiments ci/results/experiments -->"):]
    section = section[:section.index("<!-- /figures -->")]
    linked = re.findall(r"\(ci/experiments/([\w-]+)\.diff\)", section)
    assert linked and all((scratch_repo / "ci/experiments" / f"{name}.diff").is_file() for name in linked)
    assert "same-thread-mirror" not in section and "alias-memory-mirror" not in section


def test_a_wildcard_family_counts_its_retired_cases_rows_too():
    readme = "## What is tested\n\n| family | pattern | cases |\n|---|---|---|\n| `alias.memory.*` | shapes | 3 |\n"
    doc = {"results": [{"name": "alias.memory.kernels.a", "family": "alias.memory.kernels", "pattern": "kernel_pair"},
                       {"name": "alias.memory.mp.b", "family": "litmus.alias_memory_mp", "pattern": "litmus"},
                       {"name": "litmus.alias_memory_mp.1.c", "family": "litmus.alias_memory_mp", "pattern": "litmus"}]}
    assert figures.case_counts(readme, doc) == ["README.md:5: `alias.memory.*` has 2 cases in the results, the table says 3"]
    doc["results"].append({"name": "alias.memory.same_thread.d", "family": "litmus.alias_memory_same_thread", "pattern": "litmus"})
    assert figures.case_counts(readme, doc) == []
