#!/usr/bin/env bash
# On a GPU machine (docs/litmus.md, "Power"): the litmus rows that prove something. A short run of
# MP.test first (the spin, the controls); the default suite with every assert row's controls; and the
# self-test of the generated rows under the generator's mutants; on request, the litmus rows alone with
# the second round of controls (deep) and a short tune over MP's rows (tune). One file back:
# $OUT/power-gpu.tar.gz.
#   ci/gpu-power.sh VMMCHECK [SELFTEST_FILTER]       (STEPS="mp suite selftest" by default; also: deep tune)
#   STEP_LIMIT=SECONDS stops a step there (its JSON holds every case it finished).
#   The tune step searches TUNE_FILTER (litmus.mp.*), TUNE_TRIALS (6) draws scored per TUNE_PER
#   (gpu-second), confirming the TUNE_CONFIRM (0) best, for at most TUNE_SECONDS (90): with
#   TUNE_FILTER='litmus.lb.2.*' it searches knobs under which that assert row's controls show.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: ci/gpu-power.sh VMMCHECK [SELFTEST_FILTER]}
filter=${2:-litmus.*,alias.rmw.*}
OUT=${OUT:-$PWD/gpu-out}
work=$(mktemp -d)/power-gpu
mkdir -p "$OUT" "$work"
command -v nvdisasm > /dev/null || export PATH="$PATH:$(cd "$(dirname "$bin")" && pwd)/bin"
finish() {
  tar -C "$(dirname "$work")" -czf "$OUT/power-gpu.tar.gz" power-gpu
  cp "$work/steps.txt" "$OUT/steps.txt" 2> /dev/null
}
trap finish EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$work/machine.txt" 2>&1
steps=" ${STEPS:-mp suite selftest} "
step() {  # step NAME COMMAND...: its output in NAME.console, its exit and time in steps.txt
  local name=$1 start=$SECONDS
  shift
  [[ $steps == *" $name "* ]] || return 0
  ${STEP_LIMIT:+timeout "$STEP_LIMIT"} "$@" > "$work/$name.console" 2>&1
  echo "$name: exit $? in $((SECONDS - start)) s" | tee -a "$work/steps.txt"
}
step mp "$bin" run --litmus cases/litmus/MP.test --cases "$PWD/cases" --json "$work/mp.json"
step suite "$bin" run --cases "$PWD/cases" --json "$work/suite.json"
step selftest "$bin" selftest --cases "$PWD/cases" --filter "$filter" --mutant no-proxy-fence --mutant relaxed-acquire \
  --mutant relaxed-release --mutant narrow-scope --json "$work/selftest.json"
step deep "$bin" run --cases "$PWD/cases" --filter 'litmus.*,alias.rmw.*' --deep-power --json "$work/deep.json"
step tune "$bin" tune --cases "$PWD/cases" --filter "${TUNE_FILTER:-litmus.mp.*}" --trials "${TUNE_TRIALS:-6}" \
  --confirm "${TUNE_CONFIRM:-0}" --per "${TUNE_PER:-gpu-second}" --seconds "${TUNE_SECONDS:-90}" --out "$work/tune.params.json"
