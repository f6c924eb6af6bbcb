"""merge: the shards of `vmmcheck run --shard K/N` make the one run again, and what is not one run is refused."""

import copy
import json

import pytest

from conftest import make_doc, result, run_module, write_json
from vmmcheck_report import compare, load, merge, model

STATUSES = ["Pass", "Pass", "Fail", "NotSupported", "Warning", "Pass", "Crash", "Pass", "Timeout", "Error"]
NAMES = [f"alias.mp.case{i}.{axis}" for i in range(12) for axis in ("gpu", "sys")] + \
        [f"litmus.sb.{i}.row" for i in range(8)]
STARTS = {1: "2026-12-01T10:00:05Z", 2: "2026-12-01T09:59:58Z", 3: "2026-12-01T10:01:00Z"}


def test_fnv1a_64_as_published():
    """The vectors of the FNV reference, and those tests/unit/test_selection.cpp pins for harness/model/shard.cpp."""
    assert merge.fnv1a_64(b"") == 0xCBF29CE484222325
    assert merge.fnv1a_64(b"a") == 0xAF63DC4C8601EC8C
    assert merge.fnv1a_64(b"foobar") == 0x85944171F73967E8
    assert merge.shard_of("a", 3) == 0xAF63DC4C8601EC8C % 3 + 1
    name = "alias.mp.same.flagsame.nofence.gpu"
    assert [merge.shard_of(name, n) for n in range(1, 9)] == [merge.fnv1a_64(name.encode()) % n + 1 for n in range(1, 9)]
    # Over UTF-8 bytes, not characters.
    assert merge.fnv1a_64("é".encode()) != merge.fnv1a_64(b"\xe9")


@pytest.fixture
def full():
    """The unsharded run: a mix of statuses."""
    return make_doc([result(n, STATUSES[i % len(STATUSES)], reason="" if i % 3 else f"why {i}")
                     for i, n in enumerate(NAMES)])


def shard_doc(full, k, n=3, started=None):
    """What `run --shard k/n` of the same run writes: its cases, in the run's order, and context.shard."""
    doc = make_doc([copy.deepcopy(r) for r in full["results"] if merge.shard_of(r["name"], n) == k], like=full)
    doc["context"]["shard"] = {"index": k, "count": n}
    doc["context"]["started"] = started or STARTS.get(k, "2026-12-01T10:00:00Z")
    return doc


@pytest.fixture
def shards(full, tmp_path):
    """The three shard files, each with some cases (the names were picked so that none is empty)."""
    paths = []
    for k in (1, 2, 3):
        doc = shard_doc(full, k)
        assert doc["results"], k
        paths.append(write_json(tmp_path / f"shard{k}.json", doc))
    return paths


def test_three_shards_merge_to_the_unsharded_run(full, shards, tmp_path, run_cli):
    out = tmp_path / "merged.json"
    # Given in another order: the output is in shard order whatever the command line's.
    rc, stdout, err = run_cli("merge", shards[2], shards[0], shards[1], "-o", out)
    assert rc == 0 and err == "" and stdout == ""
    merged = load.load(out)                                           # the schema accepts it
    assert {r["name"]: r["status"] for r in merged["results"]} == {r["name"]: r["status"] for r in full["results"]}
    assert len(merged["results"]) == len(full["results"])
    assert merged["totals"] == model.count_statuses(full["results"])
    ctx = merged["context"]
    assert "shard" not in ctx and ctx["started"] == STARTS[2]          # the earliest
    parts = [json.loads(p.read_text()) for p in shards]
    assert ctx["merged"] == [{"shard": {"index": k, "count": 3}, "started": STARTS[k], "cases": len(parts[k - 1]["results"])}
                             for k in (1, 2, 3)]
    # Results: shard 1's in its order, then shard 2's, then shard 3's.
    assert [r["name"] for r in merged["results"]] == [r["name"] for p in parts for r in p["results"]]
    # The rest of the context is the first shard's.
    expect = {k: v for k, v in full["context"].items() if k != "started"}
    assert {k: v for k, v in ctx.items() if k not in ("started", "merged")} == expect
    # And compare sees the same run: nothing missing, nothing changed.
    cmp = compare.compare(full, merged)
    assert cmp.exit_code == 0 and not cmp.sections()


def test_missing_shards_warn_and_still_write(full, shards, tmp_path, run_cli):
    out = tmp_path / "partial.json"
    rc, _, err = run_cli("merge", shards[0], shards[2], "-o", out)
    assert rc == 0
    assert err == (f"merge: warning: {out} lacks shard 2/3 (2 of 3 given): compared with a full run, their cases "
                   f"show as missing\n")
    partial = load.load(out)
    cmp = compare.compare(full, partial)
    assert sorted(c.name for c in cmp.missing) == sorted(r["name"] for r in json.loads(shards[1].read_text())["results"])
    assert cmp.exit_code == 1


