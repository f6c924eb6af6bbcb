#pragma once
// access (access.*): a kernel reads or writes one granule through a mapping whose access rights the
// case sets. Cases that must fault run isolated. Runner: patterns/access/runner.cpp.
#include "vocabulary/pattern.hpp"

namespace vmmcheck::patterns {

struct Access : PatternDefaults {
  Grant grant = Grant::ReadWrite;
  AccessOp op = AccessOp::Read;

  static constexpr std::string_view kName = "access";
  static constexpr std::array<Lives, 2> kMutants{{{Mutant::NoGrant}, {Mutant::FullGrant}}};
  static constexpr auto kAxes = std::make_tuple(axis("grant", &Access::grant), axis("op", &Access::op));
  enum Bin : int { Completed, Fault, Wrong, kBins };
  static constexpr std::array<Outcome, kBins> kOutcomes{{
      {Completed, "completed", false, "the access completed with the right value"},
      {Fault, "fault", false, "the kernel making the access faulted (a sticky error ended its context)"},
      {Wrong, "wrong", true, "the access completed but moved the wrong value (a dropped write, a read of other data)"},
  }};
};
static_assert(outcomes_match_bins<Access>());

constexpr ContractStructure structure_of(const Access& c) {
  ContractStructure s;
  s.granted = c.grant != Grant::None && c.grant != Grant::SubrangeOutside;
  s.write = c.op == AccessOp::Write;
  s.write_permitted = c.grant != Grant::Read && c.grant != Grant::ReadAfterRw;
  return s;
}

// An access that must complete: without any grant. An access that must fault: with a read-write grant
// on both granules.
constexpr std::optional<Control<Access>> control_of(const Access& c) {
  const ContractStructure s = structure_of(c);
  if (s.granted && (!s.write || s.write_permitted)) return without(c, Mutant::NoGrant, "the access grant");
  return without(c, Mutant::FullGrant, "the missing access right");
}

}  // namespace vmmcheck::patterns

namespace vmmcheck::run {
void run_pattern(GpuSession& s, const patterns::Access& def, const model::Case& c, CaseResult& r);
std::string why_not_here(const patterns::Access& def, const device::ProbeReport& machine, int device);
}  // namespace vmmcheck::run
