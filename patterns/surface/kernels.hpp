#pragma once
// Host-side interface of the proxy.surface kernels (patterns/surface/definition.hpp): surface stores of 32-bit
// texels into a width x height array, and generic loads of the same bytes through a linear mapping of
// them (harness/vmm/surface_alias.hpp), each texel at the word the layout measured for it.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/surface_texels.hpp"  // SurfaceTexels

namespace vmmcheck::kernels {

// Loads the pattern's kernels now (kernels/operations.hpp says why: a first launch beside a resident grid).
void preload_surface_kernels();

// surf2Dwrite(value) to every texel.
void launch_surface_fill(const SurfaceTexels& t, std::uint32_t value, cudaStream_t stream);
// Loads every texel's word once through the linear mapping (the loads' caches then hold them).
void launch_surface_prime(const SurfaceTexels& t, std::uint32_t* sink, cudaStream_t stream);
// Counts new / old / other (patterns::Surface bins) over every texel's word, last to first.
void launch_surface_count(const SurfaceTexels& t, std::uint32_t new_value, std::uint32_t old_value,
                          unsigned long long* histogram, cudaStream_t stream);
// One kernel: each thread loads its texel's word, surface-stores `new_value` to the texel, optionally
// fences (fence.proxy.alias), loads the word again and counts what the second load returned.
void launch_surface_in_kernel(const SurfaceTexels& t, bool fence, std::uint32_t new_value, std::uint32_t old_value,
                              unsigned long long* histogram, std::uint32_t* sink, cudaStream_t stream);
// A grid resident before the surface stores (one block per SM, kernels::resident_blocks()): loads its
// share of the words, counts itself into `ready`, waits (bounded) for `flag`, loads and counts again.
void launch_surface_resident(const SurfaceTexels& t, volatile std::uint32_t* ready, std::uint32_t* flag,
                             std::uint64_t timeout_ns, std::uint32_t new_value, std::uint32_t old_value,
                             unsigned long long* histogram, std::uint32_t* sink, int blocks, cudaStream_t stream);

}  // namespace vmmcheck::kernels
