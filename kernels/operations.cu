// Kernels for the operation-level families (alias.kernels, and the setup of every runner): fill a range
// (the writer), read it once to warm caches (the primer), and count what a reader sees.
#include <stdexcept>

#include "device/histogram.cuh"
#include "device/launch.cuh"
#include "device/memory_ops.cuh"
#include "device/placement.cuh"
#include "device/wait.cuh"
#include "kernels/operations.hpp"
#include "vocabulary/pattern.hpp"  // CountedBins

namespace vmmcheck::kernels {
namespace {

using namespace device;
using Bin = patterns::CountedBins::Bin;

__global__ void fill_words(std::uint32_t* words, std::uint64_t count, std::uint32_t value) {
  for (std::uint64_t i = global_thread(); i < count; i += thread_count()) store_weak(words + i, value);
}

__global__ void prime_words(const std::uint32_t* words, std::uint64_t count, std::uint32_t* sink) {
  std::uint32_t keep = 0;
  for (std::uint64_t i = global_thread(); i < count; i += thread_count()) keep ^= load<Load::Weak>(words + i);
  if (keep == 0xFFFFFFFFu && sink) *sink = keep;
}

// Sys scope throughout: the latch may be host memory that another device, or another process, raises.
__global__ void latch_wait(std::uint32_t* latch, std::uint32_t token, std::uint64_t timeout_ns, std::uint64_t then_ns) {
  using patterns::FlagSync;
  if (wait_until([&] { return observe<Scope::Sys, FlagSync::Relaxed>(latch) == token; }, timeout_ns))
    publish<Scope::Sys, FlagSync::Relaxed>(latch + 1, token);  // held until the later operation started
  wait_until([] { return false; }, then_ns);
}

__global__ void mark(std::uint32_t* latch, std::uint32_t token) {
  publish<Scope::Sys, patterns::FlagSync::Relaxed>(latch, token);
}

template <Load L>
__global__ void count_words(const std::uint32_t* words, std::uint64_t count, std::uint32_t new_value,
                            std::uint32_t old_value, unsigned long long* histogram) {
  Counters c;
  for (std::uint64_t i = global_thread(); i < count; i += thread_count()) {
    const std::uint32_t v = load<L>(words + (count - 1 - i));  // last to first
    ++c.bin[v == new_value ? Bin::New : v == old_value ? Bin::Old : Bin::Other];
  }
  flush(c, histogram);
}

template <typename Kernel>
void preload(Kernel kernel, const char* name) {
  cudaFuncAttributes attributes;
  check_call(cudaFuncGetAttributes(&attributes, kernel), name, VMMCHECK_HERE);
}

}  // namespace

void preload_operation_kernels() {
  preload(fill_words, "cudaFuncGetAttributes(fill_words)");
  preload(prime_words, "cudaFuncGetAttributes(prime_words)");
  preload(latch_wait, "cudaFuncGetAttributes(latch_wait)");
  preload(mark, "cudaFuncGetAttributes(mark)");
  preload(count_words<Load::Weak>, "cudaFuncGetAttributes(count_words)");
  preload(count_words<Load::NonCoherent>, "cudaFuncGetAttributes(count_words)");
}

int resident_blocks() { return sm_count(); }

void launch_fill(std::uint32_t* words, std::uint64_t count, std::uint32_t value, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "fill_words", fill_words, grid_for(count), kStrideThreads, stream, words, count, value);
}

void launch_prime(const std::uint32_t* words, std::uint64_t count, std::uint32_t* sink, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "prime_words", prime_words, grid_for(count), kStrideThreads, stream, words, count, sink);
}

void launch_latch(std::uint32_t* latch, std::uint32_t token, std::uint64_t timeout_ns, std::uint64_t then_ns,
                  cudaStream_t stream) {
  launch(VMMCHECK_HERE, "latch_wait", latch_wait, 1, 1, stream, latch, token, timeout_ns, then_ns);
}

void launch_mark(std::uint32_t* latch, std::uint32_t token, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "mark", mark, 1, 1, stream, latch, token);
}

void launch_count(const std::uint32_t* words, std::uint64_t count, Load load, std::uint32_t new_value,
                  std::uint32_t old_value, unsigned long long* histogram, cudaStream_t stream) {
  // The readers kernel_pair has (patterns::load_of): a weak kernel, an .nc kernel, a copy counted weak.
  if (load != Load::Weak && load != Load::NonCoherent) throw std::invalid_argument("launch_count: weak or nc loads only");
  auto* kernel = load == Load::NonCoherent ? count_words<Load::NonCoherent> : count_words<Load::Weak>;
  launch(VMMCHECK_HERE, "count_words", kernel, grid_for(count), kStrideThreads, stream, words, count, new_value,
         old_value, histogram);
}

}  // namespace vmmcheck::kernels
