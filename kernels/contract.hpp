#pragma once
// Host-side interface of the VMM-contract kernel several patterns share (access rights, lifecycle, unmap
// while in use, peer access, fabric, the checked read-back of the runners' kit): a plain copy through a
// mapping under test. No device code here.
#include <cuda_runtime_api.h>

#include <cstdint>

namespace vmmcheck::kernels {

// dst[i] = src[i] for i < count: a read through `src` (the view under test), a write to plain memory.
void launch_copy_words(const std::uint32_t* src, std::uint32_t* dst, std::uint64_t count, cudaStream_t stream);

}  // namespace vmmcheck::kernels
