#!/usr/bin/env bash
# The ptxas matrix (docs/toolchain.md, "The matrix"): for each ptxas version PyPI has as a wheel
# (nvidia-cuda-nvcc-cu12 for 12.x, nvidia-cuda-nvcc for 13.x), `vmmcheck toolchain` over the shipped
# litmus rows at -O0..-O3 (the PTX's .version lowered where an older ptxas asks), and the committed
# table of what each version's machine code lost: ci/results/toolchain/matrix.json; one log per version
# in the work folder ($VMMCHECK_PTXAS_WORK, not committed).
# Needs a build ($VMMCHECK, default build/vmmcheck), .venv (ci/setup-deps.sh) and PyPI; no GPU.
#   ci/toolchain-matrix.sh [VERSION...]      (default: the versions below)
set -euo pipefail
cd "$(dirname "$0")/.."
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(12.4.131 12.6.85 12.8.93 12.9.86 13.0.88 13.2.51)
work=${VMMCHECK_PTXAS_WORK:-${TMPDIR:-/tmp}/vmmcheck-ptxas}
out=ci/results/toolchain
mkdir -p "$work/wheels" "$out"
jsons=()
for v in "${versions[@]}"; do
  case "$v" in 12.*) package=nvidia-cuda-nvcc-cu12 ;; *) package=nvidia-cuda-nvcc ;; esac
  if [ ! -d "$work/$v" ]; then
    echo "toolchain-matrix: ptxas $v from $package"
    .venv/bin/pip download --no-deps -q "$package==$v" -d "$work/wheels/$v"
    unzip -q -o "$work"/wheels/"$v"/*.whl -d "$work/$v"
  fi
  ptxas=$(find "$work/$v" -type f -name ptxas | head -n 1)
  [ -n "$ptxas" ] || { echo "toolchain-matrix: no ptxas in $package $v" >&2; exit 1; }
  chmod +x "$ptxas"
  echo "toolchain-matrix: checking with $ptxas"
  started=$(date +%s)
  # Exit 1 means findings: that is the point here.
  "${VMMCHECK:-build/vmmcheck}" toolchain cases/litmus --no-nvrtc --no-toolkit-ptxas --ptxas "$ptxas" -O 0,1,2,3 --json "$work/$v.json" \
    > "$work/ptxas-$v.txt" 2>&1 || [ $? -eq 1 ]
  echo "toolchain-matrix: $v done in $(( $(date +%s) - started )) s"
  jsons+=("$work/$v.json")
done
.venv/bin/python ci/toolchain_matrix.py collect "${jsons[@]}" --out "$out/matrix.json"
.venv/bin/python ci/toolchain_matrix.py table "$out/matrix.json"
