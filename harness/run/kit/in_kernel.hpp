#pragma once
// What the in-kernel runners share: both accesses of an instance happen inside one launch, one launch
// runs one instance per resident thread per round, and the launches are timed on the GPU.
#include <cstdint>

#include "common/error.hpp"
#include "kernels/litmus.hpp"
#include "run/kit/session.hpp"

namespace vmmcheck::run {

// A fresh co-prime placement of `n` instances for one launch.
kernels::Placement placement_for(std::uint64_t seed, std::uint32_t n);

// Rounds per launch so that `iterations` launches of `instances_per_round` reach the budget's instances.
std::uint32_t rounds_for(const Budget& b, std::uint32_t instances_per_round);

// Runs `work()` between the session's timing events on s.work() and returns its GPU time in ms.
template <typename Work>
float gpu_ms(GpuSession& s, Work work) {
  CUDA_CHECK(cudaEventRecord(s.timing_start(), s.work()));
  work();
  CUDA_CHECK(cudaEventRecord(s.timing_stop(), s.work()));
  CUDA_CHECK(cudaEventSynchronize(s.timing_stop()));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, s.timing_start(), s.timing_stop()));
  return ms;
}

// The in-kernel loop: as many rounds per launch as the budget needs, `iterations` launches, each with a
// fresh placement of the testing CTAs' instances and values of its own (round r of launch i writes
// i * rounds + r + 1), timed on the GPU. `args` is the kernel's parameter block (rounds, value_base,
// placement, stress); `launch(args)` launches it, all of `shape`, on s.work(). Fills r's histogram,
// instances and GPU time.
template <typename Args, typename Launch>
void run_litmus(GpuSession& s, const model::Case& c, CaseResult& r, Args& args, kernels::LaunchShape shape,
                Launch launch) {
  const Budget& b = s.budget();
  args.stress = s.stress_for(shape);
  const std::uint32_t n = kernels::testing_shape(shape, args.stress).instances();
  args.rounds = rounds_for(b, n);
  float total_ms = 0;
  for (std::uint32_t it = 0; it < b.iterations; ++it) {
    args.value_base = it * args.rounds;
    args.placement = placement_for(case_seed(b, c.name, it), n);
    args.placement.shuffle = b.stress.shuffle;
    // The memory-stress CTAs run until the testing CTAs have counted themselves done.
    if (args.stress.done) CUDA_CHECK(cudaMemsetAsync(args.stress.done, 0, sizeof(std::uint32_t), s.work()));
    total_ms += gpu_ms(s, [&] { launch(args); });
  }
  r.gpu_seconds = total_ms / 1000.0;
  s.read_histogram(r.histogram);
  r.instances = static_cast<std::uint64_t>(n) * args.rounds * b.iterations;
}

}  // namespace vmmcheck::run
