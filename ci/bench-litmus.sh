#!/usr/bin/env bash
# Side-by-side benchmark: vmmcheck against reeselevine/cuda-litmus on racy message passing, on one GPU.
#
#   ci/bench-litmus.sh --litmus DIR --vmmcheck PATH/TO/vmmcheck --out OUTDIR \
#                      [--stress-params FILE] [--litmus-params FILE] [--arch sm_90]
#
# DIR is a checkout of cuda-litmus (not a build dependency of vmmcheck; we keep one in .bench/, which
# git ignores). The shape is MP with writer and reader in different CTAs and a cta-scope release/acquire
# on the flag: a data race under the PTX model, so stale data after seeing the flag is allowed.
#   cuda-litmus: kernels/mp.cu built with -DTB_0_1 -DSCOPE_BLOCK. mp.cu always pairs thread t of testing
#                workgroup w with thread t of workgroup w+1; SCOPE_BLOCK makes its atomics
#                cuda::atomic<uint, thread_scope_block>: st.relaxed.cta x; st.release.cta y ||
#                ld.acquire.cta y; ld.relaxed.cta x. Weak: r0=1, r1=0.
#   vmmcheck:    alias.mp.same.flagsame.nofence.cta (weak data store, st.release.cta flag || bounded spin
#                on ld.acquire.cta flag in another CTA, weak data load), a litmus row of
#                cases/litmus/alias_mp.test: weak, its permitted outcome (r1 == 1, r2 != 1).
# Plus vmmcheck's plain (gpu-scope, race-free) MP for instance throughput.
#
# cuda-litmus variants:
#   default  params/stress_params.txt as shipped. Its runner has no built-in defaults (-s and -t are
#            mandatory) and this is the only stress configuration the repository ships (10 iterations).
#   tuned    --litmus-params FILE if given; else results/mp-TB_0_1-SCOPE_BLOCK-NO_FENCE-DEFAULT/params.txt
#            in DIR, where its tune.sh / tune-specific.sh keep the best configuration found for this
#            test (results/ is gitignored upstream, so it exists only where someone tuned); else the
#            shipped stress_params.txt run for 1000 iterations, the count every tuning run of tune.sh
#            uses (the shipped file is itself a tune.sh-style random-search result; no per-test tuned
#            file is shipped). The output says which one ran.
# Each variant runs twice: the stock runner (its own output, and the process wall time), and a copy of
# runner.cu with CUDA events around its two kernels, because the stock runner reports no GPU time
# (only a host chrono around its whole iteration loop) and checks no CUDA call.
#
# Writes OUTDIR/build (binaries), OUTDIR/logs (every run's command, stdout, stderr, exit status, start
# and end), OUTDIR/vmmcheck-{default,stress,plain}.json, OUTDIR/bench-litmus.txt and .json.
# Exit status: 0 when every run worked and its numbers hold together, 1 when the report lists problems,
# 2 on bad arguments or a missing file.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
helper="$here/bench_litmus.py"

usage() { sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "bench-litmus: $*" >&2; exit 2; }

litmus="" vmm="" out="" stress_params="" litmus_params="" arch="sm_90"
while [ $# -gt 0 ]; do
  case "$1" in
    --litmus) litmus=${2:?--litmus needs DIR}; shift 2 ;;
    --vmmcheck) vmm=${2:?--vmmcheck needs a path}; shift 2 ;;
    --out) out=${2:?--out needs OUTDIR}; shift 2 ;;
    --stress-params) stress_params=${2:?--stress-params needs FILE}; shift 2 ;;
    --litmus-params) litmus_params=${2:?--litmus-params needs FILE}; shift 2 ;;
    --arch) arch=${2:?--arch needs sm_XX}; shift 2 ;;
    -h|--help) usage ;;
    *) echo "bench-litmus: unknown argument '$1'" >&2; usage ;;
  esac
done
if [ -z "$litmus" ] || [ -z "$vmm" ] || [ -z "$out" ]; then usage; fi

abspath() { (cd "$(dirname "$1")" && printf '%s/%s\n' "$(pwd)" "$(basename "$1")"); }

# --- inputs --------------------------------------------------------------------------------------
[ -d "$litmus" ] || die "--litmus $litmus: no such directory"
litmus=$(cd "$litmus" && pwd)
# The files the build and the runs need, and the output lines the parser reads: a different fork or
# a rewritten runner fails here, not as a puzzling parse error after the GPU time is spent.
for f in runner.cu litmus.cuh functions.cu kernels/mp.cu params/stress_params.txt params/2-loc.txt; do
  [ -f "$litmus/$f" ] || die "$litmus is not a cuda-litmus checkout: $f is missing (want reeselevine/cuda-litmus)"
