#!/usr/bin/env bash
# Side by side with reeselevine/cuda-litmus, every test of it that has an allowed weak outcome, on one
# GPU (docs/litmus.md, "Beside cuda-litmus"): each of its kernels built as its tuning file
# (tuning-files/<test>.txt) lists the build -- one thread a CTA, device scope, relaxed (mp: the block-scope
# release/acquire, its own orders) -- and run with its shipped stress params (default) and with the best
# of a short random search drawn the way its tune.sh draws (tuned); beside it the same test written as a
# litmus file (ci/cuda-litmus/<test>.test) run by vmmcheck at its default budget, and with the params
# `vmmcheck tune --litmus --per instance` found for it (tuned: the strongest kernel, as many trials as
# cuda-litmus's draws).
#
#   ci/bench-cuda-litmus.sh --litmus DIR --vmmcheck PATH --out OUTDIR [--draws N] [--tests "mp iriw ..."]
#                           [--long ITERATIONS:INSTANCES] [--params-from OLDOUT|REPORT.json [--retune [--keep-speed]]]
#                           [--confirm K] [--start-earlier] [--start TEST=PARAMS.json ...]
#
# --long adds a longer run of each tool tuned for speed (long): cuda-litmus with its tuned params (its
# tune.sh scores weak behaviours per second) at ITERATIONS iterations, vmmcheck with what `tune --per
# gpu-second` found (as many trials) at INSTANCES instances, so that neither tool's start (its CUDA
# context, its module loads) is most of its wall time. --params-from takes the tuned params of an
# earlier output folder (its params/) instead of drawing and tuning again; with --retune only
# cuda-litmus's, and vmmcheck is tuned again (a new vmmcheck against the same cuda-litmus search); with
# --keep-speed as well, only its search per instance runs again and its long runs keep the earlier search
# per GPU second. A committed report (ci/results/cuda-litmus/*.json) serves as OLDOUT: it carries every
# params file its runs took (bench_cuda_litmus.py params lays them out under OUTDIR/params-from).
# --confirm K: vmmcheck's searches measure their K best draws again and keep the best of those (`tune
# --confirm`; its draws stay as many as cuda-litmus's, the K measurements come after them).
# --start-earlier (with --retune): vmmcheck's searches start from the earlier call's picks, per instance and
# per GPU second (`tune --start`: drawn right after its two fixed draws and kept unless a draw beats them),
# as cuda-litmus's search is taken from that call; --start TEST=FILE adds a pick found elsewhere (an
# experiment's search) to TEST's. The starts count among the draws, so the draws stay cuda-litmus's number.
#
# DIR is a checkout of cuda-litmus (fetched, never committed; .bench/ is ignored). Writes OUTDIR/build,
# OUTDIR/logs (each run's command, stdout, stderr, exit status, start and end), OUTDIR/vmmcheck/*.json,
# and, by ci/bench_cuda_litmus.py, OUTDIR/bench-cuda-litmus.{json,md}. Exit status: 0 when every run
# worked, 1 when the report lists a problem, 2 on bad arguments.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
helper="$here/bench_cuda_litmus.py"
die() { echo "bench-cuda-litmus: $*" >&2; exit 2; }

litmus="" vmm="" out="" draws=6 draws_given="" arch=sm_90 long="" params_from="" retune="" keep_speed="" confirm=0
start_earlier="" extra_starts=()
tests="mp iriw isa2 rwc wrc 2+2w 3.2w wrw+2w wwc z6-1 z6-3 paper-example1 paper-example2"
while [ $# -gt 0 ]; do
  case "$1" in
    --litmus) litmus=${2:?}; shift 2 ;;
    --vmmcheck) vmm=${2:?}; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    --draws) draws=${2:?}; draws_given=1; shift 2 ;;
    --tests) tests=${2:?}; shift 2 ;;
    --arch) arch=${2:?}; shift 2 ;;
    --long) long=${2:?}; shift 2 ;;
    --params-from) params_from=${2:?}; shift 2 ;;
    --retune) retune=1; shift ;;
    --keep-speed) keep_speed=1; shift ;;
    --confirm) confirm=${2:?}; shift 2 ;;
    --start-earlier) start_earlier=1; shift ;;
    --start) extra_starts+=("${2:?}"); shift 2 ;;
    *) die "unknown argument '$1' (see the head of $0)" ;;
  esac
