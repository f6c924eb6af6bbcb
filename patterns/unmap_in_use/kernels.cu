// lifecycle.unmap: waits that keep a stream or a kernel busy while the host unmaps the memory
// underneath. Every wait here is bounded (globaltimer).
#include "kernels/device/launch.cuh"
#include "kernels/device/memory_ops.cuh"
#include "kernels/device/placement.cuh"
#include "kernels/device/wait.cuh"
#include "patterns/unmap_in_use/kernels.hpp"

namespace vmmcheck::kernels {
namespace {

using namespace device;

__device__ __forceinline__ std::uint32_t load_acquire_sys(const std::uint32_t* p) {
  return load_acquire<Scope::Sys>(const_cast<std::uint32_t*>(p));
}

__device__ __forceinline__ void store_release_sys(std::uint32_t* p, std::uint32_t v) {
  store_release<Scope::Sys>(p, v);
}

__global__ void gate(const std::uint32_t* flag, std::uint32_t* ready, std::uint64_t timeout_ns) {
  store_release_sys(ready, 1);
  wait_until([&] { return load_acquire_sys(flag) != 0; }, timeout_ns);
}

__global__ void read_until_flag(const std::uint32_t* src, std::uint32_t* dst, std::uint64_t count,
                                const std::uint32_t* flag, std::uint32_t* ready, std::uint64_t timeout_ns) {
  __shared__ bool go;
  std::uint32_t keep = 0;
  const std::uint64_t start = now_ns();
  if (threadIdx.x == 0) go = false;
  __syncthreads();
  for (bool first = true; !go; first = false) {
    for (std::uint64_t i = threadIdx.x; i < count; i += blockDim.x) keep ^= load<Load::Volatile>(src + i);
    __syncthreads();
    if (threadIdx.x == 0) {
      if (first) store_release_sys(ready, 1);
      go = load_acquire_sys(flag) != 0 || now_ns() - start >= timeout_ns;
    }
    __syncthreads();
  }
  for (std::uint64_t i = threadIdx.x; i < count; i += blockDim.x) dst[i] = load<Load::Volatile>(src + i);
  if (keep == 0xFFFFFFFFu && count == 0) dst[0] = keep;  // keeps the loop's loads
}

}  // namespace

void launch_gate(const std::uint32_t* flag, std::uint32_t* ready, std::uint64_t timeout_ns, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "gate", gate, 1, 1, stream, flag, ready, timeout_ns);
}

void launch_read_until_flag(const std::uint32_t* src, std::uint32_t* dst, std::uint64_t count,
                            const std::uint32_t* flag, std::uint32_t* ready, std::uint64_t timeout_ns,
                            cudaStream_t stream) {
  launch(VMMCHECK_HERE, "read_until_flag", read_until_flag, 1, kStrideThreads, stream, src, dst, count, flag, ready,
         timeout_ns);
}

}  // namespace vmmcheck::kernels
