#pragma once
// The model's inside, shared by its two halves: ptx_model.cpp builds a shape's events and relations and
// checks each candidate execution against the axioms; ptx_explain.cpp says, for one execution, which
// cycle breaks an axiom or why nothing synchronizes. Not for use outside harness/model/ptx_*.cpp.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/ptx_model.hpp"

namespace vmmcheck::model::ptx::detail {

using namespace patterns::litmus;

inline constexpr int kMaxEvents = kMostEvents;  // vocabulary/shape.hpp

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

inline Rel operator|(Rel a, const Rel& b) {
  for (int i = 0; i < a.n; ++i) a.row[i] |= b.row[i];
  return a;
}
inline Rel operator&(Rel a, const Rel& b) {
  for (int i = 0; i < a.n; ++i) a.row[i] &= b.row[i];
  return a;
}
inline bool subset(const Rel& a, const Rel& b) {
  for (int i = 0; i < a.n; ++i)
    if (a.row[i] & ~b.row[i]) return false;
  return true;
}
// a.b (relational join)
inline Rel join(const Rel& a, const Rel& b) {
  Rel out(a.n);
  for (int i = 0; i < a.n; ++i)
    for (int j = 0; j < a.n; ++j)
      if (a.has(i, j)) out.row[i] |= b.row[j];
  return out;
}
inline Rel transpose(const Rel& a) {
  Rel out(a.n);
  for (int i = 0; i < a.n; ++i)
    for (int j = 0; j < a.n; ++j)
      if (a.has(i, j)) out.add(j, i);
  return out;
}
inline Rel identity(int n) {
  Rel out(n);
  for (int i = 0; i < n; ++i) out.add(i, i);
  return out;
}
inline Rel plus(Rel a) {  // ^a
  for (int k = 0; k < a.n; ++k)
    for (int i = 0; i < a.n; ++i)
      if (a.has(i, k)) a.row[i] |= a.row[k];
  return a;
}
inline Rel star(const Rel& a) { return plus(a) | identity(a.n); }  // *a
inline Rel optional(const Rel& a) { return a | identity(a.n); }    // iden + a
inline bool irreflexive(const Rel& a) {
  for (int i = 0; i < a.n; ++i)
    if (a.has(i, i)) return false;
  return true;
}
inline bool acyclic(const Rel& a) { return irreflexive(plus(a)); }
// Domain and range restriction by an event set: s <: r :> t
inline Rel restrict(Rel r, std::uint64_t from, std::uint64_t to) {
  for (int i = 0; i < r.n; ++i) r.row[i] = ((from >> i) & 1u) ? (r.row[i] & to) : 0;
  return r;
}
inline Rel pairs_where(int n, const std::function<bool(int, int)>& related) {
  Rel out(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (related(i, j)) out.add(i, j);
  return out;
}


enum class Kind { Read, Write, FenceSc, FenceAcqRel, AliasFence, ProxyFence, Barrier };

struct Event {
  Kind kind = Kind::Read;
  int thread = 0;
  Sem sem = Sem::Weak;
  Level scope = Level::Thread;
  Proxy proxy = Proxy::Generic;  // memory events: the path they take; ProxyFence: the proxy it fences
  int address = -1;   // the virtual address (memory events; see Places)
  int location = -1;  // the physical location behind it
  std::uint32_t value = 0;  // Write: the value stored (an RMW's write: the operand, added to what it read)
  int rmw_read = -1;        // an RMW's write: its read
  int operand_read = -1;    // a Write whose operand is a register: the read that set it
  bool reduction = false;   // a red's read: it sets no register and forms no acquire pattern
  std::string reg;          // Read: the register
  std::int64_t must_read = -1;
  std::string text;         // for witnesses
  bool boundary = false;    // an alias fence standing for an operation boundary
  bool exchange = false;    // an RMW's write that writes its operand (exch, a cas that succeeds), not read + operand
  // An atom.cas's read: the value it compares with, and whether this shape is the one where it matched
  // (then its write follows) or the one where it did not (a read only). -1: no cas.
  std::int64_t cas_expected = -1;
  bool cas_succeeds = false;
  // Barrier: a named one meets those of its instance (value) and resource id only (operand_read: the read
  // whose value is the id), and at least `quorum` of them (-1: all) must meet.
  bool named = false;
  bool arrive = false;  // bar.cta.arrive: no barrier is ordered before what follows it
  std::int64_t resource = -1, quorum = -1;
};

inline bool is_memory(const Event& e) { return e.kind == Kind::Read || e.kind == Kind::Write; }
// fence.sc and fence.acq_rel: the ISA's memory fence operations (ptx.als: sig Fence).
inline bool is_memory_fence(const Event& e) { return e.kind == Kind::FenceSc || e.kind == Kind::FenceAcqRel; }

// A scope instance: a thread, a CTA, a GPU or the system (ptx.als: sig Scope and subscope).
struct Instance {
  Level level;
  int gpu, cta, thread;
};

// Where memory operations go (ptx.als: address, aliases). A synonym (Address::same_as) is its target
// itself -- the artifact writes `.texref t virtually aliases x` as `fun t : Address { x }` -- so accesses
// through either are to one virtual address; physical aliases are distinct addresses of one location. A

struct Shape {
  const Litmus* litmus = nullptr;
  std::vector<Event> events;
  std::uint64_t reads = 0, writes = 0, strong_reads = 0, strong_writes = 0, reductions = 0, release_writes = 0, acquire_reads = 0,
                sc_fences = 0, fences = 0, alias_fences = 0, boundary_fences = 0, resident = 0, generic = 0;
  Rel po_plus, rmw, dep, api, same_alias, same_location, same_block, same_proxy, proxy_fence_ops;
  // Barriers (docs/litmus-model.md, "Barriers"): each thread's k-th bar.cta.sync of an id with every other
  // thread's k-th of that id in its CTA, both ways (Dat3M's sync_barrier = syncbar & scta). Named barriers'
  // pairs depend on the execution (their ids may be read; a quorum picks who meets): barrier_choices.
  Rel barrier_sync;
  std::vector<int> barrier_occurrence;  // per event: a barrier's k (its thread's earlier ones of its kind and id)
  // What the shape's paths assume of the values (the branches it takes, OpKind::Branch): each operand a
  // read's value (event) or an integer (value).
  struct Operand {
    int event = -1;
    std::uint32_t value = 0;
  };
  struct Assume {
    Operand lhs, rhs;
    bool equal = true;
  };
  std::vector<Assume> assumes;
  // Moral strength and what rests on it, per reading (ptx_model.hpp): fixed by the program, not by the
  // execution. The ISA's is the artifact's less the memory pairs at two virtual addresses.
  struct Strength {
    Rel strong, release_sequence, acquire_sequence;
  };
  std::array<Strength, 2> strength;
  bool readings_differ = false;  // some pair is strong in the artifact's reading and not in the ISA's
  const Strength& of(Reading r) const { return strength[static_cast<std::size_t>(r)]; }
  std::vector<std::vector<int>> writes_at;  // per location
  std::vector<std::uint32_t> initial;       // per location: its value before the test
  std::vector<Instance> instances;
  std::vector<std::string> registers;  // each register a load sets ...
  std::vector<int> register_reads;     // ... and the read whose value it ends with,
  std::vector<int> final_locations;    // then each final value's (Litmus::finals) location

  int n() const { return static_cast<int>(events.size()); }
  const Thread& thread_of(const Event& e) const { return litmus->threads[static_cast<std::size_t>(e.thread)]; }
  Instance instance_of(const Event& e) const {
    const Thread& t = thread_of(e);
    return {e.scope, t.gpu, t.cta, e.thread};
  }
};

// Does scope instance `big` contain `small`? (ptx.als: subscope, scopes)
bool contains(const Instance& big, const Instance& small);
Instance thread_instance(const Litmus& l, int t);
// Each operation's scope includes the other's thread (ptx.als: symmetric[scope.~scopes]).
bool mutually_scoped(const Shape& s, const Event& a, const Event& b);

struct Execution {
  std::vector<int> source;  // per event: for a read, the write it reads from, or -1 (initial value)
  Rel co, sc;
  Rel barrier_sync;  // Shape::barrier_sync and the named barriers' pairs in this execution
  std::vector<std::uint32_t> value;  // per event: the value read or written
};

// The relations of one candidate execution that the axioms read (ptx.als, pred ptx_mm), moral strength
// as one reading has it.
struct Relations {
  Rel rf, fr, com;        // reads-from, from-reads (a read before a write coherence-after its source), rf + co + fr
  Rel observation;        // strong rf, and rmw
  Rel sync;               // a release pattern observed by an acquire pattern, both morally strong
  Rel cause_base;         // ^(po + sc + sync + api)
  Rel cause;              // optional[observation].proxy_preserved[cause_base]
};
Relations relations_of(const Shape& s, const Shape::Strength& k, const Execution& x);
// proxy_preserved_cause_base of ptx.als (ptx_model.cpp says its terms).
Rel proxy_preserved(const Shape& s, const Rel& cb);

// ptx_explain.cpp. The edges that break `axiom` in `x`, one line per edge between instructions as
// written, for people; empty if it does not break it.
std::vector<std::string> broken_edges(const Shape& s, Reading reading, const Execution& x, Axiom axiom);
// Why the orderings the program sets up do not order `x`'s accesses: a release and an acquire joined by
// rf that do not synchronize, or an order between two accesses of one location that does not carry over
// to them (two virtual addresses, two proxies); one line each, for people.
std::vector<std::string> unordered_because(const Shape& s, Reading reading, const Execution& x);

}  // namespace vmmcheck::model::ptx::detail
