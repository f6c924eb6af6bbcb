#pragma once
// Host-side interface of the proxy.async kernels (patterns/async_copy/definition.hpp). sm_90 and newer: on older
// GPUs the runner is NotSupported before launching.
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstdint>

#include "vocabulary/axes.hpp"

namespace vmmcheck::kernels {

constexpr int kAsyncThreads = 256;
// Each thread's words: 16 bytes, the smallest bulk copy. A thread stores them and copies them itself, so
// the generic store and the async-proxy access stand back to back (patterns/async_copy/kernels.cu says why).
constexpr std::uint32_t kAsyncSlotWords = 4;
constexpr std::uint32_t kAsyncChunkWords = kAsyncSlotWords * kAsyncThreads;  // one CTA's words: 4 KiB
// tensor_to_shared: the words as a 2D tensor of kTensorRowWords-word rows; a thread's words are one box
// of kAsyncSlotWords x 1 (the inner box dimension is 16 bytes, the least a tensor map takes).
constexpr std::uint32_t kTensorRowWords = 256;

struct AsyncCopyArgs {
  std::uint32_t* a = nullptr;     // view A
  std::uint32_t* view = nullptr;  // the view the copy reads (global_to_shared) or the loads read (shared_to_global)
  patterns::AsyncDirection direction = patterns::AsyncDirection::GlobalToShared;
  bool alias_fence = false;       // fence.proxy.alias
  bool async_fence = false;       // fence.proxy.async.global
  std::uint32_t rounds = 1;
  std::uint32_t value_base = 0;   // round r writes value_base + r + 1
  unsigned long long* histogram = nullptr;  // AsyncCopy::kBins counters
  std::uint32_t* sink = nullptr;
};

// `blocks` CTAs, each on its own kAsyncChunkWords words, each thread on kAsyncSlotWords of them.
// tensor_to_shared reads through `map` (a tensor map over args.view: rows of kTensorRowWords words,
// boxes of kAsyncSlotWords x 1).
void launch_async_copy(const AsyncCopyArgs& args, int blocks, cudaStream_t stream, const CUtensorMap* map = nullptr);

}  // namespace vmmcheck::kernels
