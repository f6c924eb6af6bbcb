#include "model/ptx_model.hpp"
#include "model/ptx_execution.hpp"
#include "vocabulary/op_kinds.hpp"

#include <algorithm>
#include <array>
#include <deque>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace vmmcheck::model::ptx {

namespace detail {

// Does scope instance `big` contain `small`? (ptx.als: subscope, scopes)
bool contains(const Instance& big, const Instance& small) {
  if (static_cast<int>(big.level) < static_cast<int>(small.level)) return false;
  switch (big.level) {
    case Level::Sys: return true;
    case Level::Gpu: return big.gpu == small.gpu;
    case Level::Cta: return big.gpu == small.gpu && big.cta == small.cta;
    case Level::Thread: return big.thread == small.thread;
  }
  return false;
}

Instance thread_instance(const Litmus& l, int t) {
  const Thread& th = l.threads[static_cast<std::size_t>(t)];
  return {Level::Thread, th.gpu, th.cta, t};
}

// Each operation's scope includes the other's thread (ptx.als: symmetric[scope.~scopes]).
bool mutually_scoped(const Shape& s, const Event& a, const Event& b) {
  return contains(s.instance_of(a), thread_instance(*s.litmus, b.thread)) &&
         contains(s.instance_of(b), thread_instance(*s.litmus, a.thread));
}

}  // namespace detail

namespace {

using namespace detail;

// .shared variable has one instance per CTA (PTX ISA, "State spaces"): an access reaches its own CTA's.
class Places {
 public:
  explicit Places(const Litmus& l) : l_(l) {
    const int n = static_cast<int>(l.addresses.size());
    for (int a = 0; a < n; ++a) root_.push_back(resolve(a));
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b)
        if (address(a).location == address(b).location && address(a).shared != address(b).shared)
          throw std::invalid_argument(l.name + ": " + l.addresses[static_cast<std::size_t>(a)].name + " and " +
                                      l.addresses[static_cast<std::size_t>(b)].name + " share a location, one .shared and one global");
  }
  // The (virtual address, location) ids an access to addresses[a] by thread t reaches.
  std::pair<int, int> of(int a, const Thread& t) {
    const int root = root_[static_cast<std::size_t>(a)];
    const bool per_cta = address(a).shared;
    const int gpu = per_cta ? t.gpu : -1, cta = per_cta ? t.cta : -1;
    const int loc = id(locations_, {address(a).location, gpu, cta});
    if (initial_.size() <= static_cast<std::size_t>(loc)) initial_.resize(static_cast<std::size_t>(loc) + 1, 0);
    initial_[static_cast<std::size_t>(loc)] = address(a).initial;
    return {id(addresses_, {root, gpu, cta}), loc};
  }
  int locations() const { return static_cast<int>(locations_.size()); }
  // Each location id's value before the test (Address::initial).
  std::vector<std::uint32_t> initials() const {
    std::vector<std::uint32_t> out = initial_;
    out.resize(locations_.size(), 0);
    return out;
  }

 private:
  using Key = std::array<int, 3>;
  static int id(std::map<Key, int>& ids, const Key& key) { return ids.emplace(key, static_cast<int>(ids.size())).first->second; }
  // The address a synonym chain ends at.
  int resolve(int a) const {
    const std::string& name = l_.addresses[static_cast<std::size_t>(a)].name;
    for (std::size_t hops = 0; l_.addresses[static_cast<std::size_t>(a)].same_as >= 0; ++hops) {
      a = l_.addresses[static_cast<std::size_t>(a)].same_as;
      if (a >= static_cast<int>(l_.addresses.size())) throw std::invalid_argument(l_.name + ": " + name + " is a synonym of no address");
      if (hops == l_.addresses.size()) throw std::invalid_argument(l_.name + ": " + name + " is in a cycle of synonyms");
    }
    return a;
  }
  // What addresses[a] names: its synonym chain's end.
  const Address& address(int a) const { return l_.addresses[static_cast<std::size_t>(root_[static_cast<std::size_t>(a)])]; }

  const Litmus& l_;
  std::vector<int> root_;
  std::map<Key, int> addresses_, locations_;
  std::vector<std::uint32_t> initial_;
};

// The instruction a memory operation is, by its proxy (the artifact's parser: ld/tld/suld/ldc, st/sust,
// atom/suatom, red/sured).
std::string mnemonic(const Op& op) {
  const bool surface = op.proxy == Proxy::Surface;
  switch (op.kind) {
    case OpKind::Load:
      switch (op.proxy) {
        case Proxy::Generic: return "ld";
        case Proxy::Texture: return op.nc ? "ld.nc" : "tld";
        case Proxy::Surface: return "suld";
        case Proxy::Constant: return "ldc";
      }
      break;
    case OpKind::Store: return surface ? "sust" : "st";
    case OpKind::AtomAdd:
      return std::string(op.reg.empty() ? (surface ? "sured" : "red") : (surface ? "suatom" : "atom")) +
             (op.rmw == Rmw::Exch ? ".exch" : op.rmw == Rmw::Cas ? ".cas" : ".add");
    default: break;
  }
  return "?";
}

// An operation for witnesses and messages: its thread, and the instruction as a litmus file writes it.
std::string op_text(const Thread& t, const Op& op, const Litmus& l) { return t.name + ": " + instruction_text(l, op); }

// Refuses an operation the model does not take.
void check_op(const Litmus& l, const Thread& th, const Op& op) {
  const auto refuse = [&](const std::string& why) { throw std::invalid_argument(l.name + ": " + op_text(th, op, l) + ": " + why); };
  if (is_access(op) && (op.address < 0 || op.address >= static_cast<int>(l.addresses.size())))
    throw std::invalid_argument(l.name + ": " + th.name + " accesses an unknown address");
  if (is_access(op) && op.sem != Sem::Weak && op.scope == Level::Thread) refuse("a strong access needs a scope");
  // Only the generic and surface proxies write (the artifact's grammar: st, sust, atom, suatom, red, sured).
  if ((op.kind == OpKind::Store || op.kind == OpKind::AtomAdd) && (op.proxy == Proxy::Texture || op.proxy == Proxy::Constant))
    refuse("the texture and constant proxies only read");
  if (!op.value_reg.empty() && op.kind != OpKind::Store && op.kind != OpKind::AtomAdd) refuse("only a store or an atom takes a register operand");
  if (op.kind == OpKind::AtomAdd && op.rmw != Rmw::Add && op.reg.empty()) refuse("red has only add");
  if (op.kind == OpKind::AtomAdd && op.rmw == Rmw::Cas && op.must_read >= 0) refuse("a precondition on an atom.cas");
  if (!op.resource_reg.empty() && op.resource >= 0) refuse("a barrier's id is an integer or a register, not both");
  // ptx.als: sig Fence { } { scope not in Thread }
  if ((op.kind == OpKind::FenceSc || op.kind == OpKind::FenceAcqRel) && op.scope == Level::Thread) refuse("a fence needs a scope");
}

// The registers the test's instructions set, each thread's in name order, whatever path a thread takes; a
// name set in two threads is refused (the artifact: one sig per register).
std::vector<std::string> registers_of(const Litmus& whole) {
  std::vector<std::string> out;
  for (const Thread& th : whole.threads) {
    std::set<std::string> mine;
    for (const Op& op : th.ops)
      if ((op.kind == OpKind::Load || op.kind == OpKind::AtomAdd) && !op.reg.empty()) mine.insert(op.reg);
    for (const std::string& reg : mine) {
      if (std::find(out.begin(), out.end(), reg) != out.end()) throw std::invalid_argument(whole.name + ": two threads set " + reg);
      out.push_back(reg);
    }
  }
  return out;
}

// A branch operand's value in an execution: its register's read's, or its integer.
Shape::Operand operand_of(const Term& t, const std::map<std::string, int>& set_by) {
  if (t.reg.empty()) return {-1, t.value};
  const auto it = set_by.find(t.reg);
  return it == set_by.end() ? Shape::Operand{-1, 0} : Shape::Operand{it->second, 0};  // unset: 0, as herd has it
}