done
[ -n "$litmus" ] && [ -n "$vmm" ] && [ -n "$out" ] || die "--litmus DIR, --vmmcheck PATH and --out OUTDIR are needed"
[ -f "$litmus/runner.cu" ] && [ -f "$litmus/params/stress_params.txt" ] || die "$litmus is not a cuda-litmus checkout"
[ -x "$vmm" ] || die "--vmmcheck $vmm: not an executable"
if [ -n "$long" ]; then
  long_iterations=${long%%:*} long_instances=${long#*:}
  [[ "$long_iterations" =~ ^[1-9][0-9]*$ && "$long_instances" =~ ^[1-9][0-9]*$ ]] || die "--long ITERATIONS:INSTANCES, both positive integers ('$long')"
fi
[ -z "$retune" ] || [ -n "$params_from" ] || die "--retune: with --params-from only (without it, both tools are tuned anyway)"
[ -z "$keep_speed" ] || [ -n "$retune" ] || die "--keep-speed: with --retune only (without it, every search is taken)"
[ -z "$start_earlier" ] || [ -n "$retune" ] || die "--start-earlier: with --retune only (the earlier picks are --params-from's)"
tests=$(echo $tests)  # one space between names, for the membership test below
for s in ${extra_starts[@]+"${extra_starts[@]}"}; do
  [[ "$s" == ?*=?* ]] || die "--start $s: TEST=PARAMS.json"
  [ -f "${s#*=}" ] || die "--start $s: no file ${s#*=}"
  case " $tests " in *" ${s%%=*} "*) ;; *) die "--start $s: ${s%%=*} is not among the tests" ;; esac
done
params_shown=$params_from  # what the report names: the folder, or the committed report the params came from
if [ -f "$params_from" ]; then
  mkdir -p "$out" || die "cannot write $out"
  python3 "$helper" params --results "$params_from" --write "$out/params-from" || die "--params-from $params_from: not a report with every test's params"
  params_from=$out/params-from
fi
[ -z "$params_from" ] || [ -d "$params_from/params" ] || die "--params-from $params_from: no params/ folder there"
[[ "$draws" =~ ^[1-9][0-9]*$ ]] || die "--draws $draws: a positive count of draws"
[[ "$confirm" =~ ^[0-9]+$ ]] || die "--confirm $confirm: a count of draws to measure again"
[ "$confirm" = 0 ] || [ -z "$params_from" ] || [ -n "$retune" ] || die "--confirm: vmmcheck does not search with --params-from unless --retune"
# With --params-from the draws are the earlier search's (its params/DRAWS), which the report states.
if [ -n "$params_from" ]; then
  [ -z "$draws_given" ] || die "--draws and --params-from: the params come with the draws that found them"
  [ -f "$params_from/params/DRAWS" ] || die "--params-from $params_from: no params/DRAWS (how many draws found them?)"
  draws=$(cat "$params_from/params/DRAWS")
  [[ "$draws" =~ ^[1-9][0-9]*$ ]] || die "--params-from $params_from: params/DRAWS is not a count ('$draws')"
fi
litmus=$(cd "$litmus" && pwd)
vmm=$(cd "$(dirname "$vmm")" && pwd)/$(basename "$vmm")
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
mkdir -p "$out/build" "$out/logs" "$out/vmmcheck" "$out/params"
echo "$draws" >"$out/params/DRAWS"
out=$(cd "$out" && pwd)
cases=$(cd "$here/../cases" && pwd)
export VMMCHECK_CASES=$cases

# The build of each test (its tuning file's first thread placement, device scope, relaxed) and its
# locations file.
flags() {
  case "$1" in
    mp) echo "-DTB_0_1 -DSCOPE_BLOCK 2-loc.txt" ;;
    2+2w) echo "-DTB_0_1 -DSCOPE_DEVICE -DRELAXED 2-loc.txt" ;;
    iriw) echo "-DTB_0_1_2_3 -DSCOPE_DEVICE -DRELAXED 2-loc.txt" ;;
    rwc|wrc|wrw+2w|wwc) echo "-DTB_0_1_2 -DSCOPE_DEVICE -DRELAXED 2-loc.txt" ;;
    isa2|3.2w|z6-1|z6-3) echo "-DTB_0_1_2 -DSCOPE_DEVICE -DRELAXED 3-loc.txt" ;;
    paper-example1|paper-example2) echo "-DTB_0_1_2_3 -DSCOPE_DEVICE -DRELAXED 4-loc.txt" ;;
    *) return 1 ;;
  esac
}

