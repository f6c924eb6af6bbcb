#pragma once
// Outcome histograms are reduced on the GPU: per-thread counters in registers, a warp reduction, one
// shared-memory add per warp and one global atomic per block and bin. Nothing per instance leaves the GPU.
#include <cstdint>

#include "vocabulary/pattern.hpp"

namespace vmmcheck::kernels::device {

using patterns::kMaxBins;

// One thread's counts, indexed by a pattern's Bin enum (patterns/<pattern>.hpp).
struct Counters {
  std::uint32_t bin[kMaxBins] = {};
};

__device__ __forceinline__ void flush(const Counters& c, unsigned long long* histogram) {
  __shared__ unsigned long long block_bins[kMaxBins];
  if (threadIdx.x < kMaxBins) block_bins[threadIdx.x] = 0;
  __syncthreads();
#pragma unroll
  for (int b = 0; b < kMaxBins; ++b) {
    unsigned long long v = c.bin[b];
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    if ((threadIdx.x & 31) == 0 && v) atomicAdd(&block_bins[b], v);
  }
  __syncthreads();
  if (threadIdx.x < kMaxBins && block_bins[threadIdx.x]) atomicAdd(&histogram[threadIdx.x], block_bins[threadIdx.x]);
}

}  // namespace vmmcheck::kernels::device
