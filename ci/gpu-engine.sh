#!/usr/bin/env bash
# The litmus engine's measurements on a GPU machine (docs/litmus.md, "Speed"): the benchmark
# (ci/bench-engine.sh) of the binary BEFORE and of AFTER, one after the other on the same GPU; then
# AFTER's litmus rows at 1e8 instances a row, and at the default 1e7 over 40 launches instead of 4 (is
# it the instances or the placements that bring out rare weak outcomes?). Everything lands in
# $OUT/engine.tar.gz (one file: the device tool brings back only a few); unpack it where the report
# driver runs, compare there, and commit what docs/litmus.md's table reads (ci/results/README.md).
#   ci/gpu-engine.sh BEFORE AFTER
set -uo pipefail
cd "$(dirname "$0")/.."
before=${1:?usage: ci/gpu-engine.sh BEFORE AFTER}
after=${2:?usage: ci/gpu-engine.sh BEFORE AFTER}
OUT=${OUT:-$PWD/gpu-out}
work=$(mktemp -d)
mkdir -p "$OUT" "$work/engine"
ci/bench-engine.sh "$before" "$work/engine/before" --label before
ci/bench-engine.sh "$after" "$work/engine/after" --label after
budget() {  # budget ID ARGS...: AFTER's litmus rows (warm cache) with other budget flags
  local id=$1 start=$SECONDS
  shift
  "$after" run --cases "$PWD/cases" --no-power --filter 'litmus.*,alias.rmw.*' "$@" --json "$work/engine/$id.json" \
    >"$work/engine/$id.console" 2>&1
  echo "$id ($*): exit $? in $((SECONDS - start)) s" | tee -a "$work/engine/budgets.txt"
}
budget litmus-1e8 --instances 100000000
budget litmus-40-launches --iterations 40
tar -C "$work" -czf "$OUT/engine.tar.gz" engine
cp "$work/engine/before/engine.txt" "$OUT/before.txt"
cp "$work/engine/after/engine.txt" "$OUT/after.txt"
rm -rf "$work"
