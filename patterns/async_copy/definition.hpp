#pragma once
// async_copy (proxy.async): bulk copies of the async proxy (cp.async.bulk, sm_90) meet generic accesses
// through view A or an alias. global_to_shared: the CTA stores words through view A, then one thread
// bulk-copies them from the view into shared memory; shared_to_global: one thread bulk-copies shared
// memory into view A, then the CTA loads the words through the view. Between them: fence.proxy.alias,
// fence.proxy.async.global, both, or neither. Kernels: patterns/async_copy/kernels.cu.
#include "vocabulary/pattern.hpp"

namespace vmmcheck::patterns {

struct AsyncCopy : PatternDefaults {
  AsyncDirection direction = AsyncDirection::GlobalToShared;
  View view = View::Same;
  ProxyFences fences = ProxyFences::None;

  static constexpr std::string_view kName = "async_copy";
  static constexpr std::array<Lives, 2> kMutants{{{Mutant::NoProxyFence}, {Mutant::NoAsyncFence}}};
  static constexpr auto kAxes = std::make_tuple(axis("direction", &AsyncCopy::direction),
                                                axis("view", &AsyncCopy::view, View::Same, View::Alias),
                                                axis("fences", &AsyncCopy::fences));
  enum Bin : int { New, Stale, Other, kBins };
  static constexpr std::array<Outcome, kBins> kOutcomes{{
      {New, "new", false, "the copy (or the load after it) saw this round's value"},
      {Stale, "stale", true, "it saw an earlier round's value"},
      {Other, "other", true, "it saw a value never written there"},
  }};
};
static_assert(outcomes_match_bins<AsyncCopy>());

// The PTX model vmmcheck transcribes has the generic proxy and virtual aliases; the async proxy is not
// in it. The verdicts cite the PTX ISA's proxy rules.
constexpr NotModelled structure_of(const AsyncCopy&) {
  return {"the async proxy (cp.async.bulk) is outside the PTX model vmmcheck transcribes (generic proxy and "
          "virtual aliases); the verdicts cite the PTX ISA's proxy fences"};
}

// The fences a required case has, less one it needs. Through one address that is fence.proxy.async: the
// generic and async proxies no longer meet. Through an alias (both fences) it is fence.proxy.alias, the
// fence the alias adds -- the ordering this tool is about; without either fence the case is undefined.
constexpr std::optional<Control<AsyncCopy>> control_of(const AsyncCopy& c) {
  if (c.view == View::Alias && c.fences == ProxyFences::Both) return without(c, Mutant::NoProxyFence, "fence.proxy.alias");
  if (c.view == View::Same && (c.fences == ProxyFences::Async || c.fences == ProxyFences::Both))
    return without(c, Mutant::NoAsyncFence, "fence.proxy.async");
  return std::nullopt;
}

}  // namespace vmmcheck::patterns

namespace vmmcheck::run {
void run_pattern(GpuSession& s, const patterns::AsyncCopy& def, const model::Case& c, CaseResult& r);
std::string why_not_here(const patterns::AsyncCopy& def, const device::ProbeReport& machine, int device);
}  // namespace vmmcheck::run
