#pragma once
// Host-side interface of the proxy.texture kernels (patterns/texture/definition.hpp): texture fetches of 32-bit
// words through a texture object (linear: tex1Dfetch; pitched 2D: tex2D, `width` words per row).
#include <cuda_runtime_api.h>

#include <cstdint>

#include "vocabulary/axes.hpp"

namespace vmmcheck::kernels {

struct TextureView {
  cudaTextureObject_t texture = 0;
  patterns::TexResource resource = patterns::TexResource::Linear;
  std::uint64_t count = 0;   // words
  std::uint32_t width = 0;   // words per row (pitch2d)
};

// Fetches every word once (the texture cache then holds them).
void launch_texture_prime(const TextureView& t, std::uint32_t* sink, cudaStream_t stream);
// Counts new / old / other (patterns::Texture bins) over every word, fetched last to first.
void launch_texture_count(const TextureView& t, std::uint32_t new_value, std::uint32_t old_value,
                          unsigned long long* histogram, cudaStream_t stream);
// One kernel: each thread fetches its word, stores `new_value` through `words` (view A), optionally
// fences (fence.proxy.alias), fetches the word again and counts what the second fetch returned.
void launch_texture_in_kernel(const TextureView& t, std::uint32_t* words, bool fence, std::uint32_t new_value,
                              std::uint32_t old_value, unsigned long long* histogram, std::uint32_t* sink,
                              cudaStream_t stream);

// A grid resident before the stores (one block per SM, kernels::resident_blocks()): each block fetches its
// share of the words, counts itself into `ready`, waits (thread 0, bounded) for `flag` != 0 with
// ld.acquire.sys, then fetches its share again and counts (timeout when the flag never came).
void launch_texture_resident(const TextureView& t, volatile std::uint32_t* ready, std::uint32_t* flag,
                             std::uint64_t timeout_ns, std::uint32_t new_value, std::uint32_t old_value,
                             unsigned long long* histogram, std::uint32_t* sink, int blocks, cudaStream_t stream);

}  // namespace vmmcheck::kernels
