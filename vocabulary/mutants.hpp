#pragma once
// Mutants (docs/design.md, "Power" and "Mutation self-test"): each takes one ordering mechanism, or one
// guarantee, out of the runners, and nothing else -- the same launches in the same order. A required
// case's control is the case itself with its mechanism's mutant switched on (control_of in each pattern
// header); the self-test runs the suite under each mutant and asks, for every pattern the mutant lives
// in, whether a case *of that pattern* went wrong. Where a mutant lives is declared by each pattern
// (kMutants), next to control_of, or by the litmus kernel generator (run/rows/generator_mutants.hpp),
// whose rows catch it. Plain C++17: read by the host compiler and nvcc.
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace vmmcheck::patterns {

enum class Mutant : int {
  NoProxyFence,      // fence.proxy.alias is not issued
  NoAsyncFence,      // fence.proxy.async is not issued
  RelaxedFlag,       // the flag is stored and loaded relaxed instead of release/acquire
  NoStreamOrder,     // the reader of a stream-ordered pair runs on another stream
  NoEventWait,       // the reader's stream does not wait for the writer's event
  NoHostSync,        // the host does not synchronise with the writer before it starts the reader
  NoGraphEdge,       // the graph's reader node does not depend on its writer node
  NoResidentSignal,  // a resident reader does not wait for the signal that the write completed
  NoGrant,           // cuMemSetAccess is not called for the access under test
  FullGrant,         // every mapping is granted read-write to every device that touches it
  StrayWrite,        // another kernel writes the memory before it is checked
  // Of the litmus kernel generator (harness/run/rows/generator_mutants.hpp): the kernel it emits loses
  // one mechanism while the row is judged as its file says.
  RelaxedAcquire,    // every acquire (ld.acquire, atom.acquire/acq_rel) is emitted .relaxed
  RelaxedRelease,    // every release (st.release, atom.release/acq_rel) is emitted .relaxed
  NarrowScope,       // every .gpu and .sys scope is emitted .cta
  PlainRmw,          // every atom.add that sets a register is emitted as a load and a store of it plus the operand
};

struct MutantWord {
  Mutant mutant;
  std::string_view name;     // its spelling on the command line and in results
  std::string_view removes;  // the mechanism, or guarantee, it takes away
  bool may_fault;            // the mutated case may fault: it runs in a child process
};

inline constexpr std::array<MutantWord, 15> kMutantWords{{
    {Mutant::NoProxyFence, "no-proxy-fence", "fence.proxy.alias", false},
    {Mutant::NoAsyncFence, "no-async-fence", "fence.proxy.async", false},
    {Mutant::RelaxedFlag, "relaxed-flag", "release/acquire on the flag", false},
    {Mutant::NoStreamOrder, "no-stream-order", "stream order between writer and reader", false},
    {Mutant::NoEventWait, "no-event-wait", "the reader's wait for the writer's event", false},
    {Mutant::NoHostSync, "no-host-sync", "host synchronisation after the writer", false},
    {Mutant::NoGraphEdge, "no-graph-edge", "the graph edge from writer to reader", false},
    {Mutant::NoResidentSignal, "no-resident-signal", "the signal a resident reader waits for", false},
    {Mutant::NoGrant, "no-grant", "cuMemSetAccess", true},
    {Mutant::FullGrant, "full-grant", "the access right a grant leaves out", false},
    {Mutant::StrayWrite, "stray-write", "exclusive use of the memory until it is checked", false},
    {Mutant::RelaxedAcquire, "relaxed-acquire", "the acquire of generated litmus kernels", false},
    {Mutant::RelaxedRelease, "relaxed-release", "the release of generated litmus kernels", false},
    {Mutant::NarrowScope, "narrow-scope", "the .gpu and .sys scopes of generated litmus kernels", false},
    {Mutant::PlainRmw, "plain-rmw", "atomicity of atom.add", false},
}};

constexpr const MutantWord& word_of(Mutant m) { return kMutantWords[static_cast<std::size_t>(m)]; }
constexpr std::string_view name_of(Mutant m) { return word_of(m).name; }

constexpr bool mutant_words_in_order() {
  for (std::size_t i = 0; i < kMutantWords.size(); ++i)
    if (static_cast<std::size_t>(kMutantWords[i].mutant) != i) return false;
  return true;
}
static_assert(mutant_words_in_order(), "kMutantWords is indexed by the enum");

constexpr std::optional<Mutant> mutant_named(std::string_view name) {
  for (const MutantWord& w : kMutantWords)
    if (w.name == name) return w.mutant;
  return std::nullopt;
}

// Where a mutant lives: a pattern whose runner it changes. `unobservable`, when set, says why the
// hardware may be unable to show that mechanism at work in this pattern: `explain` prints it, and the
// self-test accepts that pair uncaught -- showing the evidence (the pattern's cases under the mutant,
// and how many of their instances went wrong: none). Empty: some case of the pattern must catch it.
struct Lives {
  Mutant mutant;
  std::string_view unobservable = {};
};

}  // namespace vmmcheck::patterns
