#pragma once
// The PTX memory consistency model with proxies, as an executable axiomatic model (docs/design.md, "The
// memory model"). Transcribed from NVlabs/mixedproxy (alloy/ptx.als, the formalisation of "Mixed-Proxy
// Extensions for the NVIDIA PTX Memory Model", ISCA 2023) and the PTX ISA chapter "Memory Consistency
// Model", restricted to the generic proxy and fence.proxy.alias -- what the litmus shapes of vmmcheck
// need -- plus one extension of ours: operation boundaries (see decide()).
//
// For a litmus shape it enumerates every candidate execution (a reads-from source for each read, a
// coherence order per location, an order of fence.sc), keeps those the axioms allow, and says whether
// the shape's weak outcome is among them: with a witness if it is, with the axioms that rule out every
// candidate showing it if it is not.
#include <map>
#include <string>
#include <vector>

#include "patterns/litmus.hpp"

namespace vmmcheck::model::ptx {

// The model's axioms (ptx.als, pred ptx_mm), and the facts a candidate must meet first.
enum class Axiom { Causality, Atomicity, Coherence, SeqCst, NoThinAir };
const char* name_of(Axiom a);

struct Decision {
  bool allowed = false;                 // some execution the model allows shows the weak outcome
  std::size_t candidates = 0;           // candidate executions enumerated
  std::size_t consistent = 0;           // ... that the axioms allow
  std::size_t showing = 0;              // ... that meet the preconditions and show the weak outcome
  std::vector<std::string> witness;     // allowed: one such execution, one line per read
  std::map<Axiom, std::size_t> ruled_out;  // forbidden: how many candidates showing it each axiom ruled out
                                           // (a candidate counts under the first axiom it breaks)
  std::string reason;                   // one sentence for people
};

// Decides `shape`. Throws std::invalid_argument for a shape outside what the model takes (more than 64
// events, an unknown address, a fence with thread scope, ...).
Decision decide(const patterns::litmus::Litmus& shape);

// Does the model allow an execution meeting every precondition in which `condition` holds (the
// artifact's `permit`)? Or does every such execution satisfy it (`assert`)? The condition is a
// conjunction (all) or a disjunction (any) of register tests.
bool permits(const patterns::litmus::Litmus& shape, const std::vector<patterns::litmus::Condition>& all_of);
bool asserts(const patterns::litmus::Litmus& shape, const std::vector<patterns::litmus::Condition>& any_of);

}  // namespace vmmcheck::model::ptx
