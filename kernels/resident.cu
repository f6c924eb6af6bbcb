// alias.resident: the resident-grid clause. The reader grid is running before the writer starts; it
// primes its words, reports itself ready, and waits (bounded) for a flag raised only after the writing
// operation completed. Guide §4.17.5.3: through other aliases, such a grid is still incoherent.
#include "device/histogram.cuh"
#include "device/memory_ops.cuh"
#include "device/placement.cuh"
#include "launch_check.hpp"

namespace vmmcheck::kernels {
namespace {

using namespace device;

constexpr int kThreads = 256;

template <LoadKind L>
__global__ void resident_reader(ResidentArgs a) {
  const std::uint64_t per_block = (a.count + gridDim.x - 1) / gridDim.x;
  const std::uint64_t begin = blockIdx.x * per_block;
  const std::uint64_t end = begin + per_block < a.count ? begin + per_block : a.count;

  std::uint32_t keep = 0;
  for (std::uint64_t i = begin + threadIdx.x; i < end; i += blockDim.x) keep ^= load<L>(a.view + i);

  __shared__ bool seen;
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::atomic_ref<std::uint32_t, cuda::thread_scope_system>(*const_cast<std::uint32_t*>(a.ready))
        .fetch_add(1, cuda::memory_order_release);
    seen = false;
    const std::uint64_t start = now_ns();
    for (std::uint32_t spin = 0;; ++spin) {
      if (load_acquire<ScopeKind::Sys>(a.flag) != 0) {
        seen = true;
        break;
      }
      if ((spin & 63u) == 63u && now_ns() - start > a.spin_timeout_ns) break;
      __nanosleep(200);
    }
  }
  __syncthreads();  // with thread 0's acquire, orders every thread's reads after the flag

  Counters c;
  for (std::uint64_t i = begin + threadIdx.x; i < end; i += blockDim.x) {
    if (!seen) {
      ++c.bin[kResidentTimeout];
      continue;
    }
    const std::uint32_t v = load<L>(a.view + i);
    ++c.bin[v == a.new_value ? kNew : v == a.old_value ? kOld : kOther];
    keep ^= v;
  }
  if (keep == 0xFFFFFFFFu) *a.sink = keep;  // the priming loads must happen: they warm the caches
  flush(c, a.histogram);
}

__global__ void raise_flag(std::uint32_t* flag) { store_release<ScopeKind::Sys>(flag, 1); }

}  // namespace

void preload_resident_kernels() {
  cudaFuncAttributes attributes;
  check_runtime_call(cudaFuncGetAttributes(&attributes, raise_flag), "cudaFuncGetAttributes(raise_flag)");
  check_runtime_call(cudaFuncGetAttributes(&attributes, resident_reader<LoadKind::Weak>), "cudaFuncGetAttributes(resident_reader)");
  check_runtime_call(cudaFuncGetAttributes(&attributes, resident_reader<LoadKind::Volatile>), "cudaFuncGetAttributes(resident_reader)");
  check_runtime_call(cudaFuncGetAttributes(&attributes, resident_reader<LoadKind::NonCoherent>), "cudaFuncGetAttributes(resident_reader)");
}

int resident_blocks() {
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  return sms > 0 ? sms : 1;  // one block per SM: resident, and leaves room for the writer
}

void launch_resident_reader(const ResidentArgs& args, int blocks, cudaStream_t stream) {
  switch (args.load) {
    case LoadKind::NonCoherent: resident_reader<LoadKind::NonCoherent><<<blocks, kThreads, 0, stream>>>(args); break;
    case LoadKind::Volatile: resident_reader<LoadKind::Volatile><<<blocks, kThreads, 0, stream>>>(args); break;
    default: resident_reader<LoadKind::Weak><<<blocks, kThreads, 0, stream>>>(args); break;
  }
  check_launch("resident_reader");
}

void launch_signal(std::uint32_t* flag, cudaStream_t stream) {
  raise_flag<<<1, 1, 0, stream>>>(flag);
  check_launch("raise_flag");
}

}  // namespace vmmcheck::kernels
