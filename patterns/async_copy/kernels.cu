// proxy.async: bulk copies (cp.async.bulk, the async proxy) against generic accesses through view A or an
// alias. Each CTA owns one 4 KiB chunk, each thread 16 bytes of it (its slot); per round:
//   global_to_shared: the thread st.global.v4 [A + slot] = v; fences; mbarrier.arrive.expect_tx(16);
//                     cp.async.bulk 16 bytes of the view -> its shared slot (mbarrier, complete_tx);
//                     waits for the phase; counts its four shared words.
//   tensor_to_shared: the same, the copy a TMA load (cp.async.bulk.tensor.2d) of a 4 x 1 box through a
//                     tensor map encoded over the view.
//   shared_to_global: the thread r0 = ld [view + slot] (warms the line); st.shared = v;
//                     fence.proxy.async.shared::cta; cp.async.bulk its shared slot -> A, commit,
//                     wait_group 0; fences; r = ld [view + slot], counted.
// Why one thread stores and copies its own bytes rather than the CTA storing and one thread copying the
// whole chunk after bar.sync: an unfenced copy reads stale data only while the stores are still on their
// way, and that window is what every instruction between them narrows. On the H200 the bar.sync shape
// showed 0-1,568 stale words in 10.8M across six stored runs; the stores and the copy back to back in one
// thread show it in percent (docs/design.md, "Other proxies").
#include <cuda/ptx>

#include "kernels/device/histogram.cuh"
#include "kernels/device/launch.cuh"
#include "kernels/device/memory_ops.cuh"
#include "kernels/device/wait.cuh"
#include "patterns/async_copy/kernels.hpp"
#include "patterns/async_copy/definition.hpp"

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
  // Slots 128 bytes apart: a TMA load's shared destination must be 128-byte aligned.
  constexpr std::uint32_t kSlotStride = 32;
  constexpr std::uint32_t kBytes = kAsyncSlotWords * sizeof(std::uint32_t);
  __shared__ alignas(128) std::uint32_t slots[kAsyncThreads * kSlotStride];
  __shared__ alignas(8) std::uint64_t bar;
  std::uint32_t* const slot = slots + threadIdx.x * kSlotStride;
  const std::uint64_t mine = static_cast<std::uint64_t>(blockIdx.x) * kAsyncChunkWords + threadIdx.x * kAsyncSlotWords;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, blockDim.x);  // a phase completes when every thread arrived and every byte landed
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);  // the init, visible to the async proxy
  }
  __syncthreads();
  Counters c;
  std::uint32_t keep = 0, phase = 0;
  for (std::uint32_t r = 0; r < a.rounds; ++r) {
    const std::uint32_t v = a.value_base + r + 1;
    if (a.direction != patterns::AsyncDirection::SharedToGlobal) {
      store_weak4(a.a + mine, v);
      if (a.alias_fence) proxy_alias_fence();
      if (a.async_fence) ptx::fence_proxy_async(ptx::space_global);
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, kBytes);
      if (a.direction == patterns::AsyncDirection::GlobalToShared) {
        ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, slot, a.view + mine, kBytes, &bar);
      } else {
        const std::int32_t coords[2] = {static_cast<std::int32_t>(mine % kTensorRowWords),
                                        static_cast<std::int32_t>(mine / kTensorRowWords)};
        ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, slot, &map, coords, &bar);
      }
      // Bounded, as every wait is (device/wait.cuh); a copy that never completes would leave the slot
      // being written under the next round, so there is no going on: the kernel traps (a Crash).
      if (!wait_until([&] { return ptx::mbarrier_try_wait_parity(&bar, phase); }, kCopyTimeoutNs)) __trap();
      phase ^= 1;
      for (std::uint32_t j = 0; j < kAsyncSlotWords; ++j) ++c.bin[bin_of(slot[j], v)];
    } else {
      for (std::uint32_t j = 0; j < kAsyncSlotWords; ++j) {
        keep ^= load<Load::Weak>(a.view + mine + j);  // the reader's line now holds the old value
        slot[j] = v;
      }
      ptx::fence_proxy_async(ptx::space_shared);  // generic shared stores, then the async proxy reads them
      ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, a.a + mine, slot, kBytes);
      ptx::cp_async_bulk_commit_group();
      ptx::cp_async_bulk_wait_group(ptx::n32_t<0>{});
      if (a.async_fence) ptx::fence_proxy_async(ptx::space_global);
      if (a.alias_fence) proxy_alias_fence();
      for (std::uint32_t j = 0; j < kAsyncSlotWords; ++j) ++c.bin[bin_of(load<Load::Weak>(a.view + mine + j), v)];
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
