#pragma once
// Host-side interface of the alias.resident kernels (patterns/resident/definition.hpp).
#include <cuda_runtime_api.h>

#include <cstdint>

#include "patterns/resident/definition.hpp"

namespace vmmcheck::kernels {

// A grid that stays resident: it primes its words through `view`, reports itself ready, waits for the
// flag (bounded), then counts what it reads.
struct ResidentArgs {
  const std::uint32_t* view = nullptr;
  std::uint64_t count = 0;
  patterns::Load load = patterns::Load::Weak;  // Weak, Volatile or NonCoherent
  std::uint32_t new_value = 0;
  std::uint32_t old_value = 0;
  volatile std::uint32_t* ready = nullptr;  // host-mapped: each block adds one once primed
  std::uint32_t* flag = nullptr;            // host-mapped: non-zero once the writer completed
  bool wait = true;                         // false: read as soon as ready (the control of the signal)
  bool acquire = true;                      // false: observe the flag with ld.relaxed.sys
  std::uint64_t spin_timeout_ns = 2'000'000'000;
  unsigned long long* histogram = nullptr;  // patterns::Resident::kBins counters
  std::uint32_t* sink = nullptr;
};
void preload_resident_kernels();
int resident_blocks();  // one block per SM: resident, and leaves room for the writer
void launch_resident_reader(const ResidentArgs& args, int blocks, cudaStream_t stream);
// st.release.sys [flag] = 1 from the GPU.
void launch_signal(std::uint32_t* flag, cudaStream_t stream);

}  // namespace vmmcheck::kernels
