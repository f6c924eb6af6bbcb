#!/usr/bin/env bash
# Build and run vmmcheck on a GPU machine that has the CUDA toolkit, cmake and ninja but no package
# registry: the C++ dependencies come from Debian packages unpacked into .deps/root (see
# ci/unpack-deps.sh, run where apt works). Logs and JSON go to $OUT (default: ./gpu-out).
#   ci/gpu-session.sh [extra vmmcheck run flags...]
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
prefix=$PWD/.deps/root/usr
build=build-gpu
arch=${VMMCHECK_CUDA_ARCH:-90}
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}  # the multicast gate refuses on shared hosts

{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv || true
  cmake -S . -B $build -G Ninja -DCMAKE_PREFIX_PATH="$prefix" ${VMMCHECK_MPI_ARGS:-} -DVMMCHECK_GIT_SHA="${VMMCHECK_GIT_SHA:-unknown}" -DCMAKE_CUDA_ARCHITECTURES="$arch" -DCMAKE_BUILD_TYPE=Release &&
  cmake --build $build -j "$(nproc)"
} >"$OUT/build.log" 2>&1 || { tail -50 "$OUT/build.log"; exit 3; }
echo "build ok"

$build/vmmcheck probe | tee "$OUT/probe.txt"
$build/vmmcheck probe --json "$OUT/probe.json"
if [ "${SKIP_RUN:-0}" != 1 ]; then
  /usr/bin/time -v $build/vmmcheck run --json "$OUT/results.json" "$@" >"$OUT/run.log" 2>"$OUT/run.time"
  echo "vmmcheck run exit $?"
  grep -E "^\[|passed" "$OUT/run.log" | grep -vE "PASS" | head -40
  tail -1 "$OUT/run.log"
  grep -E "Elapsed \(wall" "$OUT/run.time"
fi
