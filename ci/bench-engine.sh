#!/usr/bin/env bash
# The litmus engine's benchmark (docs/litmus.md, "Speed"): the shipped litmus rows with a cold NVRTC
# cache, then again warm, then (unless --no-suite) the default suite with power from a cold cache; each
# run's results file and console under OUTDIR, and OUTDIR/engine.txt + engine.json from
# ci/bench_engine.py (wall, summed compile, summed GPU, summed host time, instances per second).
#   ci/bench-engine.sh VMMCHECK OUTDIR [--no-suite] [--label TEXT] [-- EXTRA RUN ARGS...]
# A benchmark, not a test: it asserts nothing about time. Run it on the GPU machine (the device tool):
#   OUT=$OUT ci/bench-engine.sh .gpu/vmmcheck $OUT/after --label after
set -uo pipefail
cd "$(dirname "$0")/.."
vmmcheck=${1:?usage: ci/bench-engine.sh VMMCHECK OUTDIR [--no-suite] [--label TEXT] [-- ARGS...]}
out=${2:?usage: ci/bench-engine.sh VMMCHECK OUTDIR [--no-suite] [--label TEXT] [-- ARGS...]}
shift 2
suite=1
label=$(basename "$out")
extra=()
while [ $# -gt 0 ]; do
  case $1 in
    --no-suite) suite=0 ;;
    --label) label=$2; shift ;;
    --) shift; extra=("$@"); break ;;
    *) echo "ci/bench-engine.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$out"
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}  # the multicast gate refuses on shared hosts
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
"$vmmcheck" --version >"$out/version.txt" 2>&1 || true
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$out/gpu.txt" 2>/dev/null || true
timed() {  # timed ID CACHE ARGS...: one vmmcheck run, its wall time in ID.wall
  local id=$1 dir=$2
  shift 2
  local start end
  start=$(date +%s.%N)
  VMMCHECK_NVRTC_CACHE=$dir "$vmmcheck" "$@" >"$out/$id.console" 2>&1
  echo $? >"$out/$id.rc"
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $start:.3f}')" >"$out/$id.wall"
  echo "$id: exit $(cat "$out/$id.rc") in $(cat "$out/$id.wall") s"
}
rows=(run --cases "$PWD/cases" --no-power --filter 'litmus.*,alias.rmw.*' "${extra[@]}")
timed litmus-cold "$cache/litmus" "${rows[@]}" --json "$out/litmus-cold.json"
timed litmus-warm "$cache/litmus" "${rows[@]}" --json "$out/litmus-warm.json"
if [ "$suite" = 1 ]; then
  timed suite-cold "$cache/suite" run --cases "$PWD/cases" "${extra[@]}" --json "$out/suite-cold.json"
fi
python3 ci/bench_engine.py report "$out" --label "$label"
