#!/usr/bin/env bash
# An A/B of `tune --confirm` on one GPU (docs/litmus.md, "Beside cuda-litmus"): the best of many noisy
# measurements overstates the draw it picks, so a search's pick need not hold in the run that uses it. For
# each of cuda-litmus's tests as a litmus file (ci/cuda-litmus/), one search scored per instance with
# --confirm K; then two fresh runs: under the draw the search alone would have kept (the best of its
# trials) and under the draw the confirmation kept. ci/tune_confirm_ab.py writes the table: each pick's
# score in the search, measured again, and in the fresh run, and on how many tests the confirmed pick ran
# at least as strong.
#   ci/gpu-tune-confirm.sh VMMCHECK OUTDIR [--trials N] [--confirm K] [--seconds S] [--tests "mp iriw ..."]
# Writes OUTDIR/params/<test>.json (tune's file), OUTDIR/params/<test>.search.json (the search's pick),
# OUTDIR/runs/<test>.{search,confirmed}.json, OUTDIR/logs/*, and OUTDIR/tune-confirm-ab.{json,md}.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "gpu-tune-confirm: $*" >&2; exit 2; }
vmm=${1:-} out=${2:-}
[ -n "$vmm" ] && [ -n "$out" ] || die "usage: ci/gpu-tune-confirm.sh VMMCHECK OUTDIR [--trials N] [--confirm K] [--seconds S] [--tests \"...\"]"
shift 2
trials=24 confirm=4 seconds=30
tests="mp iriw isa2 rwc wrc 2+2w 3.2w wrw+2w wwc z6-1 z6-3 paper-example1 paper-example2"
while [ $# -gt 0 ]; do
  case "$1" in
    --trials) trials=${2:?}; shift 2 ;;
    --confirm) confirm=${2:?}; shift 2 ;;
    --seconds) seconds=${2:?}; shift 2 ;;
    --tests) tests=${2:?}; shift 2 ;;
    *) die "unknown argument '$1' (see the head of $0)" ;;
  esac
done
[ -x "$vmm" ] || die "$vmm: not an executable"
[[ "$trials" =~ ^[1-9][0-9]*$ && "$confirm" =~ ^[1-9][0-9]*$ && "$seconds" =~ ^[1-9][0-9]*$ ]] ||
  die "--trials, --confirm and --seconds: positive integers"
mkdir -p "$out/params" "$out/runs" "$out/logs" || die "cannot write $out"
export VMMCHECK_CASES=$here/../cases
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$out/logs/gpu.txt" 2>&1 || true
"$vmm" --version >"$out/logs/vmmcheck.version" 2>&1 || true

done_tests="" n=0
for t in $tests; do
  file="$here/cuda-litmus/${t//./_}.test"  # 3.2w: a file name has no dot but its extension's
  [ -f "$file" ] || die "no litmus file for $t ($file)"
  echo "== $t"
  timeout -k 10 $((seconds + 120)) "$vmm" tune --litmus "$file" --per instance --trials "$trials" --confirm "$confirm" \
    --seconds "$seconds" --out "$out/params/$t.json" >"$out/logs/$t.tune.txt" 2>&1 || echo "   $t: tune exit $?"
  done_tests="$done_tests $t"
  if python3 "$here/tune_confirm_ab.py" search-pick --tune "$out/params/$t.json" --write "$out/params/$t.search.json"; then
    # The two fresh runs, in turns: a GPU warmed by the first run must not favour one arm.
    arms="search confirmed"
    [ $((n % 2)) -eq 0 ] || arms="confirmed search"
    for arm in $arms; do
      params="$out/params/$t.json"
      [ "$arm" = confirmed ] || params="$out/params/$t.search.json"
      timeout -k 10 180 "$vmm" run --litmus "$file" --no-power --stress-params "$params" \
        --json "$out/runs/$t.$arm.json" >"$out/logs/$t.$arm.txt" 2>&1 || echo "   $t $arm: run exit $?"
    done
  fi
  n=$((n + 1))
  # The table of the tests so far, after each: a call cut short keeps what it finished.
  python3 "$here/tune_confirm_ab.py" report --out "$out" --tests "$done_tests" >/dev/null
done
python3 "$here/tune_confirm_ab.py" report --out "$out" --tests "$done_tests"
