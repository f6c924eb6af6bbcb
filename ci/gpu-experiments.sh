#!/usr/bin/env bash
# The hand-edit experiments of ci/experiments/*.diff (issue 19: an ordering deleted from the source, not
# switched off by a mutant), on a GPU machine after ci/gpu-session.sh built build-gpu. For each diff:
# apply it, rebuild vmmcheck, keep that binary, undo the diff; then rebuild as committed and run each
# kept binary on the filter its diff names (the line "vmmcheck run ... --filter '...'" of its preamble).
# Logs and JSON go to $OUT: <name>.txt (the run's console) and <name>.json.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}
bin=$(mktemp -d)
for diff in ci/experiments/*.diff; do
  name=$(basename "$diff" .diff)
  python3 ci/apply_diff.py "$diff" || { echo "$name: does not apply"; continue; }
  if cmake --build build-gpu --target vmmcheck >"$OUT/$name.build.log" 2>&1; then cp build-gpu/vmmcheck "$bin/$name"; else echo "$name: build failed"; fi
  python3 ci/apply_diff.py -R "$diff"
done
cmake --build build-gpu --target vmmcheck >"$OUT/rebuild.log" 2>&1 || echo "rebuild as committed failed"
for diff in ci/experiments/*.diff; do
  name=$(basename "$diff" .diff)
  [ -x "$bin/$name" ] || continue
  filter=$(grep -o "run --no-power --filter '[^']*'" "$diff" | head -1 | sed "s/.*--filter '\(.*\)'/\1/")
  { echo "# git ${VMMCHECK_GIT_SHA:-unknown} + ci/experiments/$name.diff; vmmcheck run --no-power --filter '$filter'"
    timeout 300 "$bin/$name" run --no-power --filter "$filter" --json "$OUT/$name.json"
    echo "# exit $?"; } >"$OUT/$name.txt" 2>&1
  echo "$name: $(tail -2 "$OUT/$name.txt" | tr '\n' ' ')"
done
rm -rf "$bin"
