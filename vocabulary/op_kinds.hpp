#pragma once
// What kind of operation a litmus Op is (vocabulary/shape.hpp): the model, the generator, the derived
// controls and the generator's mutants all ask.
#include "vocabulary/shape.hpp"

namespace vmmcheck::patterns::litmus {

// A memory operation (ld/st/atom/red and their proxies' forms).
inline bool is_access(const Op& op) { return op.kind == OpKind::Load || op.kind == OpKind::Store || op.kind == OpKind::AtomAdd; }

// A fence of any kind.
inline bool is_fence(const Op& op) {
  return op.kind == OpKind::FenceSc || op.kind == OpKind::FenceAcqRel || op.kind == OpKind::AliasFence ||
         op.kind == OpKind::ProxyFence;
}

// Whether a thread passes a CTA barrier (bar.cta.sync).
inline bool has_barrier(const Litmus& l) {
  for (const Thread& th : l.threads)
    for (const Op& op : th.ops)
      if (op.kind == OpKind::Barrier) return true;
  return false;
}

}  // namespace vmmcheck::patterns::litmus
