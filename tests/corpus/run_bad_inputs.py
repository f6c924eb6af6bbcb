#!/usr/bin/env python3
"""The bad-input corpus (tests/corpus/inputs/inputs.json): every input a user can give, each with the exit
status and the message it must give. Each entry runs one command -- vmmcheck, or the report driver --
in a fresh folder, and must:

* exit with its status (2 for bad input) within its time (60 s unless it says otherwise): no hang;
* for a bad input, say so in exactly one line on stderr, printable ASCII only, holding its message;
  never a traceback, a sanitizer report or a signal;
* leave every file it names under "unchanged" as it was (no results lost), and write none under "absent".

Placeholders in args and env: {repo} the repository, {tmp} the entry's folder, {files} this corpus's
files (tests/corpus/inputs/files). "make" writes files into {tmp} first: "copy" from the repo, "text"
(with \\xNN escapes), "repeat" (strings repeated), "numbered" (a line per i), "dir", "fifo", "symlink" (to
its value), and "executable".
"""
import argparse
import concurrent.futures
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parents[1]


def expand(text: str, tmp: pathlib.Path) -> str:
    return text.replace("{repo}", str(REPO)).replace("{tmp}", str(tmp)).replace("{files}", str(HERE / "inputs" / "files"))


def make(spec: dict, tmp: pathlib.Path) -> None:
    for name, how in spec.items():
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if "dir" in how:
            path.mkdir(exist_ok=True)
        elif "fifo" in how:  # nothing writes into it: a reader that opens it would block (the entry's time)
            os.mkfifo(path)
        elif "symlink" in how:
            path.symlink_to(how["symlink"])
        elif "copy" in how:
            shutil.copy(REPO / how["copy"], path)
        elif "text" in how:
            path.write_bytes(how["text"].encode("utf-8").decode("unicode_escape").encode("latin-1"))
        elif "repeat" in how:
            path.write_text("".join(part * count for part, count in how["repeat"]))
        elif "numbered" in how:  # head, then the line for i = 0 .. count-1 ({i} in it), then tail
            n = how["numbered"]
            path.write_text(n.get("head", "") + "".join(n["line"].replace("{i}", str(i)) for i in range(n["count"])) + n.get("tail", ""))
        if how.get("executable"):
            path.chmod(0o755)


# What the CPU-only build (-DVMMCHECK_GPU=OFF) answers for a command it does not have (cli/gpu_commands_off.cpp).
NEEDS_GPU_BUILD = "` needs the GPU build (configure with the CUDA toolkit and the default -DVMMCHECK_GPU=ON)"


def check(entry: dict, tools: dict, cpu_only: bool = False) -> list:
    problems = []
    with tempfile.TemporaryDirectory(prefix="vmmcheck-corpus-") as d:
        tmp = pathlib.Path(d)
        make(entry.get("make", {}), tmp)
        argv = tools[entry.get("tool", "vmmcheck")] + [expand(a, tmp) for a in entry["args"]]
        env = dict(os.environ, PYTHONPATH=str(REPO / "reports"))
        for k, v in entry.get("env", {}).items():
            env[k] = expand(v, tmp)
        watched = {p: pathlib.Path(expand(p, tmp)).read_bytes() for p in entry.get("unchanged", [])}
        try:
            proc = subprocess.run(argv, capture_output=True, cwd=tmp, env=env, timeout=entry.get("seconds", 60))
        except subprocess.TimeoutExpired:
            return [f"did not end within {entry.get('seconds', 60)} s (a hang)"]
        err = proc.stderr.decode("utf-8", "replace")
        out = proc.stdout.decode("utf-8", "replace")
        # The CPU-only build refuses a GPU command, whatever its arguments, in its one line and exit 2 (its
        # parser is the GPU build's, so a bad flag is still refused as such): the rest still holds.
        if cpu_only and proc.returncode == 2 and NEEDS_GPU_BUILD in err:
            entry = {k: v for k, v in entry.items() if k != "stdout"} | {"exit": 2, "stderr": NEEDS_GPU_BUILD}
        if proc.returncode != entry["exit"]:
            problems.append(f"exit {proc.returncode}, not {entry['exit']}: {err.strip()[:300]}")
        if proc.returncode < 0:
            problems.append(f"killed by signal {-proc.returncode}")
        for bad in ("Traceback", "AddressSanitizer", "runtime error:", "Segmentation fault", "terminate called"):
            if bad in err or bad in out:
                problems.append(f"stderr or stdout holds {bad!r}")
        if entry["exit"] == 2:
            lines = err.strip("\n").split("\n")
            if len(lines) != 1:
                problems.append(f"{len(lines)} lines on stderr, not one: {err[:300]!r}")
            if any(not (32 <= b < 127 or b == 10) for b in proc.stderr):
                problems.append(f"unprintable bytes on stderr: {proc.stderr[:200]!r}")
        if "stderr" in entry and expand(entry["stderr"], tmp) not in err:
            problems.append(f"stderr lacks {expand(entry['stderr'], tmp)!r}: {err.strip()[:300]}")
        if "stdout" in entry and expand(entry["stdout"], tmp) not in out:
            problems.append(f"stdout lacks {expand(entry['stdout'], tmp)!r}: {out.strip()[:300]}")
        for p in entry.get("absent", []):
            if pathlib.Path(expand(p, tmp)).exists():
                problems.append(f"{p} was written")
        for p, before in watched.items():
            path = pathlib.Path(expand(p, tmp))
            if not path.exists() or path.read_bytes() != before:
                problems.append(f"{p} was replaced or removed")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--vmmcheck", required=True)
    ap.add_argument("--python", help="the report driver's python (with its packages); without it, its entries are skipped")
    ap.add_argument("--only", help="run the entries whose name holds this")
    ap.add_argument("--cpu-only", action="store_true",
                    help="--vmmcheck is the CPU-only build: a GPU command's one line saying it needs the GPU build answers its entries")
    args = ap.parse_args()
    entries = json.loads((HERE / "inputs" / "inputs.json").read_text())["inputs"]
    names = [e["name"] for e in entries]
    if len(set(names)) != len(names):
        print("inputs.json: two entries of one name")
        return 1
    tools = {"vmmcheck": [os.path.abspath(args.vmmcheck)]}
    if args.python:
        tools["report"] = [os.path.abspath(args.python), "-m", "vmmcheck_report"]
    chosen = [e for e in entries if (not args.only or args.only in e["name"]) and e.get("tool", "vmmcheck") in tools]
    skipped = len(entries) - len(chosen) if not args.only else 0
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        for entry, problems in zip(chosen, pool.map(lambda e: check(e, tools, args.cpu_only), chosen)):
            if problems:
                failed += 1
                print(f"FAIL {entry['name']}: " + "; ".join(problems))
    print(f"{len(chosen)} inputs, {failed} failed" + (f", {skipped} of the report driver skipped (no --python)" if skipped else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
