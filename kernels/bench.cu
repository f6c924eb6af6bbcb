#include "kernels/bench.hpp"

#include "common/cuda_objects.hpp"
#include "common/error.hpp"
#include "kernels/device/launch.cuh"

namespace vmmcheck::kernels {
namespace {

__host__ __device__ std::uint32_t hash32(std::uint64_t i) {
  std::uint64_t x = i * 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  return static_cast<std::uint32_t>(x ^ (x >> 32));
}

__host__ __device__ std::uint64_t word_in_slot(std::uint64_t k, std::uint64_t stride) {
  return (hash32(k) % (stride / 128)) * 128;
}

__global__ void fill_hashed(std::uint32_t* words, std::uint64_t count) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::uint64_t(gridDim.x) * blockDim.x)
    words[i] = hash32(i);
}

// Grid-stride over 16-byte words; the view alternates by block of `stride_words` words, so with two views
// every page is reached through both and address translation must hold twice as many pages.
__global__ void read_views(const uint4* a, const uint4* b, std::uint64_t words, std::uint64_t stride_words,
                           std::uint32_t* sink) {
  std::uint32_t acc = 0;
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < words;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    const uint4 v = ((i / stride_words) & 1 ? b : a)[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x5eedf00du) *sink = acc;  // the loads must not be dead code; the store almost never happens
}

__global__ void link_cycle(char* base, const std::uint32_t* order, std::uint64_t slots, std::uint64_t stride) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < slots;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    const std::uint64_t here = order[i], next = order[(i + 1) % slots];
    *reinterpret_cast<std::uint64_t*>(base + here * stride + word_in_slot(here, stride)) =
        next * stride + word_in_slot(next, stride);
  }
}

// Each load depends on the one before: the time of a hop is the latency of a load that misses (L2-only
// loads, .cg, so L1 holds nothing between laps).
__global__ void chase(const char* a, const char* b, std::uint64_t* position, std::uint32_t hops) {
  std::uint64_t at = *position;
  for (std::uint32_t h = 0; h < hops; ++h)
    at = __ldcg(reinterpret_cast<const unsigned long long*>((h & 1 ? b : a) + at));
  *position = at;
}

// Milliseconds between two events around `launch` on `stream`.
template <typename F>
float timed(cudaStream_t stream, F&& launch_it) {
  const run::Event start = run::Event::create(true), stop = run::Event::create(true);
  CUDA_CHECK(cudaEventRecord(start, stream));
  launch_it();
  CUDA_CHECK(cudaEventRecord(stop, stream));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  return ms;
}

}  // namespace

std::uint64_t slot_word_offset(std::uint64_t k, std::uint64_t stride) { return word_in_slot(k, stride); }

void launch_fill_hashed(std::uint32_t* words, std::uint64_t count, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "fill_hashed", fill_hashed, grid_for(count), kStrideThreads, stream, words, count);
}

float time_read(const void* a, const void* b, std::uint64_t bytes, std::uint64_t stride, std::uint32_t* sink,
                cudaStream_t stream) {
  const std::uint64_t words = bytes / 16;
  return timed(stream, [&] {
    launch(VMMCHECK_HERE, "read_views", read_views, grid_for(words), kStrideThreads, stream,
           static_cast<const uint4*>(a), static_cast<const uint4*>(b), words, stride / 16, sink);
  });
}

void launch_link_cycle(char* base, const std::uint32_t* order, std::uint64_t slots, std::uint64_t stride,
                       cudaStream_t stream) {
  launch(VMMCHECK_HERE, "link_cycle", link_cycle, grid_for(slots), kStrideThreads, stream, base, order, slots, stride);
}

float time_chase(const char* a, const char* b, std::uint64_t* position, std::uint32_t hops, cudaStream_t stream) {
  return timed(stream, [&] { launch(VMMCHECK_HERE, "chase", chase, 1, 1, stream, a, b, position, hops); });
}

}  // namespace vmmcheck::kernels
