#include "run/rows/generator_mutants.hpp"

#include <algorithm>

#include "vocabulary/op_kinds.hpp"

namespace vmmcheck::run {

namespace lt = patterns::litmus;
using patterns::Mutant;

const std::vector<Mutant>& generator_mutants() {
  static const std::vector<Mutant> kAll{Mutant::NoProxyFence, Mutant::RelaxedAcquire, Mutant::RelaxedRelease,
                                        Mutant::NarrowScope};
  return kAll;
}

lt::Litmus as_generated(const lt::Litmus& test, std::optional<Mutant> mutant) {
  lt::Litmus out = test;
  if (!mutant) return out;
  for (lt::Thread& th : out.threads) {
    if (*mutant == Mutant::NoProxyFence)
      th.ops.erase(std::remove_if(th.ops.begin(), th.ops.end(), [](const lt::Op& op) { return op.kind == lt::OpKind::AliasFence; }),
                   th.ops.end());
    for (lt::Op& op : th.ops) {
      const bool access = lt::is_access(op);
      switch (*mutant) {
        case Mutant::RelaxedAcquire:
          if (access && op.sem == lt::Sem::Acquire) op.sem = lt::Sem::Relaxed;
          if (access && op.sem == lt::Sem::AcqRel) op.sem = lt::Sem::Release;
          break;
        case Mutant::RelaxedRelease:
          if (access && op.sem == lt::Sem::Release) op.sem = lt::Sem::Relaxed;
          if (access && op.sem == lt::Sem::AcqRel) op.sem = lt::Sem::Acquire;
          break;
        case Mutant::NarrowScope:
          if (op.scope == lt::Level::Gpu || op.scope == lt::Level::Sys) op.scope = lt::Level::Cta;
          break;
        default: break;
      }
    }
  }
  return out;
}

}  // namespace vmmcheck::run
