#pragma once
// Host-side interface of the lifecycle.unmap kernels (patterns/unmap_in_use/definition.hpp): waits that
// keep a stream or a kernel busy while the host unmaps the memory underneath. Every wait is bounded.
#include <cuda_runtime_api.h>

#include <cstdint>

namespace vmmcheck::kernels {

// One thread: sets *ready = 1, then waits for *flag != 0 (both host-mapped), for at most timeout_ns.
// Holds a stream so that work queued behind it stays queued until the host says so.
void launch_gate(const std::uint32_t* flag, std::uint32_t* ready, std::uint64_t timeout_ns, cudaStream_t stream);

// One block: reads `src` over and over while it waits for *flag (bounded), then copies src to dst. The
// kernel is running, and using the mapping, when *ready becomes 1.
void launch_read_until_flag(const std::uint32_t* src, std::uint32_t* dst, std::uint64_t count,
                            const std::uint32_t* flag, std::uint32_t* ready, std::uint64_t timeout_ns,
                            cudaStream_t stream);

}  // namespace vmmcheck::kernels
