// Where each texel of a surface lies in its linear mapping (kernels/surface_texels.hpp): number the
// texels through the surface, then find each number among the linear mapping's words.
#include "kernels/device/launch.cuh"
#include "kernels/device/texels.cuh"
#include "kernels/surface_texels.hpp"

namespace vmmcheck::kernels {
namespace {

using namespace device;

__global__ void surface_number(SurfaceTexels t) {
  for (std::uint64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < texels(t); i += gridDim.x * blockDim.x)
    store_texel(t, i, static_cast<std::uint32_t>(i));
}

__global__ void surface_locate(const std::uint32_t* linear, std::uint64_t span, std::uint64_t texels, std::uint32_t* word_of) {
  for (std::uint64_t o = blockIdx.x * blockDim.x + threadIdx.x; o < span; o += gridDim.x * blockDim.x) {
    const std::uint32_t v = linear[o];
    if (v < texels) word_of[v] = static_cast<std::uint32_t>(o);
  }
}

}  // namespace

void launch_surface_number(const SurfaceTexels& t, cudaStream_t stream) {
  launch(VMMCHECK_HERE, "surface_number", surface_number, grid_for(t.count()), kStrideThreads, stream, t);
}

void launch_surface_locate(const std::uint32_t* linear, std::uint64_t span, std::uint64_t texels, std::uint32_t* word_of,
                           cudaStream_t stream) {
  launch(VMMCHECK_HERE, "surface_locate", surface_locate, grid_for(span), kStrideThreads, stream, linear, span, texels, word_of);
}

}  // namespace vmmcheck::kernels
