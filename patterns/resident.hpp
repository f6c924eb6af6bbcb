#pragma once
// resident (alias.resident): the resident-grid clause. A reader grid runs before the writing operation
// starts and reads after a signal says the writer completed. Kernel: kernels/resident.cu.
#include "patterns/pattern.hpp"

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

  static constexpr std::string_view kName = "resident";
  static constexpr auto kAxes =
      std::make_tuple(axis("view", &Resident::view), axis("load", &Resident::load, Load::Weak, Load::Volatile, Load::NonCoherent),
                      axis("signal", &Resident::signal),
                      optional_axis(axis("flag_sync", &Resident::flag_sync), FlagSync::ReleaseAcquire),
                      optional_axis(axis("writer", &Resident::writer), WriterOp::Kernel));
  enum Bin : int { New, Old, Other, Timeout, kBins };
  static constexpr std::array<Outcome, kBins> kOutcomes{{
      {New, "new", false, "the resident reader saw the writer's value"},
      {Old, "old", true, "the resident reader saw the value from before the writer"},
      {Other, "other", true, "the resident reader saw neither value"},
      {Timeout, "timeout", true, "the resident reader never saw the signal within its bound"},
  }};
};
static_assert(outcomes_match_bins<Resident>());

constexpr AccessStructure structure_of(const Resident& c) {
  AccessStructure s;
  s.same_proxy = c.view == View::Same;
  s.load = c.load;
  s.write_in_reader_lifetime = true;
  s.sync = c.signal == Signal::None || c.flag_sync == FlagSync::Relaxed ? Sync::None : Sync::ResidentSignal;
  return s;
}

// The signal, removed: the resident grid reads as soon as it is ready.
constexpr std::optional<Control<Resident>> control_of(const Resident& c) {
  if (c.view != View::Same || c.signal == Signal::None || c.load == Load::NonCoherent ||
      c.flag_sync != FlagSync::ReleaseAcquire)
    return std::nullopt;
  Resident d = c;
  d.signal = Signal::None;
  return Control<Resident>{d, "the signal the reader waits for"};
}

}  // namespace vmmcheck::patterns

namespace vmmcheck::run {
void run_pattern(GpuSession& s, const patterns::Resident& def, const model::Case& c, CaseResult& r);
}  // namespace vmmcheck::run
