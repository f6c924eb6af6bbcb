#pragma once
// message_passing (alias.memory.mp): a writer stores data and releases a flag through view A; a reader
// in another CTA acquires the flag and reads the data, each through the view its axis names. (alias.mp
// and alias.mp_cta, on device memory, retired to litmus rows: cases/litmus/alias_mp*.test.)
// Kernel: patterns/message_passing/kernels.cu.
#include "vocabulary/pattern.hpp"

namespace vmmcheck::patterns {

struct MessagePassing : PatternDefaults {
  View data = View::Same;  // the view the reader reads the data through
  View flag = View::Same;  // the view the reader acquires the flag through
  FencePlacement fence = FencePlacement::None;
  Scope scope = Scope::Gpu;  // of the release and the acquire
  FlagSync flag_sync = FlagSync::ReleaseAcquire;  // optional: relaxed for the control of release/acquire
  Memory memory = Memory::Device;                 // optional: the memory behind the views

  static constexpr std::string_view kName = "message_passing";
  static constexpr bool kTakesStress = true;  // its kernels run the budget's memory stress
  // Across CTAs at .gpu or .sys scope the H200 showed no stale read with the proxy fence taken away
  // (alias.mp's own controls: 0 in 10.8M each), so no case of this pattern can catch it there; the rows
  // of alias_mp_cta.test, one CTA, do (the generator's no-proxy-fence).
  static constexpr std::array<Lives, 2> kMutants{
      {{Mutant::NoProxyFence, "across CTAs, the reader's .gpu/.sys acquire already reads the data fresh on the H200 (0 stale in 10.8M without the fence); the litmus rows of one CTA catch it"},
       {Mutant::RelaxedFlag}}};
  static constexpr auto kAxes =
      std::make_tuple(axis("data", &MessagePassing::data), axis("flag", &MessagePassing::flag, View::Same, View::Alias),
                      axis("fence", &MessagePassing::fence), axis("scope", &MessagePassing::scope),
                      optional_axis(axis("flag_sync", &MessagePassing::flag_sync), FlagSync::ReleaseAcquire),
                      optional_axis(axis("memory", &MessagePassing::memory), Memory::Device));
  enum Bin : int { New, Stale, Timeout, kBins };
  static constexpr std::array<Outcome, kBins> kOutcomes{{
      {New, "new", false, "flag seen, data read returned the value written before the flag"},
      {Stale, "stale", true, "flag seen, data read returned an older value"},
      {Timeout, "timeout", true, "the bounded spin on the flag gave up before the flag was seen"},
  }};
};
static_assert(outcomes_match_bins<MessagePassing>());

// writer (CTA 0):  st [data_A] = 1; (fence.proxy.alias); st.release.<scope> [flag_A] = 1
// reader (CTA 1):
//                  r0 = ld [data_view]; r1 = ld.acquire.<scope> [flag_view] == 1; (fence.proxy.alias);
//                  r2 = ld [data_view]  -- stale: r2 != 1. A relaxed flag_sync makes both flag accesses relaxed.
inline litmus::Shaped structure_of(const MessagePassing& c) {
  using namespace litmus;
  Litmus l;
  l.name = "message_passing";
  l.addresses = {{"data_A", 0}, {"data_B", 0}, {"flag_A", 1}, {"flag_B", 1}};
  const int data = c.data == View::Same ? 0 : 1, flag = c.flag == View::Same ? 2 : 3;
  const Level scope = level_of(c.scope);
  const bool sync = c.flag_sync == FlagSync::ReleaseAcquire;
  std::vector<Op> writer{store(0, 1)};
  if (c.fence == FencePlacement::Writer || c.fence == FencePlacement::Both) writer.push_back(alias_fence());
  writer.push_back(store(2, 1, sync ? Sem::Release : Sem::Relaxed, scope));
  std::vector<Op> reader{load("r0", data), load("r1", flag, sync ? Sem::Acquire : Sem::Relaxed, scope, 1)};
  if (c.fence == FencePlacement::Reader || c.fence == FencePlacement::Both) reader.push_back(alias_fence());
  reader.push_back(load("r2", data));
  l.threads = {{"writer", 0, 0, writer}, {"reader", 0, 1, reader}};
  l.weak = {not_equal("r2", 1)};
  return {l, {"new"}, {}};
}

// Data through an alias: without the proxy fence. Data through view A: with a relaxed flag.
constexpr std::optional<Control<MessagePassing>> control_of(const MessagePassing& c) {
  if (c.scope == Scope::Cta || c.flag != View::Same || c.flag_sync != FlagSync::ReleaseAcquire) return std::nullopt;
  if (c.data == View::Same) return without(c, Mutant::RelaxedFlag, "release/acquire on the flag");
  if (c.fence == FencePlacement::None) return std::nullopt;
  return without(c, Mutant::NoProxyFence, "fence.proxy.alias");
}

}  // namespace vmmcheck::patterns

namespace vmmcheck::run {
void run_pattern(GpuSession& s, const patterns::MessagePassing& def, const model::Case& c, CaseResult& r);
std::string why_not_here(const patterns::MessagePassing& def, const device::ProbeReport& machine, int device);
}  // namespace vmmcheck::run
