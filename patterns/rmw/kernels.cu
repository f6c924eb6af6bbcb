// alias.rmw: kRmwThreadsPerWord threads of different CTAs add 1 to one word kRmwAddsPerThread times
// each, with atomic fetch-adds at a scope; even slots go through view A, odd slots through the view
// under test. A later kernel counts the words that do not hold the total: lost (or excess) updates.
#include "kernels/device/histogram.cuh"
#include "kernels/device/launch.cuh"
#include "kernels/device/memory_ops.cuh"
#include "kernels/device/placement.cuh"
#include "patterns/rmw/kernels.hpp"

namespace vmmcheck::kernels {
namespace {

using namespace device;
using patterns::Update;
using Bin = patterns::Rmw::Bin;

template <Scope S, Update U>
__global__ void rmw_litmus(RmwArgs a) {
  const std::uint32_t t = global_thread();
  const std::uint32_t words = thread_count() / kRmwThreadsPerWord;  // per round
  const std::uint32_t slot = t / words;                             // which of its word's threads
  if (slot >= kRmwThreadsPerWord) return;                           // the grid's remainder
  const std::uint32_t instance = word_of(t % words, a.placement, words);
  std::uint32_t* const base = slot % 2 == 0 ? a.view_a : a.view_b;
  std::uint32_t keep = 0;
  for (std::uint32_t r = 0; r < a.rounds; ++r) {
    cuda::atomic_ref<std::uint32_t, ScopeOf<S>::value> word(base[static_cast<std::uint64_t>(r) * words + instance]);
    for (std::uint32_t k = 0; k < kRmwAddsPerThread; ++k) {
      if constexpr (U == Update::Atomic) {
        keep += word.fetch_add(1, cuda::memory_order_relaxed);
      } else {
        const std::uint32_t seen = word.load(cuda::memory_order_relaxed);  // not atomic with the store
        word.store(seen + 1, cuda::memory_order_relaxed);
        keep += seen;
      }
    }
  }
  if (keep == 0xFFFFFFFFu) *a.sink = keep;  // the fetched values are used: atom.add, not red.add
}

__global__ void rmw_count(const std::uint32_t* words, std::uint64_t count, unsigned long long* histogram) {
  constexpr std::uint32_t total = kRmwThreadsPerWord * kRmwAddsPerThread;
  Counters c;
  for (std::uint64_t i = global_thread(); i < count; i += thread_count()) {
    const std::uint32_t v = load<Load::Weak>(words + i);
    ++c.bin[v == total ? Bin::Exact : v < total ? Bin::Lost : Bin::Excess];
  }
  flush(c, histogram);
}

using Kernel = void (*)(RmwArgs);

template <Scope S>
Kernel with_update(Update update) {
  return update == Update::Atomic ? &rmw_litmus<S, Update::Atomic> : &rmw_litmus<S, Update::Plain>;
}

Kernel select(const RmwArgs& a) {
  switch (a.scope) {
    case Scope::Cta: return with_update<Scope::Cta>(a.update);
    case Scope::Gpu: return with_update<Scope::Gpu>(a.update);
    case Scope::Sys: return with_update<Scope::Sys>(a.update);
  }
  return nullptr;
}

}  // namespace

LaunchShape rmw_shape(const RmwArgs& args, int threads_per_block) {
  return resident_shape(reinterpret_cast<const void*>(select(args)), threads_per_block);
}

std::uint32_t rmw_words_per_round(LaunchShape shape) { return shape.instances() / kRmwThreadsPerWord; }

void launch_rmw(const RmwArgs& args, LaunchShape shape, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "rmw_litmus", select(args), shape.blocks, shape.threads, stream, args);
}

void launch_rmw_count(const std::uint32_t* words, std::uint64_t count, unsigned long long* histogram,
                      cudaStream_t stream) {
  launch(VMMCHECK_HERE, "rmw_count", rmw_count, grid_for(count), kStrideThreads, stream, words, count, histogram);
}

}  // namespace vmmcheck::kernels
