#pragma once
// What kind of operation a litmus Op is (vocabulary/shape.hpp): the model, the generator, the derived
// controls and the generator's mutants all ask.
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "vocabulary/shape.hpp"

namespace vmmcheck::patterns::litmus {

// A memory operation (ld/st/atom/red and their proxies' forms).
inline bool is_access(const Op& op) { return op.kind == OpKind::Load || op.kind == OpKind::Store || op.kind == OpKind::AtomAdd; }

// A fence of any kind.
inline bool is_fence(const Op& op) {
  return op.kind == OpKind::FenceSc || op.kind == OpKind::FenceAcqRel || op.kind == OpKind::AliasFence ||
         op.kind == OpKind::ProxyFence;
}

// A named barrier: one with a resource id (bar.cta.sync 1, id 2).
inline bool is_named_barrier(const Op& op) {
  return op.kind == OpKind::Barrier && (op.resource >= 0 || !op.resource_reg.empty());
}

// A loop of a thread: a branch (ops[back]) to a label earlier in the thread (ops[head], the loop's head);
// its body is ops[head, back).
struct Loop {
  std::size_t head = 0, back = 0;
};
inline std::vector<Loop> loops_of(const Thread& th) {
  std::vector<Loop> out;
  for (std::size_t i = 0; i < th.ops.size(); ++i) {
    if (th.ops[i].kind != OpKind::Branch) continue;
    for (std::size_t j = 0; j < i; ++j)
      if (th.ops[j].kind == OpKind::Label && th.ops[j].label == th.ops[i].label) out.push_back({j, i});
  }
  return out;
}

// Per operation of a thread: whether it lies in a loop's body. A load there is a spin: it repeats until
// what it read lets the thread on.
inline std::vector<bool> in_loop(const Thread& th) {
  std::vector<bool> out(th.ops.size(), false);
  for (const Loop& loop : loops_of(th))
    for (std::size_t k = loop.head; k < loop.back; ++k) out[k] = true;
  return out;
}

// The registers a loop's bound, when reached, marks timed out (kSpinBoundReached): those its body sets
// and those its branches compare, for each loop (its head's label -> registers).
inline std::map<std::string, std::set<std::string>> loop_registers(const Thread& th) {
  std::map<std::string, std::set<std::string>> out;
  for (const Loop& loop : loops_of(th)) {
    std::set<std::string>& regs = out[th.ops[loop.head].label];
    for (std::size_t k = loop.head; k <= loop.back; ++k) {
      const Op& o = th.ops[k];
      if (!o.reg.empty() && (o.kind == OpKind::Load || o.kind == OpKind::AtomAdd)) regs.insert(o.reg);
      if (o.kind == OpKind::Branch)
        for (const Term* t : {&o.lhs, &o.rhs})
          if (!t->reg.empty()) regs.insert(t->reg);
    }
  }
  return out;
}

// A load that spins: `until`, or in a loop.
inline bool spins(const Thread& th, std::size_t i) {
  const Op& op = th.ops[i];
  return (op.kind == OpKind::Load || op.kind == OpKind::AtomAdd) && (op.spin || in_loop(th)[i]);
}

// Whether a thread passes a CTA barrier (bar.cta.sync).
inline bool has_barrier(const Litmus& l) {
  for (const Thread& th : l.threads)
    for (const Op& op : th.ops)
      if (op.kind == OpKind::Barrier) return true;
  return false;
}

}  // namespace vmmcheck::patterns::litmus
