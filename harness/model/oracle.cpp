#include "model/oracle.hpp"

#include <stdexcept>

namespace vmmcheck::model {
namespace {

Load load_of(const std::string& token) {
  if (token == "weak") return Load::Weak;
  if (token == "volatile") return Load::Volatile;
  if (token == "relaxed_gpu") return Load::Relaxed;
  if (token == "acquire_gpu") return Load::Acquire;
  if (token == "nc" || token == "kernel_nc") return Load::NonCoherent;
  return Load::Weak;
}

Scope scope_of(const std::string& token) {
  if (token == "cta") return Scope::Cta;
  if (token == "sys") return Scope::Sys;
  return Scope::Gpu;
}

}  // namespace

AccessStructure structure_of(const Case& c) {
  AccessStructure s;
  if (c.pattern == "same_thread") {
    // r0 = ld [B]; st [A]; (fence.proxy.alias); r1 = ld [B] -- the write is A, the read is B.
    s.same_proxy = c.axis("view") == "same";
    s.proxy_fence = c.axis("fence") == "proxy_alias";
    s.load = load_of(c.axis("load"));
    s.write_in_reader_lifetime = true;
    s.sync = Sync::ProgramOrder;
  } else if (c.pattern == "message_passing") {
    // writer: st data[A]; st.release flag[A]   reader: ld.acquire flag[view]; ld data[view]
    const std::string& fence = c.axis("fence");
    s.same_proxy = c.axis("data") == "same";
    s.flag_same_proxy = c.axis("flag") == "same";
    s.proxy_fence = fence != "none";
    s.scope = scope_of(c.axis("scope"));
    s.write_in_reader_lifetime = true;
    s.sync = Sync::ReleaseAcquire;
  } else if (c.pattern == "kernel_pair") {
    const std::string& order = c.axis("order");
    s.same_proxy = c.axis("view") == "same";
    s.load = load_of(c.axis("reader"));
    s.sync = order == "none" ? Sync::None : Sync::OperationBoundary;
    s.write_in_reader_lifetime = order == "none";
  } else if (c.pattern == "resident") {
    s.same_proxy = c.axis("view") == "same";
    s.load = load_of(c.axis("load"));
    s.write_in_reader_lifetime = true;
    s.sync = Sync::ResidentSignal;
  } else {
    throw std::invalid_argument("the oracle has no model of pattern '" + c.pattern + "'");
  }
  return s;
}

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
      if (s.scope == Scope::Cta)
        return undefined("release/acquire at CTA scope does not synchronise threads of different CTAs");
      if (!s.flag_same_proxy)
        return undefined("the release and the acquire use different aliases of the flag: the rules define no synchronisation across aliases");
      d.steps.push_back("release/acquire at " + std::string(s.scope == Scope::Gpu ? "gpu" : "sys") +
                        " scope on one address synchronises the two CTAs");
      if (s.same_proxy) return required("the data is read through the address it was written: causality order gives the new value");
      if (s.proxy_fence) return required("a fence.proxy.alias on the causality path from the data write to the data read orders the aliases");
      return undefined("the data is read through another alias and no fence.proxy.alias lies on the causality path");

    case Sync::OperationBoundary:
      return required("aliases are coherent at operation boundaries: the writing operation completes before the reading one starts");

    case Sync::ResidentSignal:
      if (!s.same_proxy)
        return undefined("a grid already resident before the writing operation is incoherent with it through other aliases, even after it completes");
      return required("through the writer's own address the resident-grid clause does not apply; the signal's release/acquire orders the read");

    case Sync::None:
      return undefined("the write and the read are in operations that nothing orders: a data race");
  }
  return undefined("unknown synchronisation");
}

namespace {

bool is_contract_pattern(const std::string& p) { return p == "access" || p == "lifecycle" || p == "unmap_in_use"; }

}  // namespace

ContractStructure contract_of(const Case& c) {
  ContractStructure s;
  if (c.pattern == "access") {
    const std::string& grant = c.axis("grant");
    s.granted = grant != "none" && grant != "subrange_outside";
    s.write = c.axis("op") == "write";
    s.write_permitted = grant != "read" && grant != "read_after_rw";
  } else if (c.pattern == "unmap_in_use") {
    s.mapping_outlives_access = false;
  } else if (c.pattern == "lifecycle") {
    s.checks_words = true;
  } else {
    throw std::invalid_argument("pattern '" + c.pattern + "' is not a VMM contract pattern");
  }
  return s;
}

Derivation derive(const ContractStructure& s) {
  Derivation d;
  if (!s.mapping_outlives_access) {
    d.steps.push_back("the mapping is removed while work that uses it is queued or running: no rule says what that work sees");
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

bool oracle_models(const Case& c) { return c.pattern != "api" && c.pattern.rfind("planted", 0) != 0; }

Derivation derive(const Case& c) {
  if (is_contract_pattern(c.pattern)) return derive(contract_of(c));
  return derive(structure_of(c));
}

}  // namespace vmmcheck::model
