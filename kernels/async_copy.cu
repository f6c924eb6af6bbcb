// proxy.async: bulk copies (cp.async.bulk, the async proxy) against generic accesses through view A or an
// alias. Each CTA owns one 4 KiB chunk; per round:
//   global_to_shared: every thread st [A + i] = v; fences; bar.sync; thread 0 cp.async.bulk chunk of the
//                     view -> shared (mbarrier, complete_tx); all wait; each counts its shared words.
//   shared_to_global: every thread r0 = ld [view + i] (warms the line); st.shared = v;
//                     fence.proxy.async.shared::cta; bar.sync; thread 0 cp.async.bulk shared -> A, commit,
//                     wait_group 0, fences; bar.sync; each thread r = ld [view + i] and counts it.
//   tensor_to_shared: as global_to_shared, the copy a TMA tile load (cp.async.bulk.tensor.2d) through a
//                     tensor map encoded over the view.
#include <cuda/ptx>

#include "device/histogram.cuh"
#include "device/launch.cuh"
#include "device/memory_ops.cuh"
#include "device/wait.cuh"
#include "kernels/async_copy.hpp"
#include "patterns/async_copy.hpp"

namespace vmmcheck::kernels {
namespace {

using namespace device;
using Bin = patterns::AsyncCopy::Bin;
namespace ptx = cuda::ptx;

[[maybe_unused]] constexpr std::uint64_t kCopyTimeoutNs = 2'000'000'000;

[[maybe_unused]] __device__ __forceinline__ int bin_of(std::uint32_t seen, std::uint32_t v) {
  return seen == v ? Bin::New : seen < v ? Bin::Stale : Bin::Other;
}

__global__ void async_copy(AsyncCopyArgs a, const __grid_constant__ CUtensorMap map) {
#if __CUDA_ARCH__ >= 900
  __shared__ alignas(128) std::uint32_t chunk[kAsyncChunkWords];
  __shared__ alignas(8) std::uint64_t bar;
  const std::uint64_t base = static_cast<std::uint64_t>(blockIdx.x) * kAsyncChunkWords;
  constexpr std::uint32_t kBytes = kAsyncChunkWords * sizeof(std::uint32_t);
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);  // the init, visible to the async proxy
  }
  __syncthreads();
  Counters c;
  std::uint32_t keep = 0, phase = 0;
  for (std::uint32_t r = 0; r < a.rounds; ++r) {
    const std::uint32_t v = a.value_base + r + 1;
    if (a.direction != patterns::AsyncDirection::SharedToGlobal) {
      for (std::uint32_t i = threadIdx.x; i < kAsyncChunkWords; i += blockDim.x) store_weak(a.a + base + i, v);
      if (a.alias_fence) proxy_alias_fence();
      if (a.async_fence) ptx::fence_proxy_async(ptx::space_global);
      __syncthreads();
      if (threadIdx.x == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, kBytes);
        if (a.direction == patterns::AsyncDirection::GlobalToShared) {
          ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, chunk, a.view + base, kBytes, &bar);
        } else {  // the tile of this CTA: rows [blockIdx.x * kTensorBoxRows, +kTensorBoxRows), all columns
          const std::int32_t coords[2] = {0, static_cast<std::int32_t>(blockIdx.x * kTensorBoxRows)};
          ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, chunk, &map, coords, &bar);
        }
      }
      // Bounded, as every wait is (device/wait.cuh); a copy that never completes would leave the chunk
      // being written under the next round, so there is no going on: the kernel traps (a Crash).
      if (!wait_until([&] { return ptx::mbarrier_try_wait_parity(&bar, phase); }, kCopyTimeoutNs)) __trap();
      phase ^= 1;
      for (std::uint32_t i = threadIdx.x; i < kAsyncChunkWords; i += blockDim.x) ++c.bin[bin_of(chunk[i], v)];
      __syncthreads();  // the chunk is read before the next round's copy overwrites it
    } else {
      for (std::uint32_t i = threadIdx.x; i < kAsyncChunkWords; i += blockDim.x) {
        keep ^= load<Load::Weak>(a.view + base + i);  // the reader's line now holds the old value
        chunk[i] = v;
      }
      ptx::fence_proxy_async(ptx::space_shared);  // generic shared stores, then the async proxy reads them
      __syncthreads();
      if (threadIdx.x == 0) {
        ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, a.a + base, chunk, kBytes);
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group(ptx::n32_t<0>{});
        if (a.async_fence) ptx::fence_proxy_async(ptx::space_global);
        if (a.alias_fence) proxy_alias_fence();
      }
      __syncthreads();
      for (std::uint32_t i = threadIdx.x; i < kAsyncChunkWords; i += blockDim.x)
        ++c.bin[bin_of(load<Load::Weak>(a.view + base + i), v)];
      __syncthreads();  // every load is done before the next round's copy
    }
  }
  if (keep == 0xFFFFFFFFu && a.sink) *a.sink = keep;
  flush(c, a.histogram);
#endif
}

}  // namespace

void launch_async_copy(const AsyncCopyArgs& args, int blocks, cudaStream_t stream, const CUtensorMap* map) {
  const CUtensorMap none{};
  launch(VMMCHECK_HERE, "async_copy", async_copy, blocks, kAsyncThreads, stream, args, map ? *map : none);
}

}  // namespace vmmcheck::kernels
