// The outcome tally: one instance a thread, its bin by kernels/outcome_index.h, counted in shared memory
// per CTA and added to the histogram once per CTA and bin; instances outside the table keep their words.
#include "device/launch.cuh"
#include "device/placement.cuh"
#include "kernels/outcome_tally.hpp"

namespace vmmcheck::kernels {
namespace {

using namespace device;

constexpr unsigned kTallyThreads = 256;

__global__ void tally(const std::uint32_t* registers, std::uint64_t instances, VmmcheckOutcomeTable table, TallyOutput out) {
  __shared__ unsigned int block_bins[VMMCHECK_OUTCOME_MAX_BINS + 1];
  for (unsigned b = threadIdx.x; b <= table.bins; b += blockDim.x) block_bins[b] = 0;
  __syncthreads();
  const unsigned n = table.registers;
  for (std::uint64_t i = global_thread(); i < instances; i += thread_count()) {
    unsigned words[VMMCHECK_OUTCOME_MAX_REGISTERS];
    for (unsigned k = 0; k < n; ++k) words[k] = registers[i * n + k];
    const unsigned bin = vmmcheck_outcome_bin(&table, words);
    atomicAdd(&block_bins[bin], 1u);
    if (bin == table.bins) {  // outside the table: keep its words for the host, while there is room
      const unsigned slot = atomicAdd(out.aside_count, 1u);
      if (slot < out.aside_capacity)
        for (unsigned k = 0; k < n; ++k) out.aside[static_cast<std::uint64_t>(slot) * n + k] = words[k];
    }
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b <= table.bins; b += blockDim.x)
    if (block_bins[b]) atomicAdd(&out.bins[b], static_cast<unsigned long long>(block_bins[b]));
}

}  // namespace

void launch_tally(const std::uint32_t* registers, std::uint64_t instances, const VmmcheckOutcomeTable& table,
                  const TallyOutput& out, cudaStream_t stream) {
  // Enough CTAs to cover the instances a few times over; each adds its bins once.
  const std::uint64_t wanted = (instances + kTallyThreads * 8 - 1) / (kTallyThreads * 8);
  const unsigned grid = static_cast<unsigned>(wanted < 1 ? 1 : (wanted > 1024 ? 1024 : wanted));
  launch(VMMCHECK_HERE, "tally", tally, grid, kTallyThreads, stream, registers, instances, table, out);
}

}  // namespace vmmcheck::kernels