// Appends the events of one operation of thread t. set_by: each register's latest read in this thread.
void add_events(Shape& s, Places& places, int t, const Op& op, std::map<std::string, int>& set_by, bool cas_succeeds) {
  const Litmus& l = *s.litmus;
  const Thread& th = l.threads[static_cast<std::size_t>(t)];
  check_op(l, th, op);
  Event e;
  e.thread = t;
  e.sem = op.sem;
  e.scope = op.scope;
  e.proxy = op.proxy;
  e.text = op_text(th, op, l);
  if (is_access(op)) std::tie(e.address, e.location) = places.of(op.address, th);
  // A register operand is a data dependency on the load that set the register (ptx.als: dep in ^po).
  int operand_read = -1;
  // A register no instruction of this path set before is 0 (as herd has it, and a generated kernel's are):
  // the operand is then its integer alone, a barrier's id 0. Without branches the grammar sees to it that
  // an earlier load sets it.
  bool unset_resource = false;
  for (const std::string* reg : {&op.value_reg, &op.resource_reg}) {
    if (reg->empty()) continue;
    const auto it = set_by.find(*reg);
    if (it == set_by.end()) {
      unset_resource = reg == &op.resource_reg;
      continue;
    }
    operand_read = it->second;
  }
  const auto push_read = [&](Event r) {
    if (!r.reg.empty()) set_by[r.reg] = s.n();
    s.events.push_back(std::move(r));
  };
  switch (op.kind) {
    case OpKind::Load:
      e.kind = Kind::Read;
      e.reg = op.reg;
      e.must_read = op.must_read;
      push_read(e);
      break;
    case OpKind::Store:
      e.kind = Kind::Write;
      e.value = op.value;
      e.operand_read = operand_read;
      s.events.push_back(e);
      break;
    case OpKind::AtomAdd: {
      // ptx.als / alloy_emitter: an atom is a read and a write joined by rmw (and dep); acq_rel makes
      // the read an acquire and the write a release. A red is an atom that sets no register.
      Event r = e, w = e;
      r.kind = Kind::Read;
      r.reg = op.reg;
      // A red is in no acquire pattern ("this strong read does not form an acquire pattern"): PTX's red is
      // .relaxed or .release. Dat3M's files also write red.acq_rel, which PTX does not have; the model
      // reads it as they do, as an atom whose read acquires (docs/litmus-model.md, "Reductions").
      r.reduction = op.reg.empty() && op.sem != Sem::Acquire && op.sem != Sem::AcqRel;
      r.must_read = op.must_read;
      r.sem = (op.sem == Sem::Acquire || op.sem == Sem::AcqRel) ? Sem::Acquire : Sem::Relaxed;
      w.kind = Kind::Write;
      w.value = op.value;
      w.operand_read = operand_read;
      w.sem = (op.sem == Sem::Release || op.sem == Sem::AcqRel) ? Sem::Release : Sem::Relaxed;
      w.rmw_read = s.n();
      w.exchange = op.rmw != Rmw::Add;
      // atom.cas: in this shape it either read op.expected and wrote (an exchange), or read another value
      // and wrote nothing (a read only); build_all makes a shape of each.
      if (op.rmw == Rmw::Cas) {
        r.cas_expected = op.expected;
        r.cas_succeeds = cas_succeeds;
      }
      push_read(r);
      if (op.rmw != Rmw::Cas || cas_succeeds) s.events.push_back(w);
      break;
    }
    case OpKind::FenceSc:
    case OpKind::FenceAcqRel:
      e.kind = op.kind == OpKind::FenceSc ? Kind::FenceSc : Kind::FenceAcqRel;
      s.events.push_back(e);
      break;
    case OpKind::AliasFence:
      e.kind = Kind::AliasFence;
      s.events.push_back(e);
      break;
    case OpKind::ProxyFence:
      e.kind = Kind::ProxyFence;
      s.events.push_back(e);
      break;
    case OpKind::Label: break;
    case OpKind::Branch:  // on a path, an assumption: the branch came out as the path took it
      s.assumes.push_back({operand_of(op.lhs, set_by), operand_of(op.rhs, set_by), op.branch_equal});
      break;
    case OpKind::Barrier:
      e.kind = Kind::Barrier;
      e.value = op.value;  // the barrier's id (a named barrier's: its instance)
      e.resource = unset_resource ? 0 : op.resource;
      e.operand_read = operand_read;  // a named barrier's resource id in a register: the read that set it
      e.quorum = op.quorum;
      e.named = is_named_barrier(op);
      e.arrive = op.arrive;
      s.events.push_back(e);
      break;
  }
}

// The event sets the relations below are restricted to (ptx.als's sigs, and the ISA's strong operations).
void classify(Shape& s) {
  const Litmus& l = *s.litmus;
  for (int i = 0; i < s.n(); ++i) {
    const Event& e = s.events[static_cast<std::size_t>(i)];
    const std::uint64_t bit = std::uint64_t{1} << i;
    if (e.kind == Kind::Read) s.reads |= bit;
    if (e.kind == Kind::Write) s.writes |= bit;
    if (is_memory(e) && e.proxy == Proxy::Generic) s.generic |= bit;  // GenericOps
    if (e.kind == Kind::Read && e.sem != Sem::Weak) s.strong_reads |= bit;
    if (e.kind == Kind::Write && e.sem != Sem::Weak) s.strong_writes |= bit;
    if (e.reduction) s.reductions |= bit;
    if (e.kind == Kind::Write && e.sem == Sem::Release) s.release_writes |= bit;   // sig WriteRelease
    if (e.kind == Kind::Read && e.sem == Sem::Acquire) s.acquire_reads |= bit;     // sig ReadAcquire
    if (e.kind == Kind::FenceSc) s.sc_fences |= bit;
    if (is_memory_fence(e)) s.fences |= bit;  // ReleaseFences, AcquireFences
    if (e.kind == Kind::AliasFence) s.alias_fences |= bit;
    if (e.kind == Kind::AliasFence && e.boundary) s.boundary_fences |= bit;
    if (l.threads[static_cast<std::size_t>(e.thread)].resident) s.resident |= bit;
  }
}