starts() {  # starts TEST: the --start arguments of TEST's searches, one a line
  local t=$1 f s
  if [ -n "$start_earlier" ]; then
    for f in "$params_from/params/$t.vmmcheck-params.json" "$params_from/params/$t.vmmcheck-speed-params.json"; do
      [ ! -f "$f" ] || printf -- '--start\n%s\n' "$f"
    done
  fi
  for s in ${extra_starts[@]+"${extra_starts[@]}"}; do
    [ "${s%%=*}" != "$t" ] || printf -- '--start\n%s\n' "${s#*=}"
  done
}
# tune draws the default, contiguous words and then the starts: the draws must hold them all.
for t in $tests; do
  n=$(( $(starts "$t" | wc -l) / 2 ))
  [ "$n" -eq 0 ] || [ "$draws" -ge $((2 + n)) ] || die "$t: $draws draws hold no $n --start draws beside tune's two fixed ones"
done

run() {  # run ID CMD...: one run, its output and wall time under logs/
  local id=$1; shift
  printf '%q ' "$@" >"$out/logs/$id.cmd"
  local rc=0
  date +%s.%N >"$out/logs/$id.start"
  timeout -k 10 "${BENCH_TIMEOUT:-180}" "$@" >"$out/logs/$id.stdout" 2>"$out/logs/$id.stderr" || rc=$?
  date +%s.%N >"$out/logs/$id.end"
  echo "$rc" >"$out/logs/$id.rc"
  [ "$rc" -eq 0 ] || echo "   $id: exit status $rc (see logs/$id.stderr)"
}

# The checkout's own commit: without DIR/.git, git would walk up to the repository around .bench/ and
# name its commit; a copy without .git carries it in DIR/COMMIT.
if [ -e "$litmus/.git" ]; then
  git -c safe.directory="$litmus" -C "$litmus" rev-parse HEAD >"$out/logs/cuda-litmus.commit" 2>/dev/null || echo unknown >"$out/logs/cuda-litmus.commit"
else
  cat "$litmus/COMMIT" >"$out/logs/cuda-litmus.commit" 2>/dev/null || echo unknown >"$out/logs/cuda-litmus.commit"
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$out/logs/gpu.txt" 2>&1 || true
"$vmm" --version >"$out/logs/vmmcheck.version" 2>&1 || true

# Builds, in parallel (as its tune.sh builds a test: runner.cu + kernels/<test>.cu, -rdc=true).
for t in $tests; do
  read -r -a f <<<"$(flags "$t")" || die "no build known for test '$t'"
  ( "$nvcc" "${f[@]:0:${#f[@]}-1}" -I"$litmus" -rdc=true -arch="$arch" "$litmus/runner.cu" "$litmus/kernels/$t.cu" \
      -o "$out/build/$t-runner" >"$out/logs/build-$t.log" 2>&1 || echo "   build of $t failed (logs/build-$t.log)" ) &
done
wait

