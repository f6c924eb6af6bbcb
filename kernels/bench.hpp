#pragma once
// Host-side interface of `vmmcheck bench`'s access kernels (docs/bench.md, the `access` group): a fill, a
// bandwidth read through one view or two, and a pointer chase for latency. Each timed launch returns the
// milliseconds CUDA events measured around it on `stream`.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace vmmcheck::kernels {

// words[i] = a hash of i: memory that does not compress (a zero fill would flatter compressible memory).
void launch_fill_hashed(std::uint32_t* words, std::uint64_t count, cudaStream_t stream);

// Reads `bytes` (a multiple of 16) once with every SM, 16 bytes a load: byte i through view `a` or, in
// every other `stride`-byte block, through view `b` (b == a: one view). `sink` keeps the loads alive.
float time_read(const void* a, const void* b, std::uint64_t bytes, std::uint64_t stride, std::uint32_t* sink,
                cudaStream_t stream);

// Makes slots 0..slots-1 (slot k is `stride` bytes at k * stride, its word a line into it) one cycle in
// the order `order` (device memory, a permutation of the slots): each slot's word holds the next's offset.
void launch_link_cycle(char* base, const std::uint32_t* order, std::uint64_t slots, std::uint64_t stride,
                       cudaStream_t stream);
// The offset of slot k's word (what the cycle links): a line into the slot that varies with k, so the
// words do not all fall into the same cache sets.
std::uint64_t slot_word_offset(std::uint64_t k, std::uint64_t stride);

// One thread follows the cycle `hops` times from *position (an offset; `position` is device memory), hop
// h through view `a` or, when h is odd, `b`; *position becomes where it stopped (the next sample goes on
// from there, onto lines not yet warm).
float time_chase(const char* a, const char* b, std::uint64_t* position, std::uint32_t hops, cudaStream_t stream);

}  // namespace vmmcheck::kernels
