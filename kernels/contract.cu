// VMM-contract kernels: plain copies through a mapping under test, and waits that keep a stream or a
// kernel busy while the host changes the mapping underneath. Every wait here is bounded (globaltimer).
#include "contract.hpp"
#include "device/memory_ops.cuh"
#include "device/placement.cuh"
#include "launch_check.hpp"

namespace vmmcheck::kernels {
namespace {

using namespace device;

constexpr int kThreads = 256;

__device__ __forceinline__ std::uint32_t load_acquire_sys(const std::uint32_t* p) {
  return load_acquire<ScopeKind::Sys>(const_cast<std::uint32_t*>(p));
}

__device__ __forceinline__ void store_release_sys(std::uint32_t* p, std::uint32_t v) {
  store_release<ScopeKind::Sys>(p, v);
}

__global__ void copy_words(const std::uint32_t* src, std::uint32_t* dst, std::uint64_t count) {
  for (std::uint64_t i = global_thread(); i < count; i += thread_count()) dst[i] = load<LoadKind::Weak>(src + i);
}

__global__ void gate(const std::uint32_t* flag, std::uint32_t* ready, std::uint64_t timeout_ns) {
  store_release_sys(ready, 1);
  const std::uint64_t start = now_ns();
  while (load_acquire_sys(flag) == 0 && now_ns() - start < timeout_ns) {
  }
}

__global__ void read_until_flag(const std::uint32_t* src, std::uint32_t* dst, std::uint64_t count,
                                const std::uint32_t* flag, std::uint32_t* ready, std::uint64_t timeout_ns) {
  __shared__ bool go;
  std::uint32_t keep = 0;
  const std::uint64_t start = now_ns();
  if (threadIdx.x == 0) go = false;
  __syncthreads();
  for (bool first = true; !go; first = false) {
    for (std::uint64_t i = threadIdx.x; i < count; i += blockDim.x) keep ^= load<LoadKind::Volatile>(src + i);
    __syncthreads();
    if (threadIdx.x == 0) {
      if (first) store_release_sys(ready, 1);
      go = load_acquire_sys(flag) != 0 || now_ns() - start >= timeout_ns;
    }
    __syncthreads();
  }
  for (std::uint64_t i = threadIdx.x; i < count; i += blockDim.x) dst[i] = load<LoadKind::Volatile>(src + i);
  if (keep == 0xFFFFFFFFu && count == 0) dst[0] = keep;  // keeps the loop's loads
}

__global__ void planted_ok(std::uint32_t* word) { *word = 1; }

__global__ void planted_trap() { __trap(); }

__global__ void planted_spin(const std::uint32_t* never) {
  while (*reinterpret_cast<const volatile std::uint32_t*>(never) == 0) {
  }
}

int grid_for(std::uint64_t count) {
  const std::uint64_t wanted = (count + kThreads - 1) / kThreads;
  return static_cast<int>(wanted < 1024 ? (wanted > 0 ? wanted : 1) : 1024);
}

}  // namespace

void launch_copy_words(const std::uint32_t* src, std::uint32_t* dst, std::uint64_t count, cudaStream_t stream) {
  copy_words<<<grid_for(count), kThreads, 0, stream>>>(src, dst, count);
  check_launch("copy_words");
}

void launch_gate(const std::uint32_t* flag, std::uint32_t* ready, std::uint64_t timeout_ns, cudaStream_t stream) {
  gate<<<1, 1, 0, stream>>>(flag, ready, timeout_ns);
  check_launch("gate");
}

void launch_read_until_flag(const std::uint32_t* src, std::uint32_t* dst, std::uint64_t count,
                            const std::uint32_t* flag, std::uint32_t* ready, std::uint64_t timeout_ns,
                            cudaStream_t stream) {
  read_until_flag<<<1, kThreads, 0, stream>>>(src, dst, count, flag, ready, timeout_ns);
  check_launch("read_until_flag");
}

void launch_planted_ok(std::uint32_t* word, cudaStream_t stream) {
  planted_ok<<<1, 1, 0, stream>>>(word);
  check_launch("planted_ok");
}

void launch_planted_trap(cudaStream_t stream) {
  planted_trap<<<1, 1, 0, stream>>>();
  check_launch("planted_trap");
}

void launch_planted_spin(const std::uint32_t* never, cudaStream_t stream) {
  planted_spin<<<1, 1, 0, stream>>>(never);
  check_launch("planted_spin");
}

}  // namespace vmmcheck::kernels
