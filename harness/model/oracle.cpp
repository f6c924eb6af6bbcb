#include "model/oracle.hpp"

#include "model/ptx_model.hpp"

#include <stdexcept>
#include <variant>

namespace vmmcheck::model {

using patterns::ContractStructure;
using patterns::litmus::Shaped;

Derivation derive(const patterns::litmus::Litmus& shape, const std::vector<std::string>& allowed) {
  // Required where the ISA's reading forbids the weak outcome; Model where only the artifact's does
  // (ptx_model.hpp: a release and an acquire through two aliases of the flag); else Undefined.
  const ptx::Readings both = ptx::decide_readings(shape);
  Derivation d;
  d.from_model = true;
  d.steps = ptx::explanation(both);
  if (!both.isa.allowed) {
    d.expectation = Expectation::Required;
    d.outcomes = allowed;
  } else if (!both.artifact.allowed) {
    d.expectation = Expectation::Model;
    d.outcomes = allowed;
  } else {
    d.expectation = Expectation::Undefined;
  }
  const ptx::Decision& decision = both.differ() ? both.artifact : both.isa;
  d.steps.push_back(std::to_string(decision.candidates) + " candidate executions, " + std::to_string(decision.consistent) +
                    " consistent with the axioms" + (both.differ() ? " (the artifact's reading)" : ""));
  return d;
}

Derivation derive(const ContractStructure& s) {
  Derivation d;
  if (!s.mapping_outlives_access) {
    d.steps.push_back("the mapping is removed while work that uses it is queued or running: no rule says what that work sees");
    return d;
  }
  if (s.overwritten) {
    d.steps.push_back("other data is written to the memory before the check: the words need not hold what was written first");
    return d;
  }
  d.expectation = Expectation::Fault;
  d.outcomes = {"fault"};
  if (!s.granted) {
    d.steps.push_back("a mapped address with no access granted to the device faults when a kernel touches it");
    return d;
  }
  if (s.write && !s.write_permitted) {
    // PROT_READ makes the range "read accessible"; nothing says a store faults, only that it is not allowed.
    d.outcomes = {"fault", "wrong"};
    d.steps.push_back("a store through an address granted read-only must not change the memory: it faults or has no effect");
    return d;
  }
  d.expectation = Expectation::Required;
  d.outcomes = {s.checks_words ? "intact" : "completed"};
  d.steps.push_back("the device holds the access it needs, and the memory belongs to the allocation, not the address");
  return d;
}

namespace {

// The structure a case's pattern gives it (patterns/<pattern>.hpp), as one of the oracle's inputs.
using Structure = std::variant<Shaped, ContractStructure, patterns::NotModelled>;

Structure structure(const Case& c) {
  return std::visit([](const auto& def) -> Structure { return structure_of(def); }, c.def);
}

}  // namespace

std::string not_modelled_because(const Case& c) {
  const Structure s = structure(c);
  if (const auto* none = std::get_if<patterns::NotModelled>(&s)) return std::string(none->why);
  if (const auto* shaped = std::get_if<Shaped>(&s); shaped && !shaped->litmus) return std::string(shaped->outside);
  return {};
}

bool oracle_models(const Case& c) { return not_modelled_because(c).empty(); }

bool agrees(const Derivation& d, const Verdict& v) {
  if (d.expectation != v.expectation) return false;
  return d.expectation == Expectation::Undefined || d.outcomes == v.outcomes;
}

std::optional<patterns::litmus::Litmus> litmus_shape(const Case& c) {
  const Structure s = structure(c);
  if (const auto* shaped = std::get_if<Shaped>(&s); shaped && shaped->litmus) return shaped->litmus;
  return std::nullopt;
}

Derivation derive(const Case& c) {
  const Structure s = structure(c);
  if (const auto* shaped = std::get_if<Shaped>(&s); shaped && shaped->litmus) return derive(*shaped->litmus, shaped->allowed);
  if (const auto* contract = std::get_if<ContractStructure>(&s)) return derive(*contract);
  throw std::invalid_argument("the oracle has no model of case " + c.name + ": " + not_modelled_because(c));
}

}  // namespace vmmcheck::model
