"""ci/permit_kinds.py: a permit row's kind from its own test (one CTA, a second path to its memory, ordered,
unordered), the counts of a run by kind, and the figure made of them."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from vmmcheck_report import figures

REPO = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("permit_kinds", REPO / "ci" / "permit_kinds.py")
kinds = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(kinds)

MP = """.global x;
.global y physically aliases x;
.global flag;

d0.b0.t0 {{
  st [x], 1;
  {release} [flag], 1;
}}

{reader} {{
  ld.acquire.gpu r0, [flag] until 1;
  ld r1, [{view}];
}}

permit (r1 != 1) as row;
"""


def mp(reader="d0.b1.t0", view="x", release="st.release.gpu") -> str:
    return MP.format(reader=reader, view=view, release=release)


@pytest.mark.parametrize("source, kind", [
    (mp(reader="d0.b0.t1"), "one CTA"),                      # both threads in CTA b0
    (mp(reader="d0.b0.t1", view="y"), "alias"),              # the data read through x's physical alias,
    (mp(view="y"), "alias"),                                 # in one CTA or two
    (mp(), "ordered"),                                       # a release and an acquire, two CTAs
    (mp(release="st.relaxed.gpu").replace("ld.acquire.gpu", "ld.relaxed.gpu"), "unordered"),
    (mp(reader="d1.b0.t0"), "ordered"),                      # CTA b0 of another device is another CTA
])
def test_a_rows_kind_comes_from_its_own_test(source, kind):
    assert kinds.kind_of(source) == kind


def test_an_alias_declared_but_never_read_is_not_a_second_path():
    assert kinds.kind_of(mp()) == "ordered"  # y is declared in every one of these tests


def row(name: str, weak: int, expect: str = "permit") -> dict:
    return {"name": name, "pattern": "litmus", "axes": {"expect": expect}, "weak": weak, "status": "Pass", "instances": 1000}


def test_a_run_by_kind_and_what_its_share_could_reach(tmp_path):
    results = {"context": {"git_sha": "abc", "devices": [{"name": "NVIDIA H200"}], "driver_release": "580"},
               "results": [row("a", 0), row("b", 5), row("c", 0), row("d", 0), row("e", 1), row("f", 0, expect="assert")]}
    listing = {"litmus_rows": [{"name": "a", "source": mp(reader="d0.b0.t1")}, {"name": "b", "source": mp(reader="d0.b0.t1")},
                               {"name": "c", "source": mp(view="y")}, {"name": "d", "source": mp()},
                               {"name": "e", "source": mp()}, {"name": "f", "source": mp()}]}
    doc = kinds.permit_kinds(results, listing)
    assert (doc["permit_rows"], doc["showing"]) == (5, 2)            # the assert row is no permit row
    assert doc["kinds"]["one CTA"] == {"rows": 2, "showing": 1, "not_showing": ["a"]}
    assert list(doc["kinds"]) == ["alias", "one CTA", "ordered", "unordered"]
    assert doc["kinds"]["alias"]["not_showing"] == ["c"] and doc["kinds"]["ordered"]["not_showing"] == ["d"]
    assert doc["showing_if_every_multi_cta_row_without_alias_did"] == 3  # b and e, and d if it showed
    assert (doc["device"], doc["results_git_sha"]) == ("NVIDIA H200", "abc")
    path = tmp_path / "kinds.json"
    path.write_text(json.dumps(doc))
    text = "\n".join(figures.permit_kinds(figures.Source(path, "kinds.json")))
    assert "2 of 5 permit rows (40%) showed their weak outcome" in text, text
    assert "| one CTA | 2 | 1 | `a` |" in text and "| alias | 1 | 0 | `c` |" in text, text
    assert "3 of 5 would (60%)" in text, text


def test_a_listing_without_a_rows_test_is_refused():
    with pytest.raises(ValueError, match="no test in the listing"):
        kinds.permit_kinds({"results": [row("a", 0)]}, {"litmus_rows": [{"name": "a"}]})