// The relations fixed by the program (ptx.als, "Basic Derived Relations" and "Basic model constraints").
void relate(Shape& s, const std::vector<int>& first, const std::vector<int>& last) {
  const Litmus& l = *s.litmus;
  const int n = s.n();
  const auto& ev = s.events;
  const auto same_cta = [&](const Event& a, const Event& b) {
    return s.thread_of(a).gpu == s.thread_of(b).gpu && s.thread_of(a).cta == s.thread_of(b).cta;
  };
  s.po_plus = pairs_where(n, [&](int a, int b) { return ev[a].thread == ev[b].thread && a < b; });
  s.rmw = pairs_where(n, [&](int a, int b) { return ev[b].rmw_read == a; });
  // fact { dep in ^po }: an RMW's read to its write, and a register operand's load to the write using it.
  s.dep = s.rmw | pairs_where(n, [&](int a, int b) { return ev[b].operand_read == a; });
  s.same_alias = pairs_where(n, [&](int a, int b) { return is_memory(ev[a]) && is_memory(ev[b]) && ev[a].address == ev[b].address; });
  s.same_location =
      pairs_where(n, [&](int a, int b) { return is_memory(ev[a]) && is_memory(ev[b]) && ev[a].location == ev[b].location; });
  s.same_block = pairs_where(n, [&](int a, int b) { return same_cta(ev[a], ev[b]); });  // same_block_r
  s.same_proxy = pairs_where(n, [&](int a, int b) { return is_memory(ev[a]) && is_memory(ev[b]) && ev[a].proxy == ev[b].proxy; });
  // strong_r: symmetric[scope.~scopes] & proxy.~proxy -- each in the other's scope, one proxy. In ptx.als
  // only memory operations have a proxy, so a fence is never strong with anything; departure (a)
  // (docs/litmus-model.md) follows the ISA: fences are morally strong with fences and memory operations
  // whose scope includes their thread, and theirs the fence's.
  const Rel artifact_strong = pairs_where(n, [&](int a, int b) {
    const Event &x = ev[a], &y = ev[b];
    if (is_memory(x) && is_memory(y)) return x.proxy == y.proxy && mutually_scoped(s, x, y);
    const bool fence_pair = (is_memory_fence(x) || is_memory_fence(y)) && (is_memory(x) || is_memory_fence(x)) &&
                            (is_memory(y) || is_memory_fence(y));
    return fence_pair && mutually_scoped(s, x, y);
  });
  // The ISA's: "If both are memory operations, then they overlap completely" (8.7), and "Two memory
  // operations are said to overlap when they specify the same virtual address" (8.2.1). Physical aliases
  // are two virtual addresses; a synonym is its address's own (Places).
  const Rel isa_strong =
      artifact_strong & pairs_where(n, [&](int a, int b) { return !is_memory(ev[a]) || !is_memory(ev[b]) || ev[a].address == ev[b].address; });
  // proxy_fence_ops: proxy_fence_proxy.~proxy & same_block_r -- the operations of the fence's proxy in its CTA.
  s.proxy_fence_ops = pairs_where(n, [&](int f, int o) {
    return ev[f].kind == Kind::ProxyFence && is_memory(ev[o]) && ev[o].proxy == ev[f].proxy && same_cta(ev[f], ev[o]);
  });
  s.api = Rel(n);
  for (const auto& [a, b] : l.boundaries) s.api.add(last[static_cast<std::size_t>(a)], first[static_cast<std::size_t>(b)]);
  // A barrier's occurrence: how many barriers of its kind (named or not) and id its thread met before it.
  std::vector<int>& occurrence = s.barrier_occurrence;
  occurrence.assign(static_cast<std::size_t>(n), 0);
  const auto same_barrier = [&](const Event& a, const Event& b) {
    return a.kind == Kind::Barrier && b.kind == Kind::Barrier && a.named == b.named && a.value == b.value;
  };
  for (int b = 0; b < n; ++b)
    for (int a = 0; a < b; ++a)
      if (same_barrier(ev[a], ev[b]) && ev[a].thread == ev[b].thread) ++occurrence[static_cast<std::size_t>(b)];
  s.barrier_sync = pairs_where(n, [&](int a, int b) {
    return same_barrier(ev[a], ev[b]) && !ev[a].named && !ev[b].arrive && ev[a].thread != ev[b].thread &&
           occurrence[static_cast<std::size_t>(a)] == occurrence[static_cast<std::size_t>(b)] && same_cta(ev[a], ev[b]);
  });

  const Rel po_loc = s.po_plus & s.same_alias;  // program order, same virtual address
  // release_sequence: strong[WriteRelease <: optional[po_loc] :> Write] + strong[ReleaseFences <: ^po :> Write]
  // acquire_sequence: strong[Read <: optional[po_loc] :> ReadAcquire] + strong[Read <: ^po :> AcquireFences]
  // as the ISA's release and acquire patterns (departure (a)): the write after a fence and the read before
  // one are strong, and a red's read is in no acquire pattern ("this strong read does not form an acquire
  // pattern").
  const std::uint64_t acquiring = s.reads & ~s.reductions;
  const Rel release_shape = restrict(optional(po_loc), s.release_writes, s.writes) | restrict(s.po_plus, s.fences, s.strong_writes);
  const Rel acquire_shape =
      restrict(optional(po_loc), acquiring, s.acquire_reads) | restrict(s.po_plus, acquiring & s.strong_reads, s.fences);
  for (Reading r : kReadings) {
    Shape::Strength& k = s.strength[static_cast<std::size_t>(r)];
    k.strong = r == Reading::Isa ? isa_strong : artifact_strong;
    k.release_sequence = release_shape & k.strong;
    k.acquire_sequence = acquire_shape & k.strong;
  }
  s.readings_differ = !subset(artifact_strong, isa_strong);
}

Shape build(const Litmus& l, std::uint64_t cas_successes, const std::vector<std::string>& registers) {
  Shape s;
  int cas_seen = 0;  // atom.cas operations so far: the k-th succeeds in this shape if bit k of cas_successes is set
  s.litmus = &l;
  Places places(l);
  const int threads = static_cast<int>(l.threads.size());
  // Operation boundaries (our extension): the earlier operation ends with an alias fence, the later
  // begins with one, and the boundary orders the first before the second (api, below).
  std::vector<bool> ends_operation(static_cast<std::size_t>(threads)), starts_operation(static_cast<std::size_t>(threads));
  for (const auto& [a, b] : l.boundaries) {
    if (a < 0 || b < 0 || a >= threads || b >= threads || a == b) throw std::invalid_argument(l.name + ": bad boundary");
    ends_operation[static_cast<std::size_t>(a)] = true;
    starts_operation[static_cast<std::size_t>(b)] = true;
  }
  std::vector<int> first(static_cast<std::size_t>(threads)), last(static_cast<std::size_t>(threads));
  std::vector<std::map<std::string, int>> thread_set_by;
  for (int t = 0; t < threads; ++t) {
    const Thread& th = l.threads[static_cast<std::size_t>(t)];
    first[static_cast<std::size_t>(t)] = s.n();
    const auto boundary_fence = [&](const char* where) {
      Event e;
      e.kind = Kind::AliasFence;
      e.thread = t;
      e.boundary = true;
      e.text = th.name + ": operation boundary (" + where + ")";
      s.events.push_back(e);
    };
    if (starts_operation[static_cast<std::size_t>(t)]) boundary_fence("start");
    std::map<std::string, int>& set_by = thread_set_by.emplace_back();
    for (const Op& op : th.ops) {
      const bool succeeds = op.kind == OpKind::AtomAdd && op.rmw == Rmw::Cas && ((cas_successes >> cas_seen++) & 1u);
      add_events(s, places, t, op, set_by, succeeds);
    }
    if (ends_operation[static_cast<std::size_t>(t)]) boundary_fence("end");
    last[static_cast<std::size_t>(t)] = s.n() - 1;
  }
  // Each register's final read on this path; -1: no instruction of the path set it (its value is 0).
  s.registers = registers;
  for (const std::string& reg : registers) {
    int read = -1;
    for (const auto& set_by : thread_set_by)
      if (const auto it = set_by.find(reg); it != set_by.end()) read = it->second;
    s.register_reads.push_back(read);
  }
  if (s.n() > kMaxEvents) throw std::invalid_argument(l.name + ": more than 64 events");
  // Final values (Litmus::finals): registers after the loads' own, each its global address's location.
  for (int a : l.finals) {
    if (a < 0 || a >= static_cast<int>(l.addresses.size())) throw std::invalid_argument(l.name + ": a final value of no address");
    const Address& addr = l.addresses[static_cast<std::size_t>(a)];
    if (addr.shared)
      throw std::invalid_argument(l.name + ": the final value of .shared " + addr.name + " (each CTA has its own)");
    const std::string reg = final_register(addr.name);
    if (std::find(s.registers.begin(), s.registers.end(), reg) != s.registers.end()) continue;
    s.registers.push_back(reg);
    s.final_locations.push_back(places.of(a, l.threads.empty() ? Thread{} : l.threads.front()).second);
  }
  classify(s);
  // A boundary stands for an alias fence only; what it does for the other proxies is not modelled.
  if (!l.boundaries.empty() && ((s.reads | s.writes) & ~s.generic))
    throw std::invalid_argument(l.name + ": operation boundaries with texture, surface or constant accesses");
  relate(s, first, last);

  s.writes_at.resize(static_cast<std::size_t>(places.locations()));
  s.initial = places.initials();
  for (int i = 0; i < s.n(); ++i)
    if (s.events[static_cast<std::size_t>(i)].kind == Kind::Write)
      s.writes_at[static_cast<std::size_t>(s.events[static_cast<std::size_t>(i)].location)].push_back(i);
  for (int t = 0; t < threads; ++t) {
    const Thread& th = l.threads[static_cast<std::size_t>(t)];
    for (Level lv : {Level::Thread, Level::Cta, Level::Gpu, Level::Sys}) s.instances.push_back({lv, th.gpu, th.cta, t});
  }
  return s;
}

// The most atom.cas operations a test may have: each doubles the shapes the model decides over.
constexpr int kMostCas = 8;

// The most paths a test's threads may take together: the model decides each. And the most steps one
// thread's walk through its branches may take, paths dropped included.
constexpr std::size_t kMostPaths = 256;
constexpr std::size_t kMostPathSteps = 100'000;

