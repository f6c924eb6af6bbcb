#include "model/oracle.hpp"

#include <stdexcept>
#include <variant>

namespace vmmcheck::model {

using patterns::AccessStructure;
using patterns::ContractStructure;
using patterns::Load;
using patterns::Scope;
using patterns::Sync;

Derivation derive(const AccessStructure& s) {
  Derivation d;
  auto undefined = [&](std::string step) {
    d.steps.push_back(std::move(step));
    d.expectation = Expectation::Undefined;
    d.outcomes.clear();
    return d;
  };
  auto required = [&](std::string step) {
    d.steps.push_back(std::move(step));
    d.expectation = Expectation::Required;
    d.outcomes = {"new"};
    return d;
  };

  if (s.load == Load::NonCoherent && s.write_in_reader_lifetime)
    return undefined("ld.global.nc is defined only on data that stays read-only for the reading kernel's lifetime, and it is written meanwhile");

  switch (s.sync) {
    case Sync::ProgramOrder:
      if (s.same_proxy) return required("one thread, one address: program order orders the write before the read");
      if (s.proxy_fence) return required("fence.proxy.alias between the write and the read orders accesses through virtual aliases");
      return undefined("inside one operation, a write through one alias is incoherent with reads through another alias");

    case Sync::ReleaseAcquire:
      if (s.scope == Scope::Cta && !s.same_cta)
        return undefined("release/acquire at CTA scope does not synchronise threads of different CTAs");
      if (!s.flag_same_proxy)
        return undefined("the release and the acquire use different aliases of the flag: the rules define no synchronisation across aliases");
      d.steps.push_back("release/acquire at " + std::string(patterns::token(s.scope)) + " scope on one address synchronises " +
                        (s.same_cta ? "the two threads of one CTA" : "the two CTAs"));
      if (s.same_proxy) return required("the data is read through the address it was written: causality order gives the new value");
      if (s.proxy_fence) return required("a fence.proxy.alias on the causality path from the data write to the data read orders the aliases");
      return undefined("the data is read through another alias and no fence.proxy.alias lies on the causality path");

    case Sync::OperationBoundary:
      return required("aliases are coherent at operation boundaries: the writing operation completes before the reading one starts");

    case Sync::ResidentSignal:
      if (!s.same_proxy)
        return undefined("a grid already resident before the writing operation is incoherent with it through other aliases, even after it completes");
      return required("through the writer's own address the resident-grid clause does not apply; the signal's release/acquire orders the read");

    case Sync::Atomicity:
      if (s.scope == Scope::Cta)
        return undefined("atomics at CTA scope are not morally strong between threads of different CTAs: no atomicity");
      if (!s.same_proxy)
        return undefined("two operations overlap only at the same virtual address: through different aliases the RMWs are not atomic with each other");
      d.steps.push_back("morally strong read-modify-writes of one location are atomic: none is lost");
      d.expectation = Expectation::Required;
      d.outcomes = {"exact"};
      return d;

    case Sync::None:
      return undefined("the write and the read are in operations that nothing orders: a data race");
  }
  return undefined("unknown synchronisation");
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
    d.steps.push_back("a store through an address granted read-only is not permitted: it faults");
    return d;
  }
  d.expectation = Expectation::Required;
  d.outcomes = {s.checks_words ? "intact" : "completed"};
  d.steps.push_back("the device holds the access it needs, and the memory belongs to the allocation, not the address");
  return d;
}

namespace {

// The structure a case's pattern gives it (patterns/<pattern>.hpp), as one of the oracle's inputs.
using Structure = std::variant<AccessStructure, ContractStructure, patterns::NotModelled>;

Structure structure(const Case& c) {
  return std::visit([](const auto& def) -> Structure { return structure_of(def); }, c.def);
}

}  // namespace

bool oracle_models(const Case& c) { return !std::holds_alternative<patterns::NotModelled>(structure(c)); }

std::string not_modelled_because(const Case& c) {
  const Structure s = structure(c);
  const auto* none = std::get_if<patterns::NotModelled>(&s);
  return none ? std::string(none->why) : std::string();
}

Derivation derive(const Case& c) {
  const Structure s = structure(c);
  if (const auto* access = std::get_if<AccessStructure>(&s)) return derive(*access);
  if (const auto* contract = std::get_if<ContractStructure>(&s)) return derive(*contract);
  throw std::invalid_argument("the oracle has no model of case " + c.name + ": " + not_modelled_because(c));
}

}  // namespace vmmcheck::model
