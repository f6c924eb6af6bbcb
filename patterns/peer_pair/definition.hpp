#pragma once
// peer_pair (peer.kernels): Memory of GPU 0 reached from GPU 1 through VMM mappings granted to GPU 1 (cuMemSetAccess): another
// device's view is another virtual alias. Needs two GPUs that can access each other (the support stage
// says so where there are fewer).
// Runner: patterns/peer_pair/runner.cpp; kernels: kernels/operations.cu.
#include "vocabulary/pattern.hpp"

namespace vmmcheck::patterns {

// A writer kernel on GPU 0 through view A; a reader kernel on GPU 1 through view A (granted to both
// GPUs) or through a second mapping granted to GPU 1 alone; ordered by a cross-device event, the host,
// or nothing.
struct PeerPair : PatternDefaults, CountedBins {  // bins: the shared counting reader's
  Order order = Order::Host;
  View view = View::Same;

  static constexpr std::string_view kName = "peer_pair";
  static constexpr std::array<Lives, 2> kMutants{{{Mutant::NoEventWait}, {Mutant::NoHostSync}}};
  static constexpr auto kAxes = std::make_tuple(axis("order", &PeerPair::order, Order::Event, Order::Host, Order::None),
                                                axis("view", &PeerPair::view, View::Same, View::Alias));
  static constexpr std::array<Outcome, kBins> kOutcomes{{
      {New, "new", false, "the reader on GPU 1 saw the writer's value"},
      {Old, "old", true, "the reader on GPU 1 saw the value from before the writer"},
      {Other, "other", true, "the reader on GPU 1 saw neither value"},
  }};
};
static_assert(outcomes_match_bins<PeerPair>());

// GPU 0: st [A] = 1  |  GPU 1: r = ld [view]  -- old: r != 1; an event or the host is a boundary.
inline litmus::Shaped structure_of(const PeerPair& c) {
  return {litmus::operation_pair("peer_pair", c.view != View::Same, c.order != Order::None, 1, 0), {"new"}, {}};
}

// The order, removed from the case itself (the writer held until the reader starts).
constexpr std::optional<Control<PeerPair>> control_of(const PeerPair& c) {
  if (c.order == Order::Event) return without(c, Mutant::NoEventWait, "the cross-device event");
  if (c.order == Order::Host) return without(c, Mutant::NoHostSync, "host synchronisation");
  return std::nullopt;
}

}  // namespace vmmcheck::patterns

namespace vmmcheck::run {
void run_pattern(GpuSession& s, const patterns::PeerPair& def, const model::Case& c, CaseResult& r);
std::string why_not_here(const patterns::PeerPair& def, const device::ProbeReport& machine, int device);
}  // namespace vmmcheck::run
