// alias.memory.mp: message passing between CTAs on other kinds of memory (alias.mp and alias.mp_cta,
// on device memory, are litmus rows now: cases/litmus/alias_mp*.test). Each thread first warms the data
// line of the instance it will read, writes its own instance's data and releases its flag; then, as the
// reader of another CTA's instance, it acquires that flag (a bounded spin) and reads the data. Values
// grow by one each round, so a data value below the round's is the weak outcome.
#include "kernels/device/histogram.cuh"
#include "kernels/device/launch.cuh"
#include "kernels/device/memory_ops.cuh"
#include "kernels/device/placement.cuh"
#include "kernels/device/stress.cuh"
#include "kernels/device/wait.cuh"
#include "patterns/message_passing/kernels.hpp"

namespace vmmcheck::kernels {
namespace {

using namespace device;
using patterns::FlagSync;
using Bin = patterns::MessagePassing::Bin;

template <Scope S, FlagSync F, bool WriterFence, bool ReaderFence>
__global__ void message_passing_litmus(MessagePassingArgs a) {
  if (is_stress_block(a.stress)) return memory_stress(a.stress);
  const std::uint32_t t = global_thread();
  const std::uint32_t n = thread_count(a.stress);
  const std::uint32_t blocks = testing_blocks(a.stress);
  const std::uint32_t mine = word_of(t, a.placement, n);
  Counters c;
  std::uint32_t keep = 0;
  for (std::uint32_t r = 0; r < a.rounds; ++r) {
    stress_round(a.stress, t, r, keep);
    const std::uint32_t v = a.value_base + r + 1;
    const std::uint32_t reader_of = partner_of(t, r, a.placement, blocks);
    const std::uint32_t theirs = word_of(reader_of, a.placement, n);
    // The reader warms its data line first, so an unordered read can hit the stale copy (as the
    // same-thread kernel's first read does); it orders nothing.
    keep ^= load<Load::Weak>(a.data_read + theirs);

    // Writer of instance t.
    store_weak(a.data_write + mine, v);
    if constexpr (WriterFence) proxy_alias_fence();
    publish<S, F>(a.flag_write + mine, v);

    // Reader of the partner's instance, in another CTA.
    std::uint32_t* const flag = a.flag_read + theirs;
    if (!wait_until([&] { return observe<S, F>(flag) >= v; }, a.spin_timeout_ns)) {
      ++c.bin[Bin::Timeout];
      continue;
    }
    if constexpr (ReaderFence) proxy_alias_fence();
    const std::uint32_t d = load<Load::Weak>(a.data_read + theirs);
    ++c.bin[d >= v ? Bin::New : Bin::Stale];
  }
  if (keep == 0xFFFFFFFFu && a.sink) *a.sink = keep;  // the warming loads must happen
  flush(c, a.histogram);
  testing_done(a.stress);
}

using Kernel = void (*)(MessagePassingArgs);

template <Scope S, FlagSync F>
Kernel select_fences(const MessagePassingArgs& a) {
  if (a.writer_fence)
    return a.reader_fence ? &message_passing_litmus<S, F, true, true> : &message_passing_litmus<S, F, true, false>;
  return a.reader_fence ? &message_passing_litmus<S, F, false, true> : &message_passing_litmus<S, F, false, false>;
}

template <Scope S>
Kernel select_sync(const MessagePassingArgs& a) {
  return a.flag_sync == FlagSync::ReleaseAcquire ? select_fences<S, FlagSync::ReleaseAcquire>(a)
                                                 : select_fences<S, FlagSync::Relaxed>(a);
}

Kernel select(const MessagePassingArgs& a) {
  switch (a.scope) {
    case Scope::Cta: return select_sync<Scope::Cta>(a);
    case Scope::Gpu: return select_sync<Scope::Gpu>(a);
    case Scope::Sys: return select_sync<Scope::Sys>(a);
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
