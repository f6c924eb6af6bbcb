#pragma once
// What every in-kernel litmus kernel shares: where its parallel instances live, and the optional
// memory stress. Host-side interface, no device code.
#include <cstdint>

#include "kernels/launch.hpp"

namespace vmmcheck::kernels {

// Where each of a launch's parallel instances lives. Threads and memory are placed by co-prime
// permutations that change every launch (and, for partners, every round), so an instance's two agents
// and its memory word are never simply "neighbours".
struct Placement {
  std::uint32_t memory_stride = 1;   // co-prime with the instance count
  std::uint32_t memory_offset = 0;
  std::uint32_t lane_stride = 1;     // odd: co-prime with the power-of-two block size
  std::uint64_t seed = 0;            // varies partner CTAs per round
};

// Optional stress: every testing thread touches scratch lines before each round.
struct Stress {
  std::uint32_t* scratch = nullptr;  // nullptr disables stress
  std::uint32_t scratch_words = 0;
  std::uint32_t accesses = 0;        // per thread per round
};

}  // namespace vmmcheck::kernels
