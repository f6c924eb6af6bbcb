// Runner of alias.rmw (patterns/rmw/definition.hpp): every word of a round is one instance; its threads' adds must
// all land. The words are zeroed through view A before each launch and counted through view A after it
// (both operation boundaries, where every alias is coherent).
#include <algorithm>

#include "run/kit/support.hpp"
#include "common/error.hpp"
#include "kernels/operations.hpp"
#include "patterns/rmw/kernels.hpp"
#include "run/kit/in_kernel.hpp"
#include "run/kit/mutants.hpp"

namespace vmmcheck::run {

void run_pattern(GpuSession& s, const patterns::Rmw& def, const model::Case& c, CaseResult& r) {
  const Budget& b = s.budget();
  kernels::RmwArgs a;
  a.view_a = s.words(patterns::View::Same);
  a.view_b = s.words(def.view);
  a.scope = def.scope;
  a.update = mutated(Mutant::PlainRmw) ? patterns::Update::Plain : def.update;
  a.sink = s.sink();
  const kernels::LaunchShape shape = kernels::rmw_shape(a, static_cast<int>(b.stress.threads_per_block));
  const std::uint64_t per_round = kernels::rmw_words_per_round(shape);
  // Each round needs fresh words: as many rounds as the budget asks, as the region holds; more launches
  // when it holds fewer.
  a.rounds = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(rounds_for(b, static_cast<std::uint32_t>(per_round)), s.region_words() / per_round));
  const std::uint64_t words = per_round * a.rounds;
  const LoopPlan plan{static_cast<std::uint32_t>(per_round),
                      std::max<std::uint64_t>(b.iterations, (b.instances + words - 1) / words), words};
  launch_loop(
      s, c, r, plan,
      [&](std::uint64_t, const kernels::Placement& placement) {
        kernels::launch_fill(a.view_a, words, 0, s.work());
        a.placement = placement;
      },
      [&] { kernels::launch_rmw(a, shape, s.work()); },
      [&](std::uint64_t) { kernels::launch_rmw_count(a.view_a, words, s.histogram(), s.work()); });
}

// Nothing beyond a device with VMM (what the driver refuses at run time is NotSupported then).
std::string why_not_here(const patterns::Rmw&, const device::ProbeReport&, int) { return ""; }

}  // namespace vmmcheck::run
