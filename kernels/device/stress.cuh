#pragma once
// Memory stress around in-kernel litmus rounds (kernels/in_kernel.hpp, Stress; run/records/stress_params.hpp
// says what each knob does): the C++ face of kernels/stress_ops.h, the one implementation that NVRTC's
// generated litmus kernels include too.
#include <cstdint>

#include "kernels/stress_ops.h"
#include "placement.cuh"

namespace vmmcheck::kernels::device {

// Before each round of a testing thread: the CTA barrier, then the pre-stress accesses.
__device__ __forceinline__ void stress_round(const Stress& s, std::uint32_t t, std::uint32_t round, std::uint32_t& keep) {
  const VmmcheckStress c = abi_of(s);
  vmmcheck_stress_round(&c, t, round, &keep);
}

// The whole life of a memory-stress CTA (kernels/stress_ops.h).
__device__ __forceinline__ void memory_stress(const Stress& s) {
  const VmmcheckStress c = abi_of(s);
  vmmcheck_memory_stress(&c, testing_blocks(s));
}

// The end of a testing CTA: counts itself done, which lets the memory-stress CTAs stop.
__device__ __forceinline__ void testing_done(const Stress& s) {
  const VmmcheckStress c = abi_of(s);
  vmmcheck_testing_done(&c);
}

}  // namespace vmmcheck::kernels::device
