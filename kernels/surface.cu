// proxy.surface: surface stores into a sparse array whose tiles are a VMM allocation's bytes, and
// generic loads of those bytes through the allocation's linear mapping. One CTA per tile.
#include "device/histogram.cuh"
#include "device/launch.cuh"
#include "device/memory_ops.cuh"
#include "kernels/surface.hpp"
#include "patterns/surface.hpp"

namespace vmmcheck::kernels {
namespace {

using namespace device;
using Bin = patterns::Surface::Bin;
constexpr int kThreads = 256;

__device__ __forceinline__ std::uint64_t tile_words(const SurfaceTiles& t) { return std::uint64_t{t.tile_width} * t.tile_height; }

__device__ __forceinline__ void store_tile(const SurfaceTiles& t, std::uint32_t value) {
  const unsigned x0 = (blockIdx.x % t.tiles_x) * t.tile_width, y0 = (blockIdx.x / t.tiles_x) * t.tile_height;
  for (std::uint64_t k = threadIdx.x; k < tile_words(t); k += blockDim.x) {
    const unsigned x = x0 + static_cast<unsigned>(k % t.tile_width), y = y0 + static_cast<unsigned>(k / t.tile_width);
    surf2Dwrite(value, t.surface, static_cast<int>(x * sizeof(std::uint32_t)), static_cast<int>(y));
  }
}

__global__ void surface_fill(SurfaceTiles t, std::uint32_t value) { store_tile(t, value); }

template <bool Fence>
__global__ void surface_in_kernel(SurfaceTiles t, std::uint32_t new_value, std::uint32_t old_value,
                                  unsigned long long* histogram, std::uint32_t* sink) {
  const std::uint32_t* tile = t.linear + blockIdx.x * tile_words(t);
  std::uint32_t keep = 0;
  for (std::uint64_t k = threadIdx.x; k < tile_words(t); k += blockDim.x) keep ^= load<Load::Weak>(tile + k);
  store_tile(t, new_value);
  __syncthreads();
  if constexpr (Fence) proxy_alias_fence();
  Counters c;
  for (std::uint64_t k = threadIdx.x; k < tile_words(t); k += blockDim.x) {
    const std::uint32_t v = load<Load::Weak>(tile + k);
    ++c.bin[v == new_value ? Bin::New : v == old_value ? Bin::Old : Bin::Other];
  }
  if (keep == 0xFFFFFFFFu) *sink = keep;
  flush(c, histogram);
}

}  // namespace

void launch_surface_fill(const SurfaceTiles& t, std::uint32_t value, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "surface_fill", surface_fill, static_cast<int>(t.tiles_x * t.tiles_y), kThreads, stream, t, value);
}

void launch_surface_in_kernel(const SurfaceTiles& t, bool fence, std::uint32_t new_value, std::uint32_t old_value,
                              unsigned long long* histogram, std::uint32_t* sink, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "surface_in_kernel", fence ? &surface_in_kernel<true> : &surface_in_kernel<false>,
         static_cast<int>(t.tiles_x * t.tiles_y), kThreads, stream, t, new_value, old_value, histogram, sink);
}

}  // namespace vmmcheck::kernels
