#pragma once
// resident (alias.resident): the resident-grid clause. A reader grid runs before the writing operation
// starts and reads after a signal says the writer completed. Kernels: patterns/resident/kernels.cu.
#include "vocabulary/pattern.hpp"

namespace vmmcheck::patterns {

struct Resident : PatternDefaults {
  View view = View::Same;  // the view the resident grid reads through
  Load load = Load::Weak;
  Signal signal = Signal::Kernel;
  // optional: how the reader observes the signal: ld.acquire.sys, or ld.relaxed.sys (which orders
  // nothing, and leaves the reader's L1 alone: alias.resident_relaxed asks whether stale lines survive).
  FlagSync flag_sync = FlagSync::ReleaseAcquire;
  // optional: the writing operation: a fill kernel (which starts blocks on the reader's SMs), or a
  // copy or memset (which need not).
  WriterOp writer = WriterOp::Kernel;
  Memory memory = Memory::Device;  // optional: the memory behind the views

  static constexpr std::string_view kName = "resident";
  static constexpr std::array<Lives, 1> kMutants{{{Mutant::NoResidentSignal}}};
  static constexpr auto kAxes =
      std::make_tuple(axis("view", &Resident::view), axis("load", &Resident::load, Load::Weak, Load::Volatile, Load::NonCoherent),
                      axis("signal", &Resident::signal),
                      optional_axis(axis("flag_sync", &Resident::flag_sync), FlagSync::ReleaseAcquire),
                      optional_axis(axis("writer", &Resident::writer), WriterOp::Kernel),
                      optional_axis(axis("memory", &Resident::memory), Memory::Device));
  enum Bin : int { New, Old, Other, Timeout, kBins };
  static constexpr std::array<Outcome, kBins> kOutcomes{{
      {New, "new", false, "the resident reader saw the writer's value"},
      {Old, "old", true, "the resident reader saw the value from before the writer"},
      {Other, "other", true, "the resident reader saw neither value"},
      {Timeout, "timeout", true, "the resident reader never saw the signal within its bound"},
  }};
};
static_assert(outcomes_match_bins<Resident>());

// resident reader (CTA 1, launched before the writer): r0 = ld [view]; r1 = ld.acquire.sys [flag] == 1;
//                                                       r2 = ld [view]  -- old: r2 != 1
// writing operation: st [A] = 1; then the signal: a kernel after an event, or the host after it
// synchronised (an operation boundary, then st.release.sys [flag] = 1). Without a signal the reader
// reads at once. The reader is marked resident: the model's resident-grid clause applies to it.
inline litmus::Shaped structure_of(const Resident& c) {
  using namespace litmus;
  const auto f = flavour_of(c.load);
  if (!f) return {std::nullopt, {}, kNcOutsideTheModel};
  Litmus l;
  l.name = "resident";
  l.addresses = {{"A", 0}, {"B", 0}, {"flag", 1}};
  const int view = c.view == View::Same ? 0 : 1;
  std::vector<Op> reader{load("r0", view, f->sem, f->scope)};
  if (c.signal != Signal::None) {
    const bool acquire = c.flag_sync == FlagSync::ReleaseAcquire;
    reader.push_back(load("r1", 2, acquire ? Sem::Acquire : Sem::Relaxed, Level::Sys, 1));
  }
  reader.push_back(load("r2", view, f->sem, f->scope));
  // The host is a thread of its own, outside the GPU.
  const int signaller_gpu = c.signal == Signal::Host ? 1 : 0;
  l.threads = {{"writer", 0, 0, {store(0, 1)}},
               {"reader", 0, 1, reader, /*resident=*/true},
               {"signal", signaller_gpu, 2, {store(2, 1, Sem::Release, Level::Sys)}}};
  if (c.signal == Signal::None) l.threads.pop_back();
  else l.boundaries = {{0, 2}};
  l.weak = {not_equal("r2", 1)};
  return {l, {"new"}, {}};
}

// The signal, removed: the resident grid reads as soon as it is ready.
constexpr std::optional<Control<Resident>> control_of(const Resident& c) {
  if (c.view != View::Same || c.signal == Signal::None || c.load == Load::NonCoherent ||
      c.flag_sync != FlagSync::ReleaseAcquire)
    return std::nullopt;
  return without(c, Mutant::NoResidentSignal, "the signal the reader waits for");
}

}  // namespace vmmcheck::patterns

namespace vmmcheck::run {
void run_pattern(GpuSession& s, const patterns::Resident& def, const model::Case& c, CaseResult& r);
std::string why_not_here(const patterns::Resident& def, const device::ProbeReport& machine, int device);
}  // namespace vmmcheck::run
