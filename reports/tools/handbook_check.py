#!/usr/bin/env python3
"""Is the committed handbook (docs/handbook) what the committed results and case tables give now?

Regenerates it into a temporary folder -- `vmmcheck list --json` of the build, then the handbook of the two
committed H200 runs -- and compares file by file. Exit 0 when equal, 1 naming the files that differ (then
regenerate with the command printed), 2 when it cannot run. ctest runs it (`handbook.current`).
"""
import argparse
import filecmp
import subprocess
import sys
import tempfile
from pathlib import Path

RUNS = ["ci/results/nvidia-h200_driver-580.159.04.json", "ci/results/2x-nvidia-h200_driver-580.159.04.json"]
MATRIX = "ci/results/toolchain/matrix.json"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--vmmcheck", required=True, help="the built vmmcheck binary")
    ap.add_argument("--root", required=True, type=Path, help="the repository")
    args = ap.parse_args()
    root = args.root.resolve()
    sys.path.insert(0, str(root / "reports"))
    from vmmcheck_report import handbook

    with tempfile.TemporaryDirectory() as tmp:
        listing = Path(tmp) / "list.json"
        with listing.open("w") as out:
            if subprocess.run([args.vmmcheck, "list", "--json"], stdout=out, cwd=root).returncode != 0:
                print("handbook_check: vmmcheck list --json failed", file=sys.stderr)
                return 2
        fresh = Path(tmp) / "handbook"
        if handbook.main(["--cases-json", str(listing), *[str(root / r) for r in RUNS], "--toolchain-matrix", str(root / MATRIX),
                          "-o", str(fresh)]) != 0:
            return 2
        committed = root / "docs" / "handbook"
        names = lambda d: sorted(p.relative_to(d).as_posix() for p in d.rglob("*") if p.is_file())
        want, have = names(fresh), names(committed) if committed.is_dir() else []
        differ = sorted(set(want) ^ set(have)) + [n for n in want if n in have and not filecmp.cmp(fresh / n, committed / n, shallow=False)]
    if differ:
        print(f"docs/handbook differs from what the committed results give in {len(differ)} file(s), e.g. "
              + ", ".join(differ[:5]) + "\nregenerate: build/vmmcheck list --json > /tmp/list.json && "
              "PYTHONPATH=reports .venv/bin/python -m vmmcheck_report handbook --cases-json /tmp/list.json "
              + " ".join(RUNS) + " --toolchain-matrix " + MATRIX + " -o docs/handbook")
        return 1
    print(f"docs/handbook is current ({len(want)} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
