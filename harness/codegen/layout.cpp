#include "codegen/layout.hpp"

#include <algorithm>
#include <set>

#include "codegen/kernel_abi.h"
#include "codegen/test_facts.hpp"

namespace vmmcheck::codegen {
namespace {

using namespace patterns::litmus;

// Where an access lands physically: the shared or the global location of its address.
std::pair<bool, int> place_of(const Litmus& l, int address) {
  const Address& a = l.addresses[static_cast<std::size_t>(address)];
  return {a.shared, a.location};
}

// The operation that sets `reg` (nullptr: none).
const Op* setter_of(const Litmus& l, const std::string& reg) {
  for (const Thread& th : l.threads)
    for (const Op& op : th.ops)
      if ((op.kind == OpKind::Load || op.kind == OpKind::AtomAdd) && op.reg == reg) return &op;
  return nullptr;
}

bool has_rmw_on(const Litmus& l, std::pair<bool, int> place) {
  for (const Thread& th : l.threads)
    for (const Op& op : th.ops)
      if (op.kind == OpKind::AtomAdd && place_of(l, op.address) == place) return true;
  return false;
}

}  // namespace

std::vector<int> role_order_of(const Litmus& l) {
  const std::size_t n = l.threads.size();
  std::vector<std::set<std::size_t>> after(n);  // after[w]: the threads that wait for a store of w
  std::vector<int> waits(n, 0);
  for (std::size_t s = 0; s < n; ++s) {
    std::set<std::pair<bool, int>> spun_on;
    for (std::size_t i = 0; i < l.threads[s].ops.size(); ++i)
      if (spins(l.threads[s], i)) spun_on.insert(place_of(l, l.threads[s].ops[i].address));
    for (std::size_t w = 0; w < n; ++w) {
      if (w == s) continue;  // a thread's own stores come before its spin in program order
      for (const Op& op : l.threads[w].ops)
        if ((op.kind == OpKind::Store || op.kind == OpKind::AtomAdd) && spun_on.count(place_of(l, op.address)) &&
            after[w].insert(s).second) {
          ++waits[s];
          break;
        }
    }
  }
  // Kahn's order, the file's order among the ready ones.
  std::vector<int> order;
  std::vector<bool> done(n, false);
  while (order.size() < n) {
    std::size_t next = n;
    for (std::size_t t = 0; t < n && next == n; ++t)
      if (!done[t] && waits[t] == 0) next = t;
    if (next == n) return {};  // the rest wait on each other
    done[next] = true;
    order.push_back(static_cast<int>(next));
    for (std::size_t s : after[next]) --waits[s];
  }
  return order;
}

std::string why_not_reused(const Litmus& l, const Layout& lay, int L) {
  if (lay.surface_backed[static_cast<std::size_t>(L)]) return "a surface's memory: its words are texels";
  if (lay.initial[static_cast<std::size_t>(L)] != 0)
    return "its initial value is not 0: a word of an earlier round reads as 0 under values by round";
  for (int a : lay.finals)
    if (lay.global_index[static_cast<std::size_t>(a)] == L)
      return "an outcome holds its final value: each round's must stay in a word of its own until read back";
  std::set<std::size_t> writers;
  int stores = 0;
  std::pair<bool, int> place{false, -1};
  for (std::size_t a = 0; a < l.addresses.size(); ++a)
    if (lay.global_index[a] == L) place = place_of(l, static_cast<int>(a));
  for (const Thread& th : l.threads)
    for (std::size_t i = 0; i < th.ops.size(); ++i)
      if (spins(th, i) && place_of(l, th.ops[i].address) == place)
        // Measured on the H200: the spin finds the earlier round's value in its SM's cache and, at a scope
        // that does not look past that cache, waits out its bound (twice the timeouts of a fresh word).
        return "a thread spins on it: its cache would hold the earlier round's word";
  for (std::size_t t = 0; t < l.threads.size(); ++t)
    for (const Op& op : l.threads[t].ops) {
      if (!is_access(op) || op.kind == OpKind::Load || place_of(l, op.address) != place) continue;
      if (op.kind == OpKind::AtomAdd) return "an atom or red writes it: a read-modify-write of a tagged word would carry the tag";
      if (op.proxy != Proxy::Generic) return "a surface store writes it";
      if (op.value_reg.empty() && op.value >= (1u << VMMCHECK_LITMUS_VALUE_BITS))
        return "a value of " + std::to_string(op.value) + " does not fit beside the round's tag";
      if (!op.value_reg.empty() && op.value != 0) return "it stores a register plus an integer, which need not fit beside the round's tag";
      if (!op.value_reg.empty()) {
        const Op* from = setter_of(l, op.value_reg);
        if (!from || from->kind != OpKind::Load || has_rmw_on(l, place_of(l, from->address)))
          return "it stores a register an atom may have set, whose value need not fit beside the round's tag";
      }
      writers.insert(t);
      ++stores;
    }
  if (writers.size() > 1)
    return "two threads write it: their stores of successive rounds are not ordered, so a round's tag would not say "
           "which store is the later";
  // Rounds are not in step across threads: a reader still in round r finds the writer's round r+1 word and
  // reads it as round r's value. With one store a round that is this round's only value, and sound; with
  // two (1, then 2) a later round's 1 would read as a 1 written before this round's 2 -- an outcome the
  // hardware did not make (seen on the H200 as SB with two fence.sc a thread, and CoWW, "failing").
  if (stores > 1)
    return "its writer stores it more than once a round: a later round's first value would read as written before "
           "this round's last";
  return {};
}

Layout layout_of(const Litmus& l, const Build& build) {
  Layout lay;
  std::set<int> ctas;
  for (const Thread& th : l.threads) ctas.insert(th.cta);
  lay.file_ctas = static_cast<unsigned>(ctas.size());
  const std::vector<int> cta_list(ctas.begin(), ctas.end());
  lay.file_cta.resize(l.threads.size());
  lay.file_thread.resize(l.threads.size());
  for (std::size_t b = 0; b < cta_list.size(); ++b) {
    std::vector<std::size_t> members;
    for (std::size_t i = 0; i < l.threads.size(); ++i)
      if (l.threads[i].cta == cta_list[b]) members.push_back(i);
    std::stable_sort(members.begin(), members.end(),
                     [&](std::size_t x, std::size_t y) { return l.threads[x].lane < l.threads[y].lane; });
    for (std::size_t t = 0; t < members.size(); ++t) {
      lay.file_cta[members[t]] = static_cast<int>(b);
      lay.file_thread[members[t]] = static_cast<int>(t);
    }
    lay.threads_per_file_cta = std::max(lay.threads_per_file_cta, static_cast<unsigned>(members.size()));
  }

  const int n = static_cast<int>(l.addresses.size());
  std::set<int> global, shared;
  for (int a = 0; a < n; ++a) {
    const int r = root_of(l, a);
    lay.root.push_back(r);
    const Address& addr = l.addresses[static_cast<std::size_t>(a)];
    if (addr.shared) shared.insert(addr.location);
    else if (r >= 0) global.insert(l.addresses[static_cast<std::size_t>(r)].location);
  }
  const auto rank = [](const std::set<int>& s, int v) { return static_cast<int>(std::distance(s.begin(), s.find(v))); };
  for (int a = 0; a < n; ++a) {
    const Address& addr = l.addresses[static_cast<std::size_t>(a)];
    const int r = lay.root[static_cast<std::size_t>(a)];
    lay.shared_index.push_back(addr.shared ? rank(shared, addr.location) : -1);
    lay.global_index.push_back(!addr.shared && r >= 0 ? rank(global, l.addresses[static_cast<std::size_t>(r)].location) : -1);
  }
  lay.global_locations = static_cast<unsigned>(global.size());
  lay.shared_locations = static_cast<unsigned>(shared.size());
  lay.surface_backed.assign(lay.global_locations, false);
  lay.initial.assign(lay.global_locations, 0);
  for (int a = 0; a < n; ++a)
    if (lay.global_index[static_cast<std::size_t>(a)] >= 0)
      lay.initial[static_cast<std::size_t>(lay.global_index[static_cast<std::size_t>(a)])] = l.addresses[static_cast<std::size_t>(a)].initial;
  for (int a = 0; a < n; ++a)
    if (l.addresses[static_cast<std::size_t>(a)].declared == Proxy::Surface && lay.global_index[static_cast<std::size_t>(a)] >= 0)
      lay.surface_backed[static_cast<std::size_t>(lay.global_index[static_cast<std::size_t>(a)])] = true;

  // Registers: every register a load or an atom sets, by (thread order, program order), once each.
  for (const Thread& th : l.threads)
    for (const Op& op : th.ops)
      if ((op.kind == OpKind::Load || op.kind == OpKind::AtomAdd) && !op.reg.empty() &&
          lay.register_index.emplace(op.reg, static_cast<int>(lay.registers.size())).second)
        lay.registers.push_back(op.reg);
  // Final values after them (the model's order): what the host reads back after each launch.
  for (int a : l.finals)
    if (lay.register_index.emplace(final_register(l.addresses[static_cast<std::size_t>(a)].name), static_cast<int>(lay.registers.size())).second) {
      lay.registers.push_back(final_register(l.addresses[static_cast<std::size_t>(a)].name));
      lay.finals.push_back(a);
    }

  // A CTA barrier meets every thread of the GPU CTA at the same phase: with every role in every thread the
  // roles' barriers would meet other instances' at other places, so such a test runs one role a thread.
  if (build.all_roles && !has_barrier(l)) lay.role_order = role_order_of(l);
  lay.reused.assign(lay.global_locations, false);
  if (build.reuse_words)
    for (unsigned L = 0; L < lay.global_locations; ++L) lay.reused[L] = why_not_reused(l, lay, static_cast<int>(L)).empty();
  return lay;
}

}  // namespace vmmcheck::codegen