// One thread's paths through its branches (docs/litmus-model.md, "Branches and loops"): each a straight
// list of its operations, where a branch stands for the assumption that it came out as the path took it
// (OpKind::Branch, its comparison negated where the path falls through). A loop runs its body once: a path
// that comes to a loop's head a second time is dropped, so a spin loop is its last iteration, the one whose
// load read what ends it (earlier iterations only read, and order nothing an acquire of the last does not).
// A loop whose body does more than read is refused: dropping its earlier iterations would drop writes.
std::vector<std::vector<Op>> paths_of(const Litmus& l, const Thread& th) {
  const std::vector<Op>& ops = th.ops;
  std::map<std::string, std::size_t> label_at;
  for (std::size_t i = 0; i < ops.size(); ++i)
    if (ops[i].kind == OpKind::Label) label_at[ops[i].label] = i;
  for (const Op& op : ops)
    if (op.kind == OpKind::Branch && !label_at.count(op.label))
      throw std::invalid_argument(l.name + ": " + th.name + ": no label " + op.label);
  const std::vector<Loop> loops = loops_of(th);
  for (const Loop& loop : loops) {
    for (std::size_t k = loop.head; k < loop.back; ++k) {
      const Op& body = ops[k];
      if (body.kind == OpKind::Load || body.kind == OpKind::Label || body.kind == OpKind::Branch) continue;
      // An atom.cas whose failure is what loops (`bne r, expected, L`): every earlier iteration's cas
      // failed, and a failed cas only reads.
      const Op& back = ops[loop.back];
      const bool loops_on_failure = body.kind == OpKind::AtomAdd && body.rmw == Rmw::Cas && !back.branch_always && !back.branch_equal &&
                                    ((back.lhs.reg == body.reg && back.rhs.reg.empty() && back.rhs.value == body.expected) ||
                                     (back.rhs.reg == body.reg && back.lhs.reg.empty() && back.lhs.value == body.expected));
      if (!loops_on_failure)
        throw std::invalid_argument(l.name + ": " + op_text(th, body, l) +
                                    ": a loop whose body does more than load (or than an atom.cas that loops when it fails): "
                                    "the model takes spin loops only");
    }
  }
  // Loop heads: the labels a later branch jumps back to. Every cycle passes one, so a path that comes to
  // one a second time is the loop going round again.
  std::set<std::string> heads;
  for (const Loop& loop : loops) heads.insert(ops[loop.head].label);
  std::vector<std::vector<Op>> paths;
  std::vector<Op> path;
  std::set<std::string> visited;
  std::size_t steps = 0;  // paths dropped count too: the walk itself is bounded
  std::function<void(std::size_t)> walk = [&](std::size_t pc) {
    if (paths.size() > kMostPaths || ++steps > kMostPathSteps)
      throw std::invalid_argument(l.name + ": " + th.name + ": more than " + std::to_string(kMostPaths) + " paths through its branches");
    if (pc == ops.size()) return paths.push_back(path);
    const Op& op = ops[pc];
    if (op.kind == OpKind::Label) {
      if (!heads.count(op.label)) return walk(pc + 1);
      if (!visited.insert(op.label).second) return;  // the loop again: its last iteration is another path's
      walk(pc + 1);
      visited.erase(op.label);
      return;
    }
    if (op.kind != OpKind::Branch) {
      path.push_back(op);
      walk(pc + 1);
      path.pop_back();
      return;
    }
    const std::size_t target = label_at.at(op.label);
    if (op.branch_always) return walk(target);
    for (const bool taken : {true, false}) {
      Op assumption = op;
      assumption.branch_equal = taken ? op.branch_equal : !op.branch_equal;
      path.push_back(assumption);
      walk(taken ? target : pc + 1);
      path.pop_back();
    }
  };
  walk(0);
  return paths;
}

// The shapes the model decides over: one for each path of each thread through its branches, and for each
// way its atom.cas operations can go (each succeeds or fails): PTX's atom.cas writes only when it reads
// the value it compares with. Which events an execution has depends on its values; each shape fixes them,
// and its executions that read otherwise are no executions (feasible).
struct Shapes {
  std::deque<Litmus> paths;  // the straight-line tests the shapes point into
  std::vector<Shape> shapes;
};
// A register an operation reads (an operand, a barrier's id, a branch's comparison) is one an earlier
// operation of its thread sets, in the text; on a path that skipped that operation it is 0.
void check_registers_read(const Litmus& l) {
  for (const Thread& th : l.threads) {
    std::set<std::string> set;
    for (const Op& op : th.ops) {
      for (const std::string* reg : {&op.value_reg, &op.resource_reg, &op.lhs.reg, &op.rhs.reg})
        if (!reg->empty() && !set.count(*reg))
          throw std::invalid_argument(l.name + ": " + op_text(th, op, l) + ": no earlier load of " + th.name + " sets " + *reg);
      if ((op.kind == OpKind::Load || op.kind == OpKind::AtomAdd) && !op.reg.empty()) set.insert(op.reg);
    }
  }
}

Shapes build_all(const Litmus& l) {
  check_registers_read(l);
  Shapes out;
  const std::vector<std::string> registers = registers_of(l);
  std::vector<std::vector<std::vector<Op>>> per_thread;
  std::size_t combinations = 1;
  for (const Thread& th : l.threads) {
    per_thread.push_back(paths_of(l, th));
    if (per_thread.back().empty()) throw std::invalid_argument(l.name + ": " + th.name + ": every path loops forever");
    combinations *= per_thread.back().size();
    if (combinations > kMostPaths) throw std::invalid_argument(l.name + ": more than " + std::to_string(kMostPaths) + " paths");
  }
  for (std::size_t c = 0; c < combinations; ++c) {
    Litmus& straight = out.paths.emplace_back(l);
    std::size_t rest = c;
    for (std::size_t t = 0; t < l.threads.size(); ++t) {
      straight.threads[t].ops = per_thread[t][rest % per_thread[t].size()];
      rest /= per_thread[t].size();
    }
    int cas = 0;
    for (const Thread& th : straight.threads)
      for (const Op& op : th.ops) cas += op.kind == OpKind::AtomAdd && op.rmw == Rmw::Cas;
    if (cas > kMostCas) throw std::invalid_argument(l.name + ": more than " + std::to_string(kMostCas) + " atom.cas operations");
    for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << cas); ++mask) out.shapes.push_back(build(straight, mask, registers));
  }
  return out;
}

// Every strict partial order (transitive, irreflexive) over `items`, as relations over all events, in
// which each of `bags` is totally ordered (ptx.als: fact co / fact sc, "total[...]"). Only transitive
// orders: departure (b), docs/litmus-model.md.
std::vector<Rel> partial_orders(int n, const std::vector<int>& items, const std::vector<std::vector<int>>& bags) {
  std::vector<std::pair<int, int>> pairs;
  for (int a : items)
    for (int b : items)
      if (a != b) pairs.emplace_back(a, b);
  std::vector<Rel> out;
  if (pairs.size() > 20) throw std::invalid_argument("too many writes to one location");
  for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << pairs.size()); ++mask) {
    Rel r(n);
    for (std::size_t p = 0; p < pairs.size(); ++p)
      if ((mask >> p) & 1u) r.add(pairs[p].first, pairs[p].second);
    const Rel closed = plus(r);
    bool order = irreflexive(closed);
    for (int i = 0; order && i < n; ++i) order = closed.row[i] == r.row[i];  // transitive already
    for (const auto& bag : bags)
      for (std::size_t i = 0; order && i < bag.size(); ++i)
        for (std::size_t j = i + 1; order && j < bag.size(); ++j)
          order = r.has(bag[i], bag[j]) || r.has(bag[j], bag[i]);
    if (order) out.push_back(r);
  }
  return out;
}

// The bags a relation must be total on: for each scope instance s, the events of `set` whose scope
// contains s and whose thread is inside s (scoped[s] & inside[s]), split by `key`.
std::vector<std::vector<int>> bags_of(const Shape& s, const std::vector<int>& set, const std::function<int(const Event&)>& key) {
  std::vector<std::vector<int>> bags;
  for (const Instance& inst : s.instances) {
    std::map<int, std::vector<int>> by;
    for (int e : set) {
      const Event& ev = s.events[static_cast<std::size_t>(e)];
      if (contains(s.instance_of(ev), inst) && contains(inst, thread_instance(*s.litmus, ev.thread))) by[key(ev)].push_back(e);
    }
    for (auto& [k, bag] : by)
      if (bag.size() > 1) bags.push_back(bag);
  }
  return bags;
}


}  // namespace

