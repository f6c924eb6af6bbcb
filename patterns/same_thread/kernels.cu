// alias.memory.same_thread (alias.same_thread, on device memory, is litmus rows now: cases/litmus/
// alias_same_thread.test): one thread reads a word through view B, writes it through view A, and reads it
// through B again. Without fence.proxy.alias, the second read may return the value B's first read
// cached (guide 4.17.5.3): the weak outcome this kernel counts.
#include "kernels/device/histogram.cuh"
#include "kernels/device/launch.cuh"
#include "kernels/device/memory_ops.cuh"
#include "kernels/device/placement.cuh"
#include "kernels/device/stress.cuh"
#include "patterns/same_thread/kernels.hpp"

namespace vmmcheck::kernels {
namespace {

using namespace device;
using Bin = patterns::SameThread::Bin;

template <Load L, bool Fence>
__global__ void same_thread_litmus(SameThreadArgs a) {
  if (is_stress_block(a.stress)) return memory_stress(a.stress);
  const std::uint32_t t = global_thread();
  const std::uint32_t word = word_of(t, a.placement, thread_count(a.stress));
  std::uint32_t* const write = a.write_view + word;
  const std::uint32_t* const read = a.read_view + word;
  Counters c;
  std::uint32_t keep = 0;
  for (std::uint32_t r = 0; r < a.rounds; ++r) {
    stress_round(a.stress, t, r, keep);
    const std::uint32_t v = a.value_base + r + 1;
    const std::uint32_t r0 = load<L>(read);
    store_weak(write, v);
    if constexpr (Fence) proxy_alias_fence();
    const std::uint32_t r1 = load<L>(read);
    ++c.bin[r1 == v ? Bin::New : Bin::Stale];
    keep ^= r0;
  }
  if (keep == 0xFFFFFFFFu) *a.sink = keep;  // r0 must be loaded: it is what warms B's cache line
  flush(c, a.histogram);
  testing_done(a.stress);
}

using Kernel = void (*)(SameThreadArgs);

template <Load L>
Kernel with_fence(bool fence) {
  return fence ? &same_thread_litmus<L, true> : &same_thread_litmus<L, false>;
}

Kernel select(const SameThreadArgs& a) {
  switch (a.load) {
    case Load::Weak: return with_fence<Load::Weak>(a.proxy_fence);
    case Load::Volatile: return with_fence<Load::Volatile>(a.proxy_fence);
    case Load::RelaxedGpu: return with_fence<Load::RelaxedGpu>(a.proxy_fence);
    case Load::AcquireGpu: return with_fence<Load::AcquireGpu>(a.proxy_fence);
    case Load::NonCoherent: return with_fence<Load::NonCoherent>(a.proxy_fence);
  }
  return nullptr;
}

}  // namespace

LaunchShape same_thread_shape(const SameThreadArgs& args, int threads_per_block) {
  return resident_shape(reinterpret_cast<const void*>(select(args)), threads_per_block);
}

void launch_same_thread(const SameThreadArgs& args, LaunchShape shape, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "same_thread_litmus", select(args), shape.blocks, shape.threads, stream, args);
}

}  // namespace vmmcheck::kernels
