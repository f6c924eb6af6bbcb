// Runner of alias.memory.same_thread (patterns/same_thread/definition.hpp): one instance per resident thread per round.
#include "run/kit/support.hpp"
#include "kernels/operations.hpp"
#include "patterns/same_thread/kernels.hpp"
#include "run/kit/in_kernel.hpp"
#include "run/kit/mutants.hpp"

namespace vmmcheck::run {

void run_pattern(GpuSession& s, const patterns::SameThread& def, const model::Case& c, CaseResult& r) {
  const Budget& b = s.budget();
  kernels::SameThreadArgs a;
  a.write_view = s.words(patterns::View::Same);
  a.read_view = s.words(def.view);
  a.load = def.load;
  a.proxy_fence = def.fence == patterns::Fence::ProxyAlias && !mutated(Mutant::NoProxyFence);
  a.histogram = s.histogram();
  a.sink = s.sink();
  const kernels::LaunchShape shape = kernels::same_thread_shape(a, static_cast<int>(b.stress.threads_per_block));
  // Every word starts at 0, and the values written only grow.
  kernels::launch_fill(s.words(patterns::View::Same), shape.instances(), 0, s.work());
  run_litmus(s, c, r, a, shape, [&](const kernels::SameThreadArgs& args) {
    kernels::launch_same_thread(args, shape, s.work());
  });
}

// The memory its views are made of must be one this device offers.
std::string why_not_here(const patterns::SameThread& def, const device::ProbeReport& machine, int device) {
  return memory_why_not(def.memory, machine.devices.at(static_cast<std::size_t>(device)));
}

}  // namespace vmmcheck::run
