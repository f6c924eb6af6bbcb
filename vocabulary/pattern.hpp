#pragma once
// The building blocks of a pattern definition (docs/adding-a-pattern.md). A pattern is one struct: its
// fields are the typed case definition (one enum per axis), and its static members say everything else
// -- its name in case tables, its axes and the values each may take, its outcome bins in kernel order --
// next to the oracle's view of it (structure_of) and the declaration of its runner. The compiler checks
// the rest: a pattern without a runner or a structure does not build (harness/run/kit/session.cpp,
// harness/model/oracle.cpp), and outcome names are tied to bin indices by static_assert.
#include <array>
#include <type_traits>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

#include "vocabulary/mutants.hpp"
#include "vocabulary/structure.hpp"
#include "vocabulary/axes.hpp"

// What a pattern's host-side declarations name (at the end of its definition header): its runner,
// run_pattern(session, def, case, result), and its support check, why_not_here(def, machine, device) --
// "" when the case can run on `device` of the machine described, else why not, decided before anything
// is allocated (harness/run/kit/support.hpp). Both are defined beside each other in the pattern's folder
// (runner.cpp); a pattern without them does not link.
namespace vmmcheck::run {
class GpuSession;
struct CaseResult;
}  // namespace vmmcheck::run
namespace vmmcheck::model {
struct Case;
}  // namespace vmmcheck::model
namespace vmmcheck::device {
struct ProbeReport;  // the machine's description: what the support stage (why_not_here) reads
}  // namespace vmmcheck::device

namespace vmmcheck::patterns {

// One histogram bin: the kernel counts into index `bin`, case tables and results call it `name`.
struct Outcome {
  int bin;
  std::string_view name;
  bool weak;  // an outcome the rules allow only when the accesses are unordered
  std::string_view description;
};

// The defaults every pattern inherits; a pattern overrides what differs.
struct PatternDefaults {
  static constexpr bool kNeedsGpu = true;  // false: runs on the host alone (the planted self-test)
  // The outcomes are the CUresult names a driver call returns: kOutcomes lists the usual ones, and any
  // other CUDA_* name is accepted and gets its own bin (api cases).
  static constexpr bool kDriverStatusOutcomes = false;
  // The mutants that live in the pattern's runner (vocabulary/mutants.hpp): none unless it says so.
  static constexpr std::array<Lives, 0> kMutants{};
};

// The bins of the shared counting reader (kernels/operations.hpp, launch_count): the value written, the
// value before, neither. The patterns that read with it (kernel_pair, peer_pair, ipc) derive from this,
// so the kernel and their outcome tables name one set of bins.
struct CountedBins {
  enum Bin : int { New, Old, Other, kBins };
};

// Whether a pattern's definition says which memory its views are made of (the `memory` axis of the alias
// families): the session allocates that kind for the case (harness/run/kit/session.cpp).
template <typename Def, typename = void>
inline constexpr bool has_memory_axis = false;
template <typename Def>
inline constexpr bool has_memory_axis<Def, std::void_t<decltype(Def::memory)>> =
    std::is_same_v<std::decay_t<decltype(Def::memory)>, Memory>;

// One axis: its name in case tables, the field of the definition it sets, the values it may take.
template <typename Def, typename E, std::size_t N>
struct Axis {
  using Enum = E;
  std::string_view name;
  E Def::*field;
  std::array<E, N> allowed;
  // A table may leave an optional axis out; its cases then take `usual`. The other values are there for
  // controls (the case with its ordering mechanism removed, docs/design.md "Power") and for tables
  // that cross the axis on purpose.
  bool optional = false;
  E usual{};
};

// An axis that may take every value of its enum.
template <typename Def, typename E>
constexpr Axis<Def, E, Vocabulary<E>::words.size()> axis(std::string_view name, E Def::*field) {
  Axis<Def, E, Vocabulary<E>::words.size()> a{name, field, {}};
  for (std::size_t i = 0; i < a.allowed.size(); ++i) a.allowed[i] = Vocabulary<E>::words[i].value;
  return a;
}

// An axis restricted to the values listed.
template <typename Def, typename E, typename... More>
constexpr Axis<Def, E, 1 + sizeof...(More)> axis(std::string_view name, E Def::*field, E first, More... more) {
  return {name, field, {first, more...}};
}

// `base` made optional: tables that leave it out get `usual`.
template <typename Def, typename E, std::size_t N>
constexpr Axis<Def, E, N> optional_axis(Axis<Def, E, N> base, E usual) {
  base.optional = true;
  base.usual = usual;
  return base;
}

// True when outcome i counts into bin i, for every i: the kernels and the histogram agree.
template <std::size_t N>
constexpr bool bins_in_order(const std::array<Outcome, N>& outcomes) {
  for (std::size_t i = 0; i < N; ++i)
    if (outcomes[i].bin != static_cast<int>(i)) return false;
  return true;
}

// A case's control (docs/design.md, "Power"): the case itself -- the same launches, in the same order,
// with the same timing -- with the ordering mechanism it relies on taken out by that mechanism's mutant.
// A Pass means something only if the control is seen to go wrong on the same GPU. Where no switch can
// take the mechanism out of the same launches (one virtual address is not an ordering), the control is
// a separate case, and the pattern says why.
template <typename P>
struct Control {
  P def;                              // what runs: the case itself, or the separate case
  std::string_view mechanism;         // what the control removes, e.g. "fence.proxy.alias"
  std::optional<Mutant> mutant;       // the switch that removes it from the case itself
  std::string_view separate_because;  // for a separate case: why no switch can
};

// The case itself with `m` switched on.
template <typename P>
constexpr Control<P> without(const P& c, Mutant m, std::string_view mechanism) {
  return Control<P>{c, mechanism, m, {}};
}

// Another case, `d`, as the control, with the reason no mutant of the case itself can be.
template <typename P>
constexpr Control<P> separate_control(const P& d, std::string_view mechanism, std::string_view because) {
  return Control<P>{d, mechanism, std::nullopt, because};
}

// Whether `m` is one of the mutants P declares (so a control never names a mutant its runner ignores).
template <typename P>
constexpr bool lives_in(Mutant m) {
  for (const Lives& l : P::kMutants)
    if (l.mutant == m) return true;
  return false;
}

// The most bins any in-kernel histogram has (kernels/device/histogram.cuh).
constexpr int kMaxBins = 4;

// Checks a pattern's outcome table at compile time: one entry per bin, in bin order.
template <typename P>
constexpr bool outcomes_match_bins() {
  return P::kOutcomes.size() == static_cast<std::size_t>(P::kBins) && bins_in_order(P::kOutcomes) &&
         P::kBins <= kMaxBins;
}

}  // namespace vmmcheck::patterns
