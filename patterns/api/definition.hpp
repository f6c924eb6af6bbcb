#pragma once
// api (api.*): the status a VMM driver call returns when it is misused. The histogram's bins are the
// CUresult names the driver returned. Runner: patterns/api/runner.cpp.
#include "vocabulary/pattern.hpp"

namespace vmmcheck::patterns {

struct Api : PatternDefaults {
  ApiCall call = ApiCall::Granularity;

  static constexpr std::string_view kName = "api";
  static constexpr bool kDriverStatusOutcomes = true;
  static constexpr auto kAxes = std::make_tuple(axis("call", &Api::call));
  enum Bin : int { Success, InvalidValue, kBins };
  static constexpr std::array<Outcome, kBins> kOutcomes{{
      {Success, "CUDA_SUCCESS", false, "the call succeeded"},
      {InvalidValue, "CUDA_ERROR_INVALID_VALUE", false, "the driver rejected an argument"},
  }};
};
static_assert(outcomes_match_bins<Api>());

// A driver status can come only from the driver API documentation, which each api verdict cites.
constexpr NotModelled structure_of(const Api&) {
  return {"a driver status can come only from the driver API documentation (see Citation)"};
}

// A documented status has no ordering to remove.
constexpr std::optional<Control<Api>> control_of(const Api&) { return std::nullopt; }

}  // namespace vmmcheck::patterns

namespace vmmcheck::run {
void run_pattern(GpuSession& s, const patterns::Api& def, const model::Case& c, CaseResult& r);
std::string why_not_here(const patterns::Api& def, const device::ProbeReport& machine, int device);
}  // namespace vmmcheck::run
