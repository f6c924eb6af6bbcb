#pragma once
// What every in-kernel test shares, hand-written (patterns/<name>/runner.cpp) or generated from a litmus
// file (run/rows/engine.hpp): the accesses of an instance happen inside one launch, the launches are
// placed afresh, stressed and timed on the GPU by one loop.
#include <cstdint>
#include <string>
#include <type_traits>

#include "common/error.hpp"
#include "kernels/in_kernel.hpp"
#include "run/kit/session.hpp"

namespace vmmcheck::run {

// A fresh co-prime placement of `n` instances for one launch: memory and lane strides,
// and -- for a generated kernel, whose instances span `ctas` CTAs -- a CTA permutation. The lane stride
// is odd, and co-prime with `lanes` (the block's threads; 0: not known) where that is not a power of two.
kernels::Placement placement_for(std::uint64_t seed, std::uint32_t n, std::uint32_t ctas = 1, std::uint32_t lanes = 0);

// Rounds per launch so that `launches` launches of `instances_per_round` reach the budget's instances
// (the hand-written cases' launches are the budget's `iterations`, a litmus row's its `row_launches`).
std::uint32_t rounds_for(const Budget& b, std::uint32_t instances_per_round, std::uint64_t launches);
inline std::uint32_t rounds_for(const Budget& b, std::uint32_t instances_per_round) {
  return rounds_for(b, instances_per_round, b.iterations);
}

// Runs `work()` between a pair of the session's timing events on s.work(), waits for it, and returns its
// GPU time in ms.
template <typename Work>
float gpu_ms(GpuSession& s, Work work) {
  CUDA_CHECK(cudaEventRecord(s.timing_start(0), s.work()));
  work();
  CUDA_CHECK(cudaEventRecord(s.timing_stop(0), s.work()));
  CUDA_CHECK(cudaEventSynchronize(s.timing_stop(0)));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, s.timing_start(0), s.timing_stop(0)));
  return ms;
}

// The one in-kernel launch loop (every in-kernel test goes through it, hand-written or generated from a
// litmus file): `plan.launches` launches on s.work(), each timed on the GPU, each with a fresh co-prime
// placement of `plan.placed` items over `plan.ctas` CTAs seeded by the case (`name`) and the launch. For
// launch i: prepare(i, placement) sets the kernel's parameters and queues what must precede it untimed
// (zeroing its words, say), then launch() is timed, then after(i) queues what follows it untimed
// (counting). The host does not wait for a launch to finish before it queues the next: each launch's time
// is read from its pair of the session's timing ring only before the pair comes round again
// (GpuSession::kTimedInFlight) -- so prepare and after must queue their work on s.work(), never write
// what a launch still queued reads. A launch whose work runs elsewhere (peer.mp's reader, on the second
// GPU) times itself: it returns its milliseconds. Returns the launches' GPU time in seconds.
struct LoopPlan {
  std::uint32_t placed = 0;                 // items a placement spreads (instances of one round)
  std::uint64_t launches = 0;
  std::uint64_t instances_per_launch = 0;
  std::uint32_t ctas = 1;                   // CTAs a generated kernel's instances are permuted over
  std::uint32_t lanes = 0;                  // threads per block (the lane permutation's modulus); 0: not known
};
template <typename Prepare, typename Launch, typename After>
double launch_loop(GpuSession& s, const std::string& name, const LoopPlan& plan, Prepare prepare, Launch launch, After after) {
  const Budget& b = s.budget();
  double total_ms = 0;
  const auto elapsed_ms = [&](std::uint64_t it) {  // launch it's time, once its stop event has passed
    CUDA_CHECK(cudaEventSynchronize(s.timing_stop(it)));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, s.timing_start(it), s.timing_stop(it)));
    return static_cast<double>(ms);
  };
  std::uint64_t unread = 0;  // the first launch whose time is not read yet
  for (std::uint64_t it = 0; it < plan.launches; ++it) {
    const kernels::Placement placement = placement_for(case_seed(b, name, it), plan.placed, plan.ctas, plan.lanes);
    prepare(it, placement);
    if constexpr (std::is_same_v<decltype(launch()), float>) {
      total_ms += launch();
    } else {
      if (it - unread == GpuSession::kTimedInFlight) total_ms += elapsed_ms(unread++);  // its pair comes round
      CUDA_CHECK(cudaEventRecord(s.timing_start(it), s.work()));
      launch();
      CUDA_CHECK(cudaEventRecord(s.timing_stop(it), s.work()));
    }
    after(it);
  }
  if constexpr (!std::is_same_v<decltype(launch()), float>)
    while (unread < plan.launches) total_ms += elapsed_ms(unread++);
  return total_ms / 1000.0;
}

// launch_loop for a case of a hand-written pattern: fills r's GPU time, histogram (the session's; a
// pattern counting on another GPU adds its own after), and instances (plan.instances_per_launch per launch).
template <typename Prepare, typename Launch, typename After>
void launch_loop(GpuSession& s, const model::Case& c, CaseResult& r, const LoopPlan& plan, Prepare prepare, Launch launch,
                 After after) {
  r.gpu_seconds = launch_loop(s, c.name, plan, prepare, launch, after);
  s.read_histogram(r.histogram);
  r.instances = plan.instances_per_launch * plan.launches;
}

}  // namespace vmmcheck::run
