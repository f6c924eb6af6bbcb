#pragma once
// peer_access (peer.access): Memory of GPU 0 reached from GPU 1 through VMM mappings granted to GPU 1 (cuMemSetAccess): another
// device's view is another virtual alias. Needs two GPUs that can access each other (the support stage
// says so where there are fewer).
// Runner: patterns/peer_access/runner.cpp; kernels: kernels/contract.cu.
#include "vocabulary/pattern.hpp"

namespace vmmcheck::patterns {

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
void run_pattern(GpuSession& s, const patterns::PeerAccess& def, const model::Case& c, CaseResult& r);
std::string why_not_here(const patterns::PeerAccess& def, const device::ProbeReport& machine, int device);
}  // namespace vmmcheck::run
