#!/usr/bin/env python3
"""cuda-litmus's whole variant matrix as litmus files, asked of vmmcheck's model and set beside cuda-litmus's
own published verdicts and observations (docs/litmus.md, "Every variant cuda-litmus published").

cuda-litmus (reeselevine/cuda-litmus) builds each of its kernels in many variants: which threads share a
CTA (`TB_01_2`: threads 0 and 1 in one CTA, thread 2 in another), the scope of the accesses
(`SCOPE_BLOCK`: .cta, `SCOPE_DEVICE`: .gpu), the scope of its fences (`FENCE_SCOPE_...`) and which
accesses are acquire/release/seq_cst and where fences stand (`THREAD_1_FENCE`, `REL_ACQ`, ...). Its
PLDI'26 output (pldi26-output/results.csv in its repository) lists 1,306 of them, each with the verdict of
a PTX base model and of a strengthened one (INSTANCE: the weak outcome is allowed; UNSAT: forbidden)
and whether an A100, an H100 and a GH200 showed the weak outcome (seen / not seen).

`generate DIR` writes one litmus file per test (`<test>_variants.test`), one template row per variant
named as cuda-litmus names it (without the test's prefix), every row `permit (weak outcome)`: what the
model says of it is its verdict, and a GPU run counts how often the outcome shows. The programs are
written here from the kernels' text, as libcu++ compiles cuda::atomic for sm_70 and later: a relaxed,
acquire or release access is `ld/st.<order>.<scope>`, a seq_cst store `fence.sc; st.relaxed`, a seq_cst
load `fence.sc; ld.acquire`, cuda::atomic_thread_fence `fence.acq_rel` or `fence.sc`. Nothing of
cuda-litmus is copied here.

`check --cuda-litmus DIR --vmmcheck PATH --json OUT` generates the files into a temporary folder, asks
`vmmcheck model` every row, reads the checkout's results.csv (its variant names must be exactly the
generated ones) and writes, per variant, both of the model's readings, cuda-litmus's two verdicts and
three observations; where the checkout has cuda-litmus's GH200 log, it checks that the variants its kernel
never ran (NEVER_RAN_GROUPS) are exactly those the log counts no instance of. `--gpu-results RUN.json` (a
`vmmcheck run --litmus DIR` of the generated files) adds what each row did on that GPU. `verify --table`
holds the model's verdicts now, and the table's summary, to a committed table (no checkout: the ctest).
Standard library only.
"""
from __future__ import annotations

import argparse
import collections
import csv
import itertools
import json
import pathlib
import re
import subprocess
import sys
import tempfile
from typing import Dict, List, Tuple

RESULTS_CSV = "pldi26-output/results.csv"
SCHEMA = "vmmcheck-cuda-litmus-variants/1"
GPUS = ("a100", "h100", "gh200")  # results.csv's columns: where cuda-litmus ran each variant

# A test: its locations, its threads (each a list of instructions) and its weak outcome. An instruction is
#   ("st", location, value, order slot)   ("ld", register, location, order slot)   ("fence", fence slot)
# An order slot names a variant's choice for that access ("relaxed" when the variant sets none: the kernel
# hard-codes relaxed there); a fence slot is present in a variant or not.
# Variants: the kinds cuda-litmus builds with NO_FENCE (no FENCE_SCOPE flag: a fence such a kind has, as the
# paper's DISALLOWED does, is at the default scope, .sys) and those it builds at each fence scope; a kind
# maps order slots to orders and names the fences it has. cuda-litmus's names: <test>_TB_<groups>_SCOPE_<s>_
# {NO_FENCE|FENCE_SCOPE_<f>}_<kind>.
R, A, REL, SC = "relaxed", "acquire", "release", "seq_cst"
ACQ_REL_FENCE, SC_FENCE = "acq_rel", "sc"

# results.csv's groups. Its 1_02 is the kernel's TB_02_1 (threads 0 and 2 in one CTA, 1 in another):
# cuda-litmus's analyze.py renames it so.
THREE = ["012", "01_2", "0_12", "0_1_2", "1_02"]
FOUR = ["0123", "012_3", "013_2", "01_23", "01_2_3", "023_1", "02_13", "02_1_3", "03_12", "03_1_2", "0_123", "0_12_3",
        "0_1_23", "0_1_2_3", "0_2_13"]


def kind(fences=(), fence=ACQ_REL_FENCE, **orders):
    return {"orders": orders, "fences": {f: fence for f in fences}}


