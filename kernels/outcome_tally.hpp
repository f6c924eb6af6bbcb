#pragma once
// Host-side interface of the outcome tally (docs/litmus.md, "Counting on the GPU"): what a generated
// litmus kernel wrote per instance becomes a histogram on the GPU, and only the histogram comes back.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/outcome_index.h"

namespace vmmcheck::kernels {

// Where the tally puts what it counts: bins + 1 counters (the last: instances outside the table), and
// the register words of up to `aside_capacity` such instances, in the order they were found, with their
// number in *aside_count (which may pass the capacity: then the caller reads the instances itself).
struct TallyOutput {
  unsigned long long* bins = nullptr;
  std::uint32_t* aside = nullptr;
  std::uint32_t* aside_count = nullptr;
  std::uint32_t aside_capacity = 0;
};

// Adds the outcome of each of `instances` instances (registers[i * table.registers + k]: register k of
// instance i) to out.bins, after everything queued before on `stream`.
void launch_tally(const std::uint32_t* registers, std::uint64_t instances, const VmmcheckOutcomeTable& table,
                  const TallyOutput& out, cudaStream_t stream);

}  // namespace vmmcheck::kernels
