// VMM-contract kernels: plain copies through a mapping under test, and waits that keep a stream or a
// kernel busy while the host changes the mapping underneath. Every wait here is bounded (globaltimer).
#include "device/launch.cuh"
#include "device/memory_ops.cuh"
#include "device/placement.cuh"
#include "device/wait.cuh"
#include "kernels/contract.hpp"

namespace vmmcheck::kernels {
namespace {

using namespace device;

__device__ __forceinline__ std::uint32_t load_acquire_sys(const std::uint32_t* p) {
  return load_acquire<Scope::Sys>(const_cast<std::uint32_t*>(p));
}

__device__ __forceinline__ void store_release_sys(std::uint32_t* p, std::uint32_t v) {
  store_release<Scope::Sys>(p, v);
}

__global__ void copy_words(const std::uint32_t* src, std::uint32_t* dst, std::uint64_t count) {
  for (std::uint64_t i = global_thread(); i < count; i += thread_count()) dst[i] = load<Load::Weak>(src + i);
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

__global__ void planted_ok(std::uint32_t* word) { *word = 1; }

__global__ void planted_trap() { __trap(); }

__global__ void planted_spin(const std::uint32_t* never) {
  while (*reinterpret_cast<const volatile std::uint32_t*>(never) == 0) {
  }
}

}  // namespace

void launch_copy_words(const std::uint32_t* src, std::uint32_t* dst, std::uint64_t count, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "copy_words", copy_words, grid_for(count), kStrideThreads, stream, src, dst, count);
}

void launch_gate(const std::uint32_t* flag, std::uint32_t* ready, std::uint64_t timeout_ns, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "gate", gate, 1, 1, stream, flag, ready, timeout_ns);
}

void launch_read_until_flag(const std::uint32_t* src, std::uint32_t* dst, std::uint64_t count,
                            const std::uint32_t* flag, std::uint32_t* ready, std::uint64_t timeout_ns,
                            cudaStream_t stream) {
  launch(VMMCHECK_HERE, "read_until_flag", read_until_flag, 1, kStrideThreads, stream, src, dst, count, flag, ready,
         timeout_ns);
}

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
