// The VMM-contract kernel several patterns share: a plain copy through a mapping under test.
#include "device/launch.cuh"
#include "device/memory_ops.cuh"
#include "device/placement.cuh"
#include "kernels/contract.hpp"

namespace vmmcheck::kernels {
namespace {

using namespace device;

__global__ void copy_words(const std::uint32_t* src, std::uint32_t* dst, std::uint64_t count) {
  for (std::uint64_t i = global_thread(); i < count; i += thread_count()) dst[i] = load<Load::Weak>(src + i);
}

}  // namespace

void launch_copy_words(const std::uint32_t* src, std::uint32_t* dst, std::uint64_t count, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "copy_words", copy_words, grid_for(count), kStrideThreads, stream, src, dst, count);
}

}  // namespace vmmcheck::kernels
