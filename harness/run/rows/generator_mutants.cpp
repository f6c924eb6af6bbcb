#include "run/rows/generator_mutants.hpp"

#include <algorithm>

#include "vocabulary/op_kinds.hpp"

namespace vmmcheck::run {

namespace lt = patterns::litmus;
using patterns::Mutant;

const std::vector<Mutant>& generator_mutants() {
  static const std::vector<Mutant> kAll{Mutant::NoProxyFence, Mutant::RelaxedAcquire, Mutant::RelaxedRelease,
                                        Mutant::NarrowScope, Mutant::PlainRmw};
  return kAll;
}

namespace {

// atom.add.<sem>.<scope> r, [a], v as ld.<acquire part> r, [a]; st.<release part> [a], r + v: the same
// accesses and orderings, not atomic. An atom with no register (red) is left alone -- the load would need
// one, and the row's outcomes are its file's registers -- and so is one whose operand is a register (a
// store writes a register plus an integer, not two registers).
void make_adds_plain(lt::Thread& th) {
  std::vector<lt::Op> ops;
  for (const lt::Op& op : th.ops) {
    if (op.kind != lt::OpKind::AtomAdd || op.rmw != lt::Rmw::Add || op.reg.empty() || !op.value_reg.empty()) {
      ops.push_back(op);
      continue;
    }
    lt::Op load = op, store = op;
    load.kind = lt::OpKind::Load;
    load.sem = op.sem == lt::Sem::Acquire || op.sem == lt::Sem::AcqRel ? lt::Sem::Acquire : lt::Sem::Relaxed;
    load.value = 0;
    load.value_reg.clear();
    store.kind = lt::OpKind::Store;
    store.sem = op.sem == lt::Sem::Release || op.sem == lt::Sem::AcqRel ? lt::Sem::Release : lt::Sem::Relaxed;
    store.reg.clear();
    store.must_read = -1;
    store.value_reg = op.reg;  // r + v
    store.value = op.value;
    ops.push_back(load);
    ops.push_back(store);
  }
  th.ops = std::move(ops);
}

}  // namespace

lt::Litmus as_generated(const lt::Litmus& test, std::optional<Mutant> mutant) {
  lt::Litmus out = test;
  if (!mutant) return out;
  for (lt::Thread& th : out.threads) {
    if (*mutant == Mutant::PlainRmw) make_adds_plain(th);
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
