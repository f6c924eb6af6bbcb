#pragma once
// Host-side interface of the VMM-contract kernels (access rights, lifecycle, unmap while in use) and of
// the planted self-test kernels. No device code here.
#include <cuda_runtime_api.h>

#include <cstdint>

namespace vmmcheck::kernels {

// dst[i] = src[i] for i < count: a read through `src` (the view under test), a write to plain memory.
void launch_copy_words(const std::uint32_t* src, std::uint32_t* dst, std::uint64_t count, cudaStream_t stream);

// One thread: sets *ready = 1, then waits for *flag != 0 (both host-mapped), for at most timeout_ns.
// Holds a stream so that work queued behind it stays queued until the host says so.
void launch_gate(const std::uint32_t* flag, std::uint32_t* ready, std::uint64_t timeout_ns, cudaStream_t stream);

// One block: reads `src` over and over while it waits for *flag (bounded), then copies src to dst. The
// kernel is running, and using the mapping, when *ready becomes 1.
void launch_read_until_flag(const std::uint32_t* src, std::uint32_t* dst, std::uint64_t count,
                            const std::uint32_t* flag, std::uint32_t* ready, std::uint64_t timeout_ns,
                            cudaStream_t stream);

// Planted kernels for the isolation self-test (tests/planted/). Never used by a shipped case.
void launch_planted_ok(std::uint32_t* word, cudaStream_t stream);    // stores 1 and returns
void launch_planted_trap(cudaStream_t stream);                      // executes trap: a sticky error
void launch_planted_spin(const std::uint32_t* never, cudaStream_t stream);  // waits, unbounded, for a word nobody writes

}  // namespace vmmcheck::kernels
