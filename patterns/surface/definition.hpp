#pragma once
// surface (proxy.surface): surface stores into a CUDA array over a VMM allocation, generic loads of the
// same bytes through the allocation's linear mapping (harness/vmm/surface_alias.hpp). Where each texel
// lies in the linear mapping is measured first (harness/run/kit/surface_layout.hpp), so every texel's
// store is checked at its own word. The loads come in the same kernel (each thread: load, surface
// store, with or without fence.proxy.alias, load again), in a later kernel ordered by stream order, an
// event or the host, or in a grid resident before the stores. Kernels: patterns/surface/kernels.cu.
#include "vocabulary/pattern.hpp"
#include "vocabulary/kernel_orders.hpp"

namespace vmmcheck::patterns {

struct Surface : PatternDefaults {
  SurfaceBacking backing = SurfaceBacking::Import;
  TextureOrder order = TextureOrder::OneKernel;
  Fence fence = Fence::None;  // between a thread's surface store and its second load (one kernel only)

  static constexpr std::string_view kName = "surface";
  // (The resident order's signal is no mutant's: those cases are undefined by the resident-grid clause,
  // so no verdict rests on it.)
  static constexpr std::array<Lives, 3> kMutants{{{Mutant::NoStreamOrder}, {Mutant::NoEventWait}, {Mutant::NoHostSync}}};
  static constexpr auto kAxes = std::make_tuple(axis("backing", &Surface::backing), axis("order", &Surface::order),
                                                axis("fence", &Surface::fence));
  enum Bin : int { New, Old, Other, Timeout, kBins };
  static constexpr std::array<Outcome, kBins> kOutcomes{{
      {New, "new", false, "the load through the linear mapping returned the surface-stored value"},
      {Old, "old", true, "it returned the value from before the surface stores"},
      {Other, "other", true, "it returned neither"},
      {Timeout, "timeout", true, "the resident grid's signal did not come within its bound"},
  }};
};
static_assert(outcomes_match_bins<Surface>());

constexpr NotModelled structure_of(const Surface&) {
  return {"surface accesses are outside the PTX memory consistency model (PTX ISA 8.1); the verdicts come from the "
          "guide's surface rules, as cited"};
}

// The kernel boundary, removed from the case itself (the stores held until the reader starts:
// harness/run/kit/operations.hpp, run_in_order).
constexpr std::optional<Control<Surface>> control_of(const Surface& c) {
  if (const std::optional<Mutant> m = boundary_mutant(c.order)) return without(c, *m, kernel_boundary(c.order));
  return std::nullopt;
}

}  // namespace vmmcheck::patterns

namespace vmmcheck::run {
void run_pattern(GpuSession& s, const patterns::Surface& def, const model::Case& c, CaseResult& r);
std::string why_not_here(const patterns::Surface& def, const device::ProbeReport& machine, int device);
}  // namespace vmmcheck::run
