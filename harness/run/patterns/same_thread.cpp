// Runner of alias.same_thread (patterns/same_thread.hpp): one instance per resident thread per round.
#include "kernels/operations.hpp"
#include "kernels/same_thread.hpp"
#include "run/in_kernel.hpp"

namespace vmmcheck::run {

void run_pattern(GpuSession& s, const patterns::SameThread& def, const model::Case& c, CaseResult& r) {
  const Budget& b = s.budget();
  kernels::SameThreadArgs a;
  a.write_view = s.words(patterns::View::Same);
  a.read_view = s.words(def.view);
  a.load = def.load;
  a.proxy_fence = def.fence == patterns::Fence::ProxyAlias;
  a.stress = s.stress();
  a.histogram = s.histogram();
  a.sink = s.sink();
  const kernels::LaunchShape shape = kernels::same_thread_shape(a, static_cast<int>(b.threads_per_block));
  const std::uint32_t n = shape.instances();
  a.rounds = rounds_for(b, n);
  // Every word starts at 0; round r of launch i writes i * rounds + r + 1, so values only grow.
  kernels::launch_fill(s.words(patterns::View::Same), n, 0, s.work());
  timed_launches(s, a.rounds, r, [&](std::uint32_t it, std::uint32_t base) {
    a.value_base = base;
    a.placement = placement_for(case_seed(b, c.name, it), n);
    kernels::launch_same_thread(a, shape, s.work());
  });
  r.instances = static_cast<std::uint64_t>(n) * a.rounds * b.iterations;
}

}  // namespace vmmcheck::run