def test_a_file_without_a_shard_is_refused(full, shards, tmp_path, run_cli):
    whole = write_json(tmp_path / "whole.json", full)
    rc, out, err = run_cli("merge", shards[0], whole, "-o", tmp_path / "m.json")
    assert rc == 2 and out == ""
    assert err == f"{whole}: not a shard: no context.shard (merge takes what `vmmcheck run --shard K/N` wrote)\n"
    assert not (tmp_path / "m.json").exists()


def test_overlapping_shards_are_refused(full, shards, tmp_path, run_cli):
    # Shard 2's file with a case of shard 1 added: that case is in two inputs.
    doc = json.loads(shards[1].read_text())
    stolen = json.loads(shards[0].read_text())["results"][0]
    doc["results"].append(stolen)
    doc["totals"] = model.count_statuses(doc["results"])
    bad = write_json(tmp_path / "bad2.json", doc)
    rc, _, err = run_cli("merge", shards[0], bad, shards[2], "-o", tmp_path / "m.json")
    assert rc == 2 and err == f"{shards[0]}, {bad}: case {stolen['name']} is in both (the shards overlap)\n"
    # Alone with shard 3, the stray case is not what run --shard 2/3 wrote.
    rc, _, err = run_cli("merge", bad, shards[2], "-o", tmp_path / "m.json")
    assert rc == 2 and err == (f"{bad}: case {stolen['name']} belongs to shard 1/3, not 2/3: not what "
                               f"`run --shard 2/3` wrote\n")
    assert not (tmp_path / "m.json").exists()


def test_the_same_shard_twice_or_other_counts_are_refused(full, shards, tmp_path, run_cli):
    rc, _, err = run_cli("merge", shards[0], shards[1], shards[1], "-o", tmp_path / "m.json")
    assert rc == 2 and err == f"{shards[1]}, {shards[1]}: both are shard 2/3\n"
    four = write_json(tmp_path / "of4.json", shard_doc(full, 1, 4))
    rc, _, err = run_cli("merge", shards[0], four, "-o", tmp_path / "m.json")
    assert rc == 2 and err == f"{shards[0]}, {four}: shard counts differ (1/3 and 1/4)\n"


@pytest.mark.parametrize("key, value, said", [
    ("git_sha", "0000000", "git_sha"),
    ("driver_release", "575.57.08", "driver_release"),
    ("driver", "12.9", "driver"),
    ("tool_version", "0.2.0", "tool_version"),
    ("cases_path", "/work/main/other-cases", "cases_path"),
    ("filter", "alias.*", "filter"),
    ("caselist", "/tmp/list.txt", "caselist"),
    ("budget", None, "budget"),
    ("devices", None, "devices"),
])
def test_shards_of_another_machine_or_build_are_refused(key, value, said, full, shards, tmp_path, run_cli):
    doc = json.loads(shards[1].read_text())
    if key == "budget":
        doc["context"]["budget"]["instances"] += 1
    elif key == "devices":
        doc["context"]["devices"] = doc["context"]["devices"] + [dict(doc["context"]["devices"][0], index=1)]
    else:
        doc["context"][key] = value
    other = write_json(tmp_path / "other2.json", doc)
    rc, _, err = run_cli("merge", shards[0], other, shards[2], "-o", tmp_path / "m.json")
    assert rc == 2 and err.startswith(f"{shards[0]}, {other}: not one run: {said} ") and len(err.splitlines()) == 1
    assert not (tmp_path / "m.json").exists()


def test_the_checkout_folder_may_differ(full, shards, tmp_path, run_cli):
    """Shards run on several machines: the case tables and the case list lie in other folders there."""
    docs = [json.loads(p.read_text()) for p in shards]
    for i, doc in enumerate(docs):
        doc["context"]["cases_path"] = f"/ci/runner-{i}/vmmcheck/cases"
        doc["context"]["caselist"] = f"/ci/runner-{i}/nightly.txt"
    paths = [write_json(tmp_path / f"s{i}.json", d) for i, d in enumerate(docs)]
    rc, _, err = run_cli("merge", *paths, "-o", tmp_path / "m.json")
    assert rc == 0, err
    docs[1]["context"]["caselist"] = "/ci/runner-1/weekly.txt"
    paths[1] = write_json(tmp_path / "s1.json", docs[1])
    rc, _, err = run_cli("merge", *paths, "-o", tmp_path / "m2.json")
    assert rc == 2 and "not one run: caselist nightly.txt" in err, err


def test_the_device_index_may_differ(full, shards, tmp_path, run_cli):
    """Shards may run side by side on the GPUs of one host."""
    docs = [json.loads(p.read_text()) for p in shards]
    for d in docs:
        d["context"]["devices"] = [dict(d["context"]["devices"][0], index=i) for i in (0, 1)]
    docs[1]["context"]["device"] = 1
    paths = [write_json(tmp_path / f"d{k}.json", d) for k, d in enumerate(docs, 1)]
    rc, _, err = run_cli("merge", *paths, "-o", tmp_path / "m.json")
    assert rc == 0, err


