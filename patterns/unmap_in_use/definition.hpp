#pragma once
// unmap_in_use (lifecycle.unmap.*): cuMemUnmap while a kernel that uses the mapping is queued behind a
// gate, or running. Runner: patterns/unmap_in_use/runner.cpp.
#include "vocabulary/pattern.hpp"

namespace vmmcheck::patterns {

struct UnmapInUse : PatternDefaults {
  KernelState kernel = KernelState::Queued;

  static constexpr std::string_view kName = "unmap_in_use";
  static constexpr auto kAxes = std::make_tuple(axis("kernel", &UnmapInUse::kernel));
  enum Bin : int { Completed, Wrong, Fault, UnmapRefused, kBins };
  static constexpr std::array<Outcome, kBins> kOutcomes{{
      {Completed, "completed", false, "the kernel finished and read the data the mapping held"},
      {Wrong, "wrong", true, "the kernel finished but read other data"},
      {Fault, "fault", true, "the kernel faulted (a sticky error ended the context)"},
      {UnmapRefused, "unmap_refused", true, "cuMemUnmap returned an error; the kernel ran with the mapping in place"},
  }};
};
static_assert(outcomes_match_bins<UnmapInUse>());

constexpr ContractStructure structure_of(const UnmapInUse&) {
  ContractStructure s;
  s.mapping_outlives_access = false;
  return s;
}

// Undefined: nothing to remove.
constexpr std::optional<Control<UnmapInUse>> control_of(const UnmapInUse&) { return std::nullopt; }

}  // namespace vmmcheck::patterns

namespace vmmcheck::run {
void run_pattern(GpuSession& s, const patterns::UnmapInUse& def, const model::Case& c, CaseResult& r);
std::string why_not_here(const patterns::UnmapInUse& def, const device::ProbeReport& machine, int device);
}  // namespace vmmcheck::run
