#!/usr/bin/env bash
# The cross-process and multi-GPU acceptance run (ipc.*, peer.*, fabric.*, and multicast.* without the
# opt-in) on a lent GPU machine: build with ci/gpu-session.sh, then each stage's log and JSON under $OUT.
# Never passes --allow-multicast and never touches the site's NVLink-multicast switches.
#   VMMCHECK_GIT_SHA=... ci/gpu-multi.sh [stage...]   (stages: mpi multi ipc1 full leak selftest; default: all)
# The mpi stage needs an MPI: the machine's, or .mpi from ci/unpack-mpi.sh (sourced from ci/mpi-env.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
stages=${*:-mpi multi ipc1 full leak selftest}
if ! command -v mpirun >/dev/null && [ -d .mpi/root ]; then source ci/mpi-env.sh; fi
# Lent machines run as root; Open MPI refuses root unless told (whichever mpirun is found).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SKIP_RUN=1 bash ci/gpu-session.sh >"$OUT/session.txt" 2>&1 || { tail -30 "$OUT/session.txt"; exit 3; }
v=build-gpu/vmmcheck
nvidia-smi -L >"$OUT/gpus.txt" 2>&1
env | grep -E 'NVLS|MULTICAST|CUDA_VISIBLE' | sort >"$OUT/site-vars.txt"
for stage in $stages; do
  start=$(date +%s)
  case $stage in
    mpi)
      { mpirun --version | head -1; mpirun -np 2 hostname; } >"$OUT/mpi-hello.txt" 2>&1
      timeout 300 mpirun -np 2 $v run --mpi --filter 'ipc.*,fabric.*' --json "$OUT/mpi.json" >"$OUT/mpi.log" 2>&1 ;;
    multi) timeout 300 $v run --filter 'ipc.*,peer.*,fabric.*,multicast.*' --json "$OUT/multi.json" >"$OUT/multi.log" 2>&1 ;;
    ipc1) CUDA_VISIBLE_DEVICES=0 timeout 200 $v run --filter 'ipc.*' --json "$OUT/ipc-1gpu.json" >"$OUT/ipc-1gpu.log" 2>&1 ;;
    full) timeout 300 $v run --json "$OUT/full.json" >"$OUT/full.log" 2>&1 ;;
    leak) timeout 400 ctest --test-dir build-gpu -R leak.whole_suite --output-on-failure >"$OUT/leak.log" 2>&1 ;;
    selftest) timeout 400 $v selftest --json "$OUT/selftest.json" >"$OUT/selftest.log" 2>&1 ;;
  esac
  echo "$stage: exit $? in $(( $(date +%s) - start )) s"
done | tee "$OUT/stages.txt"
tail -3 "$OUT"/*.log
