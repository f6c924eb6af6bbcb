// Runner of proxy.surface (patterns/surface.hpp): a 1024 x 1024 sparse (or deferred-mapping) array over a VMM allocation that is
// also mapped linearly; surface stores, then loads through the linear mapping.
#include "common/error.hpp"
#include "kernels/operations.hpp"
#include "kernels/surface.hpp"
#include "run/checked_words.hpp"
#include "run/mutants.hpp"
#include "run/operations.hpp"
#include "run/session.hpp"
#include "vmm/sparse_surface.hpp"

namespace vmmcheck::run {

void run_pattern(GpuSession& s, const patterns::Surface& def, const model::Case& c, CaseResult& r) {
  using Order = patterns::TextureOrder;
  const Budget& b = s.budget();
  const vmm::SparseSurfaceAlias alias(s.device(), s.work());
  const kernels::SurfaceTiles t{alias.surface(), words_at(alias.linear()), alias.tile_width(), alias.tile_height(),
                                alias.tiles_x(), alias.tiles_y()};
  const std::uint64_t n = t.words();
  const bool fence = def.fence == patterns::Fence::ProxyAlias && !mutated(Mutant::NoProxyFence);
  for (std::uint32_t it = 0; it < b.iterations; ++it) {
    const Values v = values_for(b, c.name, it);
    fill(alias.linear(), n, v.old_value, s.work());
    kernels::launch_prime(t.linear, n, s.sink(), s.work());  // the loads' caches hold old values
    CUDA_CHECK(cudaStreamSynchronize(s.work()));
    auto count = [&](cudaStream_t st) {
      kernels::launch_count(t.linear, n, patterns::Load::Weak, v.new_value, v.old_value, s.histogram(), st);
    };
    switch (def.order) {
      case Order::Stream:
      case Order::Event:
      case Order::Host:
        kernels::launch_surface_fill(t, v.new_value, s.work());
        read_after(patterns::kernel_order(def.order), s.work(), s.second(), s.handoff(), count);
        break;
      default:
        kernels::launch_surface_in_kernel(t, fence, v.new_value, v.old_value, s.histogram(), s.sink(), s.work());
        break;
    }
    s.synchronize();
  }
  s.read_histogram(r.histogram);
  r.instances = n * b.iterations;
}

}  // namespace vmmcheck::run
