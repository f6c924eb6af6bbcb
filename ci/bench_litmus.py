#!/usr/bin/env python3
"""Helper of ci/bench-litmus.sh: vmmcheck beside reeselevine/cuda-litmus on racy message passing.

Standard library only. Subcommands:

  params FILE [--set KEY=VALUE ...] [--write DST]
      Reads a cuda-litmus stress-params file the way its runner.cu does (lines "key=int", parsed with
      sscanf("%63[^=]=%d")), checks that every key the runner reads is there (the runner leaves a missing
      key uninitialised, so a file without one runs on garbage) and prints the expected count of
      behaviours, testIterations * testingWorkgroups * workgroupSize, as JSON. With --set/--write it
      writes a copy with those keys changed.

  instrument SRC DST
      Writes a copy of cuda-litmus's runner.cu that times its two kernels with CUDA events and checks for
      CUDA errors at the end. The stock runner reports only a host std::chrono time around its whole
      iteration loop (memsets, host RNG, copies and launches included), and checks no CUDA call: the
      copy adds three lines to its output ("GPU time litmus_test: S seconds", "GPU time check_results:
      S seconds", and "CUDA error: ..." when there was one). Nothing else changes.

  parse-litmus STDOUT [--params FILE]
      Parses one cuda-litmus run's stdout and prints it as JSON (for checking the parser by hand).

  selftest [--runner DIR/runner.cu]
      Checks the parsers and the report against made-up and captured runner output (no GPU needed).

  report --out OUTDIR ...
      Reads the runs ci/bench-litmus.sh left in OUTDIR/logs (ID.stdout, ID.stderr, ID.rc, ID.start,
      ID.end) and the vmmcheck JSON results, and writes OUTDIR/bench-litmus.txt and
      OUTDIR/bench-litmus.json. Exits 1 (after writing both) when a run failed or its numbers do not
      hold together.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import math
import os
import re
import sys

# The keys runner.cu's parseStressParamsFile reads, in its order.
STRESS_KEYS = [
    "testIterations", "testingWorkgroups", "maxWorkgroups", "workgroupSize", "shufflePct", "barrierPct",
    "stressLineSize", "stressTargetLines", "scratchMemorySize", "memStride", "memStressPct",
    "memStressIterations", "memStressPattern", "preStressPct", "preStressIterations", "preStressPattern",
    "stressAssignmentStrategy", "permuteThread",
]

INT_MAX = 2**31 - 1  # the runner counts behaviours in a C int


class BenchError(Exception):
    """A problem the user has to fix; printed without a traceback."""


# ---------------------------------------------------------------------------------------------- params

_PARAM_LINE = re.compile(r"^([^=]{1,63})=\s*([+-]?\d+)")  # sscanf("%63[^=]=%d"): %d skips blanks


def read_stress_params(path: str) -> dict:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise BenchError(f"{path}: cannot read cuda-litmus stress params: {e.strerror}") from None
    values: dict[str, int] = {}
    for line in lines:
        m = _PARAM_LINE.match(line)
        if m and m.group(1) in STRESS_KEYS:
            values[m.group(1)] = int(m.group(2))
    missing = [k for k in STRESS_KEYS if k not in values]
    if missing:
        raise BenchError(f"{path}: not a complete cuda-litmus stress-params file: missing {', '.join(missing)} "
                         "(runner.cu would leave those uninitialised)")
    if values["testIterations"] < 1:
        raise BenchError(f"{path}: testIterations must be at least 1")
    if values["testingWorkgroups"] < 2:
        raise BenchError(f"{path}: testingWorkgroups must be at least 2: mp pairs a writer with a reader in the "
                         "next testing workgroup; with one every thread pairs with itself and skips the test")
    if values["maxWorkgroups"] < values["testingWorkgroups"]:
        raise BenchError(f"{path}: maxWorkgroups ({values['maxWorkgroups']}) is below testingWorkgroups "
                         f"({values['testingWorkgroups']})")
    if values["workgroupSize"] < 1 or values["workgroupSize"] > 1024:
        raise BenchError(f"{path}: workgroupSize must be 1..1024 (a CUDA block)")
    return values


def expected_behaviours(p: dict) -> int:
    # Every testing workgroup runs exactly once per iteration (the shuffled ids are a permutation of all
    # launched workgroups) and each of its threads writes its x, so check_results counts every testing
    # thread as weak or other: none as "thread skipped".
    return p["testIterations"] * p["testingWorkgroups"] * p["workgroupSize"]


def write_params(src: str, dst: str, changes: dict) -> None:
    with open(src, encoding="utf-8") as f:
        lines = f.read().splitlines()
    seen = set()
    out = []
    for line in lines:
        m = _PARAM_LINE.match(line)
        if m and m.group(1) in changes:
            out.append(f"{m.group(1)}={changes[m.group(1)]}")
            seen.add(m.group(1))
        else:
            out.append(line)
    for k, v in changes.items():
        if k not in seen:
            out.append(f"{k}={v}")
    with open(dst, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def cmd_params(a) -> int:
    changes = {}
    for kv in a.set or []:
        k, sep, v = kv.partition("=")
        if not sep or k not in STRESS_KEYS or not re.fullmatch(r"[+-]?\d+", v):
            raise BenchError(f"--set {kv}: want KEY=INT with KEY one of the runner's stress keys")
        changes[k] = int(v)
    p = read_stress_params(a.file)
    if a.write:
        write_params(a.file, a.write, changes)
        p = read_stress_params(a.write)
    elif changes:
        raise BenchError("--set needs --write")
    exp = expected_behaviours(p)
    if exp > INT_MAX:
        raise BenchError(f"{a.write or a.file}: {exp} behaviours overflow the runner's int counters; lower testIterations")
    print(json.dumps({"params": p, "expected_behaviours": exp}))
    return 0


# ------------------------------------------------------------------------------------------ instrument

_LAUNCH = r"\b{name}\s*<<\s*<[^;]*?>>\s*>\s*\([^;]*\)\s*;"


def _one(pattern: str, text: str, what: str, src: str) -> re.Match:
    found = list(re.finditer(pattern, text))
    if len(found) != 1:
        raise BenchError(f"{src}: expected exactly one {what}, found {len(found)}; runner.cu changed upstream, "
                         "so the GPU-timed copy cannot be made (update 'instrument' in ci/bench_litmus.py)")
    return found[0]


def instrument(text: str, src: str = "runner.cu") -> str:
    test = _one(_LAUNCH.format(name="litmus_test"), text, "litmus_test<<<...>>> launch", src)
    check = _one(_LAUNCH.format(name="check_results"), text, "check_results<<<...>>> launch", src)
    sync = _one(r"cudaMemcpy\(\s*h_weak\b[^;]*;", text, "cudaMemcpy(h_weak, ...) after the kernels", src)
    loop = _one(r"\n([ \t]*)for\s*\(\s*int\s+i\s*=\s*0\s*;\s*i\s*<\s*stressParams\.testIterations", text,
                "iteration loop", src)
    report = _one(r"\n([ \t]*)std::cout\s*<<\s*\"Time taken: \"", text, "\"Time taken: \" print", src)
    if not (loop.start() < test.start() < check.start() < sync.start() < report.start()):
        raise BenchError(f"{src}: the loop, launches, copy and report are not in the expected order")
    ind = loop.group(1)
    edits = [  # (position, text to insert), applied from the end so positions stay valid
        (loop.start(), f"\n{ind}// bench-litmus: CUDA events around the two kernels of each iteration.\n"
                       f"{ind}cudaEvent_t bench_ev[4];\n"
                       f"{ind}for (int e = 0; e < 4; e++) cudaEventCreate(&bench_ev[e]);\n"
                       f"{ind}double bench_test_ms = 0, bench_check_ms = 0;"),
        (test.start(), "cudaEventRecord(bench_ev[0]);\n    "),
        (test.end(), "\n    cudaEventRecord(bench_ev[1]);"),
        (check.start(), "cudaEventRecord(bench_ev[2]);\n    "),
        (check.end(), "\n    cudaEventRecord(bench_ev[3]);"),
        (sync.end(), "\n    { float ms = 0; cudaEventSynchronize(bench_ev[3]);\n"
                     "      if (cudaEventElapsedTime(&ms, bench_ev[0], bench_ev[1]) == cudaSuccess) bench_test_ms += ms;\n"
                     "      if (cudaEventElapsedTime(&ms, bench_ev[2], bench_ev[3]) == cudaSuccess) bench_check_ms += ms; }"),
        (report.start(), f"\n{ind}{{ cudaError_t e = cudaDeviceSynchronize();\n"
                         f"{ind}  if (e == cudaSuccess) e = cudaGetLastError();\n"
                         f"{ind}  if (e != cudaSuccess) std::cout << \"CUDA error: \" << cudaGetErrorString(e) << \"\\n\"; }}\n"
                         f"{ind}std::cout << \"GPU time litmus_test: \" << std::setprecision(9) << bench_test_ms / 1000.0 << \" seconds\\n\";\n"
                         f"{ind}std::cout << \"GPU time check_results: \" << bench_check_ms / 1000.0 << \" seconds\\n\" << std::setprecision(6);"),
    ]
    out = text
    for pos, ins in sorted(edits, key=lambda e: e[0], reverse=True):
        out = out[:pos] + ins + out[pos:]
    return "// Generated by vmmcheck ci/bench_litmus.py from cuda-litmus runner.cu: CUDA events around the\n" \
           "// litmus_test and check_results launches, and a CUDA error check. Do not edit.\n" + out


def cmd_instrument(a) -> int:
    try:
        with open(a.src, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise BenchError(f"{a.src}: {e.strerror}") from None
    with open(a.dst, "w", encoding="utf-8") as f:
        f.write(instrument(text, a.src))
    return 0


# ------------------------------------------------------------------------------------ cuda-litmus output

_NUM = r"([+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|inf|nan|-nan))"
_LITMUS_LINES = {  # runner.cu's four summary lines, and the two the GPU-timed copy adds
    "time_taken": (re.compile(r"^Time taken: " + _NUM + r" seconds\s*$"), float, True),
    "weak_rate_reported": (re.compile(r"^Weak behavior rate: " + _NUM + r" per second\s*$"), float, True),
    "total": (re.compile(r"^Total behaviors: ([+-]?\d+)\s*$"), int, True),
    "weak": (re.compile(r"^Number of weak behaviors: ([+-]?\d+)\s*$"), int, True),
    "gpu_litmus_test": (re.compile(r"^GPU time litmus_test: " + _NUM + r" seconds\s*$"), float, False),
    "gpu_check_results": (re.compile(r"^GPU time check_results: " + _NUM + r" seconds\s*$"), float, False),
}
_CUDA_ERROR = re.compile(r"^CUDA error: (.*)$")


def parse_litmus_stdout(text: str, where: str) -> dict:
    """The numbers of one run of cuda-litmus's runner (without -x). Raises BenchError when they are missing."""
    out: dict = {"cuda_errors": []}
    for line in text.splitlines():
        line = line.rstrip("\r")
        m = _CUDA_ERROR.match(line)
        if m:
            out["cuda_errors"].append(m.group(1))
            continue
        for key, (rx, conv, _req) in _LITMUS_LINES.items():
            m = rx.match(line)
            if m:
                if key in out:
                    raise BenchError(f"{where}: '{line.strip()}' appears twice: two runs' output in one file?")
                out[key] = conv(m.group(1)) if conv is int else float(m.group(1).replace("-nan", "nan"))
    missing = [k for k, (_rx, _c, req) in _LITMUS_LINES.items() if req and k not in out]
    if missing:
        tail = "\n    ".join(text.strip().splitlines()[-6:]) or "(empty)"
        raise BenchError(f"{where}: not the output of cuda-litmus's runner: no line for {', '.join(missing)}. "
                         f"Last lines:\n    {tail}")
    if ("gpu_litmus_test" in out) != ("gpu_check_results" in out):
        raise BenchError(f"{where}: only one of the two 'GPU time' lines of the timed runner")
    return out


