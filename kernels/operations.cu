// Kernels for the operation-level families (alias.kernels, alias.resident): fill a range (the writer),
// read it once to warm caches (the primer), and count what a reader sees.
#include "device/histogram.cuh"
#include "device/memory_ops.cuh"
#include "device/placement.cuh"
#include "launch_check.hpp"

namespace vmmcheck::kernels {
namespace {

using namespace device;

constexpr int kThreads = 256;

int grid_for(std::uint64_t count) {
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  const std::uint64_t wanted = (count + kThreads - 1) / kThreads;
  const std::uint64_t cap = static_cast<std::uint64_t>(sms > 0 ? sms : 1) * 8;
  return static_cast<int>(wanted < cap ? wanted : cap);
}

__global__ void fill_words(std::uint32_t* words, std::uint64_t count, std::uint32_t value) {
  for (std::uint64_t i = global_thread(); i < count; i += thread_count()) store_weak(words + i, value);
}

__global__ void prime_words(const std::uint32_t* words, std::uint64_t count, std::uint32_t* sink) {
  std::uint32_t keep = 0;
  for (std::uint64_t i = global_thread(); i < count; i += thread_count()) keep ^= load<LoadKind::Weak>(words + i);
  if (keep == 0xFFFFFFFFu && sink) *sink = keep;
}

template <LoadKind L>
__global__ void count_words(const std::uint32_t* words, std::uint64_t count, std::uint32_t new_value,
                            std::uint32_t old_value, unsigned long long* histogram) {
  Counters c;
  for (std::uint64_t i = global_thread(); i < count; i += thread_count()) {
    const std::uint32_t v = load<L>(words + i);
    ++c.bin[v == new_value ? kNew : v == old_value ? kOld : kOther];
  }
  flush(c, histogram);
}

}  // namespace

void preload_resident_kernels();  // resident.cu

void preload_operation_kernels() {
  cudaFuncAttributes attributes;
  check_runtime_call(cudaFuncGetAttributes(&attributes, fill_words), "cudaFuncGetAttributes(fill_words)");
  check_runtime_call(cudaFuncGetAttributes(&attributes, prime_words), "cudaFuncGetAttributes(prime_words)");
  check_runtime_call(cudaFuncGetAttributes(&attributes, count_words<LoadKind::Weak>), "cudaFuncGetAttributes(count_words)");
  check_runtime_call(cudaFuncGetAttributes(&attributes, count_words<LoadKind::NonCoherent>), "cudaFuncGetAttributes(count_words)");
  preload_resident_kernels();
}

void launch_fill(std::uint32_t* words, std::uint64_t count, std::uint32_t value, cudaStream_t stream) {
  fill_words<<<grid_for(count), kThreads, 0, stream>>>(words, count, value);
  check_launch("fill_words");
}

void launch_prime(const std::uint32_t* words, std::uint64_t count, std::uint32_t* sink, cudaStream_t stream) {
  prime_words<<<grid_for(count), kThreads, 0, stream>>>(words, count, sink);
  check_launch("prime_words");
}

void launch_count(const std::uint32_t* words, std::uint64_t count, LoadKind load, std::uint32_t new_value,
                  std::uint32_t old_value, unsigned long long* histogram, cudaStream_t stream) {
  if (load == LoadKind::NonCoherent)
    count_words<LoadKind::NonCoherent><<<grid_for(count), kThreads, 0, stream>>>(words, count, new_value, old_value, histogram);
  else
    count_words<LoadKind::Weak><<<grid_for(count), kThreads, 0, stream>>>(words, count, new_value, old_value, histogram);
  check_launch("count_words");
}

}  // namespace vmmcheck::kernels
