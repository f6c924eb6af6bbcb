// multicast.*: a word reached through a multicast mapping (multimem.*, through libcu++ cuda::ptx) and
// through the unicast mapping of the same device's memory. Per word: the first access, then the second
// through the other mapping; "new" when the second sees the value of the first.
//   st:        multimem.st [mc] = v;                       r = ld [uc]
//   red:       multimem.red.release.sys.add [mc], 1;       r = ld.acquire.sys [uc]   (uc held v - 1)
//   ld_reduce: st [uc] = v;                                r = multimem.ld_reduce.add [mc]  (one device: v)
#include <cuda/ptx>

#include "kernels/device/histogram.cuh"
#include "kernels/device/launch.cuh"
#include "kernels/device/memory_ops.cuh"
#include "kernels/device/placement.cuh"
#include "patterns/multicast/kernels.hpp"

namespace vmmcheck::kernels {
namespace {

using namespace device;
using patterns::MulticastOp;
using Bin = patterns::Multicast::Bin;

__device__ __forceinline__ void first_access(const MulticastArgs& a, std::uint64_t i) {
#if __CUDA_ARCH__ >= 900
  switch (a.op) {
    case MulticastOp::Store: cuda::ptx::multimem_st(cuda::ptx::sem_weak, a.multicast + i, a.value); break;
    case MulticastOp::Reduce:
      cuda::ptx::multimem_red(cuda::ptx::sem_release, cuda::ptx::scope_sys, cuda::ptx::op_add, a.multicast + i, 1u);
      break;
    case MulticastOp::LoadReduce: store_weak(a.unicast + i, a.value); break;
  }
#endif
}

__device__ __forceinline__ std::uint32_t second_access(const MulticastArgs& a, std::uint64_t i) {
#if __CUDA_ARCH__ >= 900
  switch (a.op) {
    case MulticastOp::Store: return load<Load::Weak>(a.unicast + i);
    case MulticastOp::Reduce: return load_acquire<Scope::Sys>(a.unicast + i);
    case MulticastOp::LoadReduce:
      return cuda::ptx::multimem_ld_reduce(cuda::ptx::sem_weak, cuda::ptx::op_add, a.multicast + i);
  }
#endif
  return 0;
}

__device__ __forceinline__ void count(const MulticastArgs& a, std::uint32_t seen, Counters& c) {
  ++c.bin[seen == a.expect ? Bin::New : Bin::Stale];
}

__global__ void multicast_pair(MulticastArgs a) {
  Counters c;
  for (std::uint64_t i = global_thread(); i < a.count; i += thread_count()) {
    first_access(a, i);
    if (a.fence) proxy_alias_fence();
    count(a, second_access(a, i), c);
  }
  flush(c, a.histogram);
}

__global__ void multicast_first(MulticastArgs a) {
  for (std::uint64_t i = global_thread(); i < a.count; i += thread_count()) first_access(a, i);
}

__global__ void multicast_second(MulticastArgs a) {
  Counters c;
  for (std::uint64_t i = global_thread(); i < a.count; i += thread_count()) count(a, second_access(a, i), c);
  flush(c, a.histogram);
}

}  // namespace

void launch_multicast_pair(const MulticastArgs& args, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "multicast_pair", multicast_pair, grid_for(args.count), kStrideThreads, stream, args);
}
void launch_multicast_first(const MulticastArgs& args, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "multicast_first", multicast_first, grid_for(args.count), kStrideThreads, stream, args);
}
void launch_multicast_second(const MulticastArgs& args, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "multicast_second", multicast_second, grid_for(args.count), kStrideThreads, stream, args);
}

}  // namespace vmmcheck::kernels