def fenced_or_ordered(strong, every_fence: str) -> dict:
    """The fenced kinds of a test whose thread i orders its two accesses either by fence f<i> or by its
    access `strong[i]` = (order slot, order): every thread fenced (`every_fence`), and FENCE_<i...> -- the
    threads named fenced, the others ordered by their access (2+2W, 3.2W, Z6.3)."""
    n = len(strong)
    out = {every_fence: kind([f"f{i}" for i in range(n)])}
    for r in range(1, n):
        for fenced in itertools.combinations(range(n), r):
            out["FENCE_" + "".join(map(str, fenced))] = kind(
                [f"f{i}" for i in fenced], **{slot: order for i, (slot, order) in enumerate(strong) if i not in fenced})
    return out


TESTS: Dict[str, dict] = {
    # IRIW: two writers, two readers that read the two locations in opposite orders.
    "iriw": {
        "locations": ["x", "y"],
        "threads": [[("st", "x", 1, None)],
                    [("ld", "r0", "x", "t1_load"), ("fence", "f1"), ("ld", "r1", "y", None)],
                    [("st", "y", 1, None)],
                    [("ld", "r2", "y", "t3_load"), ("fence", "f3"), ("ld", "r3", "x", None)]],
        "weak": "r0 == 1 && r1 == 0 && r2 == 1 && r3 == 0",
        "groups": FOUR,
        "no_fence": {"RELAXED": kind(), "ACQUIRE": kind(t1_load=A, t3_load=A)},
        "fenced": {"THREAD_1_FENCE": kind(["f1"], t3_load=A), "THREAD_3_FENCE": kind(["f3"], t1_load=A),
                   "BOTH_FENCE": kind(["f1", "f3"])},
    },
    # ISA2: x then y by thread 0, y to z by thread 1, z then x read by thread 2.
    "isa2": {
        "locations": ["x", "y", "z"],
        "threads": [[("st", "x", 1, None), ("fence", "f0"), ("st", "y", 1, "t0_store")],
                    [("ld", "r0", "y", "t1_load"), ("fence", "f1"), ("st", "z", 1, "t1_store")],
                    [("ld", "r1", "z", "t2_load"), ("fence", "f2"), ("ld", "r2", "x", None)]],
        "weak": "r0 == 1 && r1 == 1 && r2 == 0",
        "groups": THREE,
        "no_fence": {"ACQUIRE": kind(t0_store=REL, t1_load=A, t2_load=A),
                     "RELEASE": kind(t0_store=REL, t1_store=REL, t2_load=A), "RELAXED": kind()},
        "fenced": {"ALL_FENCE": kind(["f0", "f1", "f2"]),
                   "THREAD_0_FENCE_ACQ": kind(["f0"], t1_load=A, t2_load=A),
                   "THREAD_0_FENCE_REL": kind(["f0"], t1_store=REL, t2_load=A),
                   "THREAD_1_FENCE": kind(["f1"], t0_store=REL, t2_load=A),
                   "THREAD_2_FENCE_ACQ": kind(["f2"], t0_store=REL, t1_load=A),
                   "THREAD_2_FENCE_REL": kind(["f2"], t0_store=REL, t1_store=REL),
                   "THREAD_0_1_FENCE": kind(["f0", "f1"], t2_load=A),
                   "THREAD_0_2_FENCE_ACQ": kind(["f0", "f2"], t1_load=A),
                   "THREAD_0_2_FENCE_REL": kind(["f0", "f2"], t1_store=REL),
                   "THREAD_1_2_FENCE": kind(["f1", "f2"], t0_store=REL)},
    },
    # RWC: thread 1 reads x then y; thread 2 writes y then reads x.
    "rwc": {
        "locations": ["x", "y"],
        "threads": [[("st", "x", 1, None)],
                    [("ld", "r0", "x", "t1_load"), ("fence", "f1"), ("ld", "r1", "y", None)],
                    [("st", "y", 1, "t2_store"), ("fence", "f2"), ("ld", "r2", "x", "t2_load")]],
        "weak": "r0 == 1 && r1 == 0 && r2 == 0",
        "groups": THREE,
        "no_fence": {"STORE_SC": kind(t1_load=A, t2_store=SC), "LOAD_SC": kind(t1_load=A, t2_load=SC), "RELAXED": kind()},
        # BOTH_FENCE: thread 1's fence acq_rel, thread 2's seq_cst (the kernel's own choice).
        "fenced": {"BOTH_FENCE": {"orders": {}, "fences": {"f1": ACQ_REL_FENCE, "f2": SC_FENCE}},
                   "THREAD_1_FENCE_STORE_SC": kind(["f1"], t2_store=SC),
                   "THREAD_1_FENCE_LOAD_SC": kind(["f1"], t2_load=SC),
                   "THREAD_2_FENCE": kind(["f2"], fence=SC_FENCE, t1_load=A)},
    },
    # WRC: x by thread 0, read by thread 1 which writes y, read by thread 2 which reads x.
    "wrc": {
        "locations": ["x", "y"],
        "threads": [[("st", "x", 1, None)],
                    [("ld", "r0", "x", "t1_load"), ("fence", "f1"), ("st", "y", 1, "t1_store")],
                    [("ld", "r1", "y", "t2_load"), ("fence", "f2"), ("ld", "r2", "x", None)]],
        "weak": "r0 == 1 && r1 == 1 && r2 == 0",
        "groups": THREE,
        "no_fence": {"ACQUIRE": kind(t1_load=A, t2_load=A), "RELEASE": kind(t1_store=REL, t2_load=A), "RELAXED": kind()},
        "fenced": {"BOTH_FENCE": kind(["f1", "f2"]), "THREAD_1_FENCE": kind(["f1"], t2_load=A),
                   "THREAD_2_FENCE_ACQ": kind(["f2"], t1_load=A), "THREAD_2_FENCE_REL": kind(["f2"], t1_store=REL)},
    },
    # WRW+2W: thread 1 reads thread 0's x and writes y; thread 2 writes y then x; judged by the final values.
    "wrw_2w": {
        "file": "wrw+2w",
        "locations": ["x", "y"],
        "threads": [[("st", "x", 2, None)],
                    [("ld", "r0", "x", "t1_load"), ("fence", "f1"), ("st", "y", 1, "t1_store")],
                    [("st", "y", 2, None), ("fence", "f2"), ("st", "x", 1, "t2_store")]],
        "weak": "r0 == 2 && [x] == 2 && [y] == 2",
        "groups": THREE,
        "no_fence": {"ACQUIRE": kind(t1_load=A, t2_store=REL), "RELEASE": kind(t1_store=REL, t2_store=REL),
                     "RELAXED": kind()},
        "fenced": {"BOTH_FENCE": kind(["f1", "f2"]), "THREAD_1_FENCE": kind(["f1"], t2_store=REL),
                   "THREAD_2_FENCE_ACQ": kind(["f2"], t1_load=A), "THREAD_2_FENCE_REL": kind(["f2"], t1_store=REL)},
    },
    # WWC: thread 1 reads thread 0's x and writes y; thread 2 reads y and writes x; judged by x's final value.
    "wwc": {
        "locations": ["x", "y"],
        "threads": [[("st", "x", 2, None)],
                    [("ld", "r0", "x", "t1_load"), ("fence", "f1"), ("st", "y", 1, "t1_store")],
                    [("ld", "r1", "y", "t2_load"), ("fence", "f2"), ("st", "x", 1, "t2_store")]],
        "weak": "r0 == 2 && r1 == 1 && [x] == 2",
        "groups": THREE,
        "no_fence": {"ACQ_REL": kind(t1_load=A, t2_store=REL), "ACQ_ACQ": kind(t1_load=A, t2_load=A),
                     "REL_ACQ": kind(t1_store=REL, t2_load=A), "REL_REL": kind(t1_store=REL, t2_store=REL),
                     "RELAXED": kind()},
        "fenced": {"BOTH_FENCE": kind(["f1", "f2"]), "THREAD_1_FENCE_ACQ": kind(["f1"], t2_load=A),
                   "THREAD_1_FENCE_REL": kind(["f1"], t2_store=REL), "THREAD_2_FENCE_ACQ": kind(["f2"], t1_load=A),
                   "THREAD_2_FENCE_REL": kind(["f2"], t1_store=REL)},
    },
    # Z6.3: thread 0 writes x then y, thread 1 y then z, thread 2 reads z then x; judged with y's final value.
    "z6_3": {
        "file": "z6-3",
        "locations": ["x", "y", "z"],
        "threads": [[("st", "x", 1, None), ("fence", "f0"), ("st", "y", 1, "store0")],
                    [("st", "y", 2, None), ("fence", "f1"), ("st", "z", 1, "store1")],
                    [("ld", "r0", "z", "load"), ("fence", "f2"), ("ld", "r1", "x", None)]],
        "weak": "r0 == 1 && r1 == 0 && [y] == 2",
        "groups": THREE,
        "no_fence": {"ACQ_REL": kind(store0=REL, store1=REL, load=A), "RELAXED": kind()},
        "fenced": fenced_or_ordered([("store0", REL), ("store1", REL), ("load", A)], "ALL_FENCE"),
    },
    # 3.2W: three threads each write one location then the next; judged by the three final values.
    "three_2w": {
        "file": "3.2w",
        "locations": ["x", "y", "z"],
        "threads": [[("st", "x", 2, None), ("fence", "f0"), ("st", "y", 1, "store0")],
                    [("st", "y", 2, None), ("fence", "f1"), ("st", "z", 1, "store1")],
                    [("st", "z", 2, None), ("fence", "f2"), ("st", "x", 1, "store2")]],
        "weak": "[x] == 2 && [y] == 2 && [z] == 2",
        "groups": THREE,
        "no_fence": {"RELEASE": kind(store0=REL, store1=REL, store2=REL), "RELAXED": kind()},
        "fenced": fenced_or_ordered([("store0", REL), ("store1", REL), ("store2", REL)], "ALL_FENCE"),
    },
    # 2+2W: two threads each write both locations, in opposite orders; judged by the final values.
    "two_2w": {
        "file": "2+2w",
        "locations": ["x", "y"],
        "threads": [[("st", "x", 1, None), ("fence", "f0"), ("st", "y", 2, "store0")],
                    [("st", "y", 1, None), ("fence", "f1"), ("st", "x", 2, "store1")]],
        "weak": "[x] == 1 && [y] == 1",
        "groups": ["01", "0_1"],
        "no_fence": {"RELEASE": kind(store0=REL, store1=REL), "RELAXED": kind()},
        "fenced": fenced_or_ordered([("store0", REL), ("store1", REL)], "BOTH_FENCE"),
    },
}

