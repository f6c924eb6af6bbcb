#!/usr/bin/env bash
# The GPU checks of detection power, after ci/gpu-session.sh built build-gpu (docs/design.md, "Power",
# "Stress", "Mutation self-test"). Writes logs and JSON to $OUT:
#   tune      `vmmcheck tune` on the controls of the in-kernel cases -> stress-params.json
#   tune-racy `vmmcheck tune` on the racy message-passing shape of the bench -> racy-params.json
#   run       the default suite with power (results.json), then the in-kernel families with the tuned
#             stress (stressed.json)
#   selftest  the mutation self-test (selftest.json, selftest.log)
#   bench     ci/bench-litmus.sh against a cuda-litmus checkout (LITMUS_DIR, default .bench/cuda-litmus)
#             with the racy-shape params (RACY_PARAMS) -> bench/
#   ctest     every GPU ctest test (the cases, the leak test, selftest.mutants), JUnit output
# STAGES picks some (default: tune run selftest); TUNE_TRIALS and TUNE_SECONDS bound the search.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
vmm=${VMMCHECK:-build-gpu/vmmcheck}
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}  # the multicast gate refuses on shared hosts
stages=${STAGES:-tune run selftest}
params=${STRESS_PARAMS:-$OUT/stress-params.json}
racy=${RACY_PARAMS:-$OUT/racy-params.json}

for stage in $stages; do
  start=$(date +%s.%N)
  case $stage in
    tune)
      $vmm tune --trials "${TUNE_TRIALS:-24}" --seconds "${TUNE_SECONDS:-240}" --out "$params" >"$OUT/tune.log" 2>&1
      echo "tune exit $?"; tail -2 "$OUT/tune.log" ;;
    tune-racy)
      $vmm tune --filter alias.mp.same.flagsame.nofence.cta --trials "${TUNE_TRIALS:-100}" --seconds "${TUNE_SECONDS:-150}" \
        --out "$racy" >"$OUT/tune-racy.log" 2>&1
      echo "tune-racy exit $?"; tail -1 "$OUT/tune-racy.log" ;;
    run)
      /usr/bin/time -f "wall %e s" $vmm run --json "$OUT/results.json" >"$OUT/run.log" 2>&1
      echo "run exit $?"; grep -vE "^\[.*\] PASS" "$OUT/run.log" | tail -8
      if [ -f "$params" ]; then
        $vmm run --filter 'alias.same_thread.*,alias.mp.*,alias.mp_cta.*' --stress-params "$params" \
          --json "$OUT/stressed.json" >"$OUT/stressed.log" 2>&1
        echo "stressed run exit $?"; grep -vE "^\[.*\] PASS" "$OUT/stressed.log" | tail -6
      fi ;;
    selftest)
      $vmm selftest --verbose --json "$OUT/selftest.json" >"$OUT/selftest.log" 2>&1
      echo "selftest exit $?"; grep -E "^(caught|NOT)|mutants caught|as built" "$OUT/selftest.log" ;;
    bench)
      bash ci/bench-litmus.sh --litmus "${LITMUS_DIR:-.bench/cuda-litmus}" --vmmcheck "$vmm" --out "$OUT/bench" \
        --stress-params "$racy" >"$OUT/bench.log" 2>&1
      echo "bench exit $?"; grep -E "^ratio|^plain" "$OUT/bench/bench-litmus.txt" ;;
    ctest)
      ctest --test-dir build-gpu -L gpu -j4 --output-junit "$OUT/ctest-gpu.junit.xml" >"$OUT/ctest-gpu.log" 2>&1
      echo "ctest exit $?"; tail -4 "$OUT/ctest-gpu.log" ;;
    *) echo "unknown stage $stage"; exit 2 ;;
  esac
  echo "  ($stage: $(python3 -c "import sys; print(round($(date +%s.%N) - $start, 1))") s wall)"
done