def check_litmus(parsed: dict, expected: int | None, where: str) -> list[str]:
    """What is wrong with a parsed run: empty when its numbers hold together."""
    problems = []
    w, t = parsed["weak"], parsed["total"]
    for e in parsed["cuda_errors"]:
        problems.append(f"{where}: CUDA error reported by the timed runner: {e}")
    if w < 0 or t < 0:
        problems.append(f"{where}: negative counts (weak {w}, total {t}): the runner's int counters overflowed; "
                        "lower testIterations")
    elif w > t:
        problems.append(f"{where}: {w} weak behaviours out of {t}: the runner read uninitialised results "
                        "(it checks no CUDA call; did a kernel or copy fail?)")
    if expected is not None and t != expected:
        problems.append(f"{where}: {t} behaviours counted, {expected} expected (testIterations x "
                        "testingWorkgroups x workgroupSize): kernels that did not run, or results the runner "
                        "never got back (it checks no CUDA call)")
    if not (parsed["time_taken"] > 0 and math.isfinite(parsed["time_taken"])):
        problems.append(f"{where}: 'Time taken' is {parsed['time_taken']}")
    return problems


# ---------------------------------------------------------------------------------------- vmmcheck JSON

def _is_row(r: dict) -> bool:
    """A litmus row's record (alias.mp's cases are rows of cases/litmus/alias_mp.test now)."""
    return r.get("pattern") == "litmus"