# The paper's two examples, built only at .gpu across four CTAs. DISALLOWED makes every store release and
# every load acquire and adds seq_cst fences at the default fence scope (.sys); a fence before a thread's
# first access orders nothing, and is kept as the kernel has it.
_PAPER = {"no_fence": {"RELAXED": kind(),
                       "DISALLOWED": kind(["f0", "f1", "f2"], fence=SC_FENCE, st=REL, ld=A)},
          "fenced": {}, "groups": ["0_1_2_3"], "scopes": ["DEVICE"], "locations": ["x", "y", "z", "a"]}
TESTS["paper_example1"] = dict(_PAPER, file="paper-example1", threads=[
    [("fence", "f0"), ("st", "x", 1, "st"), ("st", "y", 1, "st")],
    [("ld", "r0", "y", "ld"), ("fence", "f1"), ("st", "z", 1, "st")],
    [("fence", "f2"), ("st", "z", 2, "st"), ("st", "a", 1, "st")],
    [("ld", "r1", "a", "ld"), ("ld", "r2", "x", "ld")]], weak="r0 == 1 && r1 == 1 && r2 == 0 && [z] == 2")
TESTS["paper_example2"] = dict(_PAPER, file="paper-example2", threads=[
    [("fence", "f0"), ("st", "x", 1, "st"), ("st", "y", 1, "st")],
    [("ld", "r0", "y", "ld"), ("fence", "f1"), ("ld", "r1", "z", "ld")],
    [("fence", "f2"), ("st", "z", 1, "st"), ("st", "a", 1, "st")],
    [("ld", "r2", "a", "ld"), ("ld", "r3", "x", "ld")]], weak="r0 == 1 && r1 == 0 && r2 == 1 && r3 == 0")

