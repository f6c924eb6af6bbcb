#pragma once
// message_passing (alias.mp, alias.mp_cta): a writer stores data and releases a flag through view A; a
// reader in another CTA, or in another warp of the same CTA, acquires the flag and reads the data, each
// through the view its axis names.
// Kernel: kernels/message_passing.cu.
#include "patterns/pattern.hpp"

namespace vmmcheck::patterns {

struct MessagePassing : PatternDefaults {
  View data = View::Same;  // the view the reader reads the data through
  View flag = View::Same;  // the view the reader acquires the flag through
  FencePlacement fence = FencePlacement::None;
  Scope scope = Scope::Gpu;  // of the release and the acquire
  FlagSync flag_sync = FlagSync::ReleaseAcquire;  // optional: relaxed for the control of release/acquire
  Partner partner = Partner::OtherCta;            // optional: the reader in another CTA, or in the writer's

  static constexpr std::string_view kName = "message_passing";
  static constexpr auto kAxes =
      std::make_tuple(axis("data", &MessagePassing::data), axis("flag", &MessagePassing::flag, View::Same, View::Alias),
                      axis("fence", &MessagePassing::fence), axis("scope", &MessagePassing::scope),
                      optional_axis(axis("flag_sync", &MessagePassing::flag_sync), FlagSync::ReleaseAcquire),
                      optional_axis(axis("partner", &MessagePassing::partner), Partner::OtherCta));
  enum Bin : int { New, Stale, Timeout, kBins };
  static constexpr std::array<Outcome, kBins> kOutcomes{{
      {New, "new", false, "flag seen, data read returned the value written before the flag"},
      {Stale, "stale", true, "flag seen, data read returned an older value"},
      {Timeout, "timeout", true, "the bounded spin on the flag gave up before the flag was seen"},
  }};
};
static_assert(outcomes_match_bins<MessagePassing>());

// writer: st data[A]; st.release flag[A]   reader: ld.acquire flag[view]; ld data[view]
constexpr AccessStructure structure_of(const MessagePassing& c) {
  AccessStructure s;
  s.same_proxy = c.data == View::Same;
  s.flag_same_proxy = c.flag == View::Same;
  s.proxy_fence = c.fence != FencePlacement::None;
  s.scope = c.scope;
  s.same_cta = c.partner == Partner::SameCta;
  s.write_in_reader_lifetime = true;
  s.sync = c.flag_sync == FlagSync::ReleaseAcquire ? Sync::ReleaseAcquire : Sync::None;
  return s;
}

// Data through an alias: without the proxy fence. Data through view A: with a relaxed flag.
constexpr std::optional<Control<MessagePassing>> control_of(const MessagePassing& c) {
  const bool synchronising_scope = c.scope != Scope::Cta || c.partner == Partner::SameCta;
  if (!synchronising_scope || c.flag != View::Same || c.flag_sync != FlagSync::ReleaseAcquire) return std::nullopt;
  MessagePassing d = c;
  if (c.data == View::Same) {
    d.flag_sync = FlagSync::Relaxed;
    return Control<MessagePassing>{d, "release/acquire on the flag"};
  }
  if (c.fence == FencePlacement::None) return std::nullopt;
  d.fence = FencePlacement::None;
  return Control<MessagePassing>{d, "fence.proxy.alias"};
}

}  // namespace vmmcheck::patterns

namespace vmmcheck::run {
void run_pattern(GpuSession& s, const patterns::MessagePassing& def, const model::Case& c, CaseResult& r);
}  // namespace vmmcheck::run
