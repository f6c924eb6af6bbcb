// Runner of proxy.surface (patterns/surface/definition.hpp): a 1024 x 1024 surface array over a VMM allocation that
// is also mapped linearly (harness/vmm/surface_alias.hpp), its texels' words measured (harness/run/kit/surface_layout.hpp);
// surface stores, then generic loads through the linear mapping.
#include "run/kit/support.hpp"
#include "common/error.hpp"
#include "patterns/surface/kernels.hpp"
#include "run/kit/checked_words.hpp"
#include "run/kit/operations.hpp"
#include "run/kit/session.hpp"
#include "run/kit/surface_layout.hpp"
#include "vmm/surface_alias.hpp"

namespace vmmcheck::run {

void run_pattern(GpuSession& s, const patterns::Surface& def, const model::Case& c, CaseResult& r) {
  const Budget& b = s.budget();
  const vmm::SurfaceAlias alias(def.backing, s.device(), s.work());
  const SurfaceLayout layout(alias, s.work());
  const kernels::SurfaceTexels& t = layout.texels();
  kernels::preload_surface_kernels();
  const bool fence = def.fence == patterns::Fence::ProxyAlias;
  Hold hold(s.latch(), kHoldInProcess);
  for (std::uint32_t it = 0; it < b.iterations; ++it) {
    const Values v = values_for(b, c.name, it);
    fill(alias.linear(), layout.span_words(), v.old_value, s.work());
    kernels::launch_surface_prime(t, s.sink(), s.work());  // the loads' caches hold old values
    CUDA_CHECK(cudaStreamSynchronize(s.work()));
    run_in_order(s, def.order,
                 {[&](cudaStream_t st) { kernels::launch_surface_fill(t, v.new_value, st); },
                  [&](cudaStream_t st) { kernels::launch_surface_count(t, v.new_value, v.old_value, s.histogram(), st); },
                  [&](int blocks, std::uint64_t timeout_ns, cudaStream_t st) {
                    kernels::launch_surface_resident(t, s.ready(), s.flag(), timeout_ns, v.new_value, v.old_value,
                                                     s.histogram(), s.sink(), blocks, st);
                  },
                  [&](cudaStream_t st) {
                    kernels::launch_surface_in_kernel(t, fence, v.new_value, v.old_value, s.histogram(), s.sink(), st);
                  }},
                 hold, v.new_value);
    s.synchronize();
    hold.count(v.new_value);
  }
  s.read_histogram(r.histogram);
  if (patterns::boundary_mutant(def.order))
    r.reason = hold.summary("stores", "loads");
  r.instances = t.count() * b.iterations;
}

// Nothing beyond a device with VMM (what the driver refuses at run time is NotSupported then).
std::string why_not_here(const patterns::Surface&, const device::ProbeReport&, int) { return ""; }

}  // namespace vmmcheck::run
