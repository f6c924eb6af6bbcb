#pragma once
// rmw (alias.rmw): many threads make atomic adds to one word, half of them through view A and half
// through the view the case names. PTX defines atomicity only for operations on the same virtual
// address, so through two aliases an update may be lost. Kernel: patterns/rmw/kernels.cu.
#include "vocabulary/pattern.hpp"

namespace vmmcheck::patterns {

struct Rmw : PatternDefaults {
  View view = View::Same;    // the view the second half of each word's threads use (the first half: A)
  Scope scope = Scope::Gpu;  // of every atomic add; the threads are in different CTAs
  Update update = Update::Atomic;  // optional: plain load + store for the control of atomicity

  static constexpr std::string_view kName = "rmw";
  static constexpr std::array<Lives, 1> kMutants{{{Mutant::PlainRmw}}};
  static constexpr auto kAxes =
      std::make_tuple(axis("view", &Rmw::view), axis("scope", &Rmw::scope, Scope::Gpu, Scope::Sys),
                      optional_axis(axis("update", &Rmw::update), Update::Atomic));
  enum Bin : int { Exact, Lost, Excess, kBins };
  static constexpr std::array<Outcome, kBins> kOutcomes{{
      {Exact, "exact", false, "the word holds exactly the number of adds made to it"},
      {Lost, "lost", true, "the word holds fewer: an update was lost"},
      {Excess, "excess", true, "the word holds more than the adds made to it"},
  }};
};
static_assert(outcomes_match_bins<Rmw>());

// CTA 0: r0 = atom.add.<scope> [A], 1   CTA 1: r1 = atom.add.<scope> [view], 1  -- lost: r0 == r1 == 0.
// (Two threads and one add each stand for the kernel's many: one lost update is the weak outcome.)
inline litmus::Shaped structure_of(const Rmw& c) {
  using namespace litmus;
  if (c.update == Update::Plain)
    return {std::nullopt, {}, "a plain load and a store of the value plus one: the model stores a loaded register's value, but does no arithmetic"};
  Litmus l;
  l.name = "rmw";
  l.addresses = {{"A", 0}, {"B", 0}};
  const Level scope = level_of(c.scope);
  l.threads = {{"t0", 0, 0, {atom_add("r0", 0, 1, Sem::Relaxed, scope)}},
               {"t1", 0, 1, {atom_add("r1", c.view == View::Same ? 0 : 1, 1, Sem::Relaxed, scope)}}};
  l.weak = {equal("r0", 0), equal("r1", 0)};
  return {l, {"exact"}, {}};
}

// Atomicity, removed: each add a plain load and store.
constexpr std::optional<Control<Rmw>> control_of(const Rmw& c) {
  if (c.view != View::Same || c.update != Update::Atomic) return std::nullopt;
  return without(c, Mutant::PlainRmw, "atomicity (atom.add)");
}

}  // namespace vmmcheck::patterns

namespace vmmcheck::run {
void run_pattern(GpuSession& s, const patterns::Rmw& def, const model::Case& c, CaseResult& r);
std::string why_not_here(const patterns::Rmw& def, const device::ProbeReport& machine, int device);
}  // namespace vmmcheck::run
