#pragma once
// same_thread (alias.memory.same_thread; alias.same_thread retired to cases/litmus/alias_same_thread.test):
// one thread reads a word through view B, writes it through view A, (fence.proxy.alias), and reads it
// through B again. Kernel: patterns/same_thread/kernels.cu.
#include "vocabulary/pattern.hpp"

namespace vmmcheck::patterns {

struct SameThread : PatternDefaults {
  View view = View::Same;  // the view both reads use (the write goes through view A)
  Load load = Load::Weak;  // the flavour of both reads
  Fence fence = Fence::None;
  Memory memory = Memory::Device;  // optional: the memory behind the views

  static constexpr std::string_view kName = "same_thread";
  static constexpr bool kTakesStress = true;  // its kernels run the budget's memory stress
  static constexpr std::array<Lives, 1> kMutants{{{Mutant::NoProxyFence}}};
  static constexpr auto kAxes = std::make_tuple(axis("view", &SameThread::view), axis("load", &SameThread::load),
                                                axis("fence", &SameThread::fence),
                                                optional_axis(axis("memory", &SameThread::memory), Memory::Device));
  enum Bin : int { New, Stale, kBins };
  static constexpr std::array<Outcome, kBins> kOutcomes{{
      {New, "new", false, "the second read returned the value this thread just wrote"},
      {Stale, "stale", true, "the second read returned an older value"},
  }};
};
static_assert(outcomes_match_bins<SameThread>());

// r0 = ld [B]; st [A] = 1; (fence.proxy.alias); r1 = ld [B] -- stale: r1 != 1.
inline litmus::Shaped structure_of(const SameThread& c) {
  using namespace litmus;
  const auto f = flavour_of(c.load);
  if (!f) return {std::nullopt, {}, kNcOutsideTheModel};
  Litmus l;
  l.name = "same_thread";
  l.addresses = {{"A", 0}, {"B", 0}};
  const int b = c.view == View::Same ? 0 : 1;
  std::vector<Op> ops{load("r0", b, f->sem, f->scope), store(0, 1)};
  if (c.fence == Fence::ProxyAlias) ops.push_back(alias_fence());
  ops.push_back(load("r1", b, f->sem, f->scope));
  l.threads = {{"t", 0, 0, ops}};
  l.weak = {not_equal("r1", 1)};
  return {l, {"new"}, {}};
}

// The fence: the same case without it. One address: a separate case, the same kernel reading through an
// alias without the fence. ld.global.nc of data written in the kernel is defined by nothing, so it has
// no control.
constexpr std::optional<Control<SameThread>> control_of(const SameThread& c) {
  if (c.load == Load::NonCoherent) return std::nullopt;
  if (c.view == View::Same) {
    SameThread d = c;
    d.fence = Fence::None;
    d.view = View::Alias;
    return separate_control(d, "one virtual address",
                            "one address is not an ordering a switch can take out of a launch: the control is the "
                            "same kernel with both reads through an alias and no fence");
  }
  if (c.fence == Fence::ProxyAlias) return without(c, Mutant::NoProxyFence, "fence.proxy.alias");
  return std::nullopt;
}

}  // namespace vmmcheck::patterns

namespace vmmcheck::run {
void run_pattern(GpuSession& s, const patterns::SameThread& def, const model::Case& c, CaseResult& r);
std::string why_not_here(const patterns::SameThread& def, const device::ProbeReport& machine, int device);
}  // namespace vmmcheck::run