SCOPES = {"BLOCK": "cta", "DEVICE": "gpu", "SYSTEM": "sys"}

# cuda-litmus's kernel file name (its logs' and its side-by-side's test name) -> the test's name here
TEST_OF_FILE = {spec.get("file", t): t for t, spec in TESTS.items()}

# Variants cuda-litmus's kernel never ran, so that "not seen" says nothing of them: IRIW's TB_02_1_3 puts
# thread 3 in thread 1's CTA at thread 1's own id (both stripe_workgroup of a CTA, the same lane), and the
# kernel skips an instance whose threads share an id -- every instance. Its GH200 log
# (pldi26-output/gh200.txt) shows total 0 for exactly these in every iteration; check() holds that.
NEVER_RAN_GROUPS = {"iriw": "02_1_3"}
GH200_LOG = "pldi26-output/gh200.txt"


def never_ran(variant: str) -> bool:
    return NEVER_RAN_GROUPS.get(test_of(variant)) == groups_of(variant)


def test_of(variant: str) -> str:
    return variant.split("_TB_", 1)[0]


def groups_of(variant: str) -> str:
    """A variant's TB_ groups ('012', '01_2', ...): no '_' -- every thread in one CTA."""
    return variant.split("_TB_", 1)[1].split("_SCOPE_", 1)[0]


def order_text(op: str, order: str, scope: str) -> str:
    """The PTX libcu++ emits for a cuda::atomic access of this order at this scope (sm_70 and later)."""
    if op == "st":
        return {R: f"st.relaxed.{scope}", REL: f"st.release.{scope}", SC: f"fence.sc.{scope}; st.relaxed.{scope}"}[order]
    return {R: f"ld.relaxed.{scope}", A: f"ld.acquire.{scope}", SC: f"fence.sc.{scope}; ld.acquire.{scope}"}[order]


