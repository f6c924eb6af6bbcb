#!/usr/bin/env bash
# Installs what vmmcheck needs to build and test, from Debian packages and PyPI, only where it is
# missing: an offline machine that already has everything goes straight through. The CUDA toolkit (nvcc
# 12.5 or newer, with libcu++) must already be installed; NVIDIA ships it outside Debian's main archive.
#   C++ build and tests: cmake ninja g++ CLI11 nlohmann-json toml++ GoogleTest
#   fuzzing:             clang with its libFuzzer/sanitizer runtime
#   run --mpi:           Open MPI (mpirun and the headers; the mpi tests run two ranks on the CPU)
#   reports (Python):    a virtual environment .venv with reports/requirements.txt, and Debian's
#                        chromium + chromium-driver for the headless-browser test
#   vmmcheck toolchain:  nvdisasm -- the toolkit's, or else PyPI's nvidia-cuda-nvdisasm wheel in .venv
# With --cpu, for the CPU-only build (cmake -DVMMCHECK_GPU=OFF): no CUDA toolkit is asked for, and no
# disassembler (that build has no toolchain command).
set -euo pipefail
cd "$(dirname "$0")/.."
cpu_only=0
case "${1:-}" in
  "") ;;
  --cpu) cpu_only=1 ;;
  *) echo "usage: ci/setup-deps.sh [--cpu]" >&2; exit 2 ;;
esac

packages=(cmake ninja-build g++ libcli11-dev nlohmann-json3-dev libtomlplusplus-dev libgtest-dev python3 python3-venv
          clang libclang-rt-dev chromium chromium-driver libopenmpi-dev openmpi-bin)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
python3 -c 'import jsonschema' 2>/dev/null || missing+=(python3-jsonschema)

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup-deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# A python3 that is not Debian's (pyenv, a venv) does not see python3-jsonschema: give it its own copy.
if ! python3 -c 'import jsonschema' 2>/dev/null; then
  python3 -m pip install -q jsonschema
fi

# The report driver's environment: created once, updated when reports/requirements.txt changes.
if [ ! -x .venv/bin/python ] || [ reports/requirements.txt -nt .venv/.requirements-installed ]; then
  echo "setup-deps: preparing .venv for reports/ (pip install -r reports/requirements.txt)"
  python3 -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip >/dev/null
  .venv/bin/python -m pip install -q -r reports/requirements.txt
  touch .venv/.requirements-installed
fi

# vmmcheck toolchain reads the machine code's line table with nvdisasm (cuobjdump prints none). A toolkit
# without it (this machine's) gets the wheel; the build finds it in .venv (harness/CMakeLists.txt).
nvdisasm_wheel=nvidia-cuda-nvdisasm==13.2.51
if [ "$cpu_only" = 0 ] && ! command -v nvdisasm >/dev/null && [ ! -x /usr/local/cuda/bin/nvdisasm ] &&
   ! ls .venv/lib/python*/site-packages/nvidia/cu*/bin/nvdisasm >/dev/null 2>&1; then
  echo "setup-deps: installing $nvdisasm_wheel into .venv (vmmcheck toolchain's disassembler)"
  .venv/bin/python -m pip install -q "$nvdisasm_wheel"
fi

if [ "$cpu_only" = 0 ] && ! command -v nvcc >/dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup-deps: no CUDA toolkit found (nvcc); install CUDA 12.5 or newer first (or --cpu for the CPU-only build)" >&2
  exit 1
fi
echo "setup-deps: ready"
