#pragma once
// Parallel-instance placement: which memory word an instance uses and which thread is its partner.
#include <cstdint>

#include "kernels/in_kernel.hpp"
#include "kernels/stress_ops.h"

namespace vmmcheck::kernels::device {

__device__ __forceinline__ std::uint32_t global_thread() { return blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __forceinline__ std::uint32_t thread_count() { return gridDim.x * blockDim.x; }

// The CTAs that run instances: the grid less its memory-stress CTAs (kernels/in_kernel.hpp, Stress).
__device__ __forceinline__ std::uint32_t testing_blocks(const Stress& s) { return gridDim.x - s.stress_blocks; }
__device__ __forceinline__ std::uint32_t thread_count(const Stress& s) { return testing_blocks(s) * blockDim.x; }
__device__ __forceinline__ bool is_stress_block(const Stress& s) { return blockIdx.x >= testing_blocks(s); }

// The word of instance i: a co-prime stride permutes instances over the words.
__device__ __forceinline__ std::uint32_t word_of(std::uint32_t instance, const Placement& p, std::uint32_t n) {
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(instance) * p.memory_stride + p.memory_offset) % n);
}

__device__ __forceinline__ std::uint32_t mix32(std::uint64_t x) { return vmmcheck_mix32(x); }

// The instance thread `t` reads in `round`: written by a thread of another CTA (the CTA `k` blocks on,
// 1 <= k < grid), at a lane permuted by an odd stride. A bijection: every instance has one reader.
__device__ __forceinline__ std::uint32_t partner_of(std::uint32_t t, std::uint32_t round, const Placement& p,
                                                   std::uint32_t blocks) {
  const std::uint32_t threads = blockDim.x;
  // Unshuffled: the next CTA, same lane, every round.
  const std::uint32_t h = p.shuffle ? mix32(p.seed * 0x9e3779b97f4a7c15ull + round) : 0u;
  const std::uint32_t k = blocks > 1 ? 1 + h % (blocks - 1) : 0;
  const std::uint32_t block = (t / threads + k) % blocks;
  const std::uint32_t lane = p.shuffle ? ((t % threads) * p.lane_stride + (h >> 16)) % threads : t % threads;
  return block * threads + lane;
}

}  // namespace vmmcheck::kernels::device
