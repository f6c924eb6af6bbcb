#include "run/kit/texture.hpp"

#include "common/error.hpp"

namespace vmmcheck::run {

TextureObject texture_over(std::uint32_t* words, patterns::TexResource resource, std::uint64_t count) {
  cudaResourceDesc res = {};
  if (resource == patterns::TexResource::Linear) {
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = words;
    res.res.linear.desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindUnsigned);
    res.res.linear.sizeInBytes = count * sizeof(std::uint32_t);
  } else {
    res.resType = cudaResourceTypePitch2D;
    res.res.pitch2D.devPtr = words;
    res.res.pitch2D.desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindUnsigned);
    res.res.pitch2D.width = kTextureRowWords;
    res.res.pitch2D.height = count / kTextureRowWords;
    res.res.pitch2D.pitchInBytes = kTextureRowWords * sizeof(std::uint32_t);
  }
  cudaTextureDesc tex = {};
  tex.addressMode[0] = tex.addressMode[1] = cudaAddressModeClamp;
  tex.filterMode = cudaFilterModePoint;
  tex.readMode = cudaReadModeElementType;
  tex.normalizedCoords = 0;
  cudaTextureObject_t t = 0;
  CUDA_CHECK(cudaCreateTextureObject(&t, &res, &tex, nullptr));
  return TextureObject(t);
}

}  // namespace vmmcheck::run
