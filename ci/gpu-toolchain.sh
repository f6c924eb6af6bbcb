#!/usr/bin/env bash
# On a GPU machine (docs/toolchain.md, "In run"): the default suite, whose litmus rows that show a
# forbidden outcome are judged by the machine code they ran; `vmmcheck toolchain` over the shipped rows
# with that machine's toolkit; and whether -lineinfo changes any kernel's code. One file back:
# $OUT/toolchain-gpu.tar.gz.
#   ci/gpu-toolchain.sh VMMCHECK
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: ci/gpu-toolchain.sh VMMCHECK}
OUT=${OUT:-$PWD/gpu-out}
work=$(mktemp -d)/toolchain-gpu
mkdir -p "$OUT" "$work"
# No nvdisasm in this machine's toolkit: the one carried beside the binary (the PyPI wheel's).
command -v nvdisasm > /dev/null || export PATH="$PATH:$(cd "$(dirname "$bin")" && pwd)/bin"
{
  echo "nvdisasm: $(command -v nvdisasm || echo none)"; echo "cuobjdump: $(command -v cuobjdump || echo none)"
  echo "ptxas: $(command -v ptxas || echo none) $(ptxas --version 2>/dev/null | tail -n 1)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
} > "$work/machine.txt" 2>&1
start=$SECONDS
"$bin" run --cases "$PWD/cases" --json "$work/suite.json" > "$work/suite.console" 2>&1
echo "run: exit $? in $((SECONDS - start)) s" | tee -a "$work/steps.txt"
start=$SECONDS
"$bin" toolchain cases/litmus --json "$work/toolchain.json" > "$work/toolchain.console" 2>&1
echo "toolchain: exit $? in $((SECONDS - start)) s" | tee -a "$work/steps.txt"
start=$SECONDS
ci/experiments/lineinfo_same_code.sh "$bin" > "$work/lineinfo-same-code.txt" 2>&1
echo "lineinfo: exit $? in $((SECONDS - start)) s" | tee -a "$work/steps.txt"
tar -C "$(dirname "$work")" -czf "$OUT/toolchain-gpu.tar.gz" toolchain-gpu
cp "$work/steps.txt" "$OUT/steps.txt"
