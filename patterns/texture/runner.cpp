// Runner of proxy.texture (patterns/texture/definition.hpp): a texture object over view A or an alias of the
// session's region; generic stores through view A; fetches in the same kernel or in a later one.
#include "run/kit/support.hpp"
#include "common/error.hpp"
#include "kernels/operations.hpp"
#include "patterns/texture/kernels.hpp"
#include "common/cuda_objects.hpp"
#include "run/kit/operations.hpp"
#include "run/kit/session.hpp"
#include "run/kit/texture.hpp"

namespace vmmcheck::run {

void run_pattern(GpuSession& s, const patterns::Texture& def, const model::Case& c, CaseResult& r) {
  const Budget& b = s.budget();
  const std::uint64_t n = b.op_words / kTextureRowWords * kTextureRowWords;  // whole rows for the 2D resource
  std::uint32_t* const a = s.words(patterns::View::Same);
  const TextureObject texture = texture_over(s.words(def.view), def.resource, n);
  const kernels::TextureView t{texture, def.resource, n, kTextureRowWords};
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
