// alias.resident: the resident-grid clause. The reader grid is running before the writer starts; it
// primes its words, reports itself ready, and waits (bounded) for a flag raised only after the writing
// operation completed. Guide 4.17.5.3: through other aliases, such a grid is still incoherent.
#include "kernels/device/histogram.cuh"
#include "kernels/device/launch.cuh"
#include "kernels/device/memory_ops.cuh"
#include "kernels/device/placement.cuh"
#include "kernels/device/wait.cuh"
#include "patterns/resident/kernels.hpp"

namespace vmmcheck::kernels {
namespace {

using namespace device;
using Bin = patterns::Resident::Bin;
using patterns::FlagSync;

constexpr int kThreads = 256;

template <Load L, bool Acquire>
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
    seen = !a.wait ||
           wait_until([&] { return observe<Scope::Sys, Acquire ? FlagSync::ReleaseAcquire : FlagSync::Relaxed>(a.flag) != 0; },
                      a.spin_timeout_ns, /*backoff_ns=*/200);
  }
  __syncthreads();  // with thread 0's acquire, orders every thread's reads after the flag (relaxed: nothing)

  Counters c;
  for (std::uint64_t i = begin + threadIdx.x; i < end; i += blockDim.x) {
    if (!seen) {
      ++c.bin[Bin::Timeout];
      continue;
    }
    const std::uint32_t v = load<L>(a.view + i);
    ++c.bin[v == a.new_value ? Bin::New : v == a.old_value ? Bin::Old : Bin::Other];
    keep ^= v;
  }
  if (keep == 0xFFFFFFFFu) *a.sink = keep;  // the priming loads must happen: they warm the caches
  flush(c, a.histogram);
}

__global__ void raise_flag(std::uint32_t* flag) { store_release<Scope::Sys>(flag, 1); }

using Kernel = void (*)(ResidentArgs);

constexpr Load kLoads[] = {Load::Weak, Load::Volatile, Load::RelaxedGpu, Load::AcquireGpu, Load::NonCoherent};

template <bool Acquire>
Kernel select_load(Load load) {
  switch (load) {
    case Load::Weak: return &resident_reader<Load::Weak, Acquire>;
    case Load::Volatile: return &resident_reader<Load::Volatile, Acquire>;
    case Load::RelaxedGpu: return &resident_reader<Load::RelaxedGpu, Acquire>;
    case Load::AcquireGpu: return &resident_reader<Load::AcquireGpu, Acquire>;
    case Load::NonCoherent: return &resident_reader<Load::NonCoherent, Acquire>;
  }
  return nullptr;
}

Kernel select(Load load, bool acquire) { return acquire ? select_load<true>(load) : select_load<false>(load); }

}  // namespace

void preload_resident_kernels() {
  cudaFuncAttributes attributes;
  check_call(cudaFuncGetAttributes(&attributes, raise_flag), "cudaFuncGetAttributes(raise_flag)", VMMCHECK_HERE);
  for (Load load : kLoads)
    for (bool acquire : {true, false})
      check_call(cudaFuncGetAttributes(&attributes, select(load, acquire)), "cudaFuncGetAttributes(resident_reader)",
                 VMMCHECK_HERE);
}

void launch_resident_reader(const ResidentArgs& args, int blocks, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "resident_reader", select(args.load, args.acquire), blocks, kThreads, stream, args);
}

void launch_signal(std::uint32_t* flag, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "raise_flag", raise_flag, 1, 1, stream, flag);
}

}  // namespace vmmcheck::kernels
