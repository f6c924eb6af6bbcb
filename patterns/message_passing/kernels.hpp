#pragma once
// Host-side interface of the alias.memory.mp kernel (patterns/message_passing/definition.hpp).
#include <cuda_runtime_api.h>

#include "kernels/in_kernel.hpp"
#include "patterns/message_passing/definition.hpp"

namespace vmmcheck::kernels {

// Writer: st data[A] = v; (fence); st.release.scope flag[A] = v.
// Reader (a thread of another CTA): ld data[data_view] (warms the line); spin ld.acquire.scope
// flag[flag_view] >= v; (fence); ld data[data_view]. With FlagSync::Relaxed the flag is stored and loaded
// relaxed instead (the control of release/acquire).
struct MessagePassingArgs {
  std::uint32_t* data_write = nullptr;  // view A
  std::uint32_t* flag_write = nullptr;  // view A
  std::uint32_t* data_read = nullptr;   // the data axis' view
  std::uint32_t* flag_read = nullptr;   // the flag axis' view
  bool writer_fence = false;
  bool reader_fence = false;
  patterns::Scope scope = patterns::Scope::Gpu;
  patterns::FlagSync flag_sync = patterns::FlagSync::ReleaseAcquire;
  std::uint32_t rounds = 1;
  std::uint32_t value_base = 0;
  std::uint64_t spin_timeout_ns = 20'000'000;
  Placement placement;
  Stress stress;
  unsigned long long* histogram = nullptr;  // patterns::MessagePassing::kBins counters
  std::uint32_t* sink = nullptr;            // keeps the warming loads alive
};
LaunchShape message_passing_shape(const MessagePassingArgs& args, int threads_per_block);
void launch_message_passing(const MessagePassingArgs& args, LaunchShape shape, cudaStream_t stream);

}  // namespace vmmcheck::kernels
