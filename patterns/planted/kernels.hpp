#pragma once
// Host-side interface of the planted kernels of the isolation self-test (tests/planted/). Never used by a
// shipped case.
#include <cuda_runtime_api.h>

#include <cstdint>

namespace vmmcheck::kernels {

void launch_planted_ok(std::uint32_t* word, cudaStream_t stream);    // stores 1 and returns
void launch_planted_trap(cudaStream_t stream);                      // executes trap: a sticky error
void launch_planted_spin(const std::uint32_t* never, cudaStream_t stream);  // waits, unbounded, for a word nobody writes

}  // namespace vmmcheck::kernels
