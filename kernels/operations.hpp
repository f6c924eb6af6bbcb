#pragma once
// Host-side interface of the operation-level kernels: the writer and the counting reader of
// alias.kernels (patterns/kernel_pair/definition.hpp), and the fill every runner uses to set words up.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "vocabulary/axes.hpp"

namespace vmmcheck::kernels {

// Loads the operation-level kernels now. With lazy module loading (the CUDA 12+ default) a kernel's
// first launch loads its module, and that load can wait for kernels already running: a writer or
// signal kernel launched beside a spinning resident grid would then stall until the grid's bound.
void preload_operation_kernels();

// Blocks of a grid that is to stay resident beside other work (the resident orders of alias.resident,
// proxy.texture and proxy.surface): one per SM, so the writer still finds room.
int resident_blocks();
// words[i] = value for i < count (st.global).
void launch_fill(std::uint32_t* words, std::uint64_t count, std::uint32_t value, cudaStream_t stream);
// Reads every word once (through the view under test), so caches hold the old value.
void launch_prime(const std::uint32_t* words, std::uint64_t count, std::uint32_t* sink, cudaStream_t stream);
// The latch that holds an earlier operation (run/kit/hold.hpp): put ahead of it on its stream, one thread
// waits until latch[0] holds `token` (raised by launch_mark ahead of the later operation, on its own
// stream, device or process) or `timeout_ns` passed -- storing `token` to latch[1] when it was raised
// -- then `then_ns` more. Loads and stores are relaxed at sys scope: the two words may be host-mapped.
void launch_latch(std::uint32_t* latch, std::uint32_t token, std::uint64_t timeout_ns, std::uint64_t then_ns,
                  cudaStream_t stream);
// One thread that stores `token` to latch[0]: the later operation's "I am starting".
void launch_mark(std::uint32_t* latch, std::uint32_t token, cudaStream_t stream);
// Counts new / old / other (patterns::CountedBins) over `count` words, with weak or .nc loads. It
// reads the words last to first: against a writer that goes first to last, an unordered pair crosses.
void launch_count(const std::uint32_t* words, std::uint64_t count, patterns::Load load, std::uint32_t new_value,
                  std::uint32_t old_value, unsigned long long* histogram, cudaStream_t stream);

}  // namespace vmmcheck::kernels
