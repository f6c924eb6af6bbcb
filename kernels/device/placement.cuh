#pragma once
// A grid-stride loop's thread: its index and the grid's thread count.
#include <cstdint>

namespace vmmcheck::kernels::device {

__device__ __forceinline__ std::uint32_t global_thread() { return blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __forceinline__ std::uint32_t thread_count() { return gridDim.x * blockDim.x; }

}  // namespace vmmcheck::kernels::device
