#include "litmus/derived_controls.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <stdexcept>

#include "litmus/rows.hpp"
#include "litmus/test_text.hpp"
#include "vocabulary/op_kinds.hpp"

namespace vmmcheck::litmus {
namespace {

namespace lt = patterns::litmus;
using lt::Level;
using lt::OpKind;
using lt::Sem;

// One change to a test: operation i of thread t replaced, or removed (nothing), or -- thread npos --
// operation boundary i removed.
struct Edit {
  std::size_t thread = 0, index = 0;
  std::optional<lt::Op> replacement;
  std::string token;      // e.g. "relax_t1_1"
  std::string mechanism;  // e.g. "T1's ld.acquire.gpu r1, [flag] as ld.relaxed.gpu r1, [flag]"
};
constexpr std::size_t kBoundary = static_cast<std::size_t>(-1);

// `test` with every edit made (removals last, from the back, so that indices hold).
lt::Litmus applied(const lt::Litmus& test, const std::vector<const Edit*>& edits) {
  lt::Litmus out = test;
  std::vector<std::pair<std::size_t, std::size_t>> removed;
  std::vector<std::size_t> unbound;
  for (const Edit* e : edits) {
    if (e->thread == kBoundary) unbound.push_back(e->index);
    else if (e->replacement) out.threads[e->thread].ops[e->index] = *e->replacement;
    else removed.emplace_back(e->thread, e->index);
  }
  std::sort(removed.rbegin(), removed.rend());
  for (const auto& [t, i] : removed) out.threads[t].ops.erase(out.threads[t].ops.begin() + static_cast<std::ptrdiff_t>(i));
  std::sort(unbound.rbegin(), unbound.rend());
  for (std::size_t k : unbound) out.boundaries.erase(out.boundaries.begin() + static_cast<std::ptrdiff_t>(k));
  // A thread the edits left with nothing to do (its one barrier removed) is left out, as herd's empty
  // threads are: it orders nothing, and a file has no empty thread. One an operation boundary names stays.
  for (std::size_t t = out.threads.size(); t-- > 0;) {
    const bool bounded = std::any_of(out.boundaries.begin(), out.boundaries.end(), [&](const auto& b) {
      return b.first == static_cast<int>(t) || b.second == static_cast<int>(t);
    });
    if (!out.threads[t].ops.empty() || bounded) continue;
    out.threads.erase(out.threads.begin() + static_cast<std::ptrdiff_t>(t));
    for (auto& [a, b] : out.boundaries) {
      if (a > static_cast<int>(t)) --a;
      if (b > static_cast<int>(t)) --b;
    }
  }
  return out;
}

std::string where(std::size_t t, std::size_t i) { return "t" + std::to_string(t) + "_" + std::to_string(i); }
std::string thread_label(std::size_t t) { return "T" + std::to_string(t) + "'s "; }

using lt::is_access;
using lt::is_fence;

// The kind of change an edit makes, its token without the place: "drop", "relax", "via_x2".
std::string kind_of(const Edit& e) {
  const std::size_t at = e.token.rfind("_t");
  return at == std::string::npos ? e.token : e.token.substr(0, at);
}

// The address an access moves to when it takes another path to the same memory: a physical alias (a
// generic address of its own), or from a generic address to a .texref/.surfref synonym of it, or from a
// synonym to the address it names. -1: none.
struct Move {
  int address = -1;
  lt::Proxy proxy = lt::Proxy::Generic;
};
std::vector<Move> moves_of(const lt::Litmus& test, const lt::Op& op) {
  std::vector<Move> out;
  const int n = static_cast<int>(test.addresses.size());
  const lt::Address& from = test.addresses[static_cast<std::size_t>(op.address)];
  if (op.proxy == lt::Proxy::Generic && from.same_as < 0) {
    for (int b = 0; b < n; ++b) {  // the first physical alias: every one is another virtual address
      const lt::Address& to = test.addresses[static_cast<std::size_t>(b)];
      if (b != op.address && to.same_as < 0 && to.shared == from.shared && to.location == from.location) {
        out.push_back({b, lt::Proxy::Generic});
        break;
      }
    }
    // A synonym of another proxy: a weak access that it can make (tld and suld read; sust writes).
    for (int b = 0; b < n; ++b) {
      const lt::Address& to = test.addresses[static_cast<std::size_t>(b)];
      if (to.same_as != op.address || op.sem != Sem::Weak) continue;
      if (to.declared == lt::Proxy::Surface && op.kind != OpKind::AtomAdd) out.push_back({b, lt::Proxy::Surface});
      if (to.declared == lt::Proxy::Texture && op.kind == OpKind::Load) out.push_back({b, lt::Proxy::Texture});
    }
  } else if (op.proxy != lt::Proxy::Generic && from.same_as >= 0 && op.kind != OpKind::AtomAdd) {
    out.push_back({from.same_as, lt::Proxy::Generic});  // back to the address itself, through the generic proxy
  }
  return out;
}

// Every single change of `test`, in thread and program order.
std::vector<Edit> edits_of(const lt::Litmus& test, bool deep) {
  std::vector<Edit> out;
  for (std::size_t t = 0; t < test.threads.size(); ++t) {
    const std::vector<lt::Op>& ops = test.threads[t].ops;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const lt::Op& op = ops[i];
      const std::string before = op_text(test, op);
      const auto replace = [&](const lt::Op& by, const std::string& verb, const std::string& note = "") {
        lt::Litmus shown = test;
        shown.threads[t].ops[i] = by;
        out.push_back({t, i, by, verb + "_" + where(t, i), thread_label(t) + before + " as " + op_text(shown, by) + note});
      };
      if (is_fence(op)) out.push_back({t, i, std::nullopt, "drop_" + where(t, i), thread_label(t) + before + " removed"});
      if (op.kind == OpKind::FenceSc) {  // fence.sc -> fence.acq_rel: no order among the fence.sc
        lt::Op weaker = op;
        weaker.kind = OpKind::FenceAcqRel;
        replace(weaker, "acqrel");
      }
      if (is_access(op) && (op.sem == Sem::Acquire || op.sem == Sem::Release || op.sem == Sem::AcqRel)) {
        lt::Op weaker = op;
        weaker.sem = Sem::Relaxed;
        replace(weaker, "relax");
      }
      // Deep: a strong load or store made weak: no longer morally strong (no coherence, no synchronization).
      // Not a spinning load: a weak load may be served from its SM's L1 copy for as long as it spins, so
      // the spin waits out its bound in nearly every instance (on the H200, b85b53c's deep run: 29 such
      // controls, 152 of its 168 control seconds, none showing anything;
      // ci/results/litmus/nvidia-h200_driver-580.159.04.deep.json).
      if (deep && !lt::spins(test.threads[t], i) && (op.kind == OpKind::Load || op.kind == OpKind::Store) && op.proxy == lt::Proxy::Generic &&
          op.sem != Sem::Weak) {
        lt::Op weak = op;
        weak.sem = Sem::Weak;
        weak.scope = Level::Thread;
        replace(weak, "weak");
      }
      // A scope narrowed: .sys to .gpu, .gpu to .cta (strong accesses, and fences that take a scope).
      const bool scoped = (is_access(op) && op.sem != Sem::Weak) || op.kind == OpKind::FenceSc || op.kind == OpKind::FenceAcqRel;
      if (scoped && (op.scope == Level::Gpu || op.scope == Level::Sys)) {
        lt::Op narrower = op;
        narrower.scope = op.scope == Level::Sys ? Level::Gpu : Level::Cta;
        replace(narrower, "narrow");
      }
      // A data dependency removed: the store writes a value of its own, not the register it read.
      if ((op.kind == OpKind::Store || op.kind == OpKind::AtomAdd) && !op.value_reg.empty()) {
        lt::Op independent = op;
        independent.value_reg.clear();
        independent.value = 1;
        replace(independent, "nodep", " (the data dependency removed)");
      }
      // The access moved onto another path to its memory: what ordered accesses of one address, or of
      // one proxy, no longer applies.
      if (is_access(op))
        for (const Move& m : moves_of(test, op)) {
          lt::Op moved = op;
          moved.address = m.address;
          moved.proxy = m.proxy;
          if (m.proxy == lt::Proxy::Generic) moved.nc = false;  // back on the generic proxy: a plain ld
          replace(moved, "via_" + test.addresses[static_cast<std::size_t>(m.address)].name);
        }
    }
  }
  for (std::size_t k = 0; k < test.boundaries.size(); ++k) {
    const auto [a, b] = test.boundaries[k];
    out.push_back({kBoundary, k, std::nullopt, "unbound_" + std::to_string(k),
                   "the operation boundary from T" + std::to_string(a) + " to T" + std::to_string(b) + " removed"});
  }
  return out;
}

// A name token: [a-z0-9_] only, as case names are.
std::string token_of(const std::string& s) {
  std::string out;
  for (char c : s)
    out += (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ? c : (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : '_';
  return out;
}

// Under the artifact's reading, the stricter (it allows nothing the ISA's does not): a control is one
// both readings let through, and a row only the artifact holds (a `model` row) has controls too.
bool allows_violation(const Row& row) {
  try {
    return model_verdict(row).artifact_allows;
  } catch (const std::invalid_argument&) {
    return false;  // a shape the model refuses is no control
  }
}

// A CTA barrier comes out of every thread of its CTA at once (its k-th of an id in each): one thread's
// alone would leave the others waiting on a GPU. Each group is the set of edits for one barrier.
std::vector<std::vector<Edit>> barrier_removals(const lt::Litmus& test) {
  std::map<std::tuple<int, int, std::uint32_t, int>, std::vector<Edit>> groups;  // (gpu, cta, id, k) -> edits
  for (std::size_t t = 0; t < test.threads.size(); ++t) {
    std::map<std::uint32_t, int> seen;
    const lt::Thread& th = test.threads[t];
    for (std::size_t i = 0; i < th.ops.size(); ++i) {
      const lt::Op& op = th.ops[i];
      if (op.kind != OpKind::Barrier) continue;
      groups[{th.gpu, th.cta, op.value, seen[op.value]++}].push_back(
          {t, i, std::nullopt, "nobar_" + where(t, i), thread_label(t) + op_text(test, op) + " removed"});
    }
  }
  std::vector<std::vector<Edit>> out;
  for (auto& [key, edits] : groups) out.push_back(std::move(edits));
  return out;
}

}  // namespace

std::vector<DerivedControl> derived_controls(const Row& row, Depth depth) {
  std::vector<DerivedControl> out;
  if (row.expect != Expect::Assert || allows_violation(row)) return out;
  const std::vector<Edit> edits = edits_of(row.test, depth == Depth::DeepPairs);
  std::set<std::string> seen;  // the tests, not their names, decide whether two controls are one
  // `set` made; named by its edits, or by `name` and `what` when given.
  const auto consider = [&](const std::vector<const Edit*>& set, const std::string& name = "", const std::string& what = "") {
    DerivedControl d;
    std::string token, mechanism;
    for (const Edit* e : set) {
      token += (token.empty() ? "" : "_and_") + e->token;
      mechanism += (mechanism.empty() ? "" : "; and ") + e->mechanism;
    }
    d.change = "ctl_" + token_of(name.empty() ? token : name);
    d.mechanism = what.empty() ? mechanism : what;
    d.symmetric = set.size() == 2 && set[0]->thread != kBoundary && set[1]->thread != kBoundary &&
                  set[0]->thread != set[1]->thread && kind_of(*set[0]) == kind_of(*set[1]);
    d.row = row;
    d.row.name = row.name + "." + d.change;
    // A row that stands for a case: its controls are named after the case, as RowControl::name says.
    if (!row.case_name.empty()) d.row.case_name = row.case_name + "." + d.change;
    d.row.test = applied(row.test, set);
    d.row.test.name = d.row.name;
    d.row.control.clear();
    d.row.control_row.reset();
    if (!allows_violation(d.row)) return;  // the change took away nothing that forbade it
    Row unnamed = d.row;
    unnamed.name = "x";
    if (!seen.insert(test_text(unnamed)).second) return;
    d.row.source = test_text(d.row);
    out.push_back(std::move(d));
  };
  const std::vector<std::vector<Edit>> barriers = barrier_removals(row.test);
  if (depth == Depth::Plain) {
    for (const Edit& e : edits) consider({&e});
    for (const std::vector<Edit>& group : barriers) {
      std::vector<const Edit*> set;
      for (const Edit& e : group) set.push_back(&e);
      consider(set, "nobar_" + group.front().token.substr(6), "the CTA barrier removed from every thread of its CTA (" +
                                                                  group.front().mechanism.substr(5) + ")");
    }
  }
  // A row no one change lets through relies on two orderings at once (a thread's acquire and its
  // release, a proxy fence beside one address): its controls take two away. So do those asked for two.
  if (out.empty())
    for (std::size_t a = 0; a < edits.size(); ++a)
      for (std::size_t b = a + 1; b < edits.size(); ++b)
        if (edits[a].thread != edits[b].thread || edits[a].index != edits[b].index) consider({&edits[a], &edits[b]});
  if (depth == Depth::Plain) {
    // Every ordering at once: each fence removed (a fence.sc too, rather than weakened), each release and
    // acquire relaxed -- one edit an operation.
    std::vector<const Edit*> every;
    for (const Edit& e : edits) {
      const bool orders = e.token.rfind("drop_", 0) == 0 || e.token.rfind("relax_", 0) == 0;
      const bool taken = !every.empty() && every.back()->thread == e.thread && every.back()->index == e.index;
      if (orders && e.thread != kBoundary && !taken) every.push_back(&e);
    }
    for (const std::vector<Edit>& group : barriers)
      for (const Edit& e : group) every.push_back(&e);
    if (every.size() > 1)
      consider(every, "unordered",
               barriers.empty() ? "every fence removed and every release and acquire relaxed"
                                : "every fence and barrier removed and every release and acquire relaxed");
  }
  return out;
}

}  // namespace vmmcheck::litmus
