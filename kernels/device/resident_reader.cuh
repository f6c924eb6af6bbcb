#pragma once
// The reader grid of the `resident` order of the proxy families (proxy.texture, proxy.surface): one block
// per SM, started before the write and told by the host after it completed. What it proves nothing
// about by itself is left to the verdicts: no kernel boundary lies between its reads and the write.
#include <cstdint>

#include "histogram.cuh"
#include "memory_ops.cuh"
#include "wait.cuh"

namespace vmmcheck::kernels::device {

// One block's part: reads its share of items [0, count) once (the caches then hold the old values),
// counts itself into `ready`, waits (thread 0, bounded) for `flag` != 0 with ld.acquire.sys, then
// reads its share again and counts bin_of(value) per item -- `timeout_bin` for every item when the
// flag never came.
template <typename Read, typename BinOf>
__device__ __forceinline__ void read_again_after_signal(std::uint64_t count, Read read, BinOf bin_of, int timeout_bin,
                                                        volatile std::uint32_t* ready, std::uint32_t* flag,
                                                        std::uint64_t timeout_ns, unsigned long long* histogram,
                                                        std::uint32_t* sink) {
  const std::uint64_t per_block = (count + gridDim.x - 1) / gridDim.x;
  const std::uint64_t begin = blockIdx.x * per_block;
  const std::uint64_t end = begin + per_block < count ? begin + per_block : count;
  std::uint32_t keep = 0;
  for (std::uint64_t i = begin + threadIdx.x; i < end; i += blockDim.x) keep ^= read(i);
  __shared__ bool seen;
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::atomic_ref<std::uint32_t, cuda::thread_scope_system>(*const_cast<std::uint32_t*>(ready))
        .fetch_add(1, cuda::memory_order_release);
    seen = wait_until([&] { return load_acquire<patterns::Scope::Sys>(flag) != 0; }, timeout_ns, /*backoff_ns=*/200);
  }
  __syncthreads();
  Counters c;
  for (std::uint64_t i = begin + threadIdx.x; i < end; i += blockDim.x) ++c.bin[seen ? bin_of(read(i)) : timeout_bin];
  if (keep == 0xFFFFFFFFu) *sink = keep;
  flush(c, histogram);
}

}  // namespace vmmcheck::kernels::device
