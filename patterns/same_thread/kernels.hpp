#pragma once
// Host-side interface of the alias.memory.same_thread kernel (patterns/same_thread/definition.hpp).
#include <cuda_runtime_api.h>

#include "kernels/in_kernel.hpp"
#include "patterns/same_thread/definition.hpp"

namespace vmmcheck::kernels {

// r0 = ld [read]; st [write] = v; (fence.proxy.alias); r1 = ld [read]  -- each thread, `rounds` times.
struct SameThreadArgs {
  std::uint32_t* write_view = nullptr;  // view A, instance words start here
  std::uint32_t* read_view = nullptr;   // view B (or A itself), same words
  patterns::Load load = patterns::Load::Weak;
  bool proxy_fence = false;
  std::uint32_t rounds = 1;
  std::uint32_t value_base = 0;  // round r writes value_base + r + 1
  Placement placement;
  Stress stress;
  unsigned long long* histogram = nullptr;  // patterns::SameThread::kBins counters, accumulated
  std::uint32_t* sink = nullptr;            // keeps otherwise-unused loads alive
};
LaunchShape same_thread_shape(const SameThreadArgs& args, int threads_per_block);
void launch_same_thread(const SameThreadArgs& args, LaunchShape shape, cudaStream_t stream);

}  // namespace vmmcheck::kernels
