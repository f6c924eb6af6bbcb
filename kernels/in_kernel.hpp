#pragma once
// What every in-kernel test shares, hand-written or generated from a litmus file: where its parallel
// instances live, and the memory stress around them. Host-side interface, no device code.
#include <cstdint>

#include "kernels/launch_shape.hpp"
#include "kernels/stress_ops.h"

namespace vmmcheck::kernels {

// Where each of a launch's parallel instances lives (a generated kernel's: harness/codegen/kernel_abi.h).
// Threads and memory are placed by co-prime permutations that change every launch, so an instance's
// agents and its memory word are never simply "neighbours".
struct Placement {
  std::uint32_t memory_stride = 1;   // co-prime with the instance count
  std::uint32_t memory_offset = 0;
  std::uint32_t lane_stride = 1;     // odd: co-prime with the power-of-two block size
  // The CTA permutation: the file CTAs of an instance land on CTAs c * cta_stride + cta_offset (mod ctas).
  std::uint32_t cta_stride = 1;      // co-prime with the testing CTAs
  std::uint32_t cta_offset = 0;
};

// How a stress access touches its scratch line (the GPU litmus tools' "stress patterns").
enum class StressPattern : std::uint8_t { StoreStore, StoreLoad, LoadStore, LoadLoad };
constexpr int kStressPatterns = 4;

// The memory stress of one launch, as the kernel sees it (run/records/stress_params.hpp holds the knobs a user
// sets and says what each does). All scratch accesses land on `lines` cache lines of `line_words` words.
struct Stress {
  std::uint32_t* scratch = nullptr;  // nullptr: no stress of any kind
  std::uint32_t line_words = 32;     // 128-byte lines
  std::uint32_t lines = 0;
  StressPattern pattern = StressPattern::StoreStore;
  std::uint32_t pre_accesses = 0;    // per testing thread before each round
  bool barrier = false;              // a CTA barrier before each round: writers and readers start together
  // Memory-stress CTAs: the last `stress_blocks` CTAs of the grid run no instances; they hammer the
  // scratch lines (`stress_accesses` per loop) until every testing CTA has counted itself into `done`.
  std::uint32_t stress_blocks = 0;
  std::uint32_t stress_accesses = 0;
  std::uint32_t* done = nullptr;     // zeroed before each launch
};

// The stress as kernels/stress_ops.h (and so a generated kernel) takes it.
constexpr VmmcheckStress abi_of(const Stress& s) {
  return VmmcheckStress{s.scratch,     s.line_words,   s.lines,           static_cast<unsigned>(s.pattern),
                        s.pre_accesses, s.barrier ? 1u : 0u, s.stress_blocks, s.stress_accesses, s.done};
}
static_assert(static_cast<unsigned>(StressPattern::StoreStore) == VMMCHECK_STRESS_STORE_STORE &&
              static_cast<unsigned>(StressPattern::StoreLoad) == VMMCHECK_STRESS_STORE_LOAD &&
              static_cast<unsigned>(StressPattern::LoadStore) == VMMCHECK_STRESS_LOAD_STORE &&
              static_cast<unsigned>(StressPattern::LoadLoad) == VMMCHECK_STRESS_LOAD_LOAD);

}  // namespace vmmcheck::kernels
