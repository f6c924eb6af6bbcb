#!/usr/bin/env bash
# Does line information change the machine code? (docs/toolchain.md, "Finding each operation's code")
# Every shipped litmus row's generated kernel compiled for sm_90 with nvcc (NVRTC's front end and ptxas)
# at -O3 with and without -lineinfo, each disassembled without line information, and compared.
#   ci/experiments/lineinfo_same_code.sh VMMCHECK [JOBS]      (prints one line per kernel that differs, then a summary)
set -euo pipefail
cd "$(dirname "$0")/../.."
vmmcheck=${1:?usage: lineinfo_same_code.sh VMMCHECK [JOBS]}
jobs=${2:-$(nproc)}
nvdisasm=$(command -v nvdisasm || ls .venv/lib/python*/site-packages/nvidia/cu*/bin/nvdisasm 2>/dev/null | head -n 1)
[ -n "$nvdisasm" ] || { echo "lineinfo_same_code: no nvdisasm" >&2; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$vmmcheck" model --kernels "$work" cases/litmus > /dev/null
export work nvdisasm
one() {
  local cu=$1 stem
  stem=$(basename "$cu" .cu)
  nvcc -std=c++17 -arch=sm_90 -cubin -I"$work" "$cu" -o "$work/$stem.plain.cubin"
  nvcc -std=c++17 -arch=sm_90 -cubin -lineinfo -I"$work" "$cu" -o "$work/$stem.lines.cubin"
  if cmp -s <("$nvdisasm" -c "$work/$stem.plain.cubin") <("$nvdisasm" -c "$work/$stem.lines.cubin"); then
    echo "same $stem"
  else
    echo "DIFFERS $stem"
  fi
}
export -f one
ls "$work"/*.cu | xargs -P "$jobs" -I{} bash -c 'one {}' > "$work/verdicts.txt"
grep DIFFERS "$work/verdicts.txt" || true
echo "lineinfo_same_code: $(grep -c '^same' "$work/verdicts.txt") of $(wc -l < "$work/verdicts.txt") kernels have the same machine code with -lineinfo ($(nvcc --version | tail -n 1), $("$nvdisasm" --version | tail -n 1))"