namespace detail {


// proxy_preserved_cause_base over the cause_base `cb`: its nine terms in ptx.als, grouped by the path
// they follow -- cb itself on one virtual address (same_alias), or cb through an alias fence on one
// location (same_location) -- and by which ends a proxy fence carries into or out of the generic proxy:
//   neither:  same_alias[GenericOps <: cb :> GenericOps]
//             same_location[GenericOps <: cb.(AliasFence <: cb) :> GenericOps]
//   src:      same_alias[(cb & ~proxy_fence_ops).cb :> GenericOps]
//             same_location[(cb & ~proxy_fence_ops).(cb :> AliasFence).cb :> GenericOps]
//   dst:      same_alias[GenericOps <: cb.(cb & proxy_fence_ops)]
//             same_location[GenericOps <: cb.(AliasFence <: cb).(cb & proxy_fence_ops)]
//   both:     same_alias[(cb & ~proxy_fence_ops).cb.(cb & proxy_fence_ops)]
//             same_location[(cb & ~proxy_fence_ops).(cb :> AliasFence).cb.(cb & proxy_fence_ops)]
// and the ninth, one proxy inside one CTA: same_alias[cb & same_block_r & same_proxy_r].
// The resident-grid clause (our extension, guide 4.17.5.3): the alias fence an operation boundary
// stands for does not reach a grid that was already resident before the boundary.
Rel proxy_preserved(const Shape& s, const Rel& cb) {
  const std::uint64_t all = ~std::uint64_t{0};
  const Rel src_fenced = cb & transpose(s.proxy_fence_ops);  // cb & ~proxy_fence_ops: op -> its proxy fence
  const Rel dst_fenced = cb & s.proxy_fence_ops;             // proxy fence -> op of its proxy
  const auto fenced = [&](const Rel& path) {
    return restrict(path, s.generic, s.generic) | restrict(join(src_fenced, path), all, s.generic) |
           join(restrict(path, s.generic, all), dst_fenced) | join(join(src_fenced, path), dst_fenced);
  };
  const Rel after_alias_fence =
      restrict(cb, s.alias_fences & ~s.boundary_fences, all) | restrict(cb, s.boundary_fences, ~s.resident);
  const Rel through_alias_fence = join(cb, after_alias_fence);
  return ((fenced(cb) | (cb & s.same_block & s.same_proxy)) & s.same_alias) | (fenced(through_alias_fence) & s.same_location);
}

Relations relations_of(const Shape& s, const Shape::Strength& k, const Execution& x) {
  const int n = s.n();
  const auto& ev = s.events;
  Relations m;
  m.rf = Rel(n);
  for (int r = 0; r < n; ++r)
    if (ev[r].kind == Kind::Read && x.source[r] >= 0) m.rf.add(x.source[r], r);
  const Rel& co = x.co;  // a strict partial order already: ^co = co
  // fr: ~rf.^co, plus reads of the initial value before every write to their location
  m.fr = join(transpose(m.rf), co);
  for (int r = 0; r < n; ++r)
    if (ev[r].kind == Kind::Read && x.source[r] < 0)
      for (int w : s.writes_at[static_cast<std::size_t>(ev[r].location)]) m.fr.add(r, w);
  m.com = m.rf | co | m.fr;
  m.observation = (m.rf & k.strong) | s.rmw;
  m.sync = join(join(k.release_sequence, plus(m.observation)), k.acquire_sequence) & k.strong;
  // cause_base: ^po + *po.^((sc + sync).*po); operation boundaries (api) and barriers order like sync.
  const Rel po_star = optional(s.po_plus);
  m.cause_base = s.po_plus | join(po_star, plus(join(x.sc | m.sync | s.api | x.barrier_sync, po_star)));
  m.cause = join(optional(m.observation), proxy_preserved(s, m.cause_base));
  return m;
}

}  // namespace detail

namespace {

// Checks the axioms in the order of pred ptx_mm, moral strength as `k` reads it; returns the first one
// broken, or none.
std::optional<Axiom> broken_axiom(const Shape& s, const Shape::Strength& k, const Execution& x) {
  const int n = s.n();
  Rel rf(n);
  for (int r = 0; r < n; ++r)
    if (s.events[r].kind == Kind::Read && x.source[r] >= 0) rf.add(x.source[r], r);
  // no_thin_air: acyclic[rf + dep]
  if (!acyclic(rf | s.dep)) return Axiom::NoThinAir;
  const Relations m = relations_of(s, k, x);
  const Rel& co = x.co;
  // causality: irreflexive[optional[com].cause]
  if (!irreflexive(join(optional(m.com), m.cause))) return Axiom::Causality;
  // atomicity: no strong[fr].(strong[co]) & rmw -- co transitive (departure (b))
  if (!(join(m.fr & k.strong, co & k.strong) & s.rmw).empty()) return Axiom::Atomicity;
  // coherence: same_location[Write <: cause :> Write] in ^co
  if (!subset(restrict(m.cause, s.writes, s.writes) & s.same_location, co)) return Axiom::Coherence;
  // seq_cst: FenceSC <: cause :> FenceSC in sc
  if (!subset(restrict(m.cause, s.sc_fences, s.sc_fences), x.sc)) return Axiom::SeqCst;
  return std::nullopt;
}

// Values read and written, from the reads-from choice: a read has its source's value, a write its
// operand (a register's load's value, or the constant), an RMW's write that plus what its read read.
bool evaluate(const Shape& s, Execution& x) {
  const int n = s.n();
  x.value.assign(static_cast<std::size_t>(n), 0);
  std::vector<bool> known(static_cast<std::size_t>(n), false);
  for (int round = 0; round <= n; ++round) {
    bool progress = false;
    for (int e = 0; e < n; ++e) {
      if (known[e]) continue;
      const Event& ev = s.events[static_cast<std::size_t>(e)];
      if (ev.kind == Kind::Read) {
        const int src = x.source[e];
        if (src >= 0 && !known[src]) continue;
        x.value[e] = src < 0 ? s.initial[static_cast<std::size_t>(ev.location)] : x.value[src];
      } else if (ev.kind == Kind::Write) {
        if ((ev.rmw_read >= 0 && !known[ev.rmw_read]) || (ev.operand_read >= 0 && !known[ev.operand_read])) continue;
        const std::uint32_t operand = ev.operand_read >= 0 ? x.value[ev.operand_read] + ev.value : ev.value;
        x.value[e] = ev.rmw_read >= 0 && !ev.exchange ? x.value[ev.rmw_read] + operand : operand;
      }
      known[e] = true;
      progress = true;
    }
    if (!progress) break;
  }
  for (bool k : known)
    if (!k) return false;  // a cycle through rf and dep: thin air
  return true;
}

// The value location `loc` ends with: its last write in coherence order's, or its initial value.
std::uint32_t final_value(const Shape& s, const Execution& x, int loc) {
  const std::vector<int>& writes = s.writes_at[static_cast<std::size_t>(loc)];
  for (int w : writes)
    if (std::none_of(writes.begin(), writes.end(), [&](int later) { return x.co.has(w, later); })) return x.value[w];
  return s.initial[static_cast<std::size_t>(loc)];
}

std::vector<std::uint32_t> register_values(const Shape& s, const Execution& x) {
  std::vector<std::uint32_t> values;
  for (int e : s.register_reads) values.push_back(e < 0 ? 0 : x.value[static_cast<std::size_t>(e)]);
  for (int loc : s.final_locations) values.push_back(final_value(s, x, loc));
  return values;
}

// Whether the execution is one of its shape's: each atom.cas read what its shape says it did, and each
// branch came out as its path says.
bool feasible(const Shape& s, const Execution& x) {
  const auto value = [&](const Shape::Operand& o) { return o.event >= 0 ? x.value[static_cast<std::size_t>(o.event)] : o.value; };
  for (const Shape::Assume& a : s.assumes)
    if ((value(a.lhs) == value(a.rhs)) != a.equal) return false;
  for (int e = 0; e < s.n(); ++e) {
    const Event& ev = s.events[static_cast<std::size_t>(e)];
    if (ev.cas_expected >= 0 && (x.value[e] == static_cast<std::uint32_t>(ev.cas_expected)) != ev.cas_succeeds) return false;
  }
  return true;
}

// Whether barriers that meet (`meet`) wait for each other in a circle: a thread passes barrier a before b
// while another meets b's group before a's (bar 1; bar 2 against bar 2; bar 1). Such threads never get
// past their barriers, on a GPU as in Dat3M's semantics: the execution is no execution.
bool deadlocked(const Shape& s, const Rel& meet) {
  if (meet.empty()) return false;
  const int n = s.n();
  std::vector<int> group(static_cast<std::size_t>(n));
  for (int e = 0; e < n; ++e) group[static_cast<std::size_t>(e)] = e;
  const std::function<int(int)> root = [&](int e) {
    return group[static_cast<std::size_t>(e)] == e ? e : group[static_cast<std::size_t>(e)] = root(group[static_cast<std::size_t>(e)]);
  };
  // Barriers wait for each other where they meet both ways (a quorum's members outside the chosen set
  // and bar.cta.arrive wait for no one).
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (meet.has(a, b) && meet.has(b, a)) group[static_cast<std::size_t>(root(a))] = root(b);
  Rel order(n);  // between groups' roots: a thread waits at one before it comes to the other
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      const Event &x = s.events[static_cast<std::size_t>(a)], &y = s.events[static_cast<std::size_t>(b)];
      if (x.kind == Kind::Barrier && y.kind == Kind::Barrier && !x.arrive && s.po_plus.has(a, b) && root(a) != root(b))
        order.add(root(a), root(b));
    }
  return !acyclic(order);
}

