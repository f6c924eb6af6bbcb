#pragma once
// Host-side interface of the alias.resident kernels (patterns/resident/definition.hpp). How many blocks
// a resident grid has: kernels::resident_blocks() (kernels/operations.hpp).
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
// Loads these kernels now: the runner calls it before its grid becomes resident, since with lazy module
// loading a kernel's first launch beside a spinning grid could wait for that grid's bound.
void preload_resident_kernels();
void launch_resident_reader(const ResidentArgs& args, int blocks, cudaStream_t stream);
// st.release.sys [flag] = 1 from the GPU.
void launch_signal(std::uint32_t* flag, cudaStream_t stream);

}  // namespace vmmcheck::kernels
