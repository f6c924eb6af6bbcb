#pragma once
// Host-side interface of the proxy.surface kernels (patterns/surface.hpp): surface stores of 32-bit
// texels into an array whose tiles are the linear mapping's bytes (vmm/sparse_surface.hpp).
#include <cuda_runtime_api.h>

#include <cstdint>

namespace vmmcheck::kernels {

struct SurfaceTiles {
  cudaSurfaceObject_t surface = 0;
  std::uint32_t* linear = nullptr;  // tile t's texels are words [t * tile_words, (t + 1) * tile_words)
  unsigned tile_width = 0, tile_height = 0, tiles_x = 0, tiles_y = 0;
  std::uint64_t tile_words() const { return std::uint64_t{tile_width} * tile_height; }
  std::uint64_t words() const { return tile_words() * tiles_x * tiles_y; }
};

// surf2Dwrite(value) to every texel, one CTA per tile.
void launch_surface_fill(const SurfaceTiles& t, std::uint32_t value, cudaStream_t stream);
// One kernel, one CTA per tile: each CTA loads its tile's words through the linear mapping (warming the
// lines), surface-stores `new_value` to every texel of the tile, bar.sync, (fence.proxy.alias), then
// loads its tile's words again and counts them (patterns::Surface bins).
void launch_surface_in_kernel(const SurfaceTiles& t, bool fence, std::uint32_t new_value, std::uint32_t old_value,
                              unsigned long long* histogram, std::uint32_t* sink, cudaStream_t stream);

}  // namespace vmmcheck::kernels