// The most threads a quorum barrier's group may have: the model tries each set of Q of them.
constexpr int kMostQuorumMembers = 16;

// The ways the barriers of an execution can meet (docs/litmus-model.md, "Barriers"), as Dat3M's PTX
// semantics have them: unnamed ones as Shape::barrier_sync says; named ones in groups of one CTA,
// instance, occurrence and resource id (as this execution's values give it). Without a quorum every
// member of a group meets every other. With quorum q, some q or more of them (S) meet: each of S with
// every member (Dat3M's syncbar: sync(b1) and exec(b2)). A group of fewer than q threads never completes:
// its threads wait forever, and the execution is no execution (no choice at all).
std::vector<Rel> barrier_choices(const Shape& s, const Execution& x) {
  std::map<std::tuple<int, int, std::int64_t, int, std::int64_t>, std::vector<int>> groups;
  for (int e = 0; e < s.n(); ++e) {
    const Event& ev = s.events[static_cast<std::size_t>(e)];
    if (ev.kind != Kind::Barrier || !ev.named) continue;
    const std::int64_t id = ev.operand_read >= 0 ? std::int64_t{x.value[static_cast<std::size_t>(ev.operand_read)]} : ev.resource;
    const Thread& th = s.thread_of(ev);
    groups[{th.gpu, th.cta, ev.value, s.barrier_occurrence[static_cast<std::size_t>(e)], id}].push_back(e);
  }
  std::vector<Rel> choices{s.barrier_sync};
  for (const auto& [key, members] : groups) {
    std::int64_t quorum = -1;
    for (int e : members) quorum = std::max(quorum, s.events[static_cast<std::size_t>(e)].quorum);
    const int size = static_cast<int>(members.size());
    if (quorum > size) return {};
    if (quorum >= 0 && size > kMostQuorumMembers)
      throw std::invalid_argument(s.litmus->name + ": a quorum barrier that " + std::to_string(size) + " threads pass (at most " +
                                  std::to_string(kMostQuorumMembers) + ")");
    // Exactly Q meet: a larger set only adds orderings, so it allows nothing a set of Q does not.
    std::vector<std::uint64_t> sets;  // bit i: members[i] meets
    if (quorum < 0)
      sets.push_back(size >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << size) - 1);
    else
      for (std::uint64_t set = 1; set < (std::uint64_t{1} << size); ++set)
        if (__builtin_popcountll(set) == quorum) sets.push_back(set);
    std::vector<Rel> next;
    for (const std::uint64_t set : sets) {
      for (Rel r : choices) {
        for (int i = 0; i < size; ++i)
          if ((set >> i) & 1u)
            for (int j = 0; j < size; ++j)
              if (i != j && !s.events[static_cast<std::size_t>(members[static_cast<std::size_t>(j)])].arrive)
                r.add(members[static_cast<std::size_t>(i)], members[static_cast<std::size_t>(j)]);
        next.push_back(r);
      }
    }
    choices = std::move(next);
  }
  choices.erase(std::remove_if(choices.begin(), choices.end(), [&](const Rel& meet) { return deadlocked(s, meet); }), choices.end());
  return choices;
}

bool preconditions_hold(const Shape& s, const Execution& x) {
  // herd's filter: an outcome it rules out answers no question the test asks.
  if (!s.litmus->filter.empty() && !holds(s.litmus->filter.front(), s.registers, register_values(s, x))) return false;
  for (int e = 0; e < s.n(); ++e) {
    const Event& ev = s.events[static_cast<std::size_t>(e)];
    if (ev.kind == Kind::Read && ev.must_read >= 0 && x.value[e] != static_cast<std::uint32_t>(ev.must_read)) return false;
  }
  return true;
}

// The most candidate executions (reads-from, coherence and fence orders together) a test may have.
constexpr std::uint64_t kMostCandidates = 2'000'000;

// The first axiom a candidate breaks under each reading (indexed by Reading), or none.
using Broken = std::array<std::optional<Axiom>, 2>;

// Calls visit(execution, broken axioms) for every candidate execution. A candidate whose reads-from and
// dependencies form a cycle has no values: it is visited with NoThinAir under both readings and must
// not be evaluated.
using Visit = std::function<void(const Execution&, const Broken&)>;
void for_each_execution(const Shape& s, const Visit& visit) {
  const int n = s.n();
  std::vector<int> read_events;
  std::vector<std::vector<int>> options;
  for (int e = 0; e < n; ++e)
    if (s.events[static_cast<std::size_t>(e)].kind == Kind::Read) {
      read_events.push_back(e);
      std::vector<int> o{-1};
      for (int w : s.writes_at[static_cast<std::size_t>(s.events[static_cast<std::size_t>(e)].location)]) o.push_back(w);
      options.push_back(o);
    }
  // co per location: partial orders total on each (virtual address, scope instance, proxy) bag.
  const auto address_and_proxy = [](const Event& e) { return e.address * 4 + static_cast<int>(e.proxy); };
  std::vector<std::vector<Rel>> co_choices;
  for (const auto& writes : s.writes_at) co_choices.push_back(partial_orders(n, writes, bags_of(s, writes, address_and_proxy)));
  std::vector<int> sc_fences;
  for (int e = 0; e < n; ++e)
    if (s.events[static_cast<std::size_t>(e)].kind == Kind::FenceSc) sc_fences.push_back(e);
  const std::vector<Rel> sc_choices = partial_orders(n, sc_fences, bags_of(s, sc_fences, [](const Event&) { return 0; }));
  // Every candidate is weighed (about 15 us each): a test whose reads could each read from many writes
  // would take hours, as ten loads of a location three threads write took minutes. Refused up front.
  double candidates = static_cast<double>(sc_choices.size());
  for (const auto& o : options) candidates *= static_cast<double>(o.size());
  for (const auto& c : co_choices) candidates *= static_cast<double>(std::max<std::size_t>(1, c.size()));
  if (candidates > static_cast<double>(kMostCandidates)) {
    std::ostringstream about;  // a count past any integer type's range is still said
    about << std::setprecision(3) << candidates;
    throw std::invalid_argument(s.litmus->name + ": about " + about.str() + " candidate executions, more than the model weighs (" +
                                std::to_string(kMostCandidates) + "): fewer loads of locations many threads write");
  }

  Execution x;
  x.source.assign(static_cast<std::size_t>(n), -1);
  std::vector<std::size_t> co_pick(co_choices.size(), 0);
  std::function<void(std::size_t)> choose_co;
  const auto run_all = [&] {
    for (const Rel& sc : sc_choices) {
      x.sc = sc;
      Rel co(n);
      for (std::size_t l = 0; l < co_choices.size(); ++l) co = co | co_choices[l][co_pick[l]];
      x.co = co;
      Rel rf(n);
      for (std::size_t i = 0; i < read_events.size(); ++i)
        if (x.source[read_events[i]] >= 0) rf.add(x.source[read_events[i]], read_events[i]);
      if (!acyclic(rf | s.dep) || !evaluate(s, x)) {
        x.barrier_sync = s.barrier_sync;
        visit(x, {Axiom::NoThinAir, Axiom::NoThinAir});
        continue;
      }
      if (!feasible(s, x)) continue;
      for (const Rel& barriers : barrier_choices(s, x)) {
        x.barrier_sync = barriers;
        Broken broken;
        broken[static_cast<std::size_t>(Reading::Isa)] = broken_axiom(s, s.of(Reading::Isa), x);
        broken[static_cast<std::size_t>(Reading::Artifact)] =
            s.readings_differ ? broken_axiom(s, s.of(Reading::Artifact), x) : broken[static_cast<std::size_t>(Reading::Isa)];
        visit(x, broken);
      }
    }
  };
  choose_co = [&](std::size_t l) {
    if (l == co_choices.size()) return run_all();
    for (std::size_t c = 0; c < co_choices[l].size(); ++c) {
      co_pick[l] = c;
      choose_co(l + 1);
    }
  };
  std::function<void(std::size_t)> choose_rf = [&](std::size_t i) {
    if (i == read_events.size()) return choose_co(0);
    for (int src : options[i]) {
      x.source[read_events[i]] = src;
      choose_rf(i + 1);
    }
  };
  choose_rf(0);
}