def placement(groups: str, threads: int) -> List[str]:
    """Each thread's `d0.bB.tT` for cuda-litmus's TB_ groups (digits of one group share a CTA)."""
    where = {}
    for b, group in enumerate(groups.split("_")):
        for t, digit in enumerate(group):
            where[int(digit)] = f"d0.b{b}.t{t}"
    if sorted(where) != list(range(threads)):
        raise ValueError(f"TB_{groups} does not place threads 0..{threads - 1}")
    return [where[i] for i in range(threads)]


def variants(test: str) -> List[Tuple[str, str, str, str, dict]]:
    """(variant name without the test's prefix, groups, access scope, fence scope, kind) in cuda-litmus's order."""
    spec = TESTS[test]
    out = []
    for groups, scope in itertools.product(spec["groups"], spec.get("scopes", ("BLOCK", "DEVICE"))):
        for k, v in spec["no_fence"].items():
            out.append((f"TB_{groups}_SCOPE_{scope}_NO_FENCE_{k}", groups, scope, "SYSTEM", v))
        for fence_scope in ("BLOCK", "DEVICE"):
            for k, v in spec["fenced"].items():
                out.append((f"TB_{groups}_SCOPE_{scope}_FENCE_SCOPE_{fence_scope}_{k}", groups, scope, fence_scope, v))
    return out


def program(test: str, groups: str, scope: str, fence_scope: str, k: dict) -> List[str]:
    """One variant's template parameters: each thread's placement, then each instruction's text ('' for an
    absent fence), thread by thread."""
    spec = TESTS[test]
    s, f = SCOPES[scope], SCOPES[fence_scope]
    params = placement(groups, len(spec["threads"]))
    for thread in spec["threads"]:
        for ins in thread:
            if ins[0] == "fence":
                sem = k["fences"].get(ins[1])
                params.append(f"fence.{sem}.{f};" if sem else "")
            elif ins[0] == "st":
                _, loc, value, slot = ins
                params.append(f"{order_text('st', k['orders'].get(slot, R) if slot else R, s)} [{loc}], {value};")
            else:
                _, reg, loc, slot = ins
                params.append(f"{order_text('ld', k['orders'].get(slot, R) if slot else R, s)} {reg}, [{loc}];")
    return params


def file_text(test: str) -> str:
    spec = TESTS[test]
    lines = [f"// cuda-litmus's {spec.get('file', test)} in every variant its PLDI'26 output lists (generated by",
             "// ci/cuda_litmus_variants.py; each row is one build, named as cuda-litmus names it).",
             *[f".global {loc};" for loc in spec["locations"]], ""]
    hole = len(spec["threads"])
    for i, thread in enumerate(spec["threads"]):
        lines.append(f"${i} {{")
        for _ in thread:
            lines.append(f"  ${hole}")
            hole += 1
        lines += ["}", ""]
    lines += [f"permit ({spec['weak']}) as ${hole};", "", "$$"]
    for name, groups, scope, fence_scope, k in variants(test):
        lines.append(" | ".join(program(test, groups, scope, fence_scope, k) + [name]))
    return "\n".join(lines) + "\n"


def row_names() -> Dict[str, str]:
    """{row name as vmmcheck names it: cuda-litmus's variant name} for every generated row."""
    return {f"litmus.{test}_variants.{i}.{name.lower()}": f"{test}_{name}"
            for test in TESTS for i, (name, *_rest) in enumerate(variants(test))}


def generate(into: pathlib.Path) -> Dict[str, str]:
    """Writes every test's file into `into`; returns row_names()."""
    into.mkdir(parents=True, exist_ok=True)
    for test in TESTS:
        (into / f"{test}_variants.test").write_text(file_text(test))
    return row_names()


def published(csv_path: pathlib.Path) -> Dict[str, dict]:
    """results.csv's rows by variant; a verdict other than INSTANCE/UNSAT or an observation other than
    seen/not seen is refused (this script would otherwise read it as forbidden or not seen)."""
    with csv_path.open(newline="") as f:
        rows = {r["test"]: r for r in csv.DictReader(f)}
    for name, r in rows.items():
        bad = [f"{k}={r.get(k)!r}" for k in ("base", "strengthened") if r.get(k) not in ("INSTANCE", "UNSAT")]
        bad += [f"{g}={r.get(g)!r}" for g in GPUS if r.get(g) not in ("seen", "not seen")]
        if bad:
            raise SystemExit(f"cuda_litmus_variants: {csv_path}: {name}: {', '.join(bad)}")
    return rows


