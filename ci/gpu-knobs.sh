#!/usr/bin/env bash
# How each way of building a generated kernel bears on its power, measured on one GPU (docs/litmus.md,
# "How a generated kernel is built"): the shipped litmus rows and cuda-litmus's tests as litmus files
# (ci/cuda-litmus/) under each knob setting of run/records/stress_params.hpp that changes the kernel,
# and the stress knobs on top of the default (the hand-written in-kernel families it once ran beside
# them are all litmus rows now). Everything lands in $OUT/knobs.tar.gz (the device tool brings back only a few files);
# ci/knobs_table.py turns it into the table docs/litmus.md shows.
#   ci/gpu-knobs.sh VMMCHECK [VARIANT...]     (default: every variant below)
set -uo pipefail
cd "$(dirname "$0")/.."
vmm=${1:?usage: ci/gpu-knobs.sh VMMCHECK [VARIANT...]}
shift
OUT=${OUT:-$PWD/gpu-out}
work=$(mktemp -d)
mkdir -p "$OUT" "$work/knobs"
export VMMCHECK_CASES=$PWD/cases

# name: the kernel knobs (all_roles, warm_loads, reuse_words), then stress knobs.
declare -A variants=(
  [one-role]='"all_roles": false, "warm_loads": "weak", "reuse_words": false'
  [all-roles]='"all_roles": true, "warm_loads": "weak", "reuse_words": false'
  [all-roles+warm-all]='"all_roles": true, "warm_loads": "all", "reuse_words": false'
  [all-roles+reuse]='"all_roles": true, "warm_loads": "none", "reuse_words": true'
  [default]='"all_roles": true, "warm_loads": "all", "reuse_words": true'
  [one-role+reuse]='"all_roles": false, "warm_loads": "all", "reuse_words": true'
  [default+barrier]='"all_roles": true, "warm_loads": "all", "reuse_words": true, "barrier": true'
  [default+pre-stress]='"all_roles": true, "warm_loads": "all", "reuse_words": true, "pre_accesses": 8'
  [default+stress-ctas]='"all_roles": true, "warm_loads": "all", "reuse_words": true, "stress_blocks_percent": 25, "stress_accesses": 16'
  [default+no-shuffle]='"all_roles": true, "warm_loads": "all", "reuse_words": true, "shuffle": false'
  [grid-barrier]='"grid_barrier": true'
  [grid-barrier+pre-stress]='"grid_barrier": true, "pre_accesses": 8'
  [grid-barrier+one-role]='"grid_barrier": true, "all_roles": false'
  [grid-barrier+stress-ctas]='"grid_barrier": true, "stress_blocks_percent": 25, "stress_accesses": 16'
  [grid-barrier+cta-barrier]='"grid_barrier": true, "barrier": true'
  [grid-barrier+64-threads]='"grid_barrier": true, "threads_per_block": 64'
  [warm-none]='"warm_loads": "none"'
  [64-threads]='"threads_per_block": 64'
  [ctas-8]='"row_ctas_per_sm": 8'
  [ctas-16+t32]='"row_ctas_per_sm": 16, "row_threads_per_block": 32'
  [ctas-16+t22]='"row_ctas_per_sm": 16, "row_threads_per_block": 22'
  [ctas-8+t64]='"row_ctas_per_sm": 8, "row_threads_per_block": 64'
  [ctas-16+t32+grid-barrier]='"row_ctas_per_sm": 16, "row_threads_per_block": 32, "grid_barrier": true'
  [ctas-16+t32+one-role]='"row_ctas_per_sm": 16, "row_threads_per_block": 32, "all_roles": false'
  [ctas-16+t32+stress-ctas]='"row_ctas_per_sm": 16, "row_threads_per_block": 32, "stress_blocks_percent": 25, "stress_accesses": 16'
  [ctas-16+t32+pre-stress]='"row_ctas_per_sm": 16, "row_threads_per_block": 32, "pre_accesses": 8'
  [contiguous]='"row_word_order": "contiguous"'
  [contiguous+ctas-8]='"row_word_order": "contiguous", "row_ctas_per_sm": 8'
  [permuted]='"row_word_order": "permuted"'
  [contiguous+t1024]='"row_word_order": "contiguous", "row_threads_per_block": 1024'
)
order=(default one-role all-roles all-roles+warm-all all-roles+reuse one-role+reuse default+barrier default+pre-stress
       default+stress-ctas default+no-shuffle)
[ $# -gt 0 ] && order=("$@")
# Each step is bounded (a kernel whose spins all wait out their bound would take minutes), and the
# tarball is rewritten after each, so a call cut short still brings back what ran.
step_seconds=${KNOBS_STEP_SECONDS:-150}
pack() { tar -C "$work" -czf "$OUT/knobs.tar.gz" knobs; cp "$work/knobs/steps.txt" "$OUT/steps.txt"; }

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$work/knobs/gpu.txt" 2>&1
"$vmm" --version >"$work/knobs/version.txt" 2>&1
for v in "${order[@]}"; do
  [ -n "${variants[$v]:-}" ] || { echo "gpu-knobs: no variant '$v'" >&2; exit 2; }
  printf '{"schema": "vmmcheck-stress-params/1", "params": {%s}}\n' "${variants[$v]}" >"$work/knobs/$v.params.json"
  start=$SECONDS
  read -r -a paths <<<"${KNOBS_LITMUS:-cases/litmus ci/cuda-litmus}"
  litmus_args=()
  for p in "${paths[@]}"; do litmus_args+=(--litmus "$p"); done
  timeout -k 10 "$step_seconds" "$vmm" run "${litmus_args[@]}" \
    --stress-params "$work/knobs/$v.params.json" --json "$work/knobs/$v.json" >"$work/knobs/$v.console" 2>&1
  echo "$v: exit $? in $((SECONDS - start)) s" | tee -a "$work/knobs/steps.txt"
  pack
done
rm -rf "$work"