done
for s in 'Time taken: ' 'Total behaviors: ' 'Number of weak behaviors: ' 'getopt(argc, argv, "xs:t:")'; do
  grep -qF "$s" "$litmus/runner.cu" || die "$litmus/runner.cu has no '$s': not the runner this script parses"
done
grep -q 'thread_scope_block' "$litmus/litmus.cuh" || die "$litmus/litmus.cuh has no SCOPE_BLOCK atomic type"
grep -q 'stripe_workgroup' "$litmus/kernels/mp.cu" || die "$litmus/kernels/mp.cu does not pair threads across workgroups"

[ -x "$vmm" ] || die "--vmmcheck $vmm: not an executable"
vmm=$(abspath "$vmm")
if [ -n "$stress_params" ]; then
  [ -f "$stress_params" ] || die "--stress-params $stress_params: no such file"
  stress_params=$(abspath "$stress_params")
fi
if [ -n "$litmus_params" ]; then
  [ -f "$litmus_params" ] || die "--litmus-params $litmus_params: no such file"
  litmus_params=$(abspath "$litmus_params")
fi

nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || die "nvcc not found (put it in PATH or set NVCC)"
command -v python3 >/dev/null || die "python3 not found"

mkdir -p "$out/build" "$out/logs"
out=$(cd "$out" && pwd)
rm -f "$out"/logs/* "$out"/vmmcheck-*.json "$out"/bench-litmus.txt "$out"/bench-litmus.json

# The cuda-litmus commit. Only DIR's own repository counts: without DIR/.git, git would walk up to
# the vmmcheck repository around .bench/ and name its commit. safe.directory: the copy may belong to
# another user on the GPU machine. Without git, HEAD is read by hand.
commit=unknown
if [ -e "$litmus/.git" ]; then
  g=(git -c safe.directory="$litmus" -C "$litmus")
  if top=$("${g[@]}" rev-parse --show-toplevel 2>/dev/null) && [ "$(cd "$top" && pwd)" = "$litmus" ]; then
    commit=$("${g[@]}" rev-parse HEAD 2>/dev/null || echo unknown)
    [ -z "$("${g[@]}" status --porcelain --untracked-files=no 2>/dev/null)" ] || commit="$commit (modified)"
  elif [ -f "$litmus/.git/HEAD" ]; then
    head=$(cat "$litmus/.git/HEAD")
    case "$head" in
      ref:*) ref=${head#ref: }
             commit=$(cat "$litmus/.git/$ref" 2>/dev/null ||
                      awk -v r="$ref" '$2 == r {print $1}' "$litmus/.git/packed-refs" 2>/dev/null || true)
             commit=${commit:-unknown} ;;
      *) commit=$head ;;
    esac
  fi
fi
gpu_name="" gpu_driver=""
if command -v nvidia-smi >/dev/null; then
  smi=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1 || true)
  gpu_name=$(printf '%s' "$smi" | cut -d, -f1 | sed 's/^ *//;s/ *$//')
  gpu_driver=$(printf '%s' "$smi" | cut -d, -f2 | sed 's/^ *//;s/ *$//')
