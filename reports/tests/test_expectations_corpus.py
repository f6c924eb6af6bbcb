"""The shared corpus of expectation files (tests/data/expectations/corpus.json) read by this driver's reader.
tests/unit/test_expectations_corpus.cpp holds run --baseline's reader to the same manifest, so the two agree."""

import json
from pathlib import Path

import pytest

from conftest import make_doc, result
from vmmcheck_report import expectations

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "data" / "expectations"
MANIFEST = json.loads((CORPUS / "corpus.json").read_text(encoding="utf-8"))
VALID = [f for f in MANIFEST["files"] if f["valid"]]
INVALID = [f for f in MANIFEST["files"] if not f["valid"]]


def read(entry):
    path = CORPUS / entry["file"]
    return path, expectations.read({entry["kind"]: path}, required={entry["kind"]})


def test_the_manifest_names_every_file_once():
    named = [f["file"] for f in MANIFEST["files"]]
    assert len(named) == len(set(named))
    assert sorted(named) == sorted(p.name for p in CORPUS.glob("*.txt"))
    assert all(f["file"].endswith(f"-{f['kind']}.txt") for f in MANIFEST["files"])


@pytest.mark.parametrize("entry", VALID, ids=[f["file"] for f in VALID])
def test_valid_file(entry):
    path, exp = read(entry)
    probes = entry["probes"]
    # Each probe fails as listed (Fail where nothing lists it): apply says which line took it, and how.
    doc = make_doc([result(p["name"], p.get("status", "Fail")) for p in probes])
    out = {r["name"]: r for r in expectations.apply(doc, exp)["results"]}
    for p in probes:
        r, where = out[p["name"]], f"{path}:{p['line']}"
        if p["line"] is None:
            assert (r["status"], r.get("note")) == ("Fail", None), p
        elif entry["kind"] == "fails":
            assert r["status"] == "ExpectedFail", p
            assert r["note"] == f"expected {p['status']} ({where}): {p['reason']}", p
        elif entry["kind"] == "flakes":
            assert (r["status"], r["note"]) == ("Flake", f"known flaky ({where})"), p
        else:
            assert (r["status"], r["note"]) == ("Skip", f"skipped by {where}"), p


@pytest.mark.parametrize("entry", INVALID, ids=[f["file"] for f in INVALID])
def test_invalid_file(entry):
    with pytest.raises(expectations.ExpectationsError) as e:
        read(entry)
    message = str(e.value)
    path = CORPUS / entry["file"]
    assert message.startswith(f"{path}: " if entry["line"] is None else f"{path}:{entry['line']}: "), message
    for words in entry["error"]:
        assert words in message, message