def test_expectations_kept_only_when_all_agree(full, tmp_path):
    docs = [shard_doc(full, k) for k in (1, 2, 3)]
    for d in docs:
        d["expectations"] = {"fails": "ci/expectations/x-fails.txt", "flakes": None, "skips": None}
    inputs = [(f"s{k}.json", d) for k, d in enumerate(docs, 1)]
    assert merge.merge(inputs)["expectations"] == docs[0]["expectations"]
    docs[2]["expectations"]["flakes"] = "other.txt"
    assert "expectations" not in merge.merge(inputs)
    del docs[2]["expectations"]
    assert "expectations" not in merge.merge(inputs)


def test_resumed_shards_keep_every_resumption(full, tmp_path):
    docs = [shard_doc(full, k) for k in (1, 2, 3)]
    docs[2]["context"]["resumed"] = ["2026-12-01T11:00:00Z"]
    docs[0]["context"]["resumed"] = ["2026-12-01T10:30:00Z"]
    out = merge.merge([(f"s{k}.json", d) for k, d in enumerate(docs, 1)])
    assert out["context"]["resumed"] == ["2026-12-01T10:30:00Z", "2026-12-01T11:00:00Z"]


def test_merge_subprocess_bad_input_is_one_line(shards, tmp_path):
    proc = run_module("merge", shards[0], tmp_path / "nope.json", "-o", tmp_path / "m.json")
    assert proc.returncode == 2 and proc.stderr == f"{tmp_path / 'nope.json'}: no such file\n"
    proc = run_module("merge", *shards, "-o", tmp_path / "m.json")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert load.load(tmp_path / "m.json")["context"]["merged"][0]["shard"] == {"index": 1, "count": 3}


def _merge_subprocess(*args, timeout=60):
    """merge through the real entry point, failing (not hanging) when it does not end soon."""
    import subprocess

    try:
        return _run_with_timeout(args, timeout)
    except subprocess.TimeoutExpired:
        pytest.fail(f"merge {' '.join(map(str, args))} did not end in {timeout} s")


def _run_with_timeout(args, timeout):
    import os
    import subprocess
    import sys

    from conftest import REPORTS

    return subprocess.run([sys.executable, "-m", "vmmcheck_report", "merge", *map(str, args)], capture_output=True,
                          text=True, env=dict(os.environ, PYTHONPATH=str(REPORTS)), timeout=timeout)


@pytest.mark.parametrize("count", [10 ** 9, 10 ** 15, 2 ** 63])
def test_a_shard_count_run_could_not_have_written_is_refused(full, tmp_path, count):
    """`run --shard K/N` takes N of at most nine digits (harness/model/shard.cpp): a larger count is no file it
    wrote -- exit 2 naming the file and the key, at once (it was a hang: merge counted the missing shards one
    by one)."""
    doc = shard_doc(full, 1)
    doc["context"]["shard"]["count"] = count
    path = write_json(tmp_path / "huge.json", doc)
    proc = _merge_subprocess(path, "-o", tmp_path / "m.json")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.strip().splitlines() == [f"{path}: context.shard.count: {count} is greater than the maximum "
                                                f"of {merge.MOST_SHARDS}"]
    assert not (tmp_path / "m.json").exists()


def test_a_shard_count_above_the_bound_is_refused_under_a_schema_without_it(full, tmp_path, run_cli):
    """The bound is the merge's own too, whatever schema --schema names."""
    schema = json.loads(load.default_schema_path().read_text())
    schema["properties"]["context"]["properties"]["shard"]["properties"]["count"].pop("maximum")
    loose = write_json(tmp_path / "loose.json", schema)
    doc = shard_doc(full, 1)
    doc["context"]["shard"]["count"] = 10 ** 15
    path = write_json(tmp_path / "huge.json", doc)
    rc, _, err = run_cli("merge", path, "-o", tmp_path / "m.json", "--schema", loose)
    assert rc == 2
    assert err == (f"{path}: context.shard: 1/{10 ** 15}: more shards than `run --shard K/N` takes "
                   f"(N at most {merge.MOST_SHARDS})\n")


def test_the_missing_shards_of_a_large_count_are_runs_not_a_list(full, tmp_path):
    """One shard of the most run takes: the warning names the runs of shards not given, and comes at once."""
    n = merge.MOST_SHARDS
    name = full["results"][0]["name"]
    k = merge.shard_of(name, n)
    doc = make_doc([copy.deepcopy(full["results"][0])], like=full)
    doc["context"]["shard"] = {"index": k, "count": n}
    path = write_json(tmp_path / "one.json", doc)
    out = tmp_path / "m.json"
    proc = _merge_subprocess(path, "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == (f"merge: warning: {out} lacks shards 1/{n} to {k - 1}/{n}, {k + 1}/{n} to {n}/{n} "
                           f"(1 of {n} given): compared with a full run, their cases show as missing\n")
    assert merge.missing_shards([("a", doc)]) == [(1, k - 1), (k + 1, n)]
