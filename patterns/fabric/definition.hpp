#pragma once
// fabric (fabric.handles): an allocation created with the FABRIC handle type, exported as a fabric
// handle (opaque bytes any process of the NVLink domain may import) and imported -- by this process or
// by a second one -- and mapped: an alias through the fabric. Creating one needs an IMEX channel; where
// there is none the case is NotSupported with that reason, never Fail (harness/vmm/fabric.hpp).
// Runner: patterns/fabric/runner.cpp.
#include "vocabulary/pattern.hpp"

namespace vmmcheck::patterns {

struct Fabric : PatternDefaults {
  Importer importer = Importer::SameProcess;
  Grant grant = Grant::ReadWrite;  // optional: the importer's grant on its mapping; none for the control

  static constexpr std::string_view kName = "fabric";
  static constexpr std::array<Lives, 1> kMutants{{{Mutant::NoGrant}}};
  static constexpr auto kAxes = std::make_tuple(
      axis("importer", &Fabric::importer),
      optional_axis(axis("grant", &Fabric::grant, Grant::ReadWrite, Grant::None), Grant::ReadWrite));
  enum Bin : int { Completed, Fault, Wrong, kBins };
  static constexpr std::array<Outcome, kBins> kOutcomes{{
      {Completed, "completed", false, "the importer read back every word the exporter wrote"},
      {Fault, "fault", false, "the importer's read faulted"},
      {Wrong, "wrong", true, "the importer's read completed with wrong values"},
  }};
};
static_assert(outcomes_match_bins<Fabric>());

constexpr ContractStructure structure_of(const Fabric& c) {
  ContractStructure s;
  s.granted = c.grant == Grant::ReadWrite;
  return s;
}

// The importer's grant, removed: its mapping exists but this device may not touch it.
constexpr std::optional<Control<Fabric>> control_of(const Fabric& c) {
  if (c.grant != Grant::ReadWrite) return std::nullopt;
  return without(c, Mutant::NoGrant, "the importer's access grant");
}

}  // namespace vmmcheck::patterns

namespace vmmcheck::run {
void run_pattern(GpuSession& s, const patterns::Fabric& def, const model::Case& c, CaseResult& r);
std::string why_not_here(const patterns::Fabric& def, const device::ProbeReport& machine, int device);
}  // namespace vmmcheck::run
