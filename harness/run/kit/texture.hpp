#pragma once
// Texture objects over words of device memory, for the texture-proxy readers: proxy.texture's runner
// and the litmus rows' .texref addresses (run/rows/engine.cpp).
#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/cuda_objects.hpp"
#include "vocabulary/axes.hpp"

namespace vmmcheck::run {

using TextureObject = Owned<cudaTextureObject_t, cudaDestroyTextureObject>;

// Pitch2D resources: rows of this many words (8 KiB, a multiple of any texture pitch alignment).
constexpr std::uint32_t kTextureRowWords = 2048;

// A texture of `count` 32-bit unsigned words at `words`: point filtering, unnormalised coordinates;
// linear, or pitch2D in rows of kTextureRowWords (count a multiple of it).
TextureObject texture_over(std::uint32_t* words, patterns::TexResource resource, std::uint64_t count);

}  // namespace vmmcheck::run
