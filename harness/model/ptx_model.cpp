#include "model/ptx_model.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace vmmcheck::model::ptx {
namespace {

using namespace patterns::litmus;

constexpr int kMaxEvents = 64;

// A binary relation over the events of one execution, one bit row per event.
struct Rel {
  int n = 0;
  std::array<std::uint64_t, kMaxEvents> row{};

  explicit Rel(int events = 0) : n(events) {}
  bool has(int a, int b) const { return (row[a] >> b) & 1u; }
  void add(int a, int b) { row[a] |= std::uint64_t{1} << b; }
  bool empty() const {
    for (int i = 0; i < n; ++i)
      if (row[i]) return false;
    return true;
  }
};

Rel operator|(Rel a, const Rel& b) {
  for (int i = 0; i < a.n; ++i) a.row[i] |= b.row[i];
  return a;
}
Rel operator&(Rel a, const Rel& b) {
  for (int i = 0; i < a.n; ++i) a.row[i] &= b.row[i];
  return a;
}
bool subset(const Rel& a, const Rel& b) {
  for (int i = 0; i < a.n; ++i)
    if (a.row[i] & ~b.row[i]) return false;
  return true;
}
// a.b (relational join)
Rel join(const Rel& a, const Rel& b) {
  Rel out(a.n);
  for (int i = 0; i < a.n; ++i)
    for (int j = 0; j < a.n; ++j)
      if (a.has(i, j)) out.row[i] |= b.row[j];
  return out;
}
Rel transpose(const Rel& a) {
  Rel out(a.n);
  for (int i = 0; i < a.n; ++i)
    for (int j = 0; j < a.n; ++j)
      if (a.has(i, j)) out.add(j, i);
  return out;
}
Rel identity(int n) {
  Rel out(n);
  for (int i = 0; i < n; ++i) out.add(i, i);
  return out;
}
Rel plus(Rel a) {  // ^a
  for (int k = 0; k < a.n; ++k)
    for (int i = 0; i < a.n; ++i)
      if (a.has(i, k)) a.row[i] |= a.row[k];
  return a;
}
Rel star(const Rel& a) { return plus(a) | identity(a.n); }  // *a
Rel optional(const Rel& a) { return a | identity(a.n); }    // iden + a
bool irreflexive(const Rel& a) {
  for (int i = 0; i < a.n; ++i)
    if (a.has(i, i)) return false;
  return true;
}
bool acyclic(const Rel& a) { return irreflexive(plus(a)); }
// Domain and range restriction by an event set: s <: r :> t
Rel restrict(Rel r, std::uint64_t from, std::uint64_t to) {
  for (int i = 0; i < r.n; ++i) r.row[i] = ((from >> i) & 1u) ? (r.row[i] & to) : 0;
  return r;
}
Rel pairs_where(int n, const std::function<bool(int, int)>& holds) {
  Rel out(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (holds(i, j)) out.add(i, j);
  return out;
}

enum class Kind { Read, Write, FenceSc, FenceAcqRel, AliasFence };

struct Event {
  Kind kind = Kind::Read;
  int thread = 0;
  Sem sem = Sem::Weak;
  Level scope = Level::Thread;
  int address = -1;   // virtual address (memory events)
  int location = -1;  // the physical location it aliases
  std::uint32_t value = 0;  // Write: the value stored (an RMW's write: the operand, added to what it read)
  int rmw_read = -1;        // an RMW's write: its read
  std::string reg;          // Read: the register
  std::int64_t must_read = -1;
  std::string text;         // for witnesses
  bool boundary = false;    // an alias fence standing for an operation boundary
};

bool is_memory(const Event& e) { return e.kind == Kind::Read || e.kind == Kind::Write; }

// A scope instance: a thread, a CTA, a GPU or the system (ptx.als: sig Scope and subscope).
struct Instance {
  Level level;
  int gpu, cta, thread;
};

struct Shape {
  const Litmus* litmus = nullptr;
  std::vector<Event> events;
  std::uint64_t reads = 0, writes = 0, release_writes = 0, acquire_reads = 0, sc_fences = 0, fences = 0,
                alias_fences = 0, boundary_fences = 0, resident = 0, generic = 0;
  Rel po_plus, rmw, dep, api, same_alias, same_location, strong;
  std::vector<std::vector<int>> writes_at;  // per location
  std::vector<Instance> instances;

  int n() const { return static_cast<int>(events.size()); }
  const Thread& thread_of(const Event& e) const { return litmus->threads[static_cast<std::size_t>(e.thread)]; }
  Instance instance_of(const Event& e) const {
    const Thread& t = thread_of(e);
    return {e.scope, t.gpu, t.cta, e.thread};
  }
};

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

std::string op_text(const Thread& t, const Op& op, const Litmus& l) {
  std::ostringstream o;
  const auto addr = [&] { return l.addresses.at(static_cast<std::size_t>(op.address)).name; };
  o << t.name << ": ";
  switch (op.kind) {
    case OpKind::Load: o << "ld " << op.reg << " = [" << addr() << "]"; break;
    case OpKind::Store: o << "st [" << addr() << "] = " << op.value; break;
    case OpKind::AtomAdd: o << "atom.add " << op.reg << " = [" << addr() << "] += " << op.value; break;
    case OpKind::FenceSc: o << "fence.sc"; break;
    case OpKind::FenceAcqRel: o << "fence.acq_rel"; break;
    case OpKind::AliasFence: o << "fence.proxy.alias"; break;
  }
  return o.str();
}

Shape build(const Litmus& l) {
  Shape s;
  s.litmus = &l;
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
  for (int t = 0; t < threads; ++t) {
    const Thread& th = l.threads[static_cast<std::size_t>(t)];
    first[static_cast<std::size_t>(t)] = static_cast<int>(s.events.size());
    const auto boundary_fence = [&](const char* where) {
      Event e;
      e.kind = Kind::AliasFence;
      e.thread = t;
      e.boundary = true;
      e.text = th.name + ": operation boundary (" + where + ")";
      s.events.push_back(e);
    };
    if (starts_operation[static_cast<std::size_t>(t)]) boundary_fence("start");
    for (const Op& op : th.ops) {
      const bool access = op.kind == OpKind::Load || op.kind == OpKind::Store || op.kind == OpKind::AtomAdd;
      if (access && (op.address < 0 || op.address >= static_cast<int>(l.addresses.size())))
        throw std::invalid_argument(l.name + ": " + th.name + " accesses an unknown address");
      Event e;
      e.thread = t;
      e.sem = op.sem;
      e.scope = op.scope;
      e.text = op_text(th, op, l);
      if (access) {
        e.address = op.address;
        e.location = l.addresses[static_cast<std::size_t>(op.address)].location;
        if (op.sem != Sem::Weak && op.scope == Level::Thread)
          throw std::invalid_argument(l.name + ": a strong access needs a scope (" + e.text + ")");
      }
      switch (op.kind) {
        case OpKind::Load:
          e.kind = Kind::Read;
          e.reg = op.reg;
          e.must_read = op.must_read;
          s.events.push_back(e);
          break;
        case OpKind::Store:
          e.kind = Kind::Write;
          e.value = op.value;
          s.events.push_back(e);
          break;
        case OpKind::AtomAdd: {
          // ptx.als / alloy_emitter: an atom is a read and a write joined by rmw (and dep); acq_rel makes
          // the read an acquire and the write a release.
          Event r = e, w = e;
          r.kind = Kind::Read;
          r.reg = op.reg;
          r.must_read = op.must_read;
          r.sem = (op.sem == Sem::Acquire || op.sem == Sem::AcqRel) ? Sem::Acquire : Sem::Relaxed;
          w.kind = Kind::Write;
          w.value = op.value;
          w.sem = (op.sem == Sem::Release || op.sem == Sem::AcqRel) ? Sem::Release : Sem::Relaxed;
          w.rmw_read = static_cast<int>(s.events.size());
          s.events.push_back(r);
          s.events.push_back(w);
          break;
        }
        case OpKind::FenceSc:
        case OpKind::FenceAcqRel:
          // ptx.als: sig Fence { } { scope not in Thread }
          if (op.scope == Level::Thread) throw std::invalid_argument(l.name + ": a fence needs a scope");
          e.kind = op.kind == OpKind::FenceSc ? Kind::FenceSc : Kind::FenceAcqRel;
          s.events.push_back(e);
          break;
        case OpKind::AliasFence:
          e.kind = Kind::AliasFence;
          s.events.push_back(e);
          break;
      }
    }
    if (ends_operation[static_cast<std::size_t>(t)]) boundary_fence("end");
    last[static_cast<std::size_t>(t)] = static_cast<int>(s.events.size()) - 1;
  }
  const int n = s.n();
  if (n > kMaxEvents) throw std::invalid_argument(l.name + ": more than 64 events");

  for (int i = 0; i < n; ++i) {
    const Event& e = s.events[static_cast<std::size_t>(i)];
    const std::uint64_t bit = std::uint64_t{1} << i;
    if (e.kind == Kind::Read) s.reads |= bit;
    if (e.kind == Kind::Write) s.writes |= bit;
    if (is_memory(e)) s.generic |= bit;  // every memory access here is through the generic proxy
    if (e.kind == Kind::Write && e.sem == Sem::Release) s.release_writes |= bit;   // sig WriteRelease
    if (e.kind == Kind::Read && e.sem == Sem::Acquire) s.acquire_reads |= bit;     // sig ReadAcquire
    if (e.kind == Kind::FenceSc) s.sc_fences |= bit;
    if (e.kind == Kind::FenceSc || e.kind == Kind::FenceAcqRel) s.fences |= bit;  // Release/AcquireFences
    if (e.kind == Kind::AliasFence) s.alias_fences |= bit;
    if (e.kind == Kind::AliasFence && e.boundary) s.boundary_fences |= bit;
    if (l.threads[static_cast<std::size_t>(e.thread)].resident) s.resident |= bit;
  }
  const auto& ev = s.events;
  s.po_plus = pairs_where(n, [&](int a, int b) { return ev[a].thread == ev[b].thread && a < b; });
  s.rmw = pairs_where(n, [&](int a, int b) { return ev[b].rmw_read == a; });
  s.dep = s.rmw;  // fact { dep in ^po }: the only dependencies here are an RMW's read to its write
  s.same_alias = pairs_where(n, [&](int a, int b) { return is_memory(ev[a]) && is_memory(ev[b]) && ev[a].address == ev[b].address; });
  s.same_location =
      pairs_where(n, [&](int a, int b) { return is_memory(ev[a]) && is_memory(ev[b]) && ev[a].location == ev[b].location; });
  // strong_r: symmetric[scope.~scopes] & proxy.~proxy -- each in the other's scope, one proxy. Only
  // memory operations have a proxy in ptx.als, so fences are never "strong" with anything.
  s.strong = pairs_where(n, [&](int a, int b) {
    if (!is_memory(ev[a]) || !is_memory(ev[b])) return false;
    return contains(s.instance_of(ev[a]), thread_instance(l, ev[b].thread)) &&
           contains(s.instance_of(ev[b]), thread_instance(l, ev[a].thread));
  });
  s.api = Rel(n);
  for (const auto& [a, b] : l.boundaries) s.api.add(last[static_cast<std::size_t>(a)], first[static_cast<std::size_t>(b)]);

  int locations = 0;
  for (const Address& a : l.addresses) locations = std::max(locations, a.location + 1);
  s.writes_at.resize(static_cast<std::size_t>(locations));
  for (int i = 0; i < n; ++i)
    if (ev[i].kind == Kind::Write) s.writes_at[static_cast<std::size_t>(ev[i].location)].push_back(i);
  for (int t = 0; t < threads; ++t) {
    const Thread& th = l.threads[static_cast<std::size_t>(t)];
    for (Level lv : {Level::Thread, Level::Cta, Level::Gpu, Level::Sys}) s.instances.push_back({lv, th.gpu, th.cta, t});
  }
  return s;
}

// Every strict partial order (transitive, irreflexive) over `items`, as relations over all events, in
// which each of `bags` is totally ordered (ptx.als: fact co / fact sc, "total[...]").
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
// contains s and whose thread is inside s, optionally split by virtual address (co) or not (sc).
std::vector<std::vector<int>> bags_of(const Shape& s, const std::vector<int>& set, bool by_address) {
  std::vector<std::vector<int>> bags;
  for (const Instance& inst : s.instances) {
    std::map<int, std::vector<int>> by;
    for (int e : set) {
      const Event& ev = s.events[static_cast<std::size_t>(e)];
      if (contains(s.instance_of(ev), inst) && contains(inst, thread_instance(*s.litmus, ev.thread)))
        by[by_address ? ev.address : 0].push_back(e);
    }
    for (auto& [key, bag] : by)
      if (bag.size() > 1) bags.push_back(bag);
  }
  return bags;
}

struct Execution {
  std::vector<int> source;  // per event: for a read, the write it reads from, or -1 (initial value)
  Rel co, sc;
  std::vector<std::uint32_t> value;  // per event: the value read or written
};

// Checks the axioms in the order of pred ptx_mm; returns the first one broken, or none.
std::optional<Axiom> broken_axiom(const Shape& s, const Execution& x) {
  const int n = s.n();
  const auto& ev = s.events;
  Rel rf(n);
  for (int r = 0; r < n; ++r)
    if (ev[r].kind == Kind::Read && x.source[r] >= 0) rf.add(x.source[r], r);
  // no_thin_air: acyclic[rf + dep]
  if (!acyclic(rf | s.dep)) return Axiom::NoThinAir;

  const Rel& co = x.co;  // a strict partial order already: ^co = co
  // fr: ~rf.^co, plus reads of the initial value before every write to their location
  Rel fr = join(transpose(rf), co);
  for (int r = 0; r < n; ++r)
    if (ev[r].kind == Kind::Read && x.source[r] < 0)
      for (int w : s.writes_at[static_cast<std::size_t>(ev[r].location)]) fr.add(r, w);
  const Rel com = rf | co | fr;

  const Rel po_loc = s.po_plus & s.same_alias;  // program order, same virtual address
  const Rel observation = (rf & s.strong) | s.rmw;
  const Rel release_sequence = (restrict(optional(po_loc), s.release_writes, s.writes) & s.strong) |
                               (restrict(s.po_plus, s.fences, s.writes) & s.strong);
  const Rel acquire_sequence = (restrict(optional(po_loc), s.reads, s.acquire_reads) & s.strong) |
                               (restrict(s.po_plus, s.reads, s.fences) & s.strong);
  const Rel sync = join(join(release_sequence, plus(observation)), acquire_sequence) & s.strong;

  // cause_base: ^po + *po.^((sc + sync).*po); operation boundaries (api) order like sync.
  const Rel po_star = optional(s.po_plus);
  const Rel cause_base = s.po_plus | join(po_star, plus(join(x.sc | sync | s.api, po_star)));
  // proxy_preserved_cause_base, generic proxy only (no surface, texture or constant proxy fences):
  //   same_alias[GenericOps <: cause_base :> GenericOps]                  (one virtual address)
  //   + same_location[GenericOps <: cause_base.(AliasFence <: cause_base) :> GenericOps]
  //                                                   (an alias fence on the path: any alias of the location)
  // The term same_alias[cause_base & same_block_r & same_proxy_r] adds nothing with one proxy.
  // The resident-grid clause (our extension, guide 4.17.5.3): the alias fence an operation boundary
  // stands for does not reach a grid that was already resident before the boundary.
  const Rel through_alias_fence =
      join(cause_base, restrict(cause_base, s.alias_fences & ~s.boundary_fences, ~std::uint64_t{0})) |
      join(cause_base, restrict(cause_base, s.boundary_fences, ~s.resident));
  const Rel preserved = (restrict(cause_base, s.generic, s.generic) & s.same_alias) |
                        (restrict(through_alias_fence, s.generic, s.generic) & s.same_location);
  const Rel cause = join(optional(observation), preserved);

  // causality: irreflexive[optional[com].cause]
  if (!irreflexive(join(optional(com), cause))) return Axiom::Causality;
  // atomicity: no strong[fr].(strong[co]) & rmw
  if (!(join(fr & s.strong, co & s.strong) & s.rmw).empty()) return Axiom::Atomicity;
  // coherence: same_location[Write <: cause :> Write] in ^co
  if (!subset(restrict(cause, s.writes, s.writes) & s.same_location, co)) return Axiom::Coherence;
  // seq_cst: FenceSC <: cause :> FenceSC in sc
  if (!subset(restrict(cause, s.sc_fences, s.sc_fences), x.sc)) return Axiom::SeqCst;
  return std::nullopt;
}

// Values read and written, from the reads-from choice (rf + dep is acyclic when this is called).
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
        if (src < 0) x.value[e] = 0;
        else if (known[src]) x.value[e] = x.value[src];
        else continue;
      } else if (ev.kind == Kind::Write) {
        if (ev.rmw_read >= 0) {
          if (!known[ev.rmw_read]) continue;
          x.value[e] = x.value[ev.rmw_read] + ev.value;
        } else {
          x.value[e] = ev.value;
        }
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

std::uint32_t reg_value(const Shape& s, const Execution& x, const std::string& reg) {
  for (int e = 0; e < s.n(); ++e)
    if (s.events[static_cast<std::size_t>(e)].kind == Kind::Read && s.events[static_cast<std::size_t>(e)].reg == reg)
      return x.value[e];
  throw std::invalid_argument(s.litmus->name + ": no register " + reg);
}

bool holds(const Shape& s, const Execution& x, const Condition& c) {
  return (reg_value(s, x, c.reg) == c.value) == c.equal;
}

bool preconditions_hold(const Shape& s, const Execution& x) {
  for (int e = 0; e < s.n(); ++e) {
    const Event& ev = s.events[static_cast<std::size_t>(e)];
    if (ev.kind == Kind::Read && ev.must_read >= 0 && x.value[e] != static_cast<std::uint32_t>(ev.must_read)) return false;
  }
  return true;
}

// Calls visit(execution, broken axiom) for every candidate execution. A candidate whose reads-from and
// dependencies form a cycle has no values: it is visited with NoThinAir and must not be evaluated.
using Visit = std::function<void(const Execution&, std::optional<Axiom>)>;
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
  // co per location: partial orders total on each (virtual address, scope instance) bag.
  std::vector<std::vector<Rel>> co_choices;
  for (const auto& writes : s.writes_at) co_choices.push_back(partial_orders(n, writes, bags_of(s, writes, true)));
  std::vector<int> sc_fences;
  for (int e = 0; e < n; ++e)
    if (s.events[static_cast<std::size_t>(e)].kind == Kind::FenceSc) sc_fences.push_back(e);
  const std::vector<Rel> sc_choices = partial_orders(n, sc_fences, bags_of(s, sc_fences, false));

  Execution x;
  x.source.assign(static_cast<std::size_t>(n), -1);
  std::vector<std::size_t> pick(read_events.size(), 0), co_pick(co_choices.size(), 0);
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
        visit(x, Axiom::NoThinAir);
        continue;
      }
      visit(x, broken_axiom(s, x));
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

std::vector<std::string> describe(const Shape& s, const Execution& x) {
  std::vector<std::string> lines;
  for (int e = 0; e < s.n(); ++e) {
    const Event& ev = s.events[static_cast<std::size_t>(e)];
    if (ev.kind != Kind::Read) continue;
    const int src = x.source[e];
    lines.push_back(ev.text + " reads " + std::to_string(x.value[e]) + " from " +
                    (src < 0 ? std::string("the initial value") : "\"" + s.events[static_cast<std::size_t>(src)].text + "\""));
  }
  return lines;
}

std::string condition_text(const std::vector<Condition>& cs, const char* join_word) {
  std::string out;
  for (const Condition& c : cs)
    out += (out.empty() ? "" : std::string(" ") + join_word + " ") + c.reg + (c.equal ? " == " : " != ") + std::to_string(c.value);
  return out;
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

Decision decide(const Litmus& shape) {
  const Shape s = build(shape);
  Decision d;
  for_each_execution(s, [&](const Execution& x, std::optional<Axiom> broken) {
    ++d.candidates;
    if (broken == Axiom::NoThinAir) return;  // no values: it shows no outcome
    if (!broken) ++d.consistent;
    if (!preconditions_hold(s, x)) return;
    for (const Condition& c : shape.weak)
      if (!holds(s, x, c)) return;
    ++d.showing;
    if (broken) {
      ++d.ruled_out[*broken];
    } else if (!d.allowed) {
      d.allowed = true;
      d.witness = describe(s, x);
    }
  });
  const std::string outcome = condition_text(shape.weak, "and");
  if (d.allowed) {
    d.reason = "the model allows " + outcome + ": an execution that shows it breaks no axiom";
  } else if (d.showing == 0) {
    d.reason = "no candidate execution shows " + outcome;
  } else {
    std::string axioms;
    for (const auto& [axiom, count] : d.ruled_out)
      axioms += (axioms.empty() ? "" : ", ") + std::string(name_of(axiom)) + " (" + std::to_string(count) + ")";
    d.reason = "the model forbids " + outcome + ": every candidate execution showing it breaks an axiom: " + axioms;
  }
  return d;
}

bool permits(const Litmus& shape, const std::vector<Condition>& all_of) {
  Litmus l = shape;
  l.weak = all_of;
  return decide(l).allowed;
}

bool asserts(const Litmus& shape, const std::vector<Condition>& any_of) {
  // Every allowed execution satisfies some condition = no allowed execution violates them all.
  const Shape s = build(shape);
  bool counterexample = false;
  for_each_execution(s, [&](const Execution& x, std::optional<Axiom> broken) {
    if (broken || counterexample || !preconditions_hold(s, x)) return;
    bool any = false;
    for (const Condition& c : any_of) any = any || holds(s, x, c);
    if (!any) counterexample = true;
  });
  return !counterexample;
}

}  // namespace vmmcheck::model::ptx
