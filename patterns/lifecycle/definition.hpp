#pragma once
// lifecycle (lifecycle.*): data belongs to the physical allocation, not to an address. Every word
// checked is one instance. Runner: patterns/lifecycle/runner.cpp.
#include "vocabulary/pattern.hpp"

namespace vmmcheck::patterns {

struct Lifecycle : PatternDefaults {
  Scenario scenario = Scenario::RemapSameVa;
  Interference interference = Interference::None;  // optional: overwrite for the control

  static constexpr std::string_view kName = "lifecycle";
  static constexpr std::array<Lives, 1> kMutants{{{Mutant::StrayWrite}}};
  static constexpr auto kAxes =
      std::make_tuple(axis("scenario", &Lifecycle::scenario),
                      optional_axis(axis("interference", &Lifecycle::interference), Interference::None));
  enum Bin : int { Intact, Corrupt, kBins };
  static constexpr std::array<Outcome, kBins> kOutcomes{{
      {Intact, "intact", false, "the word held the value written to the physical memory"},
      {Corrupt, "corrupt", true, "the word held something else"},
  }};
};
static_assert(outcomes_match_bins<Lifecycle>());

constexpr ContractStructure structure_of(const Lifecycle& c) {
  ContractStructure s;
  s.checks_words = true;
  s.overwritten = c.interference == Interference::Overwrite;
  return s;
}

// Nothing touching the memory, removed: a kernel overwrites it before the check reads it back.
constexpr std::optional<Control<Lifecycle>> control_of(const Lifecycle& c) {
  if (c.interference != Interference::None) return std::nullopt;
  return without(c, Mutant::StrayWrite, "nothing else writing the memory");
}

}  // namespace vmmcheck::patterns

namespace vmmcheck::run {
void run_pattern(GpuSession& s, const patterns::Lifecycle& def, const model::Case& c, CaseResult& r);
std::string why_not_here(const patterns::Lifecycle& def, const device::ProbeReport& machine, int device);
}  // namespace vmmcheck::run
