// alias.mp: message passing between CTAs. Each thread writes its instance's data and then releases its
// flag; then, as the reader of another CTA's instance, it acquires that flag (a bounded spin) and reads
// the data. Values grow by one each round, so a data value below the round's is the weak outcome.
#include "device/histogram.cuh"
#include "device/memory_ops.cuh"
#include "device/placement.cuh"
#include "launch_check.hpp"

namespace vmmcheck::kernels {
namespace {

using namespace device;

template <ScopeKind S, bool WriterFence, bool ReaderFence>
__global__ void message_passing_litmus(MessagePassingArgs a) {
  const std::uint32_t t = global_thread();
  const std::uint32_t n = thread_count();
  const std::uint32_t mine = word_of(t, a.placement, n);
  Counters c;
  for (std::uint32_t r = 0; r < a.rounds; ++r) {
    stress_round(a.stress, t, r);
    const std::uint32_t v = a.value_base + r + 1;

    // Writer of instance t.
    store_weak(a.data_write + mine, v);
    if constexpr (WriterFence) proxy_alias_fence();
    store_release<S>(a.flag_write + mine, v);

    // Reader of the partner's instance, in another CTA.
    const std::uint32_t theirs = word_of(partner_of(t, r, a.placement), a.placement, n);
    std::uint32_t* const flag = a.flag_read + theirs;
    bool seen = false;
    const std::uint64_t start = now_ns();
    for (std::uint32_t spin = 0;; ++spin) {
      if (load_acquire<S>(flag) >= v) {
        seen = true;
        break;
      }
      if ((spin & 63u) == 63u && now_ns() - start > a.spin_timeout_ns) break;  // never hang
    }
    if (!seen) {
      ++c.bin[kTimeout];
      continue;
    }
    if constexpr (ReaderFence) proxy_alias_fence();
    const std::uint32_t d = load<LoadKind::Weak>(a.data_read + theirs);
    ++c.bin[d >= v ? kNew : kStale];
  }
  flush(c, a.histogram);
}

using Kernel = void (*)(MessagePassingArgs);

template <ScopeKind S>
Kernel select_fences(const MessagePassingArgs& a) {
  if (a.writer_fence) return a.reader_fence ? &message_passing_litmus<S, true, true> : &message_passing_litmus<S, true, false>;
  return a.reader_fence ? &message_passing_litmus<S, false, true> : &message_passing_litmus<S, false, false>;
}

Kernel select(const MessagePassingArgs& a) {
  switch (a.scope) {
    case ScopeKind::Cta: return select_fences<ScopeKind::Cta>(a);
    case ScopeKind::Gpu: return select_fences<ScopeKind::Gpu>(a);
    case ScopeKind::Sys: return select_fences<ScopeKind::Sys>(a);
  }
  return nullptr;
}

}  // namespace

LaunchShape message_passing_shape(const MessagePassingArgs& args, int threads_per_block) {
  return resident_shape(reinterpret_cast<const void*>(select(args)), threads_per_block);
}

void launch_message_passing(const MessagePassingArgs& args, LaunchShape shape, cudaStream_t stream) {
  select(args)<<<shape.blocks, shape.threads, 0, stream>>>(args);
  check_launch("message_passing_litmus");
}

}  // namespace vmmcheck::kernels
