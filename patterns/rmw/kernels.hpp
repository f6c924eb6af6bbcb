#pragma once
// Host-side interface of the alias.rmw kernels (patterns/rmw/definition.hpp).
#include <cuda_runtime_api.h>

#include "kernels/in_kernel.hpp"
#include "patterns/rmw/definition.hpp"

namespace vmmcheck::kernels {

// Threads per word (half through view A, half through the view under test) and adds per thread per
// round: a word must end at kRmwThreadsPerWord * kRmwAddsPerThread.
constexpr std::uint32_t kRmwThreadsPerWord = 8;
constexpr std::uint32_t kRmwAddsPerThread = 8;

// Round r uses words [r * words_per_round, (r + 1) * words_per_round) of the region, each zero before
// the launch; a word's threads sit words_per_round apart in the grid, so in different CTAs.
struct RmwArgs {
  std::uint32_t* view_a = nullptr;     // the words through view A
  std::uint32_t* view_b = nullptr;     // the same words through the view under test
  patterns::Scope scope = patterns::Scope::Gpu;
  patterns::Update update = patterns::Update::Atomic;  // Plain: a relaxed load, then a relaxed store
  std::uint32_t rounds = 1;
  Placement placement;                 // of instances over a round's words
  std::uint32_t* sink = nullptr;       // keeps the fetched values alive (atom, not red)
};
LaunchShape rmw_shape(const RmwArgs& args, int threads_per_block);
// Words per round for a launch of `shape` (the instances of one round).
std::uint32_t rmw_words_per_round(LaunchShape shape);
void launch_rmw(const RmwArgs& args, LaunchShape shape, cudaStream_t stream);

// Counts exact / lost / excess (patterns::Rmw bins) over `count` words read through `words`.
void launch_rmw_count(const std::uint32_t* words, std::uint64_t count, unsigned long long* histogram,
                      cudaStream_t stream);

}  // namespace vmmcheck::kernels
