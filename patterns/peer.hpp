#pragma once
// peer (peer.kernels, peer.mp, peer.access): memory of GPU 0 reached from GPU 1 through VMM mappings
// granted to GPU 1 (cuMemSetAccess) -- another device's view is another virtual alias. Needs two GPUs
// that can access each other; with fewer, every case is NotSupported with the reason.
// Kernels: kernels/operations.cu, kernels/peer.cu. Runners: harness/run/patterns/peer.cpp.
#include "patterns/pattern.hpp"

namespace vmmcheck::patterns {

// A writer kernel on GPU 0 through view A; a reader kernel on GPU 1 through view A (granted to both
// GPUs) or through a second mapping granted to GPU 1 alone; ordered by a cross-device event, the host,
// or nothing.
struct PeerPair : PatternDefaults {
  Order order = Order::Host;
  View view = View::Same;

  static constexpr std::string_view kName = "peer_pair";
  static constexpr std::array<Lives, 2> kMutants{{{Mutant::NoEventWait}, {Mutant::NoHostSync}}};
  static constexpr auto kAxes = std::make_tuple(axis("order", &PeerPair::order, Order::Event, Order::Host, Order::None),
                                                axis("view", &PeerPair::view, View::Same, View::Alias));
  enum Bin : int { New, Old, Other, kBins };
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

// Message passing across GPUs in two kernels that run at once: on GPU 0, st [data_A]; st.release.sys
// [flag_A]; on GPU 1, ld.acquire.sys [flag_A]; (fence.proxy.alias); ld [data_view].
struct PeerMp : PatternDefaults {
  View data = View::Same;
  Fence fence = Fence::None;  // in the reader, between the acquire and the data load
  FlagSync flag_sync = FlagSync::ReleaseAcquire;  // optional: relaxed, the control of release/acquire

  static constexpr std::string_view kName = "peer_mp";
  static constexpr std::array<Lives, 2> kMutants{
      {{Mutant::RelaxedFlag},
       {Mutant::NoProxyFence,
        "across GPUs at sys scope the reader's acquire may already refresh its view of the alias: without the fence "
        "no read need go stale (on the H200 none did)"}}};
  static constexpr auto kAxes = std::make_tuple(axis("data", &PeerMp::data, View::Same, View::Alias),
                                                axis("fence", &PeerMp::fence),
                                                optional_axis(axis("flag_sync", &PeerMp::flag_sync), FlagSync::ReleaseAcquire));
  enum Bin : int { New, Stale, Timeout, kBins };
  static constexpr std::array<Outcome, kBins> kOutcomes{{
      {New, "new", false, "flag seen, data read returned the value written before the flag"},
      {Stale, "stale", true, "flag seen, data read returned an older value"},
      {Timeout, "timeout", true, "the bounded spin on the flag gave up before the flag was seen"},
  }};
};
static_assert(outcomes_match_bins<PeerMp>());

inline litmus::Shaped structure_of(const PeerMp& c) {
  using namespace litmus;
  Litmus l;
  l.name = "peer_mp";
  l.addresses = {{"data_A", 0}, {"data_B", 0}, {"flag_A", 1}};
  const bool sync = c.flag_sync == FlagSync::ReleaseAcquire;
  std::vector<Op> reader{load("r1", 2, sync ? Sem::Acquire : Sem::Relaxed, Level::Sys, 1)};
  if (c.fence == Fence::ProxyAlias) reader.push_back(alias_fence());
  reader.push_back(load("r2", c.data == View::Same ? 0 : 1));
  l.threads = {{"writer", 0, 0, {store(0, 1), store(2, 1, sync ? Sem::Release : Sem::Relaxed, Level::Sys)}},
               {"reader", 1, 0, reader}};
  l.weak = {not_equal("r2", 1)};
  return {l, {"new"}, {}};
}

// Data through view A: with a relaxed flag. (With the reader's proxy fence kept, an H200 shows no stale
// read: the fence refreshes the reader's view though the rules order nothing without the acquire, so
// peer.mp.same.fence may not discriminate there; peer.mp.same.nofence shows the flag's work.) Data through
// the alias: without the proxy fence.
constexpr std::optional<Control<PeerMp>> control_of(const PeerMp& c) {
  if (c.flag_sync != FlagSync::ReleaseAcquire) return std::nullopt;
  if (c.data == View::Same) return without(c, Mutant::RelaxedFlag, "release/acquire on the flag");
  if (c.fence == Fence::None) return std::nullopt;
  return without(c, Mutant::NoProxyFence, "fence.proxy.alias");
}

// How GPU 1 reaches GPU 0's memory: a VMM grant, none, peer access without a grant, copies, a range
// stitched from both GPUs' memory. Cases that must fault run isolated.
struct PeerAccess : PatternDefaults {
  PeerRoute route = PeerRoute::Granted;
  // Optional, for controls: the copies and the stitched range grant each GPU on the other's memory
  // (read_write); none leaves each mapping granted to its own GPU only.
  Grant peer_grant = Grant::ReadWrite;

  static constexpr std::string_view kName = "peer_access";
  static constexpr std::array<Lives, 2> kMutants{{{Mutant::NoGrant}, {Mutant::FullGrant}}};
  static constexpr auto kAxes = std::make_tuple(
      axis("route", &PeerAccess::route),
      optional_axis(axis("peer_grant", &PeerAccess::peer_grant, Grant::ReadWrite, Grant::None), Grant::ReadWrite));
  enum Bin : int { Completed, Fault, Wrong, kBins };
  static constexpr std::array<Outcome, kBins> kOutcomes{{
      {Completed, "completed", false, "every word arrived with the right value"},
      {Fault, "fault", false, "the kernel or copy faulted (a sticky error ended its context)"},
      {Wrong, "wrong", true, "it completed but moved wrong values"},
  }};
};
static_assert(outcomes_match_bins<PeerAccess>());

// Only cuMemSetAccess grants a device access to a VMM mapping (guide 4.17.4): peer access enabled by the
// runtime does not; a copy between two devices' VMM memory is an access by both devices.
constexpr ContractStructure structure_of(const PeerAccess& c) {
  ContractStructure s;
  s.granted = c.route != PeerRoute::NoGrant && c.route != PeerRoute::PeerEnabled && c.peer_grant == Grant::ReadWrite;
  return s;
}

// A read that must fault: with GPU 1 granted. One that must complete: the kernel read without GPU 1's
// grant; the copies and the stitched range without each GPU's grant on the other's memory.
constexpr std::optional<Control<PeerAccess>> control_of(const PeerAccess& c) {
  if (c.peer_grant != Grant::ReadWrite) return std::nullopt;
  switch (c.route) {
    case PeerRoute::NoGrant:
    case PeerRoute::PeerEnabled: return without(c, Mutant::FullGrant, "the missing access grant");
    case PeerRoute::Granted: return without(c, Mutant::NoGrant, "GPU 1's access grant");
    default: return without(c, Mutant::NoGrant, "each GPU's grant on the other's memory");
  }
}

}  // namespace vmmcheck::patterns

namespace vmmcheck::run {
void run_pattern(GpuSession& s, const patterns::PeerPair& def, const model::Case& c, CaseResult& r);
void run_pattern(GpuSession& s, const patterns::PeerMp& def, const model::Case& c, CaseResult& r);
void run_pattern(GpuSession& s, const patterns::PeerAccess& def, const model::Case& c, CaseResult& r);
}  // namespace vmmcheck::run
