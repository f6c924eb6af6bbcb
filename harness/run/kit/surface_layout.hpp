#pragma once
// Where each texel of a surface alias (harness/vmm/surface_alias.hpp) lies in its linear mapping, measured
// rather than assumed: an array's texel order is the driver's (block linear on the H200), so the
// proxy.surface kernels check each texel's store at the word measured for it.
//
// The measurement: every word of the linear mapping is set to 0xFFFFFFFF, texel i is surface-stored
// with i, the host waits, and each word that holds some i < texels is texel i's. Each texel must turn
// up at exactly one word; otherwise the measurement throws, naming how many did -- the surface stores
// did not reach the linear mapping across a kernel boundary and a host synchronisation, which is what
// the required cases of proxy.surface say they must.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/cuda_objects.hpp"
#include "kernels/surface_texels.hpp"
#include "vmm/surface_alias.hpp"

namespace vmmcheck::run {

class SurfaceLayout {
 public:
  SurfaceLayout(const vmm::SurfaceAlias& alias, cudaStream_t stream);

  // What the kernels take: the surface, the linear mapping and the measured words.
  const kernels::SurfaceTexels& texels() const noexcept { return texels_; }
  std::uint64_t span_words() const noexcept { return span_words_; }  // words of the linear mapping

 private:
  DeviceBuffer<std::uint32_t> word_of_;
  std::uint64_t span_words_ = 0;
  kernels::SurfaceTexels texels_;
};

}  // namespace vmmcheck::run
