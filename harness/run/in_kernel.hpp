#pragma once
// What the in-kernel runners share: both accesses of an instance happen inside one launch, one launch
// runs one instance per resident thread per round, and the launches are timed on the GPU.
#include <cstdint>

#include "common/error.hpp"
#include "kernels/litmus.hpp"
#include "run/session.hpp"

namespace vmmcheck::run {

// A fresh co-prime placement of `n` instances for one launch.
kernels::Placement placement_for(std::uint64_t seed, std::uint32_t n);

// Rounds per launch so that `iterations` launches of `instances_per_round` reach the budget's instances.
std::uint32_t rounds_for(const Budget& b, std::uint32_t instances_per_round);

// Runs `launch(iteration, value_base)` for every iteration on s.work(), timing the launches with events,
// then reads the histogram into r.
template <typename Launch>
void timed_launches(GpuSession& s, std::uint32_t rounds, CaseResult& r, Launch launch) {
  float total_ms = 0;
  for (std::uint32_t it = 0; it < s.budget().iterations; ++it) {
    CUDA_CHECK(cudaEventRecord(s.timing_start(), s.work()));
    launch(it, it * rounds);
    CUDA_CHECK(cudaEventRecord(s.timing_stop(), s.work()));
    CUDA_CHECK(cudaEventSynchronize(s.timing_stop()));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, s.timing_start(), s.timing_stop()));
    total_ms += ms;
  }
  r.gpu_seconds = total_ms / 1000.0;
  s.read_histogram(r.histogram);
}

}  // namespace vmmcheck::run
