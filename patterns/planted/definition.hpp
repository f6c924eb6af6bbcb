#pragma once
// planted_host and planted_gpu (planted.*): cases that crash or hang on purpose, to show that isolation
// contains them. Only tests/planted/ uses them, never the shipped cases/. Kernels: patterns/planted/kernels.cu;
// runners: patterns/planted/runner.cpp.
#include "vocabulary/pattern.hpp"

namespace vmmcheck::patterns {

struct PlantedHost : PatternDefaults {
  Behaviour behaviour = Behaviour::Ok;

  static constexpr std::string_view kName = "planted_host";
  static constexpr bool kNeedsGpu = false;
  static constexpr auto kAxes = std::make_tuple(axis("behaviour", &PlantedHost::behaviour));
  enum Bin : int { Done, kBins };
  static constexpr std::array<Outcome, kBins> kOutcomes{{{Done, "done", false, "the case ran to its end"}}};
};
static_assert(outcomes_match_bins<PlantedHost>());

struct PlantedGpu : PatternDefaults {
  Behaviour behaviour = Behaviour::Ok;

  static constexpr std::string_view kName = "planted_gpu";
  static constexpr auto kAxes = std::make_tuple(axis("behaviour", &PlantedGpu::behaviour));
  enum Bin : int { Done, kBins };
  static constexpr std::array<Outcome, kBins> kOutcomes{{{Done, "done", false, "the kernel ran to its end"}}};
};
static_assert(outcomes_match_bins<PlantedGpu>());

// Self-tests of the harness: their verdicts are the harness's own design, not a rule of CUDA.
constexpr NotModelled structure_of(const PlantedHost&) { return {"a planted self-test case tests the harness, not a rule"}; }
constexpr NotModelled structure_of(const PlantedGpu&) { return {"a planted self-test case tests the harness, not a rule"}; }

// Self-tests of the harness: no rule, no control.
constexpr std::optional<Control<PlantedHost>> control_of(const PlantedHost&) { return std::nullopt; }
constexpr std::optional<Control<PlantedGpu>> control_of(const PlantedGpu&) { return std::nullopt; }

}  // namespace vmmcheck::patterns

namespace vmmcheck::run {
// The one runner without a session: the executor runs it in this process or in a child, with no GPU.
void run_pattern(const patterns::PlantedHost& def, const model::Case& c, CaseResult& r);
std::string why_not_here(const patterns::PlantedHost& def, const device::ProbeReport& machine, int device);
void run_pattern(GpuSession& s, const patterns::PlantedGpu& def, const model::Case& c, CaseResult& r);
std::string why_not_here(const patterns::PlantedGpu& def, const device::ProbeReport& machine, int device);
}  // namespace vmmcheck::run
