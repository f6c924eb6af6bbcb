#pragma once
// The texels of a surface alias (harness/vmm/surface_alias.hpp) as kernels take them, and the kernels that
// measure where each texel lies in the linear mapping (harness/run/kit/surface_layout.hpp). Shared: the
// proxy.surface kernels (patterns/surface/) and the litmus rows' surfaces (harness/run/rows/) use both.
#include <cuda_runtime_api.h>

#include <cstdint>

namespace vmmcheck::kernels {

struct SurfaceTexels {
  cudaSurfaceObject_t surface = 0;
  std::uint32_t* linear = nullptr;
  const std::uint32_t* word_of = nullptr;  // texel i = x + y * width lies at linear[word_of[i]]
  unsigned width = 0, height = 0;
  std::uint64_t count() const { return std::uint64_t{width} * height; }
};

// Layout measurement: surface-stores i to texel i, then, for every word o of `span` words at `linear`
// that holds some i < texels, word_of[i] = o (harness/run/kit/surface_layout.hpp checks what was found).
void launch_surface_number(const SurfaceTexels& t, cudaStream_t stream);
void launch_surface_locate(const std::uint32_t* linear, std::uint64_t span, std::uint64_t texels, std::uint32_t* word_of,
                           cudaStream_t stream);

}  // namespace vmmcheck::kernels
