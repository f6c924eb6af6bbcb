#pragma once
// Device helpers over SurfaceTexels (kernels/surface_texels.hpp): how many there are, and a surface store
// to texel i (x = i % width, y = i / width).
#include <cstdint>

#include "kernels/surface_texels.hpp"

namespace vmmcheck::kernels::device {

__device__ __forceinline__ std::uint64_t texels(const SurfaceTexels& t) { return std::uint64_t{t.width} * t.height; }

__device__ __forceinline__ void store_texel(const SurfaceTexels& t, std::uint64_t i, std::uint32_t value) {
  const auto x = static_cast<int>(i % t.width), y = static_cast<int>(i / t.width);
  surf2Dwrite(value, t.surface, x * static_cast<int>(sizeof(std::uint32_t)), y);
}

}  // namespace vmmcheck::kernels::device
