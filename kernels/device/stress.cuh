#pragma once
// Memory stress around in-kernel litmus rounds (kernels/litmus.hpp, Stress; run/records/stress_params.hpp says
// what each knob does): pre-stress accesses before each round, a CTA barrier, and the memory-stress
// CTAs that hammer scratch lines while the testing CTAs run.
#include <cuda/atomic>

#include <cstdint>

#include "memory_ops.cuh"
#include "placement.cuh"

namespace vmmcheck::kernels::device {

// One stress access: two operations on a word of a scratch line, in the order of the pattern. Lanes of a
// warp land on different words of one line, so a warp's accesses contend for that line.
__device__ __forceinline__ void stress_access(const Stress& s, std::uint32_t line, std::uint32_t& keep) {
  volatile std::uint32_t* const p = s.scratch + line * s.line_words + threadIdx.x % s.line_words;
  switch (s.pattern) {
    case StressPattern::StoreStore: *p = keep + 1; *p = keep + 2; break;
    case StressPattern::StoreLoad: *p = keep + 1; keep ^= *p; break;
    case StressPattern::LoadStore: keep ^= *p; *p = keep + 1; break;
    case StressPattern::LoadLoad: keep ^= *p; keep ^= *p; break;
  }
}

__device__ __forceinline__ std::uint32_t stress_line(const Stress& s, std::uint32_t t, std::uint32_t round, std::uint32_t a) {
  return mix32((static_cast<std::uint64_t>(round) << 40) ^ (static_cast<std::uint64_t>(a) << 32) ^ t) % s.lines;
}

// Before each round of a testing thread: the CTA barrier, then the pre-stress accesses.
__device__ __forceinline__ void stress_round(const Stress& s, std::uint32_t t, std::uint32_t round, std::uint32_t& keep) {
  if (s.scratch == nullptr) return;
  if (s.barrier) __syncthreads();
  for (std::uint32_t a = 0; a < s.pre_accesses; ++a) stress_access(s, stress_line(s, t, round, a), keep);
}

// The whole life of a memory-stress CTA: accesses to the scratch lines until every testing CTA is done,
// or -- should one never count itself done -- kMemoryStressBoundNs of GPU time have passed.
constexpr std::uint64_t kMemoryStressBoundNs = 60'000'000'000ull;
__device__ __forceinline__ void memory_stress(const Stress& s) {
  const std::uint32_t t = global_thread();
  const std::uint32_t testing = testing_blocks(s);
  const std::uint64_t start = now_ns();
  std::uint32_t keep = 0;
  for (std::uint32_t i = 0; cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>(*s.done).load(cuda::memory_order_relaxed) < testing &&
                            now_ns() - start < kMemoryStressBoundNs;
       ++i)
    for (std::uint32_t a = 0; a < s.stress_accesses; ++a) stress_access(s, stress_line(s, t, i, a), keep);
  if (keep == 0xFFFFFFFFu) s.scratch[0] = keep;  // the loads must happen
}

// The end of a testing CTA: counts itself done, which lets the memory-stress CTAs stop.
__device__ __forceinline__ void testing_done(const Stress& s) {
  if (s.done == nullptr) return;
  __syncthreads();
  if (threadIdx.x == 0) cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>(*s.done).fetch_add(1, cuda::memory_order_relaxed);
}

}  // namespace vmmcheck::kernels::device
