// alias.mp: message passing between CTAs. Each thread writes its instance's data and then releases its
// flag; then, as the reader of another CTA's instance, it acquires that flag (a bounded spin) and reads
// the data. Values grow by one each round, so a data value below the round's is the weak outcome.
#include "device/histogram.cuh"
#include "device/launch.cuh"
#include "device/memory_ops.cuh"
#include "device/placement.cuh"
#include "device/wait.cuh"
#include "kernels/message_passing.hpp"

namespace vmmcheck::kernels {
namespace {

using namespace device;
using Bin = patterns::MessagePassing::Bin;

template <Scope S, bool WriterFence, bool ReaderFence>
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
    if (!wait_until([&] { return load_acquire<S>(flag) >= v; }, a.spin_timeout_ns)) {
      ++c.bin[Bin::Timeout];
      continue;
    }
    if constexpr (ReaderFence) proxy_alias_fence();
    const std::uint32_t d = load<Load::Weak>(a.data_read + theirs);
    ++c.bin[d >= v ? Bin::New : Bin::Stale];
  }
  flush(c, a.histogram);
}

using Kernel = void (*)(MessagePassingArgs);

template <Scope S>
Kernel select_fences(const MessagePassingArgs& a) {
  if (a.writer_fence) return a.reader_fence ? &message_passing_litmus<S, true, true> : &message_passing_litmus<S, true, false>;
  return a.reader_fence ? &message_passing_litmus<S, false, true> : &message_passing_litmus<S, false, false>;
}

Kernel select(const MessagePassingArgs& a) {
  switch (a.scope) {
    case Scope::Cta: return select_fences<Scope::Cta>(a);
    case Scope::Gpu: return select_fences<Scope::Gpu>(a);
    case Scope::Sys: return select_fences<Scope::Sys>(a);
  }
  return nullptr;
}

}  // namespace

LaunchShape message_passing_shape(const MessagePassingArgs& args, int threads_per_block) {
  return resident_shape(reinterpret_cast<const void*>(select(args)), threads_per_block);
}

void launch_message_passing(const MessagePassingArgs& args, LaunchShape shape, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "message_passing_litmus", select(args), shape.blocks, shape.threads, stream, args);
}

}  // namespace vmmcheck::kernels
