#pragma once
// same_thread (alias.same_thread): one thread reads a word through view B, writes it through view A,
// (fence.proxy.alias), and reads it through B again. Kernel: kernels/same_thread.cu.
#include "patterns/pattern.hpp"

namespace vmmcheck::patterns {

struct SameThread : PatternDefaults {
  View view = View::Same;  // the view both reads use (the write goes through view A)
  Load load = Load::Weak;  // the flavour of both reads
  Fence fence = Fence::None;

  static constexpr std::string_view kName = "same_thread";
  static constexpr auto kAxes = std::make_tuple(axis("view", &SameThread::view), axis("load", &SameThread::load),
                                                axis("fence", &SameThread::fence));
  enum Bin : int { New, Stale, kBins };
  static constexpr std::array<Outcome, kBins> kOutcomes{{
      {New, "new", false, "the second read returned the value this thread just wrote"},
      {Stale, "stale", true, "the second read returned an older value"},
  }};
};
static_assert(outcomes_match_bins<SameThread>());

// r0 = ld [B]; st [A]; (fence.proxy.alias); r1 = ld [B] -- the write is A, the read is B.
constexpr AccessStructure structure_of(const SameThread& c) {
  AccessStructure s;
  s.same_proxy = c.view == View::Same;
  s.proxy_fence = c.fence == Fence::ProxyAlias;
  s.load = c.load;
  s.write_in_reader_lifetime = true;
  s.sync = Sync::ProgramOrder;
  return s;
}

// One address: through an alias, without the fence. The fence: the same case without it. ld.global.nc
// of data written in the kernel is defined by nothing, so it has no control.
constexpr std::optional<Control<SameThread>> control_of(const SameThread& c) {
  if (c.load == Load::NonCoherent) return std::nullopt;
  SameThread d = c;
  d.fence = Fence::None;
  if (c.view == View::Same) {
    d.view = View::Alias;
    return Control<SameThread>{d, "one virtual address"};
  }
  if (c.fence == Fence::ProxyAlias) return Control<SameThread>{d, "fence.proxy.alias"};
  return std::nullopt;
}

}  // namespace vmmcheck::patterns

namespace vmmcheck::run {
void run_pattern(GpuSession& s, const patterns::SameThread& def, const model::Case& c, CaseResult& r);
}  // namespace vmmcheck::run