def never_ran_in_log(log: pathlib.Path) -> List[str]:
    """The variants a cuda-litmus log shows with no instance in any iteration (its names, as results.csv's)."""
    totals: Dict[str, List[int]] = collections.defaultdict(list)
    for line in log.read_text(errors="replace").splitlines():
        m = re.match(r"\s*Test (\S+) weak: \d+, total: (\d+)", line)
        if m:
            totals[m.group(1)].append(int(m.group(2)))
    # the log's names: <test>-TB_<groups>-SCOPE_<s>-<fence>-<kind>, with the kernel's file name and groups
    out = []
    for name, ts in totals.items():
        if any(ts):
            continue
        test, rest = name.split("-", 1)
        out.append(f"{TEST_OF_FILE.get(test, test)}_{rest.replace('-', '_')}".replace("TB_02_1_S", "TB_1_02_S"))
    return sorted(out)


def model_verdicts(vmmcheck: str) -> Dict[str, dict]:
    """{cuda-litmus variant name: vmmcheck model's row for it}, for every generated variant."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp) / "variants"
        names = generate(folder)
        out_json = pathlib.Path(tmp) / "model.json"
        p = subprocess.run([vmmcheck, "model", "--json", str(out_json), str(folder)], capture_output=True, text=True,
                           timeout=600)
        # exit 1: some row's answer is against its `permit` -- expected here, every row is a question
        if p.returncode not in (0, 1) or not out_json.exists():
            raise SystemExit(f"cuda_litmus_variants: vmmcheck model failed ({p.returncode}): {p.stderr.strip()}")
        rows = json.loads(out_json.read_text())["rows"]
    return {names[r["name"]]: r for r in rows}


def check(vmmcheck: str, results_csv: pathlib.Path, log: pathlib.Path = None) -> dict:
    theirs = published(results_csv)
    ours = model_verdicts(vmmcheck)
    if set(ours) != set(theirs):
        missing, extra = sorted(set(theirs) - set(ours)), sorted(set(ours) - set(theirs))
        raise SystemExit(f"cuda_litmus_variants: the generated variants are not results.csv's: "
                         f"{len(missing)} missing (e.g. {missing[:3]}), {len(extra)} extra (e.g. {extra[:3]})")
    if log is not None and log.exists():
        expected = sorted(v for v in theirs if never_ran(v))
        if never_ran_in_log(log) != expected:
            raise SystemExit(f"cuda_litmus_variants: {log} shows no instance for {never_ran_in_log(log)}, not for "
                             f"the variants NEVER_RAN_GROUPS names ({len(expected)})")
    entries = []
    for variant, pub in sorted(theirs.items()):
        r = ours[variant]
        e = {"variant": variant, "model_isa": r["isa_allows"], "model_artifact": r["artifact_allows"],
             "base": pub["base"] == "INSTANCE", "strengthened": pub["strengthened"] == "INSTANCE",
             "seen": [gpu for gpu in GPUS if pub[gpu] == "seen"]}
        if never_ran(variant):
            e["ran"] = False  # cuda-litmus's kernel skipped every instance: its "not seen" is no observation
        entries.append(e)
    return {"schema": SCHEMA, "summary": summarise(entries), "variants": entries}


def verify(vmmcheck: str, table: pathlib.Path) -> List[str]:
    """What differs between the model's verdicts now and the committed table: a variant whose verdict changed
    (under either reading), one whose verdict is not cuda-litmus's base model's, one no longer generated; and
    a summary that is not what the table's entries give."""
    doc = json.loads(table.read_text())
    if doc.get("schema") != SCHEMA:
        raise SystemExit(f"cuda_litmus_variants: {table}: not a {SCHEMA} file")
    problems = [] if doc["summary"] == summarise(doc["variants"]) else [
        "the table's summary is not what its variants give (summarise)"]
    ours = model_verdicts(vmmcheck)
    for e in doc["variants"]:
        r = ours.pop(e["variant"], None)
        if r is None:
            problems.append(f"{e['variant']}: no longer generated")
            continue
        for reading in ("isa", "artifact"):
            now, then = r[f"{reading}_allows"], e[f"model_{reading}"]
            if now != then:
                problems.append(f"{e['variant']}: the model's {reading} reading now {says(now)} it, the table {says(then)} it")
            if now != e["base"]:
                problems.append(f"{e['variant']}: the model's {reading} reading {says(now)} it, cuda-litmus's base model "
                                f"{says(e['base'])} it")
    problems += [f"{v}: generated, not in the table" for v in sorted(ours)]
    return problems


