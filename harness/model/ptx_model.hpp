#pragma once
// The PTX memory consistency model with proxies, as an executable axiomatic model (docs/litmus-model.md).
// Transcribed from NVlabs/mixedproxy (alloy/ptx.als, the formalisation of "Mixed-Proxy Extensions for the
// NVIDIA PTX Memory Model", ISCA 2023) for the whole litmus language of vocabulary/shape.hpp: the generic,
// texture, surface and constant proxies, fence.proxy.<proxy>, fence.proxy.alias, virtual synonyms and
// physical aliases, fence.sc / fence.acq_rel, atom / red, register operands. Two departures follow the
// PTX ISA where the artifact does not (fence-based release and acquire patterns synchronize; atomicity
// uses the transitive coherence order), and one extension is ours: operation boundaries with the
// resident-grid clause (Litmus::boundaries, Thread::resident).
//
// Two readings (docs/litmus-model.md, "Two readings"): the PTX ISA's, in which two memory operations are
// morally strong only if they overlap, and overlap only if they name the same virtual address -- so a
// release through one address and an acquire through a physical alias of it do not synchronize -- and
// the artifact's, whose strong relation has no address condition. Each execution the artifact allows
// the ISA allows too; every answer below is given for both, and a verdict is `required` only where the
// ISA reading forbids.
//
// For a litmus shape it enumerates every candidate execution (a reads-from source for each read, a
// coherence order per location, an order of fence.sc), keeps those the axioms allow, and says whether
// an outcome is among them: with a witness if it is, with the axioms that rule out every candidate
// showing it if it is not.
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "vocabulary/shape.hpp"

namespace vmmcheck::model::ptx {

// The model's axioms (ptx.als, pred ptx_mm), and the facts a candidate must meet first.
enum class Axiom { Causality, Atomicity, Coherence, SeqCst, NoThinAir };
const char* name_of(Axiom a);

// The reading of moral strength a decision follows.
enum class Reading { Isa, Artifact };
inline constexpr std::array<Reading, 2> kReadings{Reading::Isa, Reading::Artifact};
const char* name_of(Reading r);  // "ISA", "artifact"

// Of the candidate executions that meet every precondition: do some show the outcome, all of them, or
// none? All or none, and the answer does not depend on any ordering: a row asking it tests nothing.
enum class Coverage { Some, Every, None };

struct Decision {
  bool allowed = false;                 // some execution the model allows shows the outcome
  std::size_t candidates = 0;           // candidate executions enumerated
  std::size_t consistent = 0;           // ... that the axioms allow
  std::size_t showing = 0;              // ... that meet the preconditions and show the outcome
  Coverage coverage = Coverage::Some;   // of the candidates (allowed or not) that meet the preconditions
  std::vector<std::string> witness;     // allowed: one such execution, one line per read, instructions as written
  std::vector<std::string> unordered;   // allowed: why the program's orderings do not rule the witness out
                                        // (a read that does not synchronize, an order that does not carry
                                        // across two virtual addresses or proxies); may be empty
  std::map<Axiom, std::size_t> ruled_out;  // forbidden: how many candidates showing it each axiom ruled out
                                           // (a candidate counts under the first axiom it breaks)
  // Forbidden with no candidate showing it, but one whose rf and dep form a cycle exists: only values
  // that justify themselves could show it (load buffering with dependencies), and no_thin_air forbids
  // that. Such a candidate has no values to test, so it is in no count above.
  bool only_thin_air = false;
  std::vector<std::string> broken;      // forbidden: per axiom ruled_out names (and no_thin_air where
                                        // only_thin_air), the edges that break it in one candidate,
                                        // between the instructions as written
  std::string reason;                   // one sentence for people
};

// Decides whether some execution the model allows, meeting every precondition (Op::must_read), satisfies
// `outcome`. Throws std::invalid_argument for a shape outside what the model takes (more than 64 events,
// an unknown address, a fence with thread scope, a store through the texture or constant proxy, a
// register operand no earlier load of its thread sets, operation boundaries with accesses through other
// proxies than the generic one, ...) and for an outcome naming a register no load sets.
//
// Addresses: a synonym (Address::same_as) is the very address it names, so its own `location` is not
// read; a .shared address has one instance per CTA and cannot share a location with a global address.
// A register's value is the one its last load in program order read; two threads may not set one name.
Decision decide(const patterns::litmus::Litmus& shape, const patterns::litmus::Expr& outcome,
                Reading reading = Reading::Isa);

// Both readings' decisions of one outcome, from one enumeration.
struct Readings {
  Decision isa, artifact;
  const Decision& of(Reading r) const { return r == Reading::Isa ? isa : artifact; }
  // The artifact forbids what the ISA allows (the other way round cannot happen).
  bool differ() const { return isa.allowed != artifact.allowed; }
};
Readings decide_readings(const patterns::litmus::Litmus& shape, const patterns::litmus::Expr& outcome);

// A decision for people, one line per item: the reason; the witness and what leaves it unordered, or
// the edges that break each axiom; a note where the coverage is Every or None. `vmmcheck model`,
// `explain`, `list --json` (and the handbook from it) all print these lines.
std::vector<std::string> explanation(const Decision& d);
// Both readings': one decision's lines where they agree; where they part, each under its reading's name.
std::vector<std::string> explanation(const Readings& both);

// Every outcome the candidate executions of a shape show, each with the model's answer: the space a GPU
// histogram of the shape is judged in. One enumeration answers every outcome of every row of the shape.
struct OutcomeSpace {
  std::vector<std::string> registers;  // the order of an outcome's values (the model's: each register a load sets)
  // Outcome -> allowed, per reading: some execution the reading allows, meeting every precondition,
  // shows it. An outcome only executions that miss a precondition show is here, false under both; one
  // no candidate shows is absent.
  struct Allowed {
    bool isa = false, artifact = false;
    bool by(Reading r) const { return r == Reading::Isa ? isa : artifact; }
  };
  std::map<std::vector<std::uint32_t>, Allowed> outcomes;
  // Per register, every value a candidate gives it, ascending (the GPU tally's table, kernels/outcome_index.h).
  std::vector<std::vector<std::uint32_t>> values;

