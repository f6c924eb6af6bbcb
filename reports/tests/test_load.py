"""The loader: good files load, and every kind of bad file is one line on stderr, exit 2, no traceback."""

import json

import pytest

from conftest import H200, make_doc, result, run_module, write_json
from vmmcheck_report import expectations, load


def test_h200_loads_with_all_243_cases():
    doc = load.load(H200)
    assert len(doc["results"]) == 243
    # Every record of this run carries the rule it checks and where that rule is written.
    assert all(r["rule"] and r["citation"] for r in doc["results"])
    assert doc["context"]["driver_release"] == "580.159.04"


def test_processed_document_loads(tmp_path, h200_doc):
    """What apply/rerun write (extra statuses and keys) is accepted, and checked like the original."""
    h200_doc["results"][0]["status"] = "Fail"
    processed = expectations.apply(make_doc(h200_doc["results"]), expectations.Expectations(
        fails={h200_doc["results"][0]["name"]: expectations.ExpectedFailure(
            h200_doc["results"][0]["name"], "Fail", "known", "x:1")}))
    processed["results"][1].update(status="Flake", original_status="Fail",
                                   attempts=[{"attempt": 1, "status": "Pass", "exit_code": 0, "seconds": 0.1}])
    doc = load.load(write_json(tmp_path / "p.json", processed))
    assert doc["results"][0]["status"] == "ExpectedFail"
    assert doc["results"][0]["original_status"] == "Fail"
    assert doc["results"][1]["attempts"][0]["status"] == "Pass"


def _bogus_status(doc):
    doc["results"][3]["status"] = "Bogus"
    return json.dumps(doc)


def _text(doc):
    return json.dumps(doc, indent=2)


BAD_FILES = {
    # name: (content builder, expected words in the message)
    "truncated": (lambda d: _text(d)[:700], ["not JSON", "truncated?"]),
    "malformed": (lambda d: _text(d).replace('"schema_version": 1,', '"schema_version": 1 oops', 1), ["not JSON"]),
    "empty": (lambda d: "", ["empty file"]),
    "whitespace": (lambda d: "  \n", ["empty file"]),
    "not an object": (lambda d: "[1, 2]", ["is not of type 'object'"]),
    "bogus status": (_bogus_status, ["results[3].status", "'Bogus' is not one of"]),
    "missing field": (lambda d: json.dumps({k: v for k, v in d.items() if k != "results"}),
                      ["'results' is a required property"]),
    "negative instances": (lambda d: json.dumps({**d, "results": [{**d["results"][0], "instances": -1}]}),
                           ["results[0].instances", "-1"]),
    "driver status without original": (
        lambda d: json.dumps({**d, "results": [{**d["results"][0], "status": "ExpectedFail"}]}),
        ["'original_status' is a required property"]),
    "duplicate name": (lambda d: json.dumps({**d, "results": [d["results"][0], d["results"][0]]}),
                       ["results[1].name", "repeats results[0]"]),
}


@pytest.mark.parametrize("kind", sorted(BAD_FILES))
def test_bad_file_is_one_line_exit_2(kind, tmp_path, h200_doc, run_cli):
    build, words = BAD_FILES[kind]
    path = tmp_path / "results.json"
    path.write_text(build(h200_doc))
    rc, out, err = run_cli("junit", path, "-o", tmp_path / "j.xml")
    assert rc == 2
    assert err.count("\n") == 1 and err.startswith(str(path) + ": "), err
    for word in words:
        assert word in err
    assert not (tmp_path / "j.xml").exists()


def test_truncated_message_names_position(tmp_path, h200_doc):
    path = tmp_path / "results.json"
    path.write_text(_text(h200_doc)[:700])
    with pytest.raises(load.LoadError, match=r"results.json: not JSON: .* line \d+ column \d+ .*\(truncated\?\)"):
        load.load(path)


def test_not_utf8(tmp_path):
    path = tmp_path / "r.json"
    path.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(load.LoadError, match="not UTF-8"):
        load.load(path)


@pytest.mark.parametrize("command", ["render", "compare", "junit", "expectations apply", "rerun"])
def test_missing_file_every_command_subprocess(command, tmp_path):
    """Through the real entry point: exit 2, the file named, no traceback, whatever the command."""
    missing = tmp_path / "nope.json"
    args = {"render": [missing, "-o", tmp_path / "r.html"], "compare": [H200, missing],
            "junit": [missing, "-o", tmp_path / "j.xml"], "expectations apply": [missing],
            "rerun": [missing, "--vmmcheck", "/bin/false"]}[command]
    proc = run_module(*command.split(), *args)
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"{missing}: no such file"
    assert "Traceback" not in proc.stderr


