#pragma once
// texture (proxy.texture): generic stores through view A, texture fetches through a texture object over
// view A or over an alias -- in one kernel (with or without fence.proxy.alias), in a later kernel
// ordered by stream order, an event or the host, or in a grid resident before the stores and told after
// they completed. Kernels: patterns/texture/kernels.cu. Runner:
// patterns/texture/runner.cpp.
#include "vocabulary/kernel_orders.hpp"
#include "vocabulary/pattern.hpp"

namespace vmmcheck::patterns {

struct Texture : PatternDefaults {
  TexResource resource = TexResource::Linear;
  View view = View::Same;     // what the texture object is made over
  TextureOrder order = TextureOrder::OneKernel;
  Fence fence = Fence::None;  // between a thread's store and its second fetch (one kernel only)

  static constexpr std::string_view kName = "texture";
  // (The resident order's signal is no mutant's: those cases are undefined by the resident-grid clause,
  // so no verdict rests on it.)
  static constexpr std::array<Lives, 3> kMutants{{{Mutant::NoStreamOrder}, {Mutant::NoEventWait}, {Mutant::NoHostSync}}};
  static constexpr auto kAxes = std::make_tuple(
      axis("resource", &Texture::resource), axis("view", &Texture::view, View::Same, View::Alias),
      axis("order", &Texture::order), axis("fence", &Texture::fence));
  enum Bin : int { New, Old, Other, Timeout, kBins };
  static constexpr std::array<Outcome, kBins> kOutcomes{{
      {New, "new", false, "the fetch returned the stored value"},
      {Old, "old", true, "the fetch returned the value from before the store"},
      {Other, "other", true, "the fetch returned neither"},
      {Timeout, "timeout", true, "the resident grid's signal did not come within its bound"},
  }};
};
static_assert(outcomes_match_bins<Texture>());

// PTX ISA 8.1: "the memory consistency model does not apply to texture (including ld.global.nc) and
// surface accesses"; there is no texture proxy fence. What orders them is the guide's rule that the
// texture cache is coherent only across kernel calls.
constexpr NotModelled structure_of(const Texture&) {
  return {"texture fetches are outside the PTX memory consistency model (PTX ISA 8.1); the verdicts come from the "
          "guide's texture-cache rule, as cited"};
}

// The kernel boundary, removed from the case itself (the stores held until the reader starts:
// harness/run/kit/operations.hpp, run_in_order).
constexpr std::optional<Control<Texture>> control_of(const Texture& c) {
  if (const std::optional<Mutant> m = boundary_mutant(c.order)) return without(c, *m, kernel_boundary(c.order));
  return std::nullopt;
}

}  // namespace vmmcheck::patterns

namespace vmmcheck::run {
void run_pattern(GpuSession& s, const patterns::Texture& def, const model::Case& c, CaseResult& r);
std::string why_not_here(const patterns::Texture& def, const device::ProbeReport& machine, int device);
}  // namespace vmmcheck::run