  // The answer for `values` of `names` (any order of the same registers): false for an outcome outside
  // the space. Throws std::invalid_argument when `names` are not the shape's registers.
  bool allowed(const std::vector<std::string>& names, const std::vector<std::uint32_t>& values,
               Reading reading = Reading::Isa) const;
  // Both readings' answers for `values` of `names` at once (false under both outside the space).
  Allowed answers(const std::vector<std::string>& names, const std::vector<std::uint32_t>& values) const;
};
// The outcome space of `shape`, enumerated once per process for each distinct shape (its addresses,
// threads and boundaries; not its name or weak outcome) and kept: rows of one shape, and runs of a
// process, share it. Thread-safe. Throws std::invalid_argument as decide() does.
const OutcomeSpace& outcome_space(const patterns::litmus::Litmus& shape);

// The shape's own weak outcome: the conjunction shape.weak.
Decision decide(const patterns::litmus::Litmus& shape, Reading reading = Reading::Isa);
Readings decide_readings(const patterns::litmus::Litmus& shape);

// Does the model allow an execution meeting every precondition in which `condition` holds (the
// artifact's `permit`)? Or does every such execution satisfy it (`assert`)? The condition is a
// conjunction (all) or a disjunction (any) of register tests.
bool permits(const patterns::litmus::Litmus& shape, const std::vector<patterns::litmus::Condition>& all_of,
             Reading reading = Reading::Isa);
bool asserts(const patterns::litmus::Litmus& shape, const std::vector<patterns::litmus::Condition>& any_of,
             Reading reading = Reading::Isa);

// A condition as the litmus files write it ("r0 == 1 && r1 != 2"), for messages.
std::string to_string(const patterns::litmus::Expr& condition);

// The condition's value when registers[k] holds values[k]. Every operand is evaluated, so a register
// that is not listed throws std::invalid_argument whatever the values; so does a `not` without exactly
// one operand. And/Or of no operands are true/false.
bool holds(const patterns::litmus::Expr& condition, const std::vector<std::string>& registers,
           const std::vector<std::uint32_t>& values);

// An operation as a litmus file writes it, e.g. "st.release.gpu [flag], 1" (diagrams, list --json).
std::string instruction_text(const patterns::litmus::Litmus& shape, const patterns::litmus::Op& op);

}  // namespace vmmcheck::model::ptx
