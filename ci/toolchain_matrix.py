"""The ptxas matrix of vmmcheck toolchain (docs/toolchain.md, "The matrix").

  collect JSON... --out matrix.json   one `vmmcheck toolchain --json` file per ptxas version -> the matrix:
                                      per version and -O level, each row whose machine code did not keep
                                      an operation, with the problem and the operation
  table matrix.json                   the table: version x level -> rows that broke the model / elided
  check --vmmcheck BIN --matrix F     runs `toolchain` with the toolkit's ptxas at the matrix's levels (or
        [--levels 3,0]                  those of them --levels names: CI checks -O3, the full run all) and
                                      compares: exactly the rows (problem, operation) the matrix names for
                                      that version, or exit 1 naming the differences; 77 (skip) when the
                                      version is not in the matrix or nothing can disassemble here
"""
import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "reports"))
from vmmcheck_report import toolchain  # noqa: E402  (the one reading of the matrix)


def findings_of(doc):
    """{(compiler name, version): {level: sorted [[row, problem, operation], ...]}} of a toolchain JSON."""
    versions = {c["name"]: c["version"] for c in doc["compilers"]}
    out = {}
    for kernel in doc["kernels"]:
        for audit in kernel["audits"]:
            per_level = out.setdefault(versions[audit["compiler"]], {})
            rows = per_level.setdefault(str(audit["level"]), [])
            if "error" in audit:
                rows.extend([row, "error", audit["error"][:200]] for row in kernel["rows"])
            for f in audit["findings"]:
                rows.extend([row, f["problem"], f["litmus"]] for row in kernel["rows"])
    for per_level in out.values():
        for rows in per_level.values():
            rows.sort()
    return out


def collect(args):
    matrix = {"schema": "vmmcheck-toolchain-matrix/1", "arch": None, "disassembler": None, "rows": None, "versions": {}}
    for path in args.json:
        doc = json.loads(Path(path).read_text())
        matrix["arch"] = doc["arch"]
        matrix["disassembler"] = doc["disassembler"]["version"]
        matrix["rows"] = sum(len(k["rows"]) for k in doc["kernels"])
        lowered = {a.get("ptx_version_lowered_to") for k in doc["kernels"] for a in k["audits"]} - {None}
        for version, per_level in findings_of(doc).items():
            matrix["versions"][version] = {"ptx_version_lowered_to": sorted(lowered)[0] if lowered else None,
                                           "levels": per_level}
    matrix["versions"] = dict(sorted(matrix["versions"].items(), key=lambda kv: toolchain.version_key(kv[0])))
    Path(args.out).write_text(json.dumps(matrix, indent=1) + "\n")
    print(f"toolchain-matrix: {len(matrix['versions'])} versions -> {args.out}")


def table(args):
    print("\n".join(toolchain.table_lines(json.loads(Path(args.matrix).read_text()), args.matrix)))


def check(args):
    matrix = json.loads(Path(args.matrix).read_text())
    levels = toolchain.levels(matrix)
    if args.levels:
        asked = [lvl.strip() for lvl in args.levels.split(",")]
        unknown = [lvl for lvl in asked if lvl not in levels]
        if unknown:
            print(f"toolchain-matrix check: {args.matrix} has no -O level {', '.join(unknown)} (it has {', '.join(levels)})")
            return 2
        levels = asked
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "toolchain.json"
        run = subprocess.run([args.vmmcheck, "toolchain", args.litmus, "--no-nvrtc", "-O", ",".join(levels), "--json", str(out)],
                             capture_output=True, text=True)
        if run.returncode == 77:
            print("toolchain-matrix check: skipped: " + run.stderr.strip())
            return 77
        if run.returncode not in (0, 1) or not out.exists():
            print(run.stdout + run.stderr)
            return 1
        seen = findings_of(json.loads(out.read_text()))
    if len(seen) != 1:
        print(f"toolchain-matrix check: expected one compiler (the toolkit's ptxas), got {sorted(seen)}")
        return 1
    [(version, per_level)] = seen.items()
    if version not in matrix["versions"]:
        print(f"toolchain-matrix check: skipped: the toolkit's ptxas {version} is not in {args.matrix} "
              f"(it has {', '.join(matrix['versions'])}); ci/toolchain-matrix.sh {version} adds it")
        return 77
    lines = differences(matrix["versions"][version]["levels"], per_level, levels, version)
    print("\n".join(lines))
    bad = sum(1 for line in lines if " NEW " in line or " GONE " in line)
    print("toolchain-matrix check: " + ("ok" if bad == 0 else f"FAILED, {bad} differences"))
    return 0 if bad == 0 else 1


def differences(expected, got_levels, levels, version):
    """One line per finding new to the matrix or gone from this run, then a count per level."""
    lines = []
    for lvl in levels:
        want = {tuple(r) for r in expected.get(lvl, [])}
        got = {tuple(r) for r in got_levels.get(lvl, [])}
        lines += [f"ptxas {version} -O{lvl}: NEW {r[0]}: {r[1]} `{r[2]}`" for r in sorted(got - want)]
        lines += [f"ptxas {version} -O{lvl}: GONE {r[0]}: {r[1]} `{r[2]}` (the matrix names it, this run did not find it)"
                  for r in sorted(want - got)]
        lines.append(f"ptxas {version} -O{lvl}: {len(got)} findings, {len(want)} in the matrix")
    return lines


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("json", nargs="+")
    c.add_argument("--out", required=True)
    t = sub.add_parser("table")
    t.add_argument("matrix")
    k = sub.add_parser("check")
    k.add_argument("--vmmcheck", required=True)
    k.add_argument("--matrix", required=True)
    k.add_argument("--litmus", default=str(Path(__file__).resolve().parent.parent / "cases" / "litmus"))
    k.add_argument("--levels", help="check only these of the matrix's -O levels (comma-separated)")
    args = p.parse_args(argv)
    return {"collect": collect, "table": table, "check": check}[args.command](args) or 0


if __name__ == "__main__":
    sys.exit(main())
