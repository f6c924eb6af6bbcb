// The planted kernels: one that returns, one that traps, one that spins forever -- the only unbounded wait
// in vmmcheck, so that isolation has a hang to contain.
#include "kernels/device/launch.cuh"
#include "patterns/planted/kernels.hpp"

namespace vmmcheck::kernels {
namespace {

__global__ void planted_ok(std::uint32_t* word) { *word = 1; }

__global__ void planted_trap() { __trap(); }

__global__ void planted_spin(const std::uint32_t* never) {
  while (*reinterpret_cast<const volatile std::uint32_t*>(never) == 0) {
  }
}

}  // namespace

void launch_planted_ok(std::uint32_t* word, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "planted_ok", planted_ok, 1, 1, stream, word);
}

void launch_planted_trap(cudaStream_t stream) {
  launch(VMMCHECK_HERE, "planted_trap", planted_trap, 1, 1, stream);
}

void launch_planted_spin(const std::uint32_t* never, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "planted_spin", planted_spin, 1, 1, stream, never);
}

}  // namespace vmmcheck::kernels