def test_schema_violation_subprocess(tmp_path, h200_doc):
    path = tmp_path / "results.json"
    path.write_text(_bogus_status(h200_doc))
    proc = run_module("render", path, "-o", tmp_path / "r.html")
    assert proc.returncode == 2
    assert "results[3].status: 'Bogus' is not one of ['Pass', 'Fail', 'NotSupported'" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_schema_override(tmp_path, run_cli):
    """--schema picks another schema; a missing one is an error naming it."""
    rc, _, err = run_cli("junit", H200, "-o", tmp_path / "j.xml", "--schema", tmp_path / "none.json")
    assert rc == 2 and "none.json: schema not found" in err
    strict = json.loads(load.default_schema_path().read_text())
    strict["properties"]["results"]["maxItems"] = 10
    schema = write_json(tmp_path / "strict.json", strict)
    rc, _, err = run_cli("junit", H200, "-o", tmp_path / "j.xml", "--schema", schema)
    assert rc == 2 and "results: " in err and "is too long" in err


def test_directory_is_not_a_results_file(tmp_path, run_cli):
    rc, _, err = run_cli("render", tmp_path, "-o", tmp_path / "r.html")
    assert rc == 2 and "is a directory" in err


def test_synthetic_docs_are_valid(tmp_path):
    """The builder the other tests use makes documents the schema accepts."""
    doc = make_doc([result("alias.mp.a.b", "Crash", reason="signal 11"), result("alias.kernels.x.y", "NotSupported")])
    assert load.load(write_json(tmp_path / "s.json", doc))["totals"]["Crash"] == 1


BENCH_FIXTURE = H200.parent / "bench" / "synthetic.json"

# --schema given something that is no JSON Schema: the commands that take --schema, with their other arguments.
SCHEMA_COMMANDS = {
    "render": lambda tmp: ["render", H200, "-o", tmp / "r.html"],
    "compare": lambda tmp: ["compare", H200, H200],
    "junit": lambda tmp: ["junit", H200, "-o", tmp / "j.xml"],
    "merge": lambda tmp: ["merge", H200, "-o", tmp / "m.json"],
    "rerun": lambda tmp: ["rerun", H200, "--vmmcheck", "/bin/false"],
    "history add": lambda tmp: ["history", "add", H200, "--db", tmp / "h.sqlite"],
    "bench-report": lambda tmp: ["bench-report", BENCH_FIXTURE],
    "bench-compare": lambda tmp: ["bench-compare", BENCH_FIXTURE, BENCH_FIXTURE],
}


@pytest.mark.parametrize("text, words", [
    ('{"type": 5}', "not a valid JSON Schema (draft 7): type: 5 is not valid"),
    ("[]", "not a JSON Schema: the document is a JSON array, not an object"),
    ('{"properties": {"x": {"pattern": "("}}}', "not a valid JSON Schema (draft 7): properties.x.pattern: "),
    ('{"$ref": "#/definitions/nope"}', "$ref: '#/definitions/nope' points to nothing in the schema"),
    ('{"$ref": "http://example.invalid/s.json"}', "is not in this file"),
], ids=["type-5", "array", "bad-regex", "dangling-ref", "remote-ref"])
@pytest.mark.parametrize("command", list(SCHEMA_COMMANDS))
def test_a_schema_that_is_no_schema_is_one_line_exit_2(text, words, command, tmp_path, run_cli):
    """--schema is input too: a file that is not a valid draft-7 schema (or not an object) is refused naming
    it, before any results file is judged by it -- not a traceback from inside the validator."""
    schema = tmp_path / "s.json"
    schema.write_text(text)
    rc, _, err = run_cli(*SCHEMA_COMMANDS[command](tmp_path), "--schema", schema)
    assert rc == 2, err
    assert err.count("\n") == 1 and err.startswith(f"{schema}: ") and words in err, err
    assert not (tmp_path / "h.sqlite").exists()


def test_a_schema_that_is_no_schema_subprocess(tmp_path):
    schema = tmp_path / "s.json"
    schema.write_text('{"type": 5}')
    proc = run_module("render", H200, "--schema", schema, "-o", tmp_path / "r.html")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.strip().splitlines() == [f"{schema}: not a valid JSON Schema (draft 7): type: 5 is not valid "
                                                "under any of the given schemas"]


@pytest.mark.parametrize("command", ["render", "compare", "junit", "bench-report", "history add", "handbook"])
def test_a_fifo_is_not_a_regular_file(command, tmp_path):
    """A FIFO (or a device) would block the read for ever: refused, one line, before it is opened."""
    import os
    import subprocess
    import sys

    from conftest import REPORTS

    fifo = tmp_path / "f.json"
    os.mkfifo(fifo)
    args = {"render": ["render", fifo, "-o", tmp_path / "r.html"], "compare": ["compare", H200, fifo],
            "junit": ["junit", fifo, "-o", tmp_path / "j.xml"], "bench-report": ["bench-report", fifo],
            "history add": ["history", "add", fifo, "--db", tmp_path / "h.sqlite"],
            "handbook": ["handbook", "--cases-json", fifo, "-o", tmp_path / "hb"]}[command]
    try:
        proc = subprocess.run([sys.executable, "-m", "vmmcheck_report", *map(str, args)], capture_output=True,
                              text=True, env=dict(os.environ, PYTHONPATH=str(REPORTS)), timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{command} blocked reading the FIFO {fifo}")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{fifo}: not a regular file (a FIFO)" in lines[0], proc.stderr
