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

}  // namespace vmmcheck::patterns::litmus
