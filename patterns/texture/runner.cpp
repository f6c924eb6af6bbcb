// Runner of proxy.texture (patterns/texture/definition.hpp): a texture object over view A or an alias of the
// session's region; generic stores through view A; fetches in the same kernel or in a later one.
#include "run/kit/support.hpp"
#include "common/error.hpp"
#include "kernels/operations.hpp"
#include "patterns/texture/kernels.hpp"
#include "common/cuda_objects.hpp"
#include "run/kit/operations.hpp"
#include "run/kit/session.hpp"

namespace vmmcheck::run {
namespace {

using TextureObject = Owned<cudaTextureObject_t, cudaDestroyTextureObject>;

constexpr std::uint32_t kRowWords = 2048;  // pitch2d: 8 KiB rows (a multiple of any texture pitch alignment)

// A texture of 32-bit unsigned words over `words`: point filtering, unnormalised coordinates.
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
    res.res.pitch2D.width = kRowWords;
    res.res.pitch2D.height = count / kRowWords;
    res.res.pitch2D.pitchInBytes = kRowWords * sizeof(std::uint32_t);
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

}  // namespace

void run_pattern(GpuSession& s, const patterns::Texture& def, const model::Case& c, CaseResult& r) {
  const Budget& b = s.budget();
  const std::uint64_t n = b.op_words / kRowWords * kRowWords;  // whole rows for the 2D resource
  std::uint32_t* const a = s.words(patterns::View::Same);
  const TextureObject texture = texture_over(s.words(def.view), def.resource, n);
  const kernels::TextureView t{texture, def.resource, n, kRowWords};
  const bool fence = def.fence == patterns::Fence::ProxyAlias;

  Hold hold(s.latch(), kHoldInProcess);
  for (std::uint32_t it = 0; it < b.iterations; ++it) {
    const Values v = values_for(b, c.name, it);
    reset_region(s, n, v.old_value);
    kernels::launch_texture_prime(t, s.sink(), s.work());  // the texture cache holds old values
    CUDA_CHECK(cudaStreamSynchronize(s.work()));
    run_in_order(s, def.order,
                 {[&](cudaStream_t st) { kernels::launch_fill(a, n, v.new_value, st); },
                  [&](cudaStream_t st) { kernels::launch_texture_count(t, v.new_value, v.old_value, s.histogram(), st); },
                  [&](int blocks, std::uint64_t timeout_ns, cudaStream_t st) {
                    kernels::launch_texture_resident(t, s.ready(), s.flag(), timeout_ns, v.new_value, v.old_value,
                                                     s.histogram(), s.sink(), blocks, st);
                  },
                  [&](cudaStream_t st) {
                    kernels::launch_texture_in_kernel(t, a, fence, v.new_value, v.old_value, s.histogram(), s.sink(), st);
                  }},
                 hold, v.new_value);
    s.synchronize();
    hold.count(v.new_value);
  }
  s.read_histogram(r.histogram);
  if (patterns::boundary_mutant(def.order))
    r.reason = hold.summary("stores", "fetches");
  r.instances = n * b.iterations;
}

// Nothing beyond a device with VMM (what the driver refuses at run time is NotSupported then).
std::string why_not_here(const patterns::Texture&, const device::ProbeReport&, int) { return ""; }

}  // namespace vmmcheck::run
