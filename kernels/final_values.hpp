#pragma once
// Final values of memory (docs/litmus.md, "Final values"): after a generated litmus kernel has run, each
// instance's word of a location, round by round, goes into that instance's result, beside its registers
// -- so the outcome tally counts final memory as it counts what loads read.
#include <cuda_runtime_api.h>

#include <cstdint>

namespace vmmcheck::kernels {

// Where the words are (harness/codegen/kernel_abi.h): location L's word of instance m in round r is
// region[r * instances + (m * memory_stride + memory_offset) % instances], and register `reg` of that
// instance and round is registers[(r * instances + m) * register_count + reg].
struct FinalValues {
  static constexpr unsigned kMost = 8;
  const std::uint32_t* region[kMost] = {};  // per final value: its location's words (view + L * region_words)
  std::uint32_t reg[kMost] = {};            // ... and the register it is counted as
  unsigned count = 0;
  std::uint32_t* registers = nullptr;
  unsigned register_count = 0, instances = 0, rounds = 0, memory_stride = 1, memory_offset = 0;
};

// Copies every final value of every instance and round, after everything queued before on `stream`.
void launch_final_values(const FinalValues& f, cudaStream_t stream);

}  // namespace vmmcheck::kernels