cp "$litmus/params/stress_params.txt" "$out/params/default.txt"  # cuda-litmus's shipped params, for every test
for t in $tests; do
  read -r -a f <<<"$(flags "$t")"
  loc="$litmus/params/${f[-1]}"
  echo "== $t"
  # cuda-litmus, default: its shipped stress params (the copy under OUTDIR, which the report reads).
  echo "params/default.txt" >"$out/logs/$t.litmus-default.params"
  run "$t.litmus-default" "$out/build/$t-runner" -s "$out/params/default.txt" -t "$loc"
  file="$here/cuda-litmus/${t//./_}.test"  # 3.2w: a file name has no dot but its extension's
  if [ -n "$params_from" ]; then
    cp "$params_from/params/$t.tuned.txt" "$out/params/" || die "--params-from $params_from: no tuned params of $t there"
    if [ -n "$keep_speed" ] && [ -n "$long" ]; then
      cp "$params_from/params/$t.vmmcheck-speed-params.json" "$out/params/" || die "--keep-speed: no speed params of $t in $params_from"
    fi
    if [ -z "$retune" ]; then
      cp "$params_from/params/$t.vmmcheck-params.json" "$out/params/" || die "--params-from $params_from: no vmmcheck params of $t there"
      # A folder from before the speed search: its long runs took the params scored per instance.
      cp "$params_from/params/$t.vmmcheck-speed-params.json" "$out/params/" 2>/dev/null ||
        cp "$out/params/$t.vmmcheck-params.json" "$out/params/$t.vmmcheck-speed-params.json"
    fi
  else
    # cuda-litmus, tuned: draws as tune.sh draws them (testIterations 100 each), the best by weak
    # behaviours per second of its own clock, then that one at tune.sh's 1000 iterations.
    for d in $(seq 1 "$draws"); do
      python3 "$helper" draw --seed "$t-$d" --iterations 100 --write "$out/params/$t.draw-$d.txt"
      echo "params/$t.draw-$d.txt" >"$out/logs/$t.litmus-draw-$d.params"  # under OUTDIR: a moved folder still reads
      run "$t.litmus-draw-$d" "$out/build/$t-runner" -s "$out/params/$t.draw-$d.txt" -t "$loc"
    done
    best=$(python3 "$helper" best --out "$out" --test "$t" --draws "$draws")
    python3 "$helper" draw --from "$out/params/$t.draw-$best.txt" --iterations 1000 --write "$out/params/$t.tuned.txt"
  fi
  if [ -z "$params_from" ] || [ -n "$retune" ]; then
    # vmmcheck, as many trials as cuda-litmus's draws: scored per instance, the kernel that shows the weak
    # outcome most often (the tuned runs); scored per GPU second, the most for the time (the long runs).
    mapfile -t from < <(starts "$t")
    run "$t.vmmcheck-tune" "$vmm" tune --litmus "$file" --trials "$draws" --confirm "$confirm" --per instance \
      ${from[@]+"${from[@]}"} --out "$out/params/$t.vmmcheck-params.json"
    if [ -n "$long" ] && [ -z "$keep_speed" ]; then
      run "$t.vmmcheck-tune-speed" "$vmm" tune --litmus "$file" --trials "$draws" --confirm "$confirm" --per gpu-second \
        ${from[@]+"${from[@]}"} --out "$out/params/$t.vmmcheck-speed-params.json"
    fi
  fi
  echo "params/$t.tuned.txt" >"$out/logs/$t.litmus-tuned.params"
  run "$t.litmus-tuned" "$out/build/$t-runner" -s "$out/params/$t.tuned.txt" -t "$loc"
  # vmmcheck: the litmus file at the default budget, then with what tune found.
  run "$t.vmmcheck-default" "$vmm" run --litmus "$file" --no-power --json "$out/vmmcheck/$t.default.json"
  run "$t.vmmcheck-tuned" "$vmm" run --litmus "$file" --no-power --stress-params "$out/params/$t.vmmcheck-params.json" \
    --json "$out/vmmcheck/$t.tuned.json"
  if [ -n "$long" ]; then  # both tuned, each run long enough that its start is not most of its wall time
    python3 "$helper" draw --from "$out/params/$t.tuned.txt" --iterations "$long_iterations" --write "$out/params/$t.long.txt"
    echo "params/$t.long.txt" >"$out/logs/$t.litmus-long.params"
    run "$t.litmus-long" "$out/build/$t-runner" -s "$out/params/$t.long.txt" -t "$loc"
    run "$t.vmmcheck-long" "$vmm" run --litmus "$file" --no-power --stress-params "$out/params/$t.vmmcheck-speed-params.json" \
      --instances "$long_instances" --json "$out/vmmcheck/$t.long.json"
  fi
done

python3 "$helper" report --out "$out" --tests "$tests" --draws "$draws" ${long:+--long "$long"} ${params_from:+--params-from "$params_shown"} \
  ${retune:+--retuned} ${keep_speed:+--speed-kept}
