// proxy.surface: surface stores into an array over a VMM allocation, generic loads of the same bytes
// through the allocation's linear mapping, each texel at its measured word. Grid-stride loops over
// texels; the counters are the pattern's bins.
#include "kernels/device/histogram.cuh"
#include "kernels/device/launch.cuh"
#include "kernels/device/memory_ops.cuh"
#include "kernels/device/resident_reader.cuh"
#include "kernels/device/texels.cuh"
#include "patterns/surface/kernels.hpp"
#include "patterns/surface/definition.hpp"

namespace vmmcheck::kernels {
namespace {

using namespace device;
using Bin = patterns::Surface::Bin;

__device__ __forceinline__ std::uint32_t load_texel_word(const SurfaceTexels& t, std::uint64_t i) {
  return load<Load::Weak>(t.linear + t.word_of[i]);
}

__device__ __forceinline__ int bin_of(std::uint32_t v, std::uint32_t new_value, std::uint32_t old_value) {
  return v == new_value ? Bin::New : v == old_value ? Bin::Old : Bin::Other;
}

#define VMMCHECK_FOR_EACH_TEXEL(i, n) \
  for (std::uint64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += gridDim.x * blockDim.x)

__global__ void surface_fill(SurfaceTexels t, std::uint32_t value) {
  VMMCHECK_FOR_EACH_TEXEL(i, texels(t)) store_texel(t, i, value);
}

__global__ void surface_prime(SurfaceTexels t, std::uint32_t* sink) {
  std::uint32_t keep = 0;
  VMMCHECK_FOR_EACH_TEXEL(i, texels(t)) keep ^= load_texel_word(t, i);
  if (keep == 0xFFFFFFFFu) *sink = keep;
}

__global__ void surface_count(SurfaceTexels t, std::uint32_t new_value, std::uint32_t old_value, unsigned long long* histogram) {
  Counters c;
  VMMCHECK_FOR_EACH_TEXEL(k, texels(t)) ++c.bin[bin_of(load_texel_word(t, texels(t) - 1 - k), new_value, old_value)];
  flush(c, histogram);
}

template <bool Fence>
__global__ void surface_in_kernel(SurfaceTexels t, std::uint32_t new_value, std::uint32_t old_value,
                                  unsigned long long* histogram, std::uint32_t* sink) {
  Counters c;
  std::uint32_t keep = 0;
  VMMCHECK_FOR_EACH_TEXEL(i, texels(t)) {
    keep ^= load_texel_word(t, i);  // the line now holds the old value
    store_texel(t, i, new_value);
    if constexpr (Fence) proxy_alias_fence();
    ++c.bin[bin_of(load_texel_word(t, i), new_value, old_value)];
  }
  if (keep == 0xFFFFFFFFu) *sink = keep;
  flush(c, histogram);
}

__global__ void surface_resident(SurfaceTexels t, volatile std::uint32_t* ready, std::uint32_t* flag, std::uint64_t timeout_ns,
                                 std::uint32_t new_value, std::uint32_t old_value, unsigned long long* histogram,
                                 std::uint32_t* sink) {
  read_again_after_signal(
      texels(t), [&](std::uint64_t i) { return load_texel_word(t, i); },
      [&](std::uint32_t v) { return bin_of(v, new_value, old_value); }, Bin::Timeout, ready, flag, timeout_ns, histogram,
      sink);
}

#undef VMMCHECK_FOR_EACH_TEXEL

}  // namespace

void preload_surface_kernels() {
  cudaFuncAttributes attributes;
  check_call(cudaFuncGetAttributes(&attributes, surface_fill), "cudaFuncGetAttributes(surface_fill)", VMMCHECK_HERE);
}

void launch_surface_fill(const SurfaceTexels& t, std::uint32_t value, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "surface_fill", surface_fill, grid_for(t.count()), kStrideThreads, stream, t, value);
}

void launch_surface_prime(const SurfaceTexels& t, std::uint32_t* sink, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "surface_prime", surface_prime, grid_for(t.count()), kStrideThreads, stream, t, sink);
}

void launch_surface_count(const SurfaceTexels& t, std::uint32_t new_value, std::uint32_t old_value,
                          unsigned long long* histogram, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "surface_count", surface_count, grid_for(t.count()), kStrideThreads, stream, t, new_value, old_value,
         histogram);
}

void launch_surface_in_kernel(const SurfaceTexels& t, bool fence, std::uint32_t new_value, std::uint32_t old_value,
                              unsigned long long* histogram, std::uint32_t* sink, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "surface_in_kernel", fence ? &surface_in_kernel<true> : &surface_in_kernel<false>,
         grid_for(t.count()), kStrideThreads, stream, t, new_value, old_value, histogram, sink);
}

void launch_surface_resident(const SurfaceTexels& t, volatile std::uint32_t* ready, std::uint32_t* flag,
                             std::uint64_t timeout_ns, std::uint32_t new_value, std::uint32_t old_value,
                             unsigned long long* histogram, std::uint32_t* sink, int blocks, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "surface_resident", surface_resident, blocks, kStrideThreads, stream, t, ready, flag, timeout_ns,
         new_value, old_value, histogram, sink);
}

}  // namespace vmmcheck::kernels