fi
nvcc_version=$("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p' | head -1)

# --- cuda-litmus params ----------------------------------------------------------------------------
test_params="$litmus/params/2-loc.txt"  # numMemLocations=2 (x, y), permuteLocation=1031
default_params="$litmus/params/stress_params.txt"
default_source="shipped params/stress_params.txt, as is"
tuned_result="$litmus/results/mp-TB_0_1-SCOPE_BLOCK-NO_FENCE-DEFAULT/params.txt"
if [ -n "$litmus_params" ]; then
  tuned_params=$litmus_params
  tuned_source="--litmus-params"
elif [ -f "$tuned_result" ]; then
  tuned_params=$tuned_result
  tuned_source="cuda-litmus's own tuning result for mp-TB_0_1-SCOPE_BLOCK (results/, written by tune.sh)"
else
  tuned_params="$out/build/stress_params-1000.txt"
  python3 "$helper" params "$default_params" --set testIterations=1000 --write "$tuned_params" >/dev/null
  tuned_source="no per-test tuned file shipped: shipped params/stress_params.txt at tune.sh's testIterations=1000"
fi
# Refuses files the runner would read uninitialised fields from, or whose counts overflow its ints.
for p in "$default_params" "$tuned_params"; do
  python3 "$helper" params "$p" >/dev/null || die "$p: unusable cuda-litmus stress params (see above)"
done

# --- build (nvcc directly, DIR untouched) -----------------------------------------------------------
# As its tune.sh builds a test: runner.cu + kernels/<test>.cu (which #includes functions.cu itself),
# -rdc=true because runner.cu launches litmus_test/check_results defined in mp.cu. -I DIR for
# litmus.cuh, so the GPU-timed copy of runner.cu can live in OUTDIR/build.
defines=(-DTB_0_1 -DSCOPE_BLOCK)
runner="$out/build/mp-TB_0_1-SCOPE_BLOCK-runner"
runner_events="$out/build/mp-TB_0_1-SCOPE_BLOCK-events-runner"
build_cmd=("$nvcc" "${defines[@]}" -I"$litmus" -rdc=true -arch="$arch" "$litmus/runner.cu" "$litmus/kernels/mp.cu" -o "$runner")
echo "== build cuda-litmus mp (${defines[*]}, $arch)"
"${build_cmd[@]}" >"$out/logs/build.log" 2>&1 || { cat "$out/logs/build.log" >&2; die "nvcc failed on cuda-litmus mp"; }
python3 "$helper" instrument "$litmus/runner.cu" "$out/build/runner-events.cu"
"$nvcc" "${defines[@]}" -I"$litmus" -rdc=true -arch="$arch" "$out/build/runner-events.cu" "$litmus/kernels/mp.cu" \
  -o "$runner_events" >>"$out/logs/build.log" 2>&1 || { cat "$out/logs/build.log" >&2; die "nvcc failed on the GPU-timed runner"; }

# --- runs ------------------------------------------------------------------------------------------
# run ID CMD...: stdout/stderr/exit status/command to OUTDIR/logs/ID.*, and date +%s.%N just before
# and after (the process's wall time). A failing run does not stop the others: the report lists it.
# Each run is killed after BENCH_TIMEOUT seconds (default 300; exit status 124), so a hung kernel
# costs minutes of GPU time, not the whole session.
bench_timeout=${BENCH_TIMEOUT:-300}
run() {
  local id=$1; shift
  printf '%q ' "$@" >"$out/logs/$id.cmd"
  echo "== $id: $*"
  local rc=0
  date +%s.%N >"$out/logs/$id.start"
  timeout --kill-after=10 "$bench_timeout" "$@" >"$out/logs/$id.stdout" 2>"$out/logs/$id.stderr" || rc=$?
  date +%s.%N >"$out/logs/$id.end"
  echo "$rc" >"$out/logs/$id.rc"
  [ "$rc" -eq 0 ] || echo "   exit status $rc (see $out/logs/$id.stderr)"
}

for variant in default tuned; do
  if [ "$variant" = default ]; then p=$default_params; else p=$tuned_params; fi
  run "litmus-$variant" "$runner" -s "$p" -t "$test_params"
  run "litmus-$variant-events" "$runner_events" -s "$p" -t "$test_params"
done

# vmmcheck's default case table is the cases/ folder of the tree it was configured in (compiled in);
# a binary built in another copy of the repository would look there. This script's own tree has the
# tables these case names come from, so use them unless VMMCHECK_CASES says otherwise.
if [ -z "${VMMCHECK_CASES:-}" ] && [ -d "$here/../cases" ]; then
  VMMCHECK_CASES=$(cd "$here/../cases" && pwd)
  export VMMCHECK_CASES
fi
racy=alias.mp.same.flagsame.nofence.cta
plain=alias.mp.same.flagsame.nofence.gpu
run vmmcheck-default "$vmm" run --filter "$racy" --no-power --json "$out/vmmcheck-default.json"
if [ -n "$stress_params" ]; then
  run vmmcheck-stress "$vmm" run --filter "$racy" --no-power --stress-params "$stress_params" \
    --json "$out/vmmcheck-stress.json"
fi
run vmmcheck-plain "$vmm" run --filter "$plain" --no-power --instances 200000000 --json "$out/vmmcheck-plain.json"

# --- report ----------------------------------------------------------------------------------------
printf -v build_text '%q ' "${build_cmd[@]}"
build_text=${build_text% }
rc=0
python3 "$helper" report --out "$out" \
  --litmus-dir "$litmus" --litmus-commit "$commit" --litmus-build "$build_text" \
  --litmus-test-params "$test_params" \
  --litmus-default-params "$default_params" --litmus-default-source "$default_source" \
  --litmus-tuned-params "$tuned_params" --litmus-tuned-source "$tuned_source" \
  --vmmcheck "$vmm" --vmmcheck-stress-params "$stress_params" \
  --racy-case "$racy" --plain-case "$plain" \
  --gpu-name "$gpu_name" --gpu-driver "$gpu_driver" --nvcc-version "$nvcc_version" || rc=$?
echo "wrote $out/bench-litmus.txt and $out/bench-litmus.json"
exit "$rc"
