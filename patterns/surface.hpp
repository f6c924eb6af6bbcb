#pragma once
// surface (proxy.surface): surface stores into a sparse CUDA array whose tiles live in a VMM allocation,
// generic loads of the same bytes through the allocation's linear mapping (vmm/sparse_surface.hpp) --
// in the same kernel (one CTA per tile, bar.sync, with or without fence.proxy.alias), or in a later
// kernel ordered by stream order, an event or the host. Kernels: kernels/surface.cu.
#include "patterns/pattern.hpp"
#include "patterns/texture.hpp"  // kernel_boundary

namespace vmmcheck::patterns {

struct Surface : PatternDefaults {
  TextureOrder order = TextureOrder::OneKernel;
  Fence fence = Fence::None;  // between a CTA's surface stores and its loads (one kernel only)

  static constexpr std::string_view kName = "surface";
  static constexpr auto kAxes = std::make_tuple(
      axis("order", &Surface::order, TextureOrder::OneKernel, TextureOrder::Stream, TextureOrder::Event, TextureOrder::Host),
      axis("fence", &Surface::fence));
  enum Bin : int { New, Old, Other, kBins };
  static constexpr std::array<Outcome, kBins> kOutcomes{{
      {New, "new", false, "the load through the linear mapping returned the surface-stored value"},
      {Old, "old", true, "it returned the value from before the surface stores"},
      {Other, "other", true, "it returned neither"},
  }};
};
static_assert(outcomes_match_bins<Surface>());

constexpr NotModelled structure_of(const Surface&) {
  return {"surface accesses are outside the PTX memory consistency model (PTX ISA 8.1); the verdicts come from the "
          "guide's surface rules, as cited"};
}

// The kernel boundary, removed: the stores and the loads in one kernel, no fence.
constexpr std::optional<Control<Surface>> control_of(const Surface& c) {
  if (kernel_boundary(c.order).empty()) return std::nullopt;
  Surface d = c;
  d.order = TextureOrder::OneKernel;
  d.fence = Fence::None;
  return Control<Surface>{d, kernel_boundary(c.order)};
}

}  // namespace vmmcheck::patterns

namespace vmmcheck::run {
void run_pattern(GpuSession& s, const patterns::Surface& def, const model::Case& c, CaseResult& r);
}  // namespace vmmcheck::run