def read_vmmcheck_case(path: str, name: str, weak_bin: str) -> tuple[dict, dict]:
    """The record of case `name` in a vmmcheck JSON results file, and the file's context."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise BenchError(f"{path}: cannot read vmmcheck results: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise BenchError(f"{path}: not JSON ({e.msg} at line {e.lineno}); did vmmcheck stop mid-write?") from None
    if not isinstance(doc, dict):
        raise BenchError(f"{path}: top level is not an object")
    # Schema 2 calls the list "results"; accept "cases" too.
    records = doc.get("results", doc.get("cases"))
    if not isinstance(records, list):
        raise BenchError(f"{path}: no 'results' (or 'cases') list of case records")
    found = [r for r in records if isinstance(r, dict) and r.get("name") == name]
    if len(found) != 1:
        names = ", ".join(str(r.get("name")) for r in records[:8] if isinstance(r, dict)) or "none"
        raise BenchError(f"{path}: {len(found)} records named {name} (records: {names}); wrong --filter, or a "
                         "case table without it?")
    r = found[0]
    where = f"{path}: {name}"
    for key in ("histogram", "instances", "seconds", "gpu_seconds"):
        if key not in r:
            raise BenchError(f"{where}: no '{key}'")
    h = r["histogram"]
    if not isinstance(h, dict) or not all(isinstance(v, int) and v >= 0 for v in h.values()):
        raise BenchError(f"{where}: 'histogram' is not an object of counts")
    # A litmus row (alias.mp's cases are rows of cases/litmus/alias_mp.test now) has its registers'
    # outcomes for bins and counts its permitted outcome in 'weak'.
    if _is_row(r):
        if not isinstance(r.get("weak"), int) or r["weak"] < 0:
            raise BenchError(f"{where}: a litmus row without a 'weak' count")
    elif weak_bin not in h:
        raise BenchError(f"{where}: histogram has no '{weak_bin}' bin (bins: {', '.join(h) or 'none'})")
    for key in ("instances",):
        if not isinstance(r[key], int) or r[key] < 0:
            raise BenchError(f"{where}: '{key}' is not a count ({r[key]!r})")
    for key in ("seconds", "gpu_seconds"):
        if not isinstance(r[key], (int, float)) or isinstance(r[key], bool) or r[key] < 0:
            raise BenchError(f"{where}: '{key}' is not a non-negative number ({r[key]!r})")
    ctx = doc.get("context") if isinstance(doc.get("context"), dict) else {}
    return r, ctx


# ------------------------------------------------------------------------------------------------ report

def _div(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return None


class Logs:
    """The files ci/bench-litmus.sh writes per run: ID.stdout/.stderr/.rc/.start/.end/.cmd."""

    def __init__(self, out: str):
        self.dir = os.path.join(out, "logs")

    def path(self, rid: str, ext: str) -> str:
        return os.path.join(self.dir, f"{rid}.{ext}")

    def ran(self, rid: str) -> bool:
        return os.path.exists(self.path(rid, "rc"))

    def wall(self, rid: str) -> float:
        vals = []
        for ext in ("start", "end"):
            text = _read(self.path(rid, ext))
            try:
                vals.append(float((text or "").strip()))
            except ValueError:
                raise BenchError(f"{self.path(rid, ext)}: not a time from 'date +%s.%N' ({text!r})") from None
        if vals[1] < vals[0]:
            raise BenchError(f"{rid}: end time before start time")
        return vals[1] - vals[0]

    def rc(self, rid: str) -> int:
        text = (_read(self.path(rid, "rc")) or "").strip()
        if not re.fullmatch(r"\d+", text):
            raise BenchError(f"{self.path(rid, 'rc')}: no exit status ({text!r})")
        return int(text)

    def cmd(self, rid: str) -> str:
        return (_read(self.path(rid, "cmd")) or "").strip()

    def stderr_tail(self, rid: str, n: int = 5) -> str:
        lines = (_read(self.path(rid, "stderr")) or "").strip().splitlines()
        text = " | ".join(lines[-n:])
        if self.rc(rid) in (124, 137):
            text = "killed by the script's timeout (BENCH_TIMEOUT)" + (f"; {text}" if text else "")
        return text


def litmus_row(logs: Logs, rid: str, variant: str, params: str, params_source: str, timed: bool,
               problems: list) -> dict | None:
    if not logs.ran(rid):
        problems.append(f"{rid}: did not run (no {logs.path(rid, 'rc')})")
        return None
    before = len(problems)
    row = _litmus_row(logs, rid, variant, params, params_source, timed, problems)
    row["ok"] = len(problems) == before
    return row


def _litmus_row(logs: Logs, rid: str, variant: str, params: str, params_source: str, timed: bool,
                problems: list) -> dict:
    rc = logs.rc(rid)
    text = _read(logs.path(rid, "stdout")) or ""
    row = {"id": rid, "tool": "cuda-litmus", "variant": variant + (" +events" if timed else ""), "params": params,
           "params_source": params_source, "command": logs.cmd(rid), "rc": rc, "wall_seconds": logs.wall(rid)}
    if rc != 0:
        problems.append(f"{rid}: exit status {rc}: {logs.stderr_tail(rid) or '(no stderr)'}")
        return row
    try:
        p = parse_litmus_stdout(text, logs.path(rid, "stdout"))
    except BenchError as e:
        problems.append(str(e))
        return row
    try:
        expected = expected_behaviours(read_stress_params(params))
    except BenchError as e:
        problems.append(str(e))
        expected = None
    problems.extend(check_litmus(p, expected, rid))
    gpu = None
    if "gpu_litmus_test" in p:
        gpu = p["gpu_litmus_test"] + p["gpu_check_results"]
    row.update({
        "weak": p["weak"], "instances": p["total"], "expected_instances": expected,
        "tool_seconds": p["time_taken"],
        "tool_seconds_meaning": "runner's 'Time taken': host std::chrono around its whole iteration loop "
                                "(memsets, host RNG, H2D/D2H copies, both kernels)",
        "weak_rate_reported_per_tool_second": p["weak_rate_reported"],
        "gpu_seconds": gpu,
        "gpu_seconds_meaning": ("CUDA events around the litmus_test and check_results launches of every iteration "
                                f"(litmus_test {p['gpu_litmus_test']:.6g} s, check_results "
                                f"{p['gpu_check_results']:.6g} s)") if timed and gpu is not None
        else "not reported by cuda-litmus (see the +events row for the same params)",
        "gpu_seconds_litmus_test": p.get("gpu_litmus_test"),
        "gpu_seconds_check_results": p.get("gpu_check_results"),
    })
    if timed and gpu is None:
        problems.append(f"{rid}: the GPU-timed runner printed no 'GPU time' lines")
    elif timed and not (gpu > 0 and math.isfinite(gpu)):
        problems.append(f"{rid}: GPU time {gpu}: the kernels did not run")
    return row


def vmmcheck_row(logs: Logs, rid: str, variant: str, json_path: str, case: str, stress_params: str | None,
                 problems: list, contexts: list) -> dict | None:
    if not logs.ran(rid):
        problems.append(f"{rid}: did not run (no {logs.path(rid, 'rc')})")
        return None
    before = len(problems)
    row = _vmmcheck_row(logs, rid, variant, json_path, case, stress_params, problems, contexts)
    row["ok"] = len(problems) == before
    return row


def _vmmcheck_row(logs: Logs, rid: str, variant: str, json_path: str, case: str, stress_params: str | None,
                  problems: list, contexts: list) -> dict:
    rc = logs.rc(rid)
    row = {"id": rid, "tool": "vmmcheck", "variant": variant, "case": case, "params": stress_params,
           "params_source": "--stress-params" if stress_params else "vmmcheck's default budget",
           "command": logs.cmd(rid), "rc": rc, "wall_seconds": logs.wall(rid), "json": json_path}
    try:
        r, ctx = read_vmmcheck_case(json_path, case, "stale")
    except BenchError as e:
        problems.append(f"{rid}: exit status {rc}; {e}" + (f"; stderr: {logs.stderr_tail(rid)}" if rc else ""))
        return row
    contexts.append(ctx)
    status = r.get("status")
    if status not in ("Pass", "Fail"):
        problems.append(f"{rid}: {case} ended {status}: {r.get('reason', '')}")
    elif rc not in (0, 1):
        problems.append(f"{rid}: exit status {rc}: {logs.stderr_tail(rid) or '(no stderr)'}")
    h = r["histogram"]
    if sum(h.values()) != r["instances"]:
        problems.append(f"{rid}: histogram total {sum(h.values())} != instances {r['instances']}")
    row.update({
        "status": status, "expectation": r.get("expectation"), "histogram": h,
        # The comparable weak outcome: the reader saw the flag, then stale data (cuda-litmus's r0=1, r1=0):
        # a hand-written kernel's "stale" bin, a litmus row's permitted outcome (r1 == 1, r2 != 1).
        "weak": r["weak"] if _is_row(r) else h["stale"], "weak_field": r.get("weak"),
        # A row's weak count is out of the instances whose preconditions held (its spin saw the flag).
        "instances": r.get("judged", r["instances"]) if _is_row(r) else r["instances"], "tool_seconds": r["seconds"],
        "tool_seconds_meaning": "the case's 'seconds': wall time of the case inside vmmcheck",
        "gpu_seconds": r["gpu_seconds"] if r["gpu_seconds"] > 0 else None,
        "gpu_seconds_meaning": "the case's 'gpu_seconds': CUDA events around its litmus launches",
    })
    if r["gpu_seconds"] <= 0:
        problems.append(f"{rid}: {case} has no GPU time")
    return row


def add_rates(row: dict | None) -> None:
    if row is None or "weak" not in row:
        return
    row["weak_rate"] = _div(row["weak"], row["instances"])
    row["weak_per_gpu_second"] = _div(row["weak"], row.get("gpu_seconds"))
    row["instances_per_gpu_second"] = _div(row["instances"], row.get("gpu_seconds"))
    row["weak_per_wall_second"] = _div(row["weak"], row["wall_seconds"])
    row["weak_per_tool_second"] = _div(row["weak"], row.get("tool_seconds"))


def _si(x, unit=""):
    if x is None:
        return "n/a"
    if x == 0:
        return "0" + unit
    for scale, suffix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= scale:
            return f"{x / scale:.3g}{suffix}{unit}"
    return f"{x:.3g}{unit}"


def _pct(x):
    if x is None:
        return "n/a"
    return f"{x * 100:.3g}%" if x >= 1e-4 or x == 0 else f"{x:.2e}"


def _secs(x):
    return "n/a" if x is None else f"{x:.4g}"


def _ratio(x):
    return "n/a" if x is None else f"{x:.3g}x"


def ratio_block(vm: dict | None, cl_plain: dict | None, cl_timed: dict | None, label: str) -> dict:
    def get(row, key):  # a row whose run had a problem gives no ratio
        return None if row is None or not row.get("ok") else row.get(key)
    gpu = _div(get(vm, "weak_per_gpu_second"), get(cl_timed, "weak_per_gpu_second"))
    wall = _div(get(vm, "weak_per_wall_second"), get(cl_plain, "weak_per_wall_second"))
    rate = _div(get(vm, "weak_rate"), get(cl_plain, "weak_rate"))
    def rid(row):
        return None if row is None else row["id"]
    return {"label": label, "vmmcheck": rid(vm), "cuda_litmus_wall": rid(cl_plain), "cuda_litmus_gpu": rid(cl_timed),
            "weak_per_gpu_second": gpu, "weak_per_wall_second": wall, "weak_rate": rate}


def cmd_report(a) -> int:
    out = a.out
    logs = Logs(out)
    problems: list[str] = []
    contexts: list[dict] = []
    rows: dict[str, dict | None] = {}
    for variant, params, source in (("default", a.litmus_default_params, a.litmus_default_source),
                                    ("tuned", a.litmus_tuned_params, a.litmus_tuned_source)):
        rows[f"litmus-{variant}"] = litmus_row(logs, f"litmus-{variant}", variant, params, source, False, problems)
        rows[f"litmus-{variant}-events"] = litmus_row(logs, f"litmus-{variant}-events", variant, params, source,
                                                      True, problems)
    racy, plain = a.racy_case, a.plain_case
    rows["vmmcheck-default"] = vmmcheck_row(logs, "vmmcheck-default", "default",
                                            os.path.join(out, "vmmcheck-default.json"), racy, None, problems, contexts)
    if a.vmmcheck_stress_params:
        rows["vmmcheck-stress"] = vmmcheck_row(logs, "vmmcheck-stress", "stress",
                                               os.path.join(out, "vmmcheck-stress.json"), racy,
                                               a.vmmcheck_stress_params, problems, contexts)
    rows["vmmcheck-plain"] = vmmcheck_row(logs, "vmmcheck-plain", "plain",
                                          os.path.join(out, "vmmcheck-plain.json"), plain, None, problems, contexts)
    for r in rows.values():
        add_rates(r)
    plain_row = rows["vmmcheck-plain"]
    if plain_row and plain_row.get("weak"):
        problems.append(f"vmmcheck-plain: {plain_row['weak']} stale outcomes in {plain}, a required case")

    vm_tuned_id = "vmmcheck-stress" if a.vmmcheck_stress_params else "vmmcheck-default"
    ratios = {
        "tuned_vs_tuned": ratio_block(rows.get(vm_tuned_id), rows["litmus-tuned"], rows["litmus-tuned-events"],
                                      f"{vm_tuned_id} / litmus-tuned"),
        "default_vs_default": ratio_block(rows["vmmcheck-default"], rows["litmus-default"],
                                          rows["litmus-default-events"], "vmmcheck-default / litmus-default"),
    }
    vm_ctx = contexts[0] if contexts else {}
    devices = vm_ctx.get("devices") if isinstance(vm_ctx.get("devices"), list) else []
    machine = {
        "gpu": a.gpu_name or "unavailable", "driver": a.gpu_driver or "unavailable", "nvcc": a.nvcc_version,
        "vmmcheck_devices": [d.get("name") for d in devices if isinstance(d, dict)],
        "vmmcheck_driver_release": vm_ctx.get("driver_release"),
    }
    notes = [
        "weak = cuda-litmus 'Number of weak behaviors' (r0=1, r1=0: flag seen, data stale); vmmcheck: a litmus row's "
        "'weak', its permitted outcome (flag acquired, data stale), out of its judged instances (a spin that "
        "reached its bound is left out); a hand-written case's histogram 'stale', its 'weak' field also counting "
        "'timeout', kept as weak_field.",
        "instances = cuda-litmus 'Total behaviors' (weak + other; skipped threads excluded); vmmcheck 'instances'.",
        "GPU s: vmmcheck gpu_seconds (events around its litmus launches); cuda-litmus reports no GPU time, so the "
        "'+events' rows come from a copy of its runner.cu with CUDA events around litmus_test and check_results "
        "(memsets and copies excluded). Ratios on GPU time use the +events row, ratios on wall time the stock row.",
        "wall s: the whole process, date +%s.%N before and after (CUDA context creation and allocation included).",
        "tool s: cuda-litmus 'Time taken' (host chrono around its iteration loop); vmmcheck case 'seconds'.",
    ]
    doc = {
        "schema": "vmmcheck-bench-litmus/1",
        "generated": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": machine,
        "cuda_litmus": {"dir": a.litmus_dir, "commit": a.litmus_commit, "build": a.litmus_build,
                        "test_params": a.litmus_test_params,
                        "default_params": a.litmus_default_params, "default_params_source": a.litmus_default_source,
                        "tuned_params": a.litmus_tuned_params, "tuned_params_source": a.litmus_tuned_source},
        "vmmcheck": {"path": a.vmmcheck, "git_sha": vm_ctx.get("git_sha"), "tool_version": vm_ctx.get("tool_version"),
                     "racy_case": racy, "plain_case": plain, "stress_params": a.vmmcheck_stress_params or None},
        "runs": [r for r in rows.values() if r is not None],
        "ratios": ratios,
        "plain_mp": None if plain_row is None else {
            "case": plain, "status": plain_row.get("status"), "instances": plain_row.get("instances"),
            "stale": plain_row.get("weak"), "gpu_seconds": plain_row.get("gpu_seconds"),
            "instances_per_gpu_second": plain_row.get("instances_per_gpu_second"),
            "wall_seconds": plain_row.get("wall_seconds")},
        "notes": notes,
        "problems": problems,
    }
    with open(os.path.join(out, "bench-litmus.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    with open(os.path.join(out, "bench-litmus.txt"), "w", encoding="utf-8") as f:
        f.write(render_text(doc))
    sys.stdout.write(render_text(doc))
    return 1 if problems else 0


def render_text(doc: dict) -> str:
    m, cl, vm = doc["machine"], doc["cuda_litmus"], doc["vmmcheck"]
    L = []
    L.append("vmmcheck vs cuda-litmus: racy message passing (writer and reader in different CTAs, cta-scope "
             "release/acquire)")
    L.append(f"generated {doc['generated']}")
    L.append(f"GPU: {m['gpu']}  driver: {m['driver']}  nvcc: {m['nvcc']}")
    L.append(f"cuda-litmus: {cl['dir']} @ {cl['commit']}")
    L.append(f"  build: {cl['build']}")
    L.append(f"  default params: {cl['default_params']}  ({cl['default_params_source']})")
    L.append(f"  tuned params:   {cl['tuned_params']}  ({cl['tuned_params_source']})")
    L.append(f"  test params:    {cl['test_params']}")
    L.append(f"vmmcheck: {vm['path']} (git {vm['git_sha'] or 'unknown'})  racy case {vm['racy_case']}  "
             f"stress params: {vm['stress_params'] or 'none'}")
    L.append("")
    if doc["problems"]:
        L.append("PROBLEMS (rows marked (!) are suspect and left out of the ratios):")
        L.extend(f"  - {p}" for p in doc["problems"])
        L.append("")
    head = ["tool / variant", "weak", "instances", "weak rate", "GPU s", "weak/GPU s", "inst/GPU s",
            "wall s", "weak/wall s", "tool s"]
    table = [head]
    for r in doc["runs"]:
        name = f"{r['tool']} {r['variant']}" + ("" if r.get("ok") else " (!)")
        if "weak" not in r:
            table.append([name, "failed"] + [""] * (len(head) - 2))
            continue
        table.append([name, str(r["weak"]), str(r["instances"]), _pct(r["weak_rate"]), _secs(r["gpu_seconds"]),
                      _si(r["weak_per_gpu_second"]), _si(r["instances_per_gpu_second"]), _secs(r["wall_seconds"]),
                      _si(r["weak_per_wall_second"]), _secs(r["tool_seconds"])])
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    for k, row in enumerate(table):
        L.append("  ".join(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(row)).rstrip())
        if k == 0:
            L.append("  ".join("-" * w for w in widths))
    L.append("")
    for key in ("tuned_vs_tuned", "default_vs_default"):
        q = doc["ratios"][key]
        L.append(f"ratio {key.replace('_', ' ')} ({q['label']}): weak/GPU s {_ratio(q['weak_per_gpu_second'])} "
                 f"(vs {q['cuda_litmus_gpu']}), weak/wall s {_ratio(q['weak_per_wall_second'])} "
                 f"(vs {q['cuda_litmus_wall']}), weak rate {_ratio(q['weak_rate'])}")
    p = doc["plain_mp"]
    if p:
        L.append(f"plain MP ({p['case']}, {p['status']}): {p['instances']} instances in {_secs(p['gpu_seconds'])} "
                 f"GPU s = {_si(p['instances_per_gpu_second'], '/s')} GPU; stale {p['stale']}; wall "
                 f"{_secs(p['wall_seconds'])} s")
    vm_runs = [r for r in doc["runs"] if r["tool"] == "vmmcheck" and "histogram" in r]
    if vm_runs:
        L.append("")
        L.append("vmmcheck histograms: " + "; ".join(
            f"{r['id']} {' '.join(f'{k}={v}' for k, v in r['histogram'].items())} (weak field {r['weak_field']})"
            for r in vm_runs))
    L.append("")
    L.append("notes:")
    L.extend(f"  - {n}" for n in doc["notes"])
    return "\n".join(L) + "\n"


# ---------------------------------------------------------------------------------------------- selftest

# Stdout of cuda-litmus's runner as its printing code writes it (runner.cu, run(): "Time taken" with the
# stream's default precision, then std::fixed setprecision(0) for the rate). STOCK/EVENTS are made-up
# numbers of a working run; NO_GPU is what the stock runner really printed on a machine without a GPU
# (every CUDA call failed unchecked; the counts are uninitialised host memory).
_SAMPLE_STOCK = """Time taken: 0.0412345 seconds
Weak behavior rate: 1576 per second
Total behaviors: 1264640
Number of weak behaviors: 65
"""
_SAMPLE_EVENTS = """GPU time litmus_test: 0.0150234 seconds
GPU time check_results: 0.000412 seconds
Time taken: 0.0431 seconds
Weak behavior rate: 1508 per second
Total behaviors: 1264640
Number of weak behaviors: 65
"""
_SAMPLE_NO_GPU = """Time taken: 2.8723e-05 seconds
Weak behavior rate: 59692411781120 per second
Total behaviors: 1152398796
Number of weak behaviors: 1714545180
"""
_SAMPLE_PARAMS = """testIterations=10
testingWorkgroups=988
maxWorkgroups=995
workgroupSize=128
shufflePct=0
barrierPct=68
stressLineSize=16
stressTargetLines=9
scratchMemorySize=4608
memStride=4
memStressPct=20
memStressIterations=445
memStressPattern=0
preStressPct=65
preStressIterations=57
preStressPattern=3
stressAssignmentStrategy=1
permuteThread=419"""  # no final newline, as shipped
_SAMPLE_RUNNER = """
void run(StressParams stressParams, TestParams testParams, bool print_results) {
  // run iterations
  std::chrono::time_point<std::chrono::system_clock> start, end;
  start = std::chrono::system_clock::now();
  for (int i = 0; i < stressParams.testIterations; i++) {
    litmus_test << <numWorkgroups, stressParams.workgroupSize >> > (testLocations, readResults, d_testInstances);

    check_results << <stressParams.testingWorkgroups, stressParams.workgroupSize >> > (testLocations, d_weak);

    cudaMemcpy(h_testResults, d_testResults, sizeof(TestResults), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_weak, d_weak, weakSize, cudaMemcpyDeviceToHost);
  }
  end = std::chrono::high_resolution_clock::now();
  std::chrono::duration<float> duration = end - start;
  std::cout << "Time taken: " << duration.count() << " seconds" << std::endl;
}
"""


def _vmm_doc(name, hist, gpu, key="results"):
    rec = {"name": name, "family": "alias.mp", "pattern": "message_passing", "axes": {}, "status": "Pass",
           "expectation": "undefined", "histogram": hist, "weak": hist.get("stale", 0) + hist.get("timeout", 0),
           "instances": sum(hist.values()), "seconds": gpu + 0.0003, "gpu_seconds": gpu, "reason": ""}
    return {"schema_version": 2, "context": {"git_sha": "abc123", "driver_release": "580.159.04",
                                             "devices": [{"name": "NVIDIA H200"}]}, key: [rec]}


def cmd_selftest(a) -> int:
    import tempfile
    fails = []

    def check(what, cond):
        if not cond:
            fails.append(what)

    def raises(what, fn, needle):
        try:
            fn()
        except BenchError as e:
            check(f"{what}: message mentions {needle!r} ({e})", needle in str(e))
        else:
            fails.append(f"{what}: no error")

    # cuda-litmus stdout
    p = parse_litmus_stdout(_SAMPLE_STOCK, "stock")
    check("stock weak/total/time", (p["weak"], p["total"], p["time_taken"]) == (65, 1264640, 0.0412345))
    check("stock has no GPU time", "gpu_litmus_test" not in p)
    check("stock consistent", check_litmus(p, 1264640, "stock") == [])
    p = parse_litmus_stdout(_SAMPLE_EVENTS, "events")
    check("events GPU times", (p["gpu_litmus_test"], p["gpu_check_results"]) == (0.0150234, 0.000412))
    p = parse_litmus_stdout(_SAMPLE_NO_GPU, "nogpu")
    check("scientific time", p["time_taken"] == 2.8723e-05)
    probs = check_litmus(p, 1264640, "nogpu")
    check("no-GPU garbage caught twice", len(probs) == 2 and "uninitialised" in probs[0] and "expected" in probs[1])
    p = parse_litmus_stdout("CUDA error: no CUDA-capable device is detected\n" + _SAMPLE_EVENTS, "err")
    check("CUDA error caught", any("no CUDA-capable" in x for x in check_litmus(p, 1264640, "err")))
    p = parse_litmus_stdout(_SAMPLE_STOCK.replace("65", "-5"), "neg")
    check("overflow caught", any("overflowed" in x for x in check_litmus(p, None, "neg")))
    with_x = "Iteration 0\nr0=1, r1=0 (weak): 3\nother: 126461\nthread skipped: 0\n" + _SAMPLE_STOCK
    check("-x output tolerated", parse_litmus_stdout(with_x, "x")["weak"] == 65)
    raises("empty stdout", lambda: parse_litmus_stdout("", "empty"), "no line for")
    raises("truncated stdout", lambda: parse_litmus_stdout(_SAMPLE_STOCK.split("Total")[0], "cut"), "total, weak")
    raises("two runs", lambda: parse_litmus_stdout(_SAMPLE_STOCK * 2, "twice"), "twice")
    raises("one GPU line", lambda: parse_litmus_stdout(_SAMPLE_EVENTS.split("GPU time check")[0] +
                                                       _SAMPLE_STOCK, "half"), "only one")

    with tempfile.TemporaryDirectory() as d:
        # params
        pf = os.path.join(d, "stress_params.txt")
        with open(pf, "w") as f:
            f.write(_SAMPLE_PARAMS)
        check("expected behaviours", expected_behaviours(read_stress_params(pf)) == 10 * 988 * 128)
        pf2 = os.path.join(d, "p1000.txt")
        write_params(pf, pf2, {"testIterations": 1000})
        check("derived params", read_stress_params(pf2)["testIterations"] == 1000
              and read_stress_params(pf2)["permuteThread"] == 419)
        bad = os.path.join(d, "bad.txt")
        with open(bad, "w") as f:
            f.write(_SAMPLE_PARAMS.replace("memStride=4\n", ""))
        raises("missing key", lambda: read_stress_params(bad), "memStride")
        with open(bad, "w") as f:
            f.write(_SAMPLE_PARAMS.replace("testingWorkgroups=988", "testingWorkgroups=1"))
        raises("one workgroup", lambda: read_stress_params(bad), "at least 2")
        raises("no file", lambda: read_stress_params(os.path.join(d, "none")), "cannot read")

        # instrument
        inst = instrument(_SAMPLE_RUNNER)
        check("instrumented order", inst.index("cudaEventRecord(bench_ev[0])") < inst.index("litmus_test <<")
              < inst.index("cudaEventRecord(bench_ev[1])") < inst.index("check_results <<")
              < inst.index("cudaEventRecord(bench_ev[3])") < inst.index("cudaMemcpy(h_weak")
              < inst.index("bench_check_ms += ms") < inst.index("GPU time litmus_test") < inst.index("Time taken"))
        raises("runner without the launch", lambda: instrument(_SAMPLE_RUNNER.replace("litmus_test <<", "x(")),
               "litmus_test")
        if a.runner:
            with open(a.runner, encoding="utf-8") as f:
                instrument(f.read(), a.runner)

        # vmmcheck JSON
        vj = os.path.join(d, "v.json")
        racy = "alias.mp.same.flagsame.nofence.cta"
        with open(vj, "w") as f:
            json.dump(_vmm_doc(racy, {"new": 10013541, "stale": 139631, "timeout": 660268}, 0.2411, key="cases"), f)
        r, ctx = read_vmmcheck_case(vj, racy, "stale")
        check("vmmcheck 'cases' key", r["histogram"]["stale"] == 139631 and ctx["git_sha"] == "abc123")
        raises("wrong case", lambda: read_vmmcheck_case(vj, racy + "x", "stale"), "0 records")
        raises("no stale bin", lambda: read_vmmcheck_case(vj, racy, "weak_bin"), "no 'weak_bin' bin")
        with open(vj, "w") as f:
            f.write('{"results": [')
        raises("cut JSON", lambda: read_vmmcheck_case(vj, racy, "stale"), "not JSON")
        # The case as a litmus row: registers for bins, the permitted outcome in 'weak'.
        row = _vmm_doc(racy, {"r0=0 r1=1 r2=0": 7, "r0=0 r1=1 r2=1": 90, "r0=0 r1=timeout r2=1": 3}, 0.01)
        row["results"][0].update(pattern="litmus", weak=7, judged=97)
        with open(vj, "w") as f:
            json.dump(row, f)
        r, _ = read_vmmcheck_case(vj, racy, "stale")
        check("a litmus row's record", r["weak"] == 7)
        row["results"][0]["weak"] = -1
        with open(vj, "w") as f:
            json.dump(row, f)
        raises("row without weak", lambda: read_vmmcheck_case(vj, racy, "stale"), "without a 'weak' count")

        # a whole report from made-up logs
        out = os.path.join(d, "out")
        os.makedirs(os.path.join(out, "logs"))

        def log(rid, stdout, wall, rc=0):
            for ext, text in (("stdout", stdout), ("stderr", ""), ("rc", f"{rc}\n"), ("cmd", f"{rid} cmd"),
                              ("start", "1000.000000000\n"), ("end", f"{1000 + wall:.9f}\n")):
                with open(os.path.join(out, "logs", f"{rid}.{ext}"), "w") as f:
                    f.write(text)
        log("litmus-default", _SAMPLE_STOCK, 0.5)
        log("litmus-default-events", _SAMPLE_EVENTS, 0.5)
        tuned_stock = _SAMPLE_STOCK.replace("1264640", "126464000").replace("Number of weak behaviors: 65",
                                                                            "Number of weak behaviors: 8000")
        tuned_events = (_SAMPLE_EVENTS.replace("1264640", "126464000").replace("0.0150234", "2.0")
                        .replace("0.000412", "0.05").replace("behaviors: 65", "behaviors: 8200"))
        log("litmus-tuned", tuned_stock, 4.0)
        log("litmus-tuned-events", tuned_events, 4.0)
        log("vmmcheck-default", "", 0.4)
        log("vmmcheck-plain", "", 0.5)
        with open(os.path.join(out, "vmmcheck-default.json"), "w") as f:
            json.dump(_vmm_doc(racy, {"new": 10013541, "stale": 139631, "timeout": 660268}, 0.2), f)
        plain = "alias.mp.same.flagsame.nofence.gpu"
        with open(os.path.join(out, "vmmcheck-plain.json"), "w") as f:
            json.dump(_vmm_doc(plain, {"new": 200540160, "stale": 0, "timeout": 0}, 0.02), f)
        def quiet_report(args):
            """cmd_report with its stdout muted; its exit status and the JSON it wrote."""
            with open(os.devnull, "w") as null:
                saved, sys.stdout = sys.stdout, null
                try:
                    rc = cmd_report(args)
                finally:
                    sys.stdout = saved
            with open(os.path.join(out, "bench-litmus.json")) as f:
                return rc, json.load(f)

        args = argparse.Namespace(
            out=out, litmus_dir="/x/cuda-litmus", litmus_commit="4b6c4a0", litmus_build="nvcc ...",
            litmus_test_params="2-loc.txt", litmus_default_params=pf, litmus_default_source="shipped",
            litmus_tuned_params=pf2, litmus_tuned_source="1000 iterations", vmmcheck="build/vmmcheck",
            vmmcheck_stress_params="", racy_case=racy, plain_case=plain, gpu_name="NVIDIA H200",
            gpu_driver="580.159.04", nvcc_version="13.0")
        rc, doc = quiet_report(args)
        check(f"clean report exits 0 (problems: {doc['problems']})", rc == 0 and doc["problems"] == [])
        t = doc["ratios"]["tuned_vs_tuned"]
        check("tuned vs tuned uses vmmcheck-default without stress params", t["vmmcheck"] == "vmmcheck-default")
        check("GPU ratio", abs(t["weak_per_gpu_second"] - (139631 / 0.2) / (8200 / 2.05)) < 1e-6)
        check("wall ratio", abs(t["weak_per_wall_second"] - (139631 / 0.4) / (8000 / 4.0)) < 1e-6)
        check("plain MP rate", abs(doc["plain_mp"]["instances_per_gpu_second"] - 200540160 / 0.02) < 1)
        with open(os.path.join(out, "bench-litmus.txt")) as f:
            text = f.read()
        check("text has the table and ratios", "cuda-litmus tuned +events" in text and "ratio tuned vs tuned" in text)

        # the same with a failed cuda-litmus run: reported, marked, out of the ratios, exit 1
        log("litmus-tuned", _SAMPLE_NO_GPU, 0.01)
        rc, doc = quiet_report(args)
        check("failed run: exit 1", rc == 1 and len(doc["problems"]) == 2)
        check("failed run: no wall ratio", doc["ratios"]["tuned_vs_tuned"]["weak_per_wall_second"] is None)
        check("failed run: GPU ratio kept", doc["ratios"]["tuned_vs_tuned"]["weak_per_gpu_second"] is not None)

    for f in fails:
        print(f"FAIL {f}")
    print(f"selftest: {'ok' if not fails else f'{len(fails)} failed'}")
    return 1 if fails else 0


# -------------------------------------------------------------------------------------------------- main

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("params")
    p.add_argument("file")
    p.add_argument("--set", action="append", metavar="KEY=VALUE")
    p.add_argument("--write", metavar="DST")
    p.set_defaults(func=cmd_params)
    p = sub.add_parser("instrument")
    p.add_argument("src")
    p.add_argument("dst")
    p.set_defaults(func=cmd_instrument)
    p = sub.add_parser("parse-litmus")
    p.add_argument("stdout")
    p.add_argument("--params")

    def parse_litmus(a):
        text = _read(a.stdout)
        if text is None:
            raise BenchError(f"{a.stdout}: cannot read")
        parsed = parse_litmus_stdout(text, a.stdout)
        exp = expected_behaviours(read_stress_params(a.params)) if a.params else None
        parsed["problems"] = check_litmus(parsed, exp, a.stdout)
        print(json.dumps(parsed, indent=2))
        return 1 if parsed["problems"] else 0
    p.set_defaults(func=parse_litmus)
    p = sub.add_parser("selftest", help="checks the parsers and the report on made-up and captured output")
    p.add_argument("--runner", help="also instrument this cuda-litmus runner.cu")
    p.set_defaults(func=cmd_selftest)
    p = sub.add_parser("report")
    p.add_argument("--out", required=True)
    p.add_argument("--litmus-dir", required=True)
    p.add_argument("--litmus-commit", required=True)
    p.add_argument("--litmus-build", required=True)
    p.add_argument("--litmus-test-params", required=True)
    p.add_argument("--litmus-default-params", required=True)
    p.add_argument("--litmus-default-source", required=True)
    p.add_argument("--litmus-tuned-params", required=True)
    p.add_argument("--litmus-tuned-source", required=True)
    p.add_argument("--vmmcheck", required=True)
    p.add_argument("--vmmcheck-stress-params", default="")
    p.add_argument("--racy-case", required=True)
    p.add_argument("--plain-case", required=True)
    p.add_argument("--gpu-name", default="")
    p.add_argument("--gpu-driver", default="")
    p.add_argument("--nvcc-version", default="")
    p.set_defaults(func=cmd_report)
    a = ap.parse_args(argv)
    try:
        return a.func(a)
    except BenchError as e:
        print(f"bench_litmus: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
