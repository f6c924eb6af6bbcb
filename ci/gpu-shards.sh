#!/usr/bin/env bash
# The shards check (docs/design.md, "Case lists and shards") on a GPU machine: the default suite in full,
# then as --shard 1/N .. N/N one after another on the same GPU, each results file and the console under
# $OUT (default ./gpu-out); then what a resume on this machine of a file of another machine says. Join and
# compare the files where the report driver runs (ci/results/README.md says how).
#   ci/gpu-shards.sh VMMCHECK [N]
set -uo pipefail
cd "$(dirname "$0")/.."
vmmcheck=${1:?usage: ci/gpu-shards.sh VMMCHECK [N]}
n=${2:-3}
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}  # the multicast gate refuses on shared hosts
log=$OUT/console.log

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$log"
"$vmmcheck" probe --json "$OUT/probe.json"
timed() {  # timed LABEL ARGS...: run vmmcheck, its console into the log, its exit and wall time on stdout
  local label=$1 start=$SECONDS
  shift
  echo "== $label: vmmcheck $*" >>"$log"
  "$vmmcheck" "$@" >>"$log" 2>&1
  local code=$?
  echo "$label: exit $code in $((SECONDS - start)) s" | tee -a "$log"
}
timed full run --cases "$PWD/cases" --json "$OUT/full.json"
for k in $(seq 1 "$n"); do
  timed "shard $k/$n" run --cases "$PWD/cases" --shard "$k/$n" --json "$OUT/shard-$k-of-$n.json"
done
# A file of another machine is not continued here: the committed two-H200 run on this one-GPU machine.
cp ci/results/2x-nvidia-h200_driver-580.159.04.json "$OUT/.resume-2x.json"
timed "resume of the two-H200 file" run --cases "$PWD/cases" --resume "$OUT/.resume-2x.json"
cmp -s ci/results/2x-nvidia-h200_driver-580.159.04.json "$OUT/.resume-2x.json" && echo "the refused file is unchanged" | tee -a "$log"
rm -f "$OUT/.resume-2x.json"
