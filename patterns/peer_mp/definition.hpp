#pragma once
// peer_mp (peer.mp): Memory of GPU 0 reached from GPU 1 through VMM mappings granted to GPU 1 (cuMemSetAccess): another
// device's view is another virtual alias. Needs two GPUs that can access each other (the support stage
// says so where there are fewer).
// Runner and kernels: patterns/peer_mp/.
#include "vocabulary/pattern.hpp"

namespace vmmcheck::patterns {

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

}  // namespace vmmcheck::patterns

namespace vmmcheck::run {
void run_pattern(GpuSession& s, const patterns::PeerMp& def, const model::Case& c, CaseResult& r);
std::string why_not_here(const patterns::PeerMp& def, const device::ProbeReport& machine, int device);
}  // namespace vmmcheck::run
