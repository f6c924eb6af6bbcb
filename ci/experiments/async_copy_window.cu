// Why proxy.async copies each thread's own bytes (docs/design.md, "Other proxies"): the CTA-wide shape --
// every thread stores its words of a 4 KiB chunk, bar.sync, thread 0 bulk-copies the chunk into shared
// memory without fence.proxy.async -- with and without three things the runner's first kernel had
// between the stores and the copy: a loop stride read from blockDim, a wait bounded by %globaltimer,
// and counters in a local array. Prints the stale share of each. Not part of the build:
//   nvcc -std=c++17 -arch=sm_90 -o async_copy_window ci/experiments/async_copy_window.cu -lcuda && ./async_copy_window
#include <cuda.h>
#include <cuda/ptx>
#include <cstdio>
#include <cstdlib>
namespace ptx = cuda::ptx;
#define CK(x) do { CUresult s_ = (x); if (s_) { printf("%s -> %d\n", #x, (int)s_); exit(1);} } while (0)
constexpr unsigned kWords = 1024, kThreads = 256;
__device__ __forceinline__ uint64_t now() { uint64_t t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
// RuntimeStride: store loop steps blockDim.x. TimedWait: poll with a globaltimer bound. ArrayBins: counts in a local array.
template <bool RuntimeStride, bool TimedWait, bool ArrayBins>
__global__ void k(unsigned* a, unsigned rounds, unsigned base, unsigned long long* hist) {
  __shared__ alignas(128) unsigned chunk[kWords];
  __shared__ alignas(8) uint64_t bar;
  const size_t off = size_t(blockIdx.x) * kWords;
  if (threadIdx.x == 0) { ptx::mbarrier_init(&bar, 1); ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster); }
  __syncthreads();
  unsigned phase = 0; unsigned bins[3] = {0, 0, 0}; unsigned nw = 0, stale = 0, other = 0;
  const unsigned stride = RuntimeStride ? blockDim.x : kThreads;
  for (unsigned r = 0; r < rounds; ++r) {
    const unsigned v = base + r + 1;
    for (unsigned i = threadIdx.x; i < kWords; i += stride) ptx::st(ptx::space_global, a + off + i, v);
    __syncthreads();
    if (threadIdx.x == 0) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, kWords * 4);
      ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, chunk, a + off, kWords * 4, &bar);
    }
    if (TimedWait) {
      const uint64_t t0 = now(); bool ok = false;
      for (unsigned poll = 0;; ++poll) { if (ptx::mbarrier_try_wait_parity(&bar, phase)) { ok = true; break; } if ((poll & 63) == 63 && now() - t0 > 2000000000ull) break; }
      if (!ok) __trap();
    } else {
      while (!ptx::mbarrier_try_wait_parity(&bar, phase)) {}
    }
    phase ^= 1;
    for (unsigned i = threadIdx.x; i < kWords; i += stride) {
      const unsigned s = chunk[i]; const int b = s == v ? 0 : s < v ? 1 : 2;
      if (ArrayBins) ++bins[b]; else { nw += b == 0; stale += b == 1; other += b == 2; }
    }
    __syncthreads();
  }
  if (ArrayBins) { nw = bins[0]; stale = bins[1]; other = bins[2]; }
  atomicAdd(&hist[0], nw); atomicAdd(&hist[1], stale); atomicAdd(&hist[2], other);
}
template <bool A, bool B, bool C> void run(unsigned* a, unsigned long long* h, int blocks) {
  h[0] = h[1] = h[2] = 0;
  for (int it = 0; it < 40; ++it) { cudaMemset(a, 0, size_t(blocks) * kWords * 4); k<A, B, C><<<blocks, kThreads>>>(a, 5, it * 5, h); }
  cudaDeviceSynchronize();
  printf("runtime_stride %d timed_wait %d array_bins %d: new %llu stale %llu (%.4f%%) %s\n", A, B, C, h[0], h[1], 100.0 * h[1] / (h[0] + h[1] + h[2]), cudaGetErrorString(cudaGetLastError()));
}
int main() {
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  int sms; cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  const int blocks = sms * 4; size_t bytes = (size_t(blocks) * kWords * 4 + (2u << 20) - 1) / (2u << 20) * (2u << 20);
  CUmemAllocationProp p = {}; p.type = CU_MEM_ALLOCATION_TYPE_PINNED; p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  CUmemGenericAllocationHandle hnd; CK(cuMemCreate(&hnd, bytes, &p, 0));
  CUdeviceptr va; CUmemAccessDesc acc = {}; acc.location = p.location; acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  CK(cuMemAddressReserve(&va, bytes, 0, 0, 0)); CK(cuMemMap(va, bytes, 0, hnd, 0)); CK(cuMemSetAccess(va, bytes, &acc, 1));
  unsigned long long* h; cudaMallocManaged(&h, 64); unsigned* a = (unsigned*)va;
  run<false, false, false>(a, h, blocks);
  run<true, false, false>(a, h, blocks);
  run<false, true, false>(a, h, blocks);
  run<false, false, true>(a, h, blocks);
  run<true, true, true>(a, h, blocks);
}
