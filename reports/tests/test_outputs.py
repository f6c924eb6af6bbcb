"""Output files never clobber another kind: document_kind follows tests/corpus/documents/README.md (the rule the
C++ reader follows too), and every command that writes a file refuses one holding a document of another kind."""

import json
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, H200, make_doc, result, run_module, write_json
from vmmcheck_report import handbook, outputs

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "corpus" / "documents"
CORPUS_FILES = sorted(p for p in CORPUS.iterdir() if p.name != "README.md")
SYNTHETIC_BENCH = FIXTURES / "bench" / "synthetic.json"


def expected_kind(path: Path):
    kind = path.name.split(".")[0]
    return None if kind == "none" else kind


def test_the_corpus_is_there():
    kinds = {expected_kind(p) for p in CORPUS_FILES}
    assert {"results", "list", "probe", "bench", "bench-compare", "model", "selftest", "stress-params", None} <= kinds


@pytest.mark.parametrize("path", CORPUS_FILES, ids=[p.name for p in CORPUS_FILES])
def test_document_kind_of_every_corpus_file(path):
    assert outputs.document_kind(path) == expected_kind(path)


def test_document_kind_of_what_is_not_a_document(tmp_path):
    assert outputs.document_kind(tmp_path / "absent.json") is None
    assert outputs.document_kind(tmp_path) is None                       # a folder
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe{")
    assert outputs.document_kind(tmp_path / "bin.json") is None
    (tmp_path / "nan.json").write_text('{"schema_version": NaN, "families": [], "cases": []}')
    assert outputs.document_kind(tmp_path / "nan.json") is None        # not JSON, whatever Python reads
    (tmp_path / "bom.json").write_bytes(b"\xef\xbb\xbf" + H200.read_bytes())
    assert outputs.document_kind(tmp_path / "bom.json") == "results"
    assert outputs.document_kind(CORPUS / "README.md") is None
    # The committed runs and bench files are what the corpus says they are.
    assert outputs.document_kind(H200) == "results"
    assert outputs.document_kind(SYNTHETIC_BENCH) == "bench"


def test_the_rule_reads_the_top_level_only(tmp_path):
    """Beyond the corpus, as harness/run/records/output_file.cpp reads it: a string "schema" decides alone."""
    def kind(doc):
        return outputs.document_kind(write_json(tmp_path / "d.json", doc))
    assert kind({"schema": "vmmcheck-bench/1", "schema_version": 2, "families": [], "cases": []}) == "bench"
    assert kind({"schema": "vmmcheck-/1"}) is None and kind({"schema": "vmmcheck-list"}) is None
    assert kind({"schema": "vmmcheck-list/x"}) == "list" and kind({"schema": "vmmcheck-tune/2"}) == "tune"
    assert kind({"schema": "other/1", "schema_version": 2, "context": {"tool": "vmmcheck"}, "results": []}) is None
    assert kind({"schema": 3, "schema_version": 2, "context": {"tool": "vmmcheck"}, "results": []}) == "results"
    assert kind({"schema_version": 2, "context": {"tool": "vmmcheck"}}) is None            # no results
    assert kind({"schema_version": 2, "context": "vmmcheck", "results": []}) is None
    assert kind({"context": {"tool": "vmmcheck"}, "results": []}) is None                  # no schema_version
    assert kind({"schema_version": 2, "families": []}) is None
    assert kind({"data": {"schema": "vmmcheck-bench/1"}}) is None


def test_claim_output(tmp_path):
    results = shutil.copy(H200, tmp_path / "r.json")
    outputs.claim_output(results, "results")                    # the same kind: fine
    outputs.claim_output(tmp_path / "new.html", None)           # nothing there
    outputs.claim_output("-", None)
    outputs.claim_output(None, None)
    with pytest.raises(outputs.OutputError) as e:
        outputs.claim_output(results, None, "HTML")
    assert str(e.value) == f"{results}: holds vmmcheck results (run --json); not overwriting it with HTML (name another file)"
    with pytest.raises(outputs.OutputError, match=r"with a vmmcheck bench comparison \(bench-compare --json\)"):
        outputs.claim_output(results, "bench-compare")
    foreign = write_json(tmp_path / "package.json", {"name": "x", "results": []})
    outputs.claim_output(foreign, "results")                    # not ours to protect
    outputs.claim_output(foreign, None)


@pytest.fixture
def files(tmp_path):
    """A results file, a bench file and a list document, each a copy the command must leave as it is."""
    return {"results": Path(shutil.copy(H200, tmp_path / "results.json")),
            "bench": Path(shutil.copy(SYNTHETIC_BENCH, tmp_path / "bench.json")),
            "list": Path(shutil.copy(CORPUS / "list.schema.json", tmp_path / "list.json"))}


def refused(run_cli, files, victim, *args):
    """Run a command whose output is `victim`: exit 2, one line naming it, and every file unchanged."""
    before = {k: p.read_bytes() for k, p in files.items()}
    rc, out, err = run_cli(*args)
    assert rc == 2, (rc, out, err)
    assert len(err.splitlines()) == 1 and err.startswith(f"{victim}: holds ") and "not overwriting it" in err, err
    assert {k: p.read_bytes() for k, p in files.items()} == before
    return err


def test_render_and_junit_onto_their_own_input(files, run_cli):
    r = files["results"]
    err = refused(run_cli, files, r, "render", r, "-o", r)
    assert err == f"{r}: holds vmmcheck results (run --json); not overwriting it with HTML (name another file)\n"
    refused(run_cli, files, r, "render", r, "--markdown", "-o", r)
    err = refused(run_cli, files, r, "junit", r, "-o", r)
    assert "not overwriting it with JUnit XML" in err


def test_every_command_that_writes(files, run_cli, tmp_path):
    r, b, lst = files["results"], files["bench"], files["list"]
    refused(run_cli, files, b, "compare", r, r, "--html", b)
    refused(run_cli, files, lst, "expectations", "apply", r, "--expectations-dir", tmp_path, "-o", lst)
    refused(run_cli, files, b, "bench-compare", b, b, "--json", b)
    refused(run_cli, files, r, "bench-compare", b, b, "--html", r)
    refused(run_cli, files, b, "bench-report", b, "--html", b)
    refused(run_cli, files, b, "rerun", r, "--vmmcheck", tmp_path / "never-run", "-o", b)
    fails = tmp_path / "exp" / "nvidia-h200-580.159.04-fails.txt"
    fails.parent.mkdir()
    shutil.copy(H200, fails)
    files["fails"] = fails
    refused(run_cli, files, fails, "expectations", "apply", r, "--expectations-dir", fails.parent, "--write-baseline")


def test_merge_onto_another_kind(files, run_cli, tmp_path):
    doc = make_doc([result("alias.mp.a.x")])
    doc["context"]["shard"] = {"index": 1, "count": 1}
    shard = write_json(tmp_path / "shard.json", doc)
    refused(run_cli, files, files["bench"], "merge", shard, "-o", files["bench"])


def test_merge_never_replaces_one_of_its_inputs(run_cli, tmp_path):
    parts = []
    for k in (1, 2):
        doc = make_doc([result(f"alias.mp.a.x{k}")])
        doc["context"]["shard"] = {"index": k, "count": 2}
        parts.append(write_json(tmp_path / f"part{k}.json", doc))
    before = parts[0].read_text()
    code, out, err = run_cli("merge", parts[0], parts[1], "-o", parts[0])
    assert code == 2 and "is also an input" in err and len(err.strip().splitlines()) == 1, err
    assert parts[0].read_text() == before
    # The same file by another spelling is the same input.
    code, _, err = run_cli("merge", parts[0], parts[1], "-o", tmp_path / "." / "part2.json")
    assert code == 2 and "is also an input" in err


def test_writing_the_same_kind_or_no_kind_over_is_fine(files, run_cli, tmp_path):
    r = files["results"]
    html = tmp_path / "r.html"
    html.write_text("<p>old report</p>")
    assert run_cli("render", r, "-o", html)[0] == 0 and "old report" not in html.read_text()
    # apply -o over a results file: the same kind.
    assert run_cli("expectations", "apply", r, "--expectations-dir", tmp_path, "-o", r)[0] == 0
    assert json.loads(r.read_text())["expectations"] == {"fails": None, "flakes": None, "skips": None}
    # Another program's JSON is not ours to protect.
    foreign = write_json(tmp_path / "foreign.json", {"name": "x", "version": "1"})
    assert run_cli("junit", r, "-o", foreign)[0] == 0 and foreign.read_text().startswith("<?xml")


def test_handbook_refuses_a_page_that_is_a_document(tmp_path, files):
    out = tmp_path / "site"
    out.mkdir()
    shutil.copy(H200, out / "index.html")
    before = (out / "index.html").read_bytes()
    rc = handbook.main(["--cases-json", str(FIXTURES / "handbook-list.json"), str(FIXTURES / "handbook-results.json"),
                        "-o", str(out)])
    assert rc == 2
    assert (out / "index.html").read_bytes() == before and sorted(p.name for p in out.iterdir()) == ["index.html"]


def test_refusal_subprocess_has_no_traceback(files):
    r = files["results"]
    proc = run_module("render", r, "-o", r)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1
    assert r.read_bytes() == H200.read_bytes()


def _bounded(*args, cwd=None):
    """run_module with a short limit: an output opened before it is checked blocks on a FIFO for ever."""
    import os
    import subprocess
    import sys

    from conftest import REPORTS
    try:
        return subprocess.run([sys.executable, "-m", "vmmcheck_report", *map(str, args)], capture_output=True,
                              text=True, cwd=cwd, env=dict(os.environ, PYTHONPATH=str(REPORTS)), timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail(f"blocked: {args}")


FIFO_OUTPUTS = {
    "render": ("render", "{r}", "-o", "{out}"),
    "junit": ("junit", "{r}", "-o", "{out}"),
    "merge": ("merge", "{shard}", "-o", "{out}"),
    "compare": ("compare", "{r}", "{r}", "--html", "{out}"),
    "bench-report": ("bench-report", "{b}", "--html", "{out}"),
    "bench-compare --json": ("bench-compare", "{b}", "{b}", "--json", "{out}"),
    "bench-compare --html": ("bench-compare", "{b}", "{b}", "--html", "{out}"),
    "apply": ("expectations", "apply", "{r}", "--expectations-dir", "{tmp}", "-o", "{out}"),
    "rerun": ("rerun", "{r}", "--vmmcheck", "{tmp}/never-run", "-o", "{out}"),
}


@pytest.mark.parametrize("command", FIFO_OUTPUTS)
def test_an_output_that_is_no_regular_file_is_refused(files, tmp_path, command):
    """A FIFO as an output: refused in one line before it is opened (opening it blocks until a reader comes)."""
    import os

    out = tmp_path / "out.fifo"
    os.mkfifo(out)
    doc = make_doc([result("alias.mp.a.x")])
    doc["context"]["shard"] = {"index": 1, "count": 1}
    names = {"r": files["results"], "b": files["bench"], "shard": write_json(tmp_path / "shard.json", doc),
             "out": out, "tmp": tmp_path}
    proc = _bounded(*(a.format(**names) for a in FIFO_OUTPUTS[command]))
    assert proc.returncode == 2 and proc.stderr.startswith(f"{out}: not a regular file (a FIFO)"), proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_an_input_of_no_kind_is_never_the_output(files, run_cli, tmp_path):
    """--schema, --fails: inputs of no document kind; naming one as the output is refused, as merge refuses."""
    from conftest import REPORTS

    r = files["results"]
    schema = Path(shutil.copy(REPORTS.parent / "schema" / "results.schema.json", tmp_path / "schema.json"))
    fails = tmp_path / "fails.txt"
    fails.write_text("")
    before = {p: p.read_bytes() for p in (r, schema, fails)}
    for args, victim in ((("render", r, "--schema", schema, "-o", schema), schema),
                         (("junit", r, "--schema", schema, "-o", schema), schema),
                         (("expectations", "apply", r, "--expectations-dir", tmp_path, "--fails", fails, "-o", fails), fails),
                         (("rerun", r, "--vmmcheck", tmp_path / "never", "--fails", fails, "-o", fails), fails),
                         (("bench-report", files["bench"], "--html", files["bench"]), files["bench"])):
        rc, out, err = run_cli(*args)
        assert rc == 2 and len(err.splitlines()) == 1 and err.startswith(f"{victim}: "), (args, err)
    assert {p: p.read_bytes() for p in before} == before
    err = run_cli("render", r, "--schema", schema, "-o", schema)[2]
    assert err == f"{schema}: is also an input ({schema}); not replacing an input with the output (name another file)\n"
    # A default expectation file of the run, read from --expectations-dir, is an input too.
    default = tmp_path / "exp" / "nvidia-h200-580.159.04-fails.txt"
    default.parent.mkdir()
    default.write_text("")
    rc, _, err = run_cli("expectations", "apply", r, "--expectations-dir", default.parent, "-o", default)
    assert rc == 2 and "is also an input" in err and default.read_text() == ""


def test_two_outputs_one_file_is_refused(files, run_cli, tmp_path):
    b = files["bench"]
    out = tmp_path / "cmp.json"
    rc, _, err = run_cli("bench-compare", b, b, "--json", out, "--html", tmp_path / "." / "cmp.json")
    assert rc == 2 and len(err.splitlines()) == 1 and err.startswith(f"{out}: named for two outputs"), err
    assert not out.exists()


def test_junit_dash_is_stdout(files, tmp_path):
    proc = _bounded("junit", files["results"], "-o", "-", cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout.startswith("<?xml") and "<testsuites" in proc.stdout
    assert not (tmp_path / "-").exists()
    assert proc.stdout == (_bounded("junit", files["results"], "-o", tmp_path / "j.xml") and
                           (tmp_path / "j.xml").read_text())
