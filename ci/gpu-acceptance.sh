#!/usr/bin/env bash
# The GPU acceptance checks of the isolation work, in one go, after ci/gpu-session.sh built build-gpu:
#   1. the default suite (JSON kept as the stored result for this GPU/driver)
#   2. planted trap/spin kernels beside real cases: Crash and Timeout, and every other case completes
#   3. a run killed with SIGKILL mid-way, then --resume: the same results as the uninterrupted run
#   4. every GPU ctest (one per case, plus the leak test), with JUnit output
# Writes logs and JSON to $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
vmm=build-gpu/vmmcheck
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}

echo "== 1. default suite"
/usr/bin/time -f "wall %e s" $vmm run --json "$OUT/results.json" >"$OUT/run.log" 2>&1
echo "exit $?"; grep -vE "^\[.*\] PASS" "$OUT/run.log" | tail -5

echo "== 2. planted crash and hang beside real cases"
$vmm run --cases cases --cases tests/planted --filter 'planted.*,access.*,lifecycle.*,alias.memory.same_thread.*' \
  --timeout 5 --json "$OUT/planted.json" >"$OUT/planted.log" 2>&1
echo "exit $? (1 expected: the planted failures)"; grep -vE "^\[.*\] PASS" "$OUT/planted.log" | cut -c1-200

echo "== 3. SIGKILL mid-way, then --resume"
$vmm run --json "$OUT/killed.json" >"$OUT/killed.log" 2>&1 &
pid=$!
sleep "${KILL_AFTER:-5}"
kill -KILL $pid; wait $pid 2>/dev/null
python3 - "$OUT/killed.json" <<'PY'
import json, sys
print("results on disk after SIGKILL:", len(json.load(open(sys.argv[1]))["results"]))
PY
$vmm run --resume "$OUT/killed.json" >"$OUT/resumed.log" 2>&1
echo "resume exit $?; $(grep -c '(resumed)' "$OUT/resumed.log") cases kept from the killed run"
python3 - "$OUT/results.json" "$OUT/killed.json" <<'PY'
import json, sys
load = lambda p: {r["name"]: r["status"] for r in json.load(open(p))["results"]}
whole, resumed = load(sys.argv[1]), load(sys.argv[2])
same = whole == resumed
print(f"uninterrupted {len(whole)} results, resumed {len(resumed)}: same names and statuses: {same}")
if not same:
    print(sorted(set(whole.items()) ^ set(resumed.items()))[:20])
PY

echo "== 4. ctest -L gpu"
ctest --test-dir build-gpu -L gpu -j4 --output-junit "$OUT/ctest-gpu.junit.xml" >"$OUT/ctest-gpu.log" 2>&1
echo "exit $?"; tail -4 "$OUT/ctest-gpu.log"; grep -A3 "NoLeaks" "$OUT/ctest-gpu.log" | head -5
grep -h "free device memory" build-gpu/Testing/Temporary/LastTest.log | head -2
