"""The ptxas matrix of `vmmcheck toolchain` (docs/toolchain.md, "The matrix"): ci/results/toolchain/matrix.json,
written by ci/toolchain_matrix.py collect. One reading of it for docs (figures kind `toolchain`), the
handbook's toolchain page and the CI check.
"""

from __future__ import annotations

from typing import Dict, List, Mapping, Sequence, Tuple

# What a matrix file is (ci/toolchain_matrix.py collect writes it): load.read_document checks these before any
# reader here looks inside (figures kind `toolchain`, handbook --toolchain-matrix).
KIND = "vmmcheck-toolchain-matrix/1"
SCHEMAS = ("vmmcheck-toolchain-matrix/1",)
KEYS = {"versions": dict, "rows": int, "arch": str, "disassembler": str}

# Problems that break the PTX model; `elided` is a change the model allows that leaves an operation untested.
BREAKS = ("lost", "merged", "weakened", "reordered", "error")


def version_key(version: str) -> List[int]:
    return [int(x) for x in version.split(".") if x.isdigit()]


def levels(matrix: Mapping) -> List[str]:
    return sorted({lvl for v in matrix["versions"].values() for lvl in v["levels"]}, key=int)


def cell(rows) -> Tuple[int, int]:
    """(rows that broke the model, rows that only elided) of one version and level."""
    broke = {r for r, p, _ in rows if p in BREAKS}
    elided = {r for r, p, _ in rows if p == "elided"} - broke
    return len(broke), len(elided)


def file_of(row: str) -> str:
    """The litmus file a row's name comes from: `litmus.<file>.<row>.<command>` -> `<file>`."""
    parts = row.split(".")
    return parts[1] if parts[0] == "litmus" and len(parts) > 1 else parts[0]


def what_broke(matrix: Mapping) -> List[Dict]:
    """Per (litmus file, problem, operation): its rows, and the versions and levels where it happened;
    the breaks first."""
    what: Dict[Tuple[str, str, str], Dict] = {}
    for version, entry in matrix["versions"].items():
        for lvl, rows in entry["levels"].items():
            for row, problem, op in rows:
                w = what.setdefault((file_of(row), problem, op), {"rows": set(), "where": []})
                w["rows"].add(row)
                if (version, lvl) not in w["where"]:
                    w["where"].append((version, lvl))
    out = []
    for (family, problem, op), w in sorted(what.items(), key=lambda kv: (kv[0][1] not in BREAKS, kv[0])):
        where = sorted(w["where"], key=lambda vl: (version_key(vl[0]), int(vl[1])))
        out.append({"file": family, "problem": problem, "operation": op, "rows": sorted(w["rows"]),
                    "breaks": problem in BREAKS, "where": [f"{v} -O{lvl}" for v, lvl in where]})
    return out


def spans(where: List[str], versions: Sequence[str] = ()) -> str:
    """'12.4 -O1', '12.4 -O2', ... as '12.4 -O1..-O3; 13.0 -O3'; versions with the same levels share one
    entry, and when they are all of `versions`, 'every version'."""
    by_version: Dict[str, List[int]] = {}
    for w in where:
        v, lvl = w.split(" -O")
        by_version.setdefault(v, []).append(int(lvl))
    groups: Dict[Tuple[int, ...], List[str]] = {}
    for v, lv in by_version.items():
        groups.setdefault(tuple(sorted(lv)), []).append(v)
    parts = []
    for lv, vs in groups.items():
        contiguous = list(lv) == list(range(lv[0], lv[-1] + 1))
        shown = f"-O{lv[0]}" if len(lv) == 1 else (f"-O{lv[0]}..-O{lv[-1]}" if contiguous else ", ".join(f"-O{x}" for x in lv))
        who = f"every version ({len(vs)})" if versions and sorted(vs) == sorted(versions) and len(vs) > 1 else ", ".join(vs)
        parts.append(f"{who} {shown}")
    return "; ".join(parts)


def table_lines(matrix: Mapping, shown: str) -> List[str]:
    """Markdown: the header sentence, version x level -> rows broke / elided, then what broke."""
    lv = levels(matrix)
    out = [f"From `{shown}`: `vmmcheck toolchain` over the {matrix['rows']} shipped litmus rows, each ptxas given "
           f"NVRTC's PTX for {matrix['arch']}, disassembled by nvdisasm {matrix['disassembler']}. A cell is the rows whose "
           "machine code broke the model / the rows that only elided an operation the model lets go.", ""]
    out.append("| ptxas | " + " | ".join(f"-O{x}" for x in lv) + " |")
    out.append("|---|" + "---|" * len(lv))
    for version, entry in matrix["versions"].items():
        note = f" (PTX .version lowered to {entry['ptx_version_lowered_to']})" if entry.get("ptx_version_lowered_to") else ""
        out.append(f"| {version}{note} | " + " | ".join("{} / {}".format(*cell(entry["levels"].get(x, []))) for x in lv) + " |")
    out += ["", "What the machine code lost, by litmus file, problem and operation:", ""]
    for w in what_broke(matrix):
        out.append(f"- `{w['file']}`: {w['problem']} `{w['operation']}` in {len(w['rows'])} row{'' if len(w['rows']) == 1 else 's'} "
                   f"({'breaks the model' if w['breaks'] else 'allowed, untested'}): ptxas {spans(w['where'], list(matrix['versions']))}")
    return out