// What a shape's executions depend on, as text: its addresses, threads and boundaries (not its name or
// weak outcome). Two shapes with one key have one outcome space.
std::string key_of(const Litmus& l) {
  std::ostringstream o;
  for (const Address& a : l.addresses)
    o << 'A' << a.location << ',' << a.same_as << ',' << static_cast<int>(a.declared) << ',' << a.shared << ',' << a.initial << ';';
  for (const Thread& t : l.threads) {
    o << 'T' << t.gpu << ',' << t.cta << ',' << t.resident << '{';
    for (const Op& op : t.ops)
      o << static_cast<int>(op.kind) << ',' << static_cast<int>(op.sem) << ',' << static_cast<int>(op.scope) << ','
        << op.address << ',' << op.value << ',' << op.reg.size() << ':' << op.reg << ',' << op.must_read << ','
        << static_cast<int>(op.proxy) << ',' << op.nc << ',' << op.value_reg.size() << ':' << op.value_reg << ','
        << static_cast<int>(op.rmw) << ',' << op.expected << ',' << op.resource << ',' << op.resource_reg.size() << ':'
        << op.resource_reg << ',' << op.quorum << ',' << op.arrive << ',' << op.label.size() << ':' << op.label << ',' << op.lhs.reg << '#'
        << op.lhs.value << ',' << op.rhs.reg << '#' << op.rhs.value << ',' << op.branch_equal << op.branch_always << ';';
    o << '}';
  }
  for (const auto& [a, b] : l.boundaries) o << 'B' << a << ',' << b << ';';
  for (int a : l.finals) o << 'F' << a << ';';
  for (const Expr& f : l.filter) o << "filter " << to_string(f) << ';';
  return o.str();
}

std::vector<std::string> describe(const Shape& s, const Execution& x) {
  std::vector<std::string> lines;
  for (int e = 0; e < s.n(); ++e) {
    const Event& ev = s.events[static_cast<std::size_t>(e)];
    if (ev.kind != Kind::Read) continue;
    const int src = x.source[e];
    lines.push_back(ev.text + " reads " + std::to_string(x.value[e]) + " from " +
                    (src < 0 ? std::string("the initial value") : "`" + s.events[static_cast<std::size_t>(src)].text + "`"));
  }
  const std::size_t loads = s.register_reads.size();
  for (std::size_t k = 0; k < s.final_locations.size(); ++k) {
    const int loc = s.final_locations[k];
    const std::vector<int>& writes = s.writes_at[static_cast<std::size_t>(loc)];
    std::string last = "no write: the initial value";
    for (int w : writes)
      if (std::none_of(writes.begin(), writes.end(), [&](int later) { return x.co.has(w, later); }))
        last = "the last write in coherence order, `" + s.events[static_cast<std::size_t>(w)].text + "`";
    lines.push_back("final " + s.registers[loads + k] + " = " + std::to_string(final_value(s, x, loc)) + ": " + last);
  }
  return lines;
}

// The number in "causality (2)" is how many of the candidates showing the outcome break that axiom
// first; said in words, since a student cannot guess it.
std::string reason_of(const Decision& d, const std::string& outcome) {
  if (d.allowed) return "the model allows " + outcome + ": an execution that shows it breaks no axiom";
  if (d.only_thin_air)
    return "the model forbids " + outcome + ": no candidate execution with values shows it; only one whose values would "
           "justify themselves could, and no_thin_air rules that out";
  if (d.showing == 0) return "no candidate execution shows " + outcome;
  if (d.showing == 1)
    return "the model forbids " + outcome + ": the one candidate execution showing it breaks an axiom: " + name_of(d.ruled_out.begin()->first);
  const std::string of = std::to_string(d.showing);
  std::string axioms;
  for (const auto& [axiom, count] : d.ruled_out)
    axioms += (axioms.empty() ? "" : ", ") + std::string(name_of(axiom)) +
              (count == d.showing ? " (all " + of + ")" : " (" + std::to_string(count) + " of the " + of + ")");
  return "the model forbids " + outcome + ": each of the " + of + " candidate executions showing it breaks an axiom: " + axioms;
}

Expr comparison(const Condition& c) {
  Expr e;
  e.kind = c.equal ? Expr::Kind::Eq : Expr::Kind::Ne;
  e.lhs = Term{c.reg, 0};
  e.rhs = Term{"", c.value};
  return e;
}

// The conditions joined by And or Or; one condition is itself (so that messages read "r1 != 1").
Expr joined(const std::vector<Condition>& cs, Expr::Kind kind) {
  if (cs.size() == 1) return comparison(cs.front());
  Expr e;
  e.kind = kind;
  for (const Condition& c : cs) e.operands.push_back(comparison(c));
  return e;
}

}  // namespace

const char* name_of(Axiom a) {
  switch (a) {
    case Axiom::Causality: return "causality";
    case Axiom::Atomicity: return "atomicity";
    case Axiom::Coherence: return "coherence";
    case Axiom::SeqCst: return "seq_cst";
    case Axiom::NoThinAir: return "no_thin_air";
  }
  return "?";
}

const char* name_of(Reading r) { return r == Reading::Isa ? "ISA" : "artifact"; }

std::vector<std::string> explanation(const Decision& d) {
  std::vector<std::string> lines{d.reason};
  for (const std::string& w : d.witness) lines.push_back("  " + w);
  for (const std::string& u : d.unordered) lines.push_back("  " + u);
  for (const std::string& b : d.broken) lines.push_back("  " + b);
  if (d.coverage == Coverage::Every)
    lines.push_back("  note: every candidate execution that meets the preconditions shows it, allowed or not: the answer "
                    "does not depend on any ordering");
  if (d.candidates == 0)
    lines.push_back("  note: no execution of the test ends: in each, some thread waits forever (at a barrier that never "
                    "completes, or in a loop no value lets it leave)");
  if (d.coverage == Coverage::None && d.candidates > 0)
    lines.push_back("  note: no candidate execution shows it, allowed or not: the answer does not depend on any ordering "
                    "(is a value or a register mistyped?)");
  return lines;
}

std::vector<std::string> explanation(const Readings& both) {
  if (!both.differ()) return explanation(both.isa);
  std::vector<std::string> lines;
  for (Reading r : kReadings) {
    const std::vector<std::string> one = explanation(both.of(r));
    lines.push_back(std::string("the ") + name_of(r) + "'s reading: " + one.front());
    lines.insert(lines.end(), one.begin() + 1, one.end());
  }
  return lines;
}

