#!/usr/bin/env bash
# The GPU evidence of issues 44 and 45 in one call, each step bounded and packed as it ends (a call cut
# short still brings back what ran): the default suite cold (the reference run: ci/results/README.md),
# the mutation self-test, how the spin bound bears on the spinning rows, and the side-by-side with cuda-litmus (ci/bench-cuda-litmus.sh); on request,
# the A/B of `tune --confirm` (confirm) and a search for knobs under which the rows that proved nothing in
# the reference run do (tune-power: TUNE_POWER_FILTER, by default ci/weak_rows.py's list); and every
# variant cuda-litmus published, as litmus rows (variants: ci/cuda_litmus_variants.py; then, here,
# `ci/cuda_litmus_variants.py check --gpu-results variants.json` puts what each showed in the table); and
# the A/B of distinct_addresses over the files whose kernels it changes (distinct); and the committed
# side-by-side again with vmmcheck searched again per instance, confirming its best draws (bench-retune); and
# a search of one test's variants' own (variants-tune).
#   ci/gpu-wave.sh VMMCHECK CUDA_LITMUS_DIR [STEP...]   (steps: suite selftest bench spin confirm tune-power
#                                                       variants variants-tune distinct bench-retune; default the first four)
set -uo pipefail
cd "$(dirname "$0")/.."
vmm=${1:?usage: ci/gpu-wave.sh VMMCHECK CUDA_LITMUS_DIR [STEP...]}
litmus=${2:?usage: ci/gpu-wave.sh VMMCHECK CUDA_LITMUS_DIR [STEP...]}
shift 2
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(suite selftest bench spin)
OUT=${OUT:-$PWD/gpu-out}
work=$(mktemp -d)
mkdir -p "$OUT" "$work/wave"
export VMMCHECK_CASES=$PWD/cases NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}
# A cold NVRTC cache of the run's own, so that "cold" means it.
export XDG_CACHE_HOME=$work/cache
pack() { tar -C "$work" -czf "$OUT/wave.tar.gz" wave; cp "$work/wave/steps.txt" "$OUT/steps.txt" 2>/dev/null || true; }
step() {  # step NAME SECONDS CMD...: timed and bounded, its output in wave/NAME.console
  local name=$1 limit=$2 start=$SECONDS rc=0
  shift 2
  timeout -k 10 "$limit" "$@" >"$work/wave/$name.console" 2>&1 || rc=$?
  echo "$name: exit $rc in $((SECONDS - start)) s" | tee -a "$work/wave/steps.txt"
  pack
}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$work/wave/gpu.txt" 2>&1
"$vmm" --version >"$work/wave/version.txt" 2>&1
for s in "${steps[@]}"; do
  case "$s" in
    suite) step suite "${SUITE_SECONDS:-200}" "$vmm" run --json "$work/wave/suite.json"
      # Its permit rows by kind (docs/litmus.md, "Power"), from the rows' own tests: what a reference run commits beside it.
      "$vmm" list --json >"$work/wave/list.json" 2>>"$work/wave/steps.txt" &&
        python3 ci/permit_kinds.py "$work/wave/suite.json" "$work/wave/list.json" --write "$work/wave/permit-kinds.json" \
          2>>"$work/wave/steps.txt"
      rm -f "$work/wave/list.json"; pack ;;
    selftest) step selftest "${SELFTEST_SECONDS:-200}" "$vmm" selftest --json "$work/wave/selftest.json" ;;
    spin)
      for us in ${SPIN_US:-20000 1000}; do
        printf '{"params": {"row_spin_timeout_us": %s}}\n' "$us" >"$work/wave/spin-$us.params.json"
        step "spin-$us" 90 "$vmm" run --litmus cases/litmus/MP.test --litmus cases/litmus/alias_mp.test \
          --litmus cases/litmus/alias_mp_cta.test --litmus cases/litmus/WRC.test --no-power \
          --stress-params "$work/wave/spin-$us.params.json" --json "$work/wave/spin-$us.json"
      done ;;
    bench)
      step bench "${BENCH_SECONDS:-300}" ci/bench-cuda-litmus.sh --litmus "$litmus" --vmmcheck "$vmm" --out "$work/wave/bench" \
        --draws "${BENCH_DRAWS:-4}"
      rm -rf "$work/wave/bench/build"; pack ;;
    bench-retune)  # the committed side-by-side (docs/litmus.md, "Beside cuda-litmus") again: cuda-litmus's searches
      # and vmmcheck's per GPU second taken from it, vmmcheck's per instance run again with --confirm, drawing the
      # table's picks first (--start-earlier) and any BENCH_STARTS ("TEST=PARAMS.json ...": picks found elsewhere).
      # All thirteen took 284 s in one call at ee2d206; BENCH_TESTS runs some (`ci/bench_cuda_litmus.py merge`
      # joins two calls' reports).
      # (BENCH_STARTS's paths are from the repository's root, where this script runs.)
      extra=()
      read -ra starts <<<"${BENCH_STARTS:-}"
      for s in ${starts[@]+"${starts[@]}"}; do extra+=(--start "$s"); done
      step bench-retune "${BENCH_SECONDS:-560}" ci/bench-cuda-litmus.sh --litmus "$litmus" --vmmcheck "$vmm" \
        --out "$work/wave/bench-retune" --params-from ci/results/cuda-litmus/nvidia-h200_driver-580.159.04.json \
        --retune --keep-speed --start-earlier ${extra[@]+"${extra[@]}"} --confirm "${BENCH_CONFIRM:-4}" --long 10000:10000000000 \
        --tests "${BENCH_TESTS:-wrw+2w isa2 paper-example1 mp iriw rwc wrc 2+2w 3.2w wwc z6-1 z6-3 paper-example2}"
      rm -rf "$work/wave/bench-retune/build"; pack ;;
    confirm)  # the A/B of tune --confirm over cuda-litmus's tests (ci/gpu-tune-confirm.sh)
      # About 30 s a test at these settings: the table is written after each, so a step cut short keeps
      # the tests it finished.
      step confirm "${CONFIRM_SECONDS:-540}" ci/gpu-tune-confirm.sh "$vmm" "$work/wave/confirm" --trials "${CONFIRM_TRIALS:-24}" \
        --confirm "${CONFIRM_K:-4}" --seconds "${CONFIRM_TUNE_SECONDS:-15}" ;;
    tune-power)  # knobs under which the rows that proved nothing in the reference run do (docs/litmus.md, "Power"):
      # its assert rows no control showed and its permit rows whose weak outcome did not show (ci/weak_rows.py),
      # a search per file (--each: written after every trial, as per-file knobs stress-params.json can take).
      filter=${TUNE_POWER_FILTER:-$(python3 ci/weak_rows.py ci/results/nvidia-h200_driver-580.159.04.json)}
      # An empty filter would tune every row of every file: say so and skip the step instead.
      [ -n "$filter" ] || { echo "tune-power: no rows to tune (ci/weak_rows.py gave none)" | tee -a "$work/wave/steps.txt"; continue; }
      step tune-power "${TUNE_POWER_SECONDS:-570}" "$vmm" tune --each --filter "$filter" --per instance \
        --trials "${TUNE_POWER_TRIALS:-16}" --confirm 3 --seconds "${TUNE_POWER_FILE_SECONDS:-25}" \
        --out "$work/wave/tune-power.params.json" ;;
    variants)  # 1,306 rows (docs/litmus.md, "Every variant cuda-litmus published"), each test's rows under the
      # knobs vmmcheck's search chose per GPU second for its default build (the cuda-litmus side-by-side's), at
      # 1e9 instances a row: about what cuda-litmus's H100 campaign ran each (95 iterations of about 1e7).
      # Every row asks (permit): no assert row's controls for --no-power to leave out. The JSON is rewritten
      # after each row, so a step cut short keeps the rows it finished.
      python3 ci/cuda_litmus_variants.py generate "$work/variants" 2>>"$work/wave/steps.txt"
      python3 ci/cuda_litmus_variants.py params --bench ci/results/cuda-litmus/nvidia-h200_driver-580.159.04.json \
        "$work/wave/variants.params.json" 2>>"$work/wave/steps.txt"
      # VARIANTS_TESTS (iriw isa2 ...: the files' stems without _variants) runs some of them: a call cut short keeps
      # the rows it finished, the later files none, so a campaign of more rows than a call has time for goes in parts.
      variants=("$work/variants")
      if [ -n "${VARIANTS_TESTS:-}" ]; then
        variants=()
        for t in $VARIANTS_TESTS; do variants+=("$work/variants/${t}_variants.test"); done
      fi
      step variants "${VARIANTS_SECONDS:-540}" "$vmm" run "${variants[@]/#/--litmus=}" --no-power \
        --stress-params "$work/wave/variants.params.json" --instances "${VARIANTS_INSTANCES:-1000000000}" \
        --json "$work/wave/variants.json" ;;
    variants-tune)  # does a search of its own close a test's variants' gap to cuda-litmus's H100 (docs/litmus.md,
      # "Every variant cuda-litmus published")? For each of VARIANTS_TUNE_TESTS (default wrc): tune its generated
      # file per instance, starting from the knobs the variants step gives it, then run its rows as that step
      # does under what the search kept. `ci/cuda_litmus_variants.py check --gpu-results` of both runs compares.
      python3 ci/cuda_litmus_variants.py generate "$work/variants" 2>>"$work/wave/steps.txt"
      for t in ${VARIANTS_TUNE_TESTS:-wrc}; do
        python3 ci/cuda_litmus_variants.py params --bench ci/results/cuda-litmus/nvidia-h200_driver-580.159.04.json \
          --test "$t" "$work/wave/$t.start.json" 2>>"$work/wave/steps.txt"
        step "variants-tune-$t" "${VARIANTS_TUNE_SECONDS:-330}" "$vmm" tune --litmus "$work/variants/${t}_variants.test" \
          --per instance --trials "${VARIANTS_TUNE_TRIALS:-16}" --seconds "${VARIANTS_TUNE_SEARCH_SECONDS:-240}" \
          --start "$work/wave/$t.start.json" --out "$work/wave/$t.tuned.params.json"
        step "variants-tuned-$t" "${VARIANTS_TUNED_SECONDS:-150}" "$vmm" run --litmus "$work/variants/${t}_variants.test" \
          --no-power --stress-params "$work/wave/$t.tuned.params.json" --instances "${VARIANTS_INSTANCES:-1000000000}" \
          --json "$work/wave/$t.tuned.json"
      done ;;
    distinct)  # the A/B of distinct_addresses (docs/toolchain.md): the files whose rows it changes, under the
      # shipped row knobs with it off, then as shipped (on), each with its controls
      files=(--litmus cases/litmus/CoRR.test --litmus cases/litmus/CoWW.test --litmus cases/litmus/alias_same_thread.test
             --litmus cases/litmus/alias_memory_same_thread.test --litmus cases/litmus/surface_same_thread.test)
      # (run --litmus FILE reads no folder's stress-params.json: both arms name the shipped one, the knob apart)
      python3 - "$work/wave" <<'PY'
import json, sys
for arm, on in (("off", False), ("on", True)):
    doc = json.load(open("cases/litmus/stress-params.json"))
    doc["params"] = {**doc.get("params", {}), "distinct_addresses": on}
    for entry in doc["rows"]:
        entry["params"] = {**entry["params"], "distinct_addresses": on}
    json.dump(doc, open(f"{sys.argv[1]}/distinct-{arm}.params.json", "w"), indent=1)
PY
      for arm in off on; do
        step "distinct-$arm" "${DISTINCT_SECONDS:-150}" "$vmm" run "${files[@]}" \
          --stress-params "$work/wave/distinct-$arm.params.json" --json "$work/wave/distinct-$arm.json"
      done ;;
    *) echo "gpu-wave: no step '$s'" >&2 ;;
  esac
done
rm -rf "$work"
