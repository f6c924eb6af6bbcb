#pragma once
// multicast (multicast.*): one physical allocation reached through a multicast mapping (multimem
// instructions) and through the device's unicast mapping -- two virtual aliases of the same memory.
// Nothing here runs unless the multicast gate allows it (harness/vmm/multicast.hpp).
// Kernels: patterns/multicast/kernels.cu. Runner: patterns/multicast/runner.cpp.
#include "vocabulary/pattern.hpp"

namespace vmmcheck::patterns {

struct Multicast : PatternDefaults {
  MulticastOp op = MulticastOp::Store;
  Fence fence = Fence::None;   // fence.proxy.alias between the two accesses (one kernel only)
  Order order = Order::None;   // None: both accesses in one kernel; Event: two kernels ordered by an event
  // optional: one process driving every device of the team, or two processes (the second access in the
  // other one; Order::None then means nothing orders the two kernels).
  TeamProcesses processes = TeamProcesses::One;

  static constexpr std::string_view kName = "multicast";
  static constexpr std::array<Lives, 2> kMutants{{{Mutant::NoEventWait}, {Mutant::NoProxyFence}}};
  static constexpr auto kAxes = std::make_tuple(axis("op", &Multicast::op), axis("fence", &Multicast::fence),
                                                axis("order", &Multicast::order, Order::None, Order::Event),
                                                optional_axis(axis("processes", &Multicast::processes), TeamProcesses::One));
  enum Bin : int { New, Stale, kBins };
  static constexpr std::array<Outcome, kBins> kOutcomes{{
      {New, "new", false, "the second access saw the first's value"},
      {Stale, "stale", true, "the second access saw an older value"},
  }};
};
static_assert(outcomes_match_bins<Multicast>());

// The PTX model here covers the generic proxy of one device; multimem accesses reach every device of a
// team at once, which it does not describe.
constexpr NotModelled structure_of(const Multicast&) {
  return {"multimem accesses through a multicast mapping are outside the PTX model vmmcheck transcribes; the verdicts cite the guide and the PTX ISA"};
}

// An event between two kernels: the second kernels without their wait for it (in either process). A
// fence: removed.
constexpr std::optional<Control<Multicast>> control_of(const Multicast& c) {
  if (c.order == Order::Event) return without(c, Mutant::NoEventWait, "the event between the kernels");
  if (c.fence == Fence::ProxyAlias) return without(c, Mutant::NoProxyFence, "fence.proxy.alias");
  return std::nullopt;
}

}  // namespace vmmcheck::patterns

namespace vmmcheck::run {
void run_pattern(GpuSession& s, const patterns::Multicast& def, const model::Case& c, CaseResult& r);
std::string why_not_here(const patterns::Multicast& def, const device::ProbeReport& machine, int device);
}  // namespace vmmcheck::run