def says(allows: bool) -> str:
    return "allows" if allows else "forbids"


JUDGED = ("Pass", "Warning", "Fail")  # a row that ran and judged its instances (not Error, NotSupported, ...)


def counts(entries: List[dict]) -> dict:
    """The figures of a set of variants: the model beside cuda-litmus's models, what cuda-litmus's GPUs showed,
    and -- where the entries carry a vmmcheck run (gpu_run) -- what that GPU showed."""
    allowed = [e for e in entries if e["model_isa"]]
    observed = [e for e in entries if e.get("ran", True)]  # cuda-litmus's kernel ran them
    only_base = [e for e in allowed if e["base"] and not e["strengthened"]]
    one_cta = [e for e in allowed if "_" not in groups_of(e["variant"]) and e.get("ran", True)]
    out = {
        "variants": len(entries),
        "allowed": len(allowed),
        "agree_base": sum(e["model_isa"] == e["base"] and e["model_artifact"] == e["base"] for e in entries),
        "only_base": len(only_base),  # allowed by the model and the base model, forbidden by the strengthened one
        "only_base_seen": sum(bool(e["seen"]) for e in only_base),
        "never_ran": len(entries) - len(observed),
        "seen_h100": sum("h100" in e["seen"] for e in entries),
        "seen_any": sum(bool(e["seen"]) for e in entries),
        "allowed_one_cta": len(one_cta),
        "allowed_one_cta_seen": sum(bool(e["seen"]) for e in one_cta),
        # a weak outcome a GPU of cuda-litmus's showed that the model forbids: the hardware breaks the model
        "seen_but_forbidden": [e["variant"] for e in entries if e["seen"] and not e["model_isa"]],
    }
    runs = [e for e in entries if "gpu_run" in e]
    if runs:
        judged = [e for e in runs if e["gpu_run"]["status"] in JUDGED and e["gpu_run"].get("judged", 0) > 0]
        shown = [e for e in judged if e["gpu_run"]["weak"]]
        out.update({
            "gpu_judged": len(judged),
            "gpu_shown": len(shown),
            "gpu_seen_h100": sum("h100" in e["seen"] for e in judged),
            "gpu_shown_where_h100_did": sum("h100" in e["seen"] for e in shown),
            "gpu_shown_where_none_did": sum(not e["seen"] and e.get("ran", True) for e in shown),
            "gpu_shown_only_base": sum(e in only_base for e in shown),
            "gpu_failed": [e["variant"] for e in judged if e["gpu_run"]["status"] == "Fail"],
        })
    return out


def summarise(entries: List[dict]) -> dict:
    by_test: Dict[str, List[dict]] = {}
    for e in entries:
        by_test.setdefault(test_of(e["variant"]), []).append(e)
    out = counts(entries)
    out["by_test"] = {t: counts(es) for t, es in by_test.items()}
    runs = [e for e in entries if "gpu_run" in e]
    if runs:
        out["gpu_statuses"] = dict(collections.Counter(e["gpu_run"]["status"] for e in runs))
    return out


def add_gpu_results(doc: dict, run: dict) -> None:
    """What each variant's row did on the GPU of `run` (a vmmcheck results file of the generated files)."""
    by_name = {r["name"]: r for r in run["results"]}
    rows = {variant: row for row, variant in row_names().items()}
    for e in doc["variants"]:
        r = by_name.get(rows.get(e["variant"], ""))
        e["gpu_run"] = ({"status": "not in the run"} if r is None else
                        {"status": r["status"], "judged": r.get("judged", r.get("instances", 0)), "weak": r.get("weak", 0)})
    ctx = run.get("context", {})
    doc["gpu"] = {"device": (ctx.get("devices") or [{}])[0].get("name", ""), "driver": ctx.get("driver_release", ""),
                  "git_sha": ctx.get("git_sha", ""), "instances": ctx.get("budget", {}).get("instances")}
    doc["summary"] = summarise(doc["variants"])


def tuned_params(bench: dict, per: str = "gpu-second") -> dict:
    """A stress-params file giving each test's variant rows the knobs vmmcheck's search chose for that test's
    default build in the side-by-side with cuda-litmus (a ci/bench_cuda_litmus.py report): scored per GPU
    second (its long runs': a run of 1e9 instances a row then takes 0.02-0.14 s of GPU time) or per instance
    (its tuned runs': the strongest kernels, up to 80 GPU seconds for 1e9 instances)."""
    which = {"gpu-second": "vmmcheck_long", "instance": "vmmcheck_tuned"}[per]
    rows = []
    for t in bench["tests"]:
        test = TEST_OF_FILE.get(t["test"])
        params = (t.get(which) or {}).get("params")
        if test is None or not params:
            continue  # mp and z6-1 have no variants here; a test whose search failed keeps the defaults
        rows.append({"why": f"{t['test']}'s best draw per {per} ({bench.get('vmmcheck', '?')})",
                     "rows": f"litmus.{test}_variants.*", "params": params})
    return {"schema": "vmmcheck-stress-params/1",
            "about": f"cuda-litmus's variants under the knobs vmmcheck's search chose per {per} for each test's "
                     "default build (ci/cuda_litmus_variants.py params)", "params": {}, "rows": rows}