Readings decide_readings(const Litmus& shape, const Expr& outcome) {
  const Shapes built = build_all(shape);
  const std::vector<Shape>& shapes = built.shapes;
  const Shape& first = shapes.front();  // every shape has the test's registers, in one order
  // A register no load sets throws here, whatever the executions.
  holds(outcome, first.registers, std::vector<std::uint32_t>(first.registers.size(), 0));
  bool readings_differ = false;
  for (const Shape& s : shapes) readings_differ = readings_differ || s.readings_differ;
  Readings both;
  std::size_t meeting = 0;  // candidates with values that meet the preconditions
  // Per reading, the executions the explanations speak of (each with its shape): the witness, one per
  // axiom ruling out.
  using Seen = std::pair<const Shape*, Execution>;
  std::array<std::optional<Seen>, 2> witness;
  std::array<std::map<Axiom, Seen>, 2> examples;
  std::optional<Seen> thin_air;  // a candidate whose rf and dep form a cycle
  for (const Shape& s : shapes)
    for_each_execution(s, [&](const Execution& x, const Broken& broken) {
      if (broken[0] == Axiom::NoThinAir) {  // no values: it shows no outcome, but may be why none does
        for (Reading r : kReadings) ++(r == Reading::Isa ? both.isa : both.artifact).candidates;
        if (!thin_air) thin_air = Seen{&s, x};
        return;
      }
      const bool meets = preconditions_hold(s, x);
      meeting += meets;
      const bool shows = meets && holds(outcome, s.registers, register_values(s, x));
      for (Reading r : kReadings) {
        const auto i = static_cast<std::size_t>(r);
        Decision& d = r == Reading::Isa ? both.isa : both.artifact;
        const std::optional<Axiom>& b = broken[i];
        ++d.candidates;
        if (!b) ++d.consistent;
        if (!shows) continue;
        ++d.showing;
        if (b) {
          ++d.ruled_out[*b];
          examples[i].emplace(*b, Seen{&s, x});
        } else if (!d.allowed) {
          d.allowed = true;
          d.witness = describe(s, x);
          witness[i] = Seen{&s, x};
        }
      }
    });
  for (Reading r : kReadings) {
    const auto i = static_cast<std::size_t>(r);
    Decision& d = r == Reading::Isa ? both.isa : both.artifact;
    // An outcome only a thin-air candidate could show (its values justify themselves, as in load
    // buffering with dependencies) is forbidden by no_thin_air, not decided by nothing.
    d.only_thin_air = d.showing == 0 && thin_air;
    if (d.only_thin_air) examples[i].emplace(Axiom::NoThinAir, *thin_air);
    d.reason = reason_of(d, to_string(outcome));
    d.coverage = d.showing == meeting && meeting > 0 ? Coverage::Every
                 : d.showing == 0 && !thin_air      ? Coverage::None
                                                    : Coverage::Some;
    // Where no pair is strong in one reading and not the other, the artifact's decision is the ISA's.
    if (r == Reading::Artifact && !readings_differ) {
      d.unordered = both.isa.unordered;
      d.broken = both.isa.broken;
      continue;
    }
    if (witness[i]) d.unordered = detail::unordered_because(*witness[i]->first, r, witness[i]->second);
    if (d.allowed) continue;  // the candidates it ruled out do not explain an outcome it allows
    for (const auto& [axiom, seen] : examples[i])
      for (std::string& line : detail::broken_edges(*seen.first, r, seen.second, axiom)) d.broken.push_back(std::move(line));
  }
  return both;
}

Decision decide(const Litmus& shape, const Expr& outcome, Reading reading) { return decide_readings(shape, outcome).of(reading); }

Readings decide_readings(const Litmus& shape) { return decide_readings(shape, joined(shape.weak, Expr::Kind::And)); }

Decision decide(const Litmus& shape, Reading reading) { return decide_readings(shape).of(reading); }

bool OutcomeSpace::allowed(const std::vector<std::string>& names, const std::vector<std::uint32_t>& vals, Reading reading) const {
  return answers(names, vals).by(reading);
}

OutcomeSpace::Allowed OutcomeSpace::answers(const std::vector<std::string>& names, const std::vector<std::uint32_t>& vals) const {
  const auto other = [&] {
    std::string text;
    for (const std::string& n : names) text += " " + n;
    return std::invalid_argument("an outcome of registers" + text + " is not one of this shape's (its registers differ)");
  };
  if (names.size() != registers.size() || vals.size() != names.size()) throw other();
  std::vector<std::uint32_t> ordered(registers.size());
  for (std::size_t k = 0; k < registers.size(); ++k) {
    const auto at = std::find(names.begin(), names.end(), registers[k]);
    if (at == names.end()) throw other();
    ordered[k] = vals[static_cast<std::size_t>(at - names.begin())];
  }
  const auto it = outcomes.find(ordered);
  return it == outcomes.end() ? Allowed{} : it->second;
}

const OutcomeSpace& outcome_space(const Litmus& shape) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<OutcomeSpace>> spaces;
  const std::string key = key_of(shape);
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = spaces.find(key); it != spaces.end()) return *it->second;
  }
  const Shapes built = build_all(shape);
  const std::vector<Shape>& shapes = built.shapes;
  auto space = std::make_unique<OutcomeSpace>();
  space->registers = shapes.front().registers;
  std::vector<std::set<std::uint32_t>> seen(space->registers.size());
  for (const Shape& s : shapes)
    for_each_execution(s, [&](const Execution& x, const Broken& broken) {
      if (broken[0] == Axiom::NoThinAir) return;  // no values: it shows no outcome
      const std::vector<std::uint32_t> values = register_values(s, x);
      for (std::size_t k = 0; k < values.size(); ++k) seen[k].insert(values[k]);
      OutcomeSpace::Allowed& allowed = space->outcomes.emplace(values, OutcomeSpace::Allowed{}).first->second;
      if (!preconditions_hold(s, x)) return;
      allowed.isa |= !broken[static_cast<std::size_t>(Reading::Isa)];
      allowed.artifact |= !broken[static_cast<std::size_t>(Reading::Artifact)];
    });
  for (const auto& v : seen) space->values.emplace_back(v.begin(), v.end());
  const std::lock_guard<std::mutex> lock(mutex);
  return *spaces.emplace(key, std::move(space)).first->second;  // a racing thread's equal space may win
}

bool permits(const Litmus& shape, const std::vector<Condition>& all_of, Reading reading) {
  return decide(shape, joined(all_of, Expr::Kind::And), reading).allowed;
}

bool asserts(const Litmus& shape, const std::vector<Condition>& any_of, Reading reading) {
  // Every allowed execution satisfies some condition = no allowed execution satisfies none.
  Expr none;
  none.kind = Expr::Kind::Not;
  none.operands = {joined(any_of, Expr::Kind::Or)};
  return !decide(shape, none, reading).allowed;
}

std::string instruction_text(const Litmus& l, const Op& op) {
  const auto semantics = [&] {
    if (op.sem == Sem::Weak) return std::string();
    return std::string(".") + name_of(op.sem) + (op.scope == Level::Thread ? "" : std::string(".") + name_of(op.scope));
  };
  const auto addr = [&] { return "[" + l.addresses.at(static_cast<std::size_t>(op.address)).name + "]"; };
  const auto operand = [&] {
    return op.value_reg.empty() ? std::to_string(op.value) : op.value_reg + (op.value ? " + " + std::to_string(op.value) : "");
  };
  const auto term = [](const Term& t) { return t.reg.empty() ? std::to_string(t.value) : t.reg; };
  switch (op.kind) {
    case OpKind::Load:
      return mnemonic(op) + semantics() + " " + op.reg + ", " + addr() +
             (op.spin ? " until " + std::to_string(op.must_read) : std::string());
    case OpKind::Store: return mnemonic(op) + semantics() + " " + addr() + ", " + operand();
    case OpKind::AtomAdd:
      return mnemonic(op) + semantics() + " " + (op.reg.empty() ? "" : op.reg + ", ") + addr() + ", " +
             (op.rmw == Rmw::Cas ? std::to_string(op.expected) + ", " : std::string()) + operand();
    case OpKind::FenceSc: return std::string("fence.sc.") + name_of(op.scope);
    case OpKind::FenceAcqRel: return std::string("fence.acq_rel.") + name_of(op.scope);
    case OpKind::AliasFence: return "fence.proxy.alias";
    case OpKind::ProxyFence: return std::string("fence.proxy.") + name_of(op.proxy);
    case OpKind::Label: return op.label + ":";
    case OpKind::Branch:
      if (op.branch_always) return "goto " + op.label;
      return std::string(op.branch_equal ? "beq " : "bne ") + term(op.lhs) + ", " + term(op.rhs) + ", " + op.label;
    case OpKind::Barrier:
      return (op.arrive ? "bar.cta.arrive " : "bar.cta.sync ") + std::to_string(op.value) +
             (op.resource >= 0 ? ", id " + std::to_string(op.resource) : op.resource_reg.empty() ? "" : ", id " + op.resource_reg) +
             (op.quorum >= 0 ? ", quorum " + std::to_string(op.quorum) : "");
  }
  return "?";
}

}  // namespace vmmcheck::model::ptx
