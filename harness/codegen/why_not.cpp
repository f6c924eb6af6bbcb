// Which litmus tests a generated kernel can run on a GPU, and why not the others
// (codegen/generator.hpp, why_not_generated): one check per class of test.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "codegen/generator.hpp"
#include "codegen/kernel_abi.h"
#include "codegen/test_facts.hpp"
#include "litmus/test_text.hpp"

namespace vmmcheck::codegen {
namespace {

using namespace patterns::litmus;
using litmus::op_text;

std::string why_not_harness_extension(const Litmus& l) {
  if (!l.boundaries.empty())
    return "operation boundaries are the harness's own extension, not litmus files: not generated";
  for (const Thread& th : l.threads)
    if (th.resident) return "resident threads are the harness's own extension, not litmus files: not generated";
  return {};
}

std::string why_not_placement(const Litmus& l) {
  if (l.threads.empty()) return "the test has no threads";
  for (const Thread& th : l.threads)
    if (th.gpu != 0) return "needs a second GPU: generated kernels run on one GPU in this version";
  if (l.addresses.size() > VMMCHECK_LITMUS_MAX_ADDRESSES)
    return "declares " + std::to_string(l.addresses.size()) + " addresses; the kernel ABI has room for " +
           std::to_string(VMMCHECK_LITMUS_MAX_ADDRESSES);
  std::map<int, unsigned> per_cta;
  for (const Thread& th : l.threads)
    if (++per_cta[th.cta] > kMaxBlockThreads)
      return "CTA b" + std::to_string(th.cta) + " has more than " + std::to_string(kMaxBlockThreads) +
             " threads, the most one CTA can have";
  return {};
}

// A location under a .surfref is a surface's own allocation (vmm::SurfaceAlias): its root addresses
// are linear mappings of it (a physical alias is one more cuMemMap), its .texrefs a texture object over
// the surface's array. An offset view would need a range larger than the surface's memory.
std::string why_not_surface_memory(const Litmus& l) {
  const int n = static_cast<int>(l.addresses.size());
  for (int s = 0; s < n; ++s) {
    if (l.addresses[static_cast<std::size_t>(s)].declared != Proxy::Surface) continue;
    const int root = root_of(l, s);
    if (root < 0) continue;  // why_not_addresses names it
    for (int a = 0; a < n; ++a) {
      const Address& addr = l.addresses[static_cast<std::size_t>(a)];
      if (addr.same_as < 0 && addr.offset_view && addr.location == l.addresses[static_cast<std::size_t>(root)].location)
        return "address " + address_name(l, a) + " is an offset view of the memory of .surfref " + address_name(l, s) +
               ": offset views of a surface's memory are not in this version";
    }
  }
  return {};
}

std::string why_not_addresses(const Litmus& l) {
  const int n = static_cast<int>(l.addresses.size());
  for (int a = 0; a < n; ++a) {
    const Address& addr = l.addresses[static_cast<std::size_t>(a)];
    const int r = root_of(l, a);
    if (r < 0) return "address " + address_name(l, a) + ": its virtual synonym chain (same_as) leaves the declared addresses or loops";
    if (addr.shared != l.addresses[static_cast<std::size_t>(r)].shared)
      return "address " + address_name(l, a) + " is a virtual synonym across state spaces (.shared and .global)";
  }
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      const Address &x = l.addresses[static_cast<std::size_t>(a)], &y = l.addresses[static_cast<std::size_t>(b)];
      if (x.shared && !y.shared && x.location == y.location)
        return "addresses " + address_name(l, a) + " (.shared) and " + address_name(l, b) +
               " (.global) share a physical location: shared memory cannot alias global memory";
    }
  for (const Thread& th : l.threads)
    for (const Op& op : th.ops)
      if (is_access(op) && (op.address < 0 || op.address >= n))
        return one_line(th.name) + ": its operation " + std::to_string(&op - th.ops.data() + 1) + " names no declared address (" +
               address_name(l, op.address) + ")";
  return {};
}

// The proxies a generated kernel cannot take: surface, constant, and fences PTX does not have.
std::string why_not_proxy(const Litmus& l, const Op& op) {
  if (is_access(op) && op.proxy == Proxy::Surface) {
    const Address& addr = l.addresses[static_cast<std::size_t>(op.address)];
    if (addr.declared != Proxy::Surface)
      return op_text(l, op) + ": surface objects are made for .surfref addresses only";
    if (op.kind == OpKind::AtomAdd) return "surface atomics and reductions (suatom, sured) are not generated in this version";
    if (op.sem != Sem::Weak) return op_text(l, op) + ": suld and sust are weak; PTX has no ." + name_of(op.sem) + " surface access";
    if (addr.shared) return "a .surfref of .shared memory: surface objects view global memory only";
  }
  if (is_access(op) && op.proxy == Proxy::Constant)
    return "ldc: the constant state space cannot view global (VMM) memory";
  if (op.kind == OpKind::Barrier && op.value >= kMostBarrierIds)
    return op_text(l, op) + ": the kernel keeps hardware barrier 0 for its rounds, so litmus barrier k is hardware barrier k + 1, "
                            "and there are 16";
  if (op.kind == OpKind::ProxyFence)
    // PTX ISA 9.0, fence: .proxykind = { .alias, .async, .async.global, .async.shared::{cta,cluster} }, and
    // the one-way fence.proxy.tensormap::generic; no texture, surface, constant or generic kind.
    return std::string("PTX has no fence.proxy.") + name_of(op.proxy) + " instruction";
  if (is_access(op) && op.nc) {  // ld.global.nc: through the address's own view, no texture object
    if (l.addresses[static_cast<std::size_t>(op.address)].shared)
      return op_text(l, op) + ": ld.global.nc reads global memory only, not .shared";
    return {};
  }
  if (is_access(op) && op.proxy == Proxy::Texture) {
    if (op.kind != OpKind::Load) return "PTX has no texture-proxy write (tex/tld only reads)";
    if (op.sem != Sem::Weak) return "tld is a weak read: PTX has no ." + std::string(name_of(op.sem)) + " texture fetch";
    if (l.addresses[static_cast<std::size_t>(op.address)].shared)
      return "tld of .shared address " + address_name(l, op.address) + ": texture objects view global memory only";
    if (l.addresses[static_cast<std::size_t>(op.address)].declared != Proxy::Texture)
      return "tld of " + address_name(l, op.address) + ", which is not a .texref: texture objects are made for .texref addresses only";
  }
  return {};
}

// The sems and scopes PTX has for each instruction.
std::string why_not_semantics(const Litmus& l, const Op& op) {
  const std::string text = op_text(l, op);
  if ((op.kind == OpKind::FenceSc || op.kind == OpKind::FenceAcqRel) && op.scope == Level::Thread)
    return text + ": a fence needs a scope (.cta, .gpu or .sys)";
  if (!is_access(op) || is_tld(op)) return {};
  if (op.kind == OpKind::AtomAdd && op.scope == Level::Thread) return text + ": an atom or red needs a scope";
  if (op.sem != Sem::Weak && op.scope == Level::Thread) return text + ": a strong access needs a scope";
  if (op.kind == OpKind::Load && (op.sem == Sem::Release || op.sem == Sem::AcqRel))
    return text + ": PTX ld has no ." + name_of(op.sem);
  if (op.kind == OpKind::Store && (op.sem == Sem::Acquire || op.sem == Sem::AcqRel))
    return text + ": PTX st has no ." + name_of(op.sem);
  if (is_red(op) && (op.sem == Sem::Acquire || op.sem == Sem::AcqRel))
    return text + ": PTX red takes .relaxed or .release only, not ." + name_of(op.sem);
  return {};
}

// Registers live in one thread: an operand register is set earlier by the same thread, and no register
// is set by two threads (the result has one word per register).
std::string why_not_registers(const Litmus& l) {
  std::map<std::string, std::size_t> setter;
  for (std::size_t t = 0; t < l.threads.size(); ++t) {
    const Thread& th = l.threads[t];
    std::set<std::string> set_here;
    for (const Op& op : th.ops) {
      if ((op.kind == OpKind::Store || op.kind == OpKind::AtomAdd) && !op.value_reg.empty() && !set_here.count(op.value_reg))
        return one_line(th.name) + ": " + op_text(l, op) + " uses register " + one_line(op.value_reg) +
               ", which no earlier operation of the thread sets";
      if ((op.kind == OpKind::Load || op.kind == OpKind::AtomAdd) && !op.reg.empty()) {
        const auto [it, fresh] = setter.emplace(op.reg, t);
        if (!fresh && it->second != t)
          return "register " + one_line(op.reg) + " is set by two threads (" + one_line(l.threads[it->second].name) +
                 " and " + one_line(th.name) + ")";
        set_here.insert(op.reg);
      }
    }
  }
  return {};
}

// A GPU CTA holds one file CTA's threads of several instances, and a barrier waits for every thread of the
// CTA (the idle ones pass the same barriers): its threads must pass the same barriers in the same order.
// A named barrier then meets every thread of its CTA, as the model has it only when its logical id is
// fixed, every thread passes it and its quorum (if any) is all of them.
std::string why_not_barriers(const Litmus& l) {
  std::map<std::pair<int, int>, int> threads_in;  // (gpu, cta) -> the file's threads there
  for (const Thread& th : l.threads) ++threads_in[{th.gpu, th.cta}];
  for (const Thread& th : l.threads)
    for (const Op& op : th.ops) {
      if (op.arrive) return op_text(l, op) + ": bar.cta.arrive is not generated in this version";
      if (!op.resource_reg.empty())
        return op_text(l, op) + ": a barrier whose logical id is read from memory is not generated (its id is the same for "
                                "every thread of a GPU CTA)";
      const int members = threads_in[{th.gpu, th.cta}];
      if (op.kind == OpKind::Barrier && op.quorum > members)
        return op_text(l, op) + ": a quorum of " + std::to_string(op.quorum) + " in a CTA of " + std::to_string(members) +
               " threads: the model's threads wait forever, and so would the GPU's";
      if (op.kind == OpKind::Barrier && op.quorum >= 0 && op.quorum < members)
        return op_text(l, op) + ": a quorum of " + std::to_string(op.quorum) + " of the " + std::to_string(members) +
               " threads of its CTA: on a GPU each barrier of a CTA meets all of its threads";
    }
  // A branch that can skip a barrier would leave the CTA's other threads waiting at it.
  for (const Thread& th : l.threads)
    for (std::size_t i = 0; i < th.ops.size(); ++i) {
      const Op& branch = th.ops[i];
      if (branch.kind != OpKind::Branch) continue;
      const auto target = std::find_if(th.ops.begin() + static_cast<std::ptrdiff_t>(i), th.ops.end(),
                                       [&](const Op& o) { return o.kind == OpKind::Label && o.label == branch.label; });
      for (std::size_t j = i + 1; target != th.ops.end() && th.ops.begin() + static_cast<std::ptrdiff_t>(j) < target; ++j)
        if (th.ops[j].kind == OpKind::Barrier)
          return one_line(th.name) + ": " + op_text(l, branch) + " can skip " + op_text(l, th.ops[j]) +
                 ": on a GPU the other threads of its CTA would wait there forever";
    }
  using Passed = std::tuple<std::uint32_t, std::int64_t>;  // instance, logical id (-1: none)
  std::map<std::pair<int, int>, std::pair<std::size_t, std::vector<Passed>>> first;  // (gpu, cta) -> thread, barriers
  for (std::size_t t = 0; t < l.threads.size(); ++t) {
    std::vector<Passed> ids;
    for (const Op& op : l.threads[t].ops)
      if (op.kind == OpKind::Barrier) ids.emplace_back(op.value, op.resource);
    const auto [it, fresh] = first.emplace(std::make_pair(l.threads[t].gpu, l.threads[t].cta), std::make_pair(t, ids));
    if (!fresh && it->second.second != ids)
      return one_line(l.threads[it->second.first].name) + " and " + one_line(l.threads[t].name) +
             " pass different CTA barriers in one CTA: on a GPU each would wait for the other forever";
  }
  return {};
}

// A location's initial value is written into its words before each launch: global words only.
std::string why_not_initial(const Litmus& l) {
  for (std::size_t a = 0; a < l.addresses.size(); ++a) {
    const Address& addr = l.addresses[a];
    if (addr.initial == 0) continue;
    if (addr.shared) return ".shared " + address_name(l, static_cast<int>(a)) + " = " + std::to_string(addr.initial) +
                            ": a .shared word is zeroed each round; initial values are for global locations";
    for (const Address& s : l.addresses)
      if (s.declared == Proxy::Surface && s.location == addr.location && !s.shared)
        return address_name(l, static_cast<int>(a)) + " = " + std::to_string(addr.initial) +
               ": a surface's memory starts at 0 in this version";
  }
  return {};
}

// A .shared word is one CTA's: threads of two file CTAs cannot share it.
std::string why_not_shared(const Litmus& l) {
  std::map<int, int> cta_of;  // shared location -> Thread::cta of its first user
  for (const Thread& th : l.threads)
    for (const Op& op : th.ops) {
      if (!is_access(op) || !l.addresses[static_cast<std::size_t>(op.address)].shared) continue;
      const int location = l.addresses[static_cast<std::size_t>(op.address)].location;
      const auto [it, fresh] = cta_of.emplace(location, th.cta);
      if (!fresh && it->second != th.cta)
        return ".shared address " + address_name(l, op.address) + " is touched by threads of two CTAs (b" +
               std::to_string(it->second) + " and b" + std::to_string(th.cta) + "): shared memory is one CTA's";
    }
  return {};
}

// A final value (Litmus::finals) is read after the launch from the instance's word of its location:
// a global word of its own, not a surface's texel or a CTA's shared word.
std::string why_not_finals(const Litmus& l) {
  for (int a : l.finals) {
    if (a < 0 || a >= static_cast<int>(l.addresses.size())) return "a final value of no declared address";
    const int root = root_of(l, a);
    if (l.addresses[static_cast<std::size_t>(a)].shared) return "the final value of .shared " + address_name(l, a) + ": each CTA has its own";
    for (std::size_t s = 0; s < l.addresses.size(); ++s)
      if (l.addresses[s].declared == Proxy::Surface && root >= 0 &&
          l.addresses[static_cast<std::size_t>(root_of(l, static_cast<int>(s)))].location == l.addresses[static_cast<std::size_t>(root)].location)
        return "the final value of " + address_name(l, a) + ", a surface's memory: final values of texels are not in this version";
  }
  return {};
}

}  // namespace

std::string why_not_generated(const Litmus& test) {
  for (const std::string& reason :
       {why_not_harness_extension(test), why_not_placement(test), why_not_addresses(test), why_not_surface_memory(test)})
    if (!reason.empty()) return reason;
  for (const Thread& th : test.threads)
    for (const Op& op : th.ops)
      for (const std::string& reason : {why_not_proxy(test, op), why_not_semantics(test, op)})
        if (!reason.empty()) return reason;
  for (const std::string& reason : {why_not_registers(test), why_not_shared(test), why_not_finals(test), why_not_barriers(test),
                                    why_not_initial(test)})
    if (!reason.empty()) return reason;
  return {};
}


}  // namespace vmmcheck::codegen
