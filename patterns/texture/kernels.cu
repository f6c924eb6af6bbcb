// proxy.texture: texture fetches of words that generic stores wrote through view A. Every kernel is a
// grid-stride loop over the words; the counters are the pattern's bins.
#include "kernels/device/histogram.cuh"
#include "kernels/device/launch.cuh"
#include "kernels/device/memory_ops.cuh"
#include "kernels/device/resident_reader.cuh"
#include "patterns/texture/kernels.hpp"
#include "patterns/texture/definition.hpp"

namespace vmmcheck::kernels {
namespace {

using namespace device;
using Bin = patterns::Texture::Bin;

__device__ __forceinline__ std::uint32_t fetch(const TextureView& t, std::uint64_t i) {
  if (t.resource == patterns::TexResource::Linear) return tex1Dfetch<std::uint32_t>(t.texture, static_cast<int>(i));
  // Unnormalised coordinates, point filtering: texel (x, y) is read at its centre.
  const auto x = static_cast<float>(i % t.width) + 0.5f, y = static_cast<float>(i / t.width) + 0.5f;
  return tex2D<std::uint32_t>(t.texture, x, y);
}

__device__ __forceinline__ int bin_of(std::uint32_t v, std::uint32_t new_value, std::uint32_t old_value) {
  return v == new_value ? Bin::New : v == old_value ? Bin::Old : Bin::Other;
}

__global__ void texture_prime(TextureView t, std::uint32_t* sink) {
  std::uint32_t keep = 0;
  for (std::uint64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < t.count; i += gridDim.x * blockDim.x) keep ^= fetch(t, i);
  if (keep == 0xFFFFFFFFu) *sink = keep;
}

__global__ void texture_count(TextureView t, std::uint32_t new_value, std::uint32_t old_value, unsigned long long* histogram) {
  Counters c;
  for (std::uint64_t k = blockIdx.x * blockDim.x + threadIdx.x; k < t.count; k += gridDim.x * blockDim.x)
    ++c.bin[bin_of(fetch(t, t.count - 1 - k), new_value, old_value)];
  flush(c, histogram);
}

template <bool Fence>
__global__ void texture_in_kernel(TextureView t, std::uint32_t* words, std::uint32_t new_value, std::uint32_t old_value,
                                  unsigned long long* histogram, std::uint32_t* sink) {
  Counters c;
  std::uint32_t keep = 0;
  for (std::uint64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < t.count; i += gridDim.x * blockDim.x) {
    keep ^= fetch(t, i);  // the texture cache now holds the old value
    store_weak(words + i, new_value);
    if constexpr (Fence) proxy_alias_fence();
    ++c.bin[bin_of(fetch(t, i), new_value, old_value)];
  }
  if (keep == 0xFFFFFFFFu) *sink = keep;
  flush(c, histogram);
}

__global__ void texture_resident(TextureView t, volatile std::uint32_t* ready, std::uint32_t* flag, std::uint64_t timeout_ns,
                                 std::uint32_t new_value, std::uint32_t old_value, unsigned long long* histogram,
                                 std::uint32_t* sink) {
  read_again_after_signal(
      t.count, [&](std::uint64_t i) { return fetch(t, i); },
      [&](std::uint32_t v) { return bin_of(v, new_value, old_value); }, Bin::Timeout, ready, flag, timeout_ns, histogram,
      sink);
}

}  // namespace

void launch_texture_resident(const TextureView& t, volatile std::uint32_t* ready, std::uint32_t* flag,
                             std::uint64_t timeout_ns, std::uint32_t new_value, std::uint32_t old_value,
                             unsigned long long* histogram, std::uint32_t* sink, int blocks, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "texture_resident", texture_resident, blocks, kStrideThreads, stream, t, ready, flag, timeout_ns,
         new_value, old_value, histogram, sink);
}

void launch_texture_prime(const TextureView& t, std::uint32_t* sink, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "texture_prime", texture_prime, grid_for(t.count), kStrideThreads, stream, t, sink);
}

void launch_texture_count(const TextureView& t, std::uint32_t new_value, std::uint32_t old_value,
                          unsigned long long* histogram, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "texture_count", texture_count, grid_for(t.count), kStrideThreads, stream, t, new_value, old_value,
         histogram);
}

void launch_texture_in_kernel(const TextureView& t, std::uint32_t* words, bool fence, std::uint32_t new_value,
                              std::uint32_t old_value, unsigned long long* histogram, std::uint32_t* sink,
                              cudaStream_t stream) {
  launch(VMMCHECK_HERE, "texture_in_kernel", fence ? &texture_in_kernel<true> : &texture_in_kernel<false>,
         grid_for(t.count), kStrideThreads, stream, t, words, new_value, old_value, histogram, sink);
}

}  // namespace vmmcheck::kernels