def dump(doc: dict) -> str:
    """The table as JSON, one variant a line (1,306 of them: a diff then shows which changed)."""
    head = {k: v for k, v in doc.items() if k != "variants"}
    text = json.dumps(head, indent=1)[:-2] + ',\n "variants": [\n'
    text += ",\n".join("  " + json.dumps(e, separators=(", ", ": ")) for e in doc["variants"])
    return text + "\n ]\n}\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate", help="write the litmus files")
    g.add_argument("into", type=pathlib.Path)
    c = sub.add_parser("check", help="the model's verdicts beside cuda-litmus's published ones")
    c.add_argument("--cuda-litmus", required=True, type=pathlib.Path, help="a checkout of cuda-litmus")
    c.add_argument("--vmmcheck", required=True)
    c.add_argument("--json", type=pathlib.Path, help="write the whole table here")
    c.add_argument("--commit", default="", help="the checkout's commit, recorded in the JSON")
    c.add_argument("--gpu-results", type=pathlib.Path, help="a `vmmcheck run --litmus` results file of the generated files")
    t = sub.add_parser("params", help="a stress-params file of each test's tuned knobs, for the variants' rows")
    t.add_argument("--bench", required=True, type=pathlib.Path, help="a ci/bench_cuda_litmus.py report")
    t.add_argument("--per", choices=("gpu-second", "instance"), default="gpu-second",
                   help="the draws scored per GPU second (the long runs') or per instance (the tuned runs')")
    t.add_argument("--test", help="one test's knobs alone, as the file's own params (a `tune --start` file): "
                                  "its variants' file stem without _variants (wrc, three_2w, ...)")
    t.add_argument("out", type=pathlib.Path)
    v = sub.add_parser("verify", help="the model's verdicts now against a committed table (no checkout needed)")
    v.add_argument("--table", required=True, type=pathlib.Path)
    v.add_argument("--vmmcheck", required=True)
    a = ap.parse_args(argv)
    if a.command == "generate":
        names = generate(a.into)
        print(f"cuda_litmus_variants: {len(names)} rows in {len(TESTS)} files in {a.into}", file=sys.stderr)
        return 0
    if a.command == "params":
        doc = tuned_params(json.loads(a.bench.read_text()), a.per)
        if a.test:
            entry = next((r for r in doc["rows"] if r["rows"] == f"litmus.{a.test}_variants.*"), None)
            if entry is None:
                print(f"cuda_litmus_variants: no knobs for '{a.test}' in {a.bench} (tests: "
                      + ", ".join(r["rows"][len("litmus."):-len("_variants.*")] for r in doc["rows"]) + ")", file=sys.stderr)
                return 2
            doc = {"schema": doc["schema"], "about": entry["why"], "params": entry["params"]}
        a.out.write_text(json.dumps(doc, indent=1) + "\n")
        print(f"cuda_litmus_variants: knobs for {len(doc.get('rows', [a.test]))} tests' variants in {a.out}", file=sys.stderr)
        return 0
    if a.command == "verify":
        problems = verify(a.vmmcheck, a.table)
        for line in problems:
            print(f"cuda_litmus_variants: {line}", file=sys.stderr)
        n = len(json.loads(a.table.read_text())["variants"])
        print(f"cuda_litmus_variants: {n} variants, {len(problems)} differences from {a.table}")
        return 1 if problems else 0
    results_csv = a.cuda_litmus / RESULTS_CSV
    if not results_csv.exists():
        print(f"cuda_litmus_variants: {results_csv}: no such file (is {a.cuda_litmus} a cuda-litmus checkout?)",
              file=sys.stderr)
        return 2
    doc = check(a.vmmcheck, results_csv, a.cuda_litmus / GH200_LOG)
    doc["cuda_litmus_commit"] = a.commit
    doc["vmmcheck"] = subprocess.run([a.vmmcheck, "--version"], capture_output=True, text=True).stdout.strip()
    if a.gpu_results:
        add_gpu_results(doc, json.loads(a.gpu_results.read_text()))
    if a.json:
        a.json.write_text(dump(doc))
    print(json.dumps(doc["summary"], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
