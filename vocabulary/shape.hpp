#pragma once
// A litmus shape in the terms of the PTX memory consistency model with proxies: threads placed in CTAs
// and GPUs, each a list of memory operations and fences on virtual addresses that alias physical
// locations, and the outcome asked about. Plain data: each memory-model pattern maps its typed case to
// one (litmus_of in patterns/<pattern>.hpp), and harness/model/ptx_model.cpp decides it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vocabulary/axes.hpp"

namespace vmmcheck::patterns::litmus {

// PTX scopes, narrowest first; Thread is the scope of a weak (or volatile-free, non-atomic) access.
enum class Level : int { Thread, Cta, Gpu, Sys };

enum class Sem : int {
  Weak,     // ld / st (ld.weak, st.weak)
  Relaxed,  // ld.relaxed / st.relaxed (and ld.volatile: relaxed at sys scope)
  Acquire,  // ld.acquire
  Release,  // st.release
  AcqRel,   // atom.acq_rel
};

enum class OpKind : int {
  Load,        // reg = [address]
  Store,       // [address] = value
  AtomAdd,     // reg = [address]; [address] = reg + value (one read-modify-write); red: no reg. Op::rmw
               // says the operation: add, exch (write value) or cas (write value if reg == Op::expected)
  FenceSc,     // fence.sc.<scope>
  FenceAcqRel, // fence.acq_rel.<scope>
  AliasFence,  // fence.proxy.alias (fence.alias)
  ProxyFence,  // fence.proxy.<proxy>: Op::proxy says which
  Barrier,     // bar.cta.sync <id>: Op::value is the barrier's id; every thread of the CTA that reaches its
               // k-th barrier of that id meets the others' k-th there (docs/litmus-model.md, "Barriers").
               // A named barrier (Op::resource, Op::quorum) meets only those of its resource id.
  Label,       // `L:` -- a branch target (Op::label); no event
  Branch,      // `beq a, b, L` / `bne a, b, L` / `goto L`: jump to Op::label if Op::lhs and Op::rhs are equal
               // (branch_equal), differ, or always (branch_always); no event. The model decides every path
               // (docs/litmus-model.md, "Branches and loops").
};

// The operation of an atom (OpKind::AtomAdd): what its write writes.
enum class Rmw : int {
  Add,   // atom.add / red.add: what it read plus the operand
  Exch,  // atom.exch: the operand
  Cas,   // atom.cas: the operand, if it read Op::expected; otherwise it writes nothing (a read only)
};

// The path a memory operation takes (PTX ISA, "Proxies"): ld/st/atom/red the generic proxy, tld the
// texture proxy, suld/sust/suatom/sured the surface proxy, ldc the constant proxy.
enum class Proxy : int { Generic, Texture, Surface, Constant };

// Names as PTX and the litmus language spell them (ld.<sem>.<scope>; Thread: "thread", a weak access's).
constexpr const char* name_of(Level l) {
  switch (l) {
    case Level::Thread: return "thread";
    case Level::Cta: return "cta";
    case Level::Gpu: return "gpu";
    case Level::Sys: return "sys";
  }
  return "?";
}
constexpr const char* name_of(Sem s) {
  switch (s) {
    case Sem::Weak: return "weak";
    case Sem::Relaxed: return "relaxed";
    case Sem::Acquire: return "acquire";
    case Sem::Release: return "release";
    case Sem::AcqRel: return "acq_rel";
  }
  return "?";
}

// The proxy's name as PTX and the litmus language spell it (fence.proxy.<name>).
constexpr const char* name_of(Proxy p) {
  switch (p) {
    case Proxy::Generic: return "generic";
    case Proxy::Texture: return "texture";
    case Proxy::Surface: return "surface";
    case Proxy::Constant: return "constant";
  }
  return "?";
}

// A register or an integer: an operand of a branch, a term of a condition.
struct Term {
  std::string reg;           // a register; empty: the integer `value`
  std::uint32_t value = 0;
};

struct Op {
  OpKind kind = OpKind::Load;
  Sem sem = Sem::Weak;
  Level scope = Level::Thread;  // Thread for weak accesses
  int address = -1;             // index into Litmus::addresses
  std::uint32_t value = 0;      // Store: the value; AtomAdd: the operand
  std::string reg;              // Load, AtomAdd: the register it sets
  // Load, AtomAdd: a precondition on the value read ("ld.acquire r0, [flag] == 1"); -1: none.
  std::int64_t must_read = -1;
  // Load with must_read: spin until it reads that value ("ld.acquire r0, [flag] until 1"). The model
  // decides the final read, the one that returned must_read (earlier reads of the loop return other
  // values and order nothing: a failed acquire synchronizes with no store); a GPU kernel repeats the load
  // within a bound and records reaching it as its own outcome (kSpinBoundReached).
  bool spin = false;
  // Memory operations: the proxy they go through. ProxyFence: the proxy it fences.
  Proxy proxy = Proxy::Generic;
  // Load: ld.global.nc, the non-coherent read-only path, written "ld.nc" (proxy Texture). The PTX ISA puts
  // it with the texture accesses ("the memory consistency model does not apply to texture (including
  // ld.global.nc) and surface accesses"): the model reads it as a texture-proxy read of the address it
  // names, which no generic write is ordered before without a texture proxy fence (docs/litmus-model.md).
  bool nc = false;
  // Store, AtomAdd: the operand is this register's value (a data dependency on the load that set it)
  // plus `value` (`st [t], r0 + 1`; usually 0); empty: `value`.
  std::string value_reg;
  // AtomAdd: which read-modify-write; Cas: the value it compares with.
  Rmw rmw = Rmw::Add;
  std::uint32_t expected = 0;
  // Barrier, named (Dat3M's NamedBarrier: `bar.cta.sync 1, id 2, quorum 2`): `value` is the barrier's
  // instance, `resource` the logical barrier it meets others on (-1: a barrier of its instance only), or
  // `resource_reg` the register holding it; `quorum` the fewest threads that must meet on it (-1: all that
  // reach it). docs/litmus-model.md, "Barriers".
  std::int64_t resource = -1;
  std::string resource_reg;
  std::int64_t quorum = -1;
  // Barrier: bar.cta.arrive -- it counts as met but does not wait: what precedes it is ordered before what
  // follows the barriers that wait (bar.cta.sync) with it, and nothing of theirs before what follows it.
  bool arrive = false;
  // Label: its name; Branch: its target, and what it compares.
  std::string label;
  Term lhs, rhs;
  bool branch_equal = true, branch_always = false;
};

// The value a spin-until load's register holds when its bound was reached before it read its value: no
// litmus value is this large (values are small integers), so it is an outcome of its own ("timeout").
inline constexpr std::uint32_t kSpinBoundReached = 0xFFFFFFFFu;

struct Thread {
  std::string name;  // e.g. "writer"
  int gpu = 0;
  int cta = 0;
  std::vector<Op> ops;
  // Part of a grid already resident on the GPU before the operations the boundaries order: the
  // resident-grid clause (guide 4.17.5.3) -- an operation boundary does not make aliases coherent for it.
  bool resident = false;
  int lane = 0;  // litmus files: N of dD.bB.tN (thread within its CTA)
};

// A virtual address and the physical location it maps (aliases share a location).
struct Address {
  std::string name;  // e.g. "data_A"
  int location = 0;
  // A virtual synonym: the same virtual address as addresses[same_as] under another name (litmus
  // files: ".texref t virtually aliases x"); -1: an address of its own.
  int same_as = -1;
  Proxy declared = Proxy::Generic;  // .texref: Texture, .surfref: Surface
  bool shared = false;              // .shared (CTA shared memory); .global otherwise
  // Its mapping lies one allocation granularity into a reserved range one granularity larger (litmus
  // files: ".global y physically aliases x offset"; the hand-written families' "offset" view). To the
  // model a virtual address like any other; on the GPU a mapping placed so.
  bool offset_view = false;
  // The location's value before the test (litmus files: ".global x = 2;"); its aliases and synonyms
  // carry the same.
  std::uint32_t initial = 0;
};

// An outcome: every listed register holds (or, with `equal` false, does not hold) its value.
struct Condition {
  std::string reg;
  std::uint32_t value = 0;
  bool equal = true;
};

// A litmus file's condition: comparisons of registers and integers joined by &&, || and not.
struct Expr {
  enum class Kind : int { Eq, Ne, And, Or, Not };
  Kind kind = Kind::Eq;
  Term lhs, rhs;                // Eq, Ne
  std::vector<Expr> operands;   // And, Or: two; Not: one
};

struct Litmus {
  std::string name;
  std::vector<Address> addresses;
  std::vector<Thread> threads;
  // Operation boundaries: (earlier, later) thread pairs whose device operations are ordered by stream
  // order, an event, host synchronisation or a graph edge (harness/model/ptx_model.cpp says how).
  std::vector<std::pair<int, int>> boundaries;
  // The weak outcome the case asks about: a conjunction.
  std::vector<Condition> weak;
  // Addresses whose final value an outcome holds, as a register named final_register(name) ("[x]"): the
  // value of the last write to its location in coherence order, or the initial 0 (docs/litmus.md,
  // "Final values"). A litmus file lists those its conditions name.
  std::vector<int> finals;
  // herd's filter (`filter (COND);`): only executions whose outcome satisfies it count, as a precondition
  // does (docs/litmus.md, "Preconditions and spins"); empty: none.
  std::vector<Expr> filter;
  // The physical memory the global locations are made of (litmus files: `.memory host_numa;`). To the
  // model nothing (the guide's alias rules name no kind of memory); on the GPU the kind of the allocation
  // the locations are regions of.
  Memory memory = Memory::Device;
};

// The register an outcome holds the final value of address `name` in: "[x]", as a condition writes it.
inline std::string final_register(const std::string& name) { return "[" + name + "]"; }

// The most events a test may have (a load, store or fence one each, an atom or red two: its read and its
// write): the model's relations are bit rows of 64. Every reader of litmus files refuses a larger test
// before any work (harness/litmus/grammar.cpp), with the file's line.
inline constexpr int kMostEvents = 64;
// ... and the most addresses it may declare (a thread has at least one instruction, so at most 64 threads).
inline constexpr int kMostAddresses = 64;
inline int events_of(const Op& op) {
  return op.kind == OpKind::AtomAdd ? 2 : op.kind == OpKind::Label || op.kind == OpKind::Branch ? 0 : 1;
}

// What a memory-model pattern gives the oracle for one case (structure_of in its header): the litmus
// shape the model decides and the outcomes the case allows when the model forbids the weak one; or,
// for a case the model does not cover, why not.
struct Shaped {
  std::optional<Litmus> litmus;
  std::vector<std::string> allowed;  // e.g. {"new"}
  std::string_view outside;          // no litmus: why the PTX model says nothing here
};

// --- Builders, so that a pattern's shape reads like the PTX it stands for ---

inline Op store(int address, std::uint32_t value, Sem sem = Sem::Weak, Level scope = Level::Thread) {
  Op o;
  o.kind = OpKind::Store;
  o.address = address;
  o.value = value;
  o.sem = sem;
  o.scope = scope;
  return o;
}
inline Op load(std::string reg, int address, Sem sem = Sem::Weak, Level scope = Level::Thread, std::int64_t must_read = -1) {
  Op o;
  o.kind = OpKind::Load;
  o.reg = std::move(reg);
  o.address = address;
  o.sem = sem;
  o.scope = scope;
  o.must_read = must_read;
  return o;
}
inline Op atom_add(std::string reg, int address, std::uint32_t operand, Sem sem, Level scope) {
  Op o = load(std::move(reg), address, sem, scope);
  o.kind = OpKind::AtomAdd;
  o.value = operand;
  return o;
}
inline Op fence(OpKind kind, Level scope = Level::Thread) {
  Op o;
  o.kind = kind;
  o.scope = scope;
  return o;
}
inline Op alias_fence() { return fence(OpKind::AliasFence); }
inline Op barrier(std::uint32_t id) {
  Op o = fence(OpKind::Barrier, Level::Cta);
  o.value = id;
  return o;
}
inline Condition equal(std::string reg, std::uint32_t v) { return {std::move(reg), v, true}; }
inline Condition not_equal(std::string reg, std::uint32_t v) { return {std::move(reg), v, false}; }

// The shape of two device operations on one location (alias.kernels, ipc.*, peer.kernels):
//   writer (GPU 0, CTA 0): st [A] = 1  |  reader (GPU reader_gpu, CTA reader_cta): r = ld [A or B]
// -- old: r != 1; `ordered` puts an operation boundary between them.
inline Litmus operation_pair(std::string name, bool through_alias, bool ordered, int reader_gpu, int reader_cta) {
  Litmus l;
  l.name = std::move(name);
  l.addresses = {{"A", 0}, {"B", 0}};
  l.threads = {{"writer", 0, 0, {store(0, 1)}}, {"reader", reader_gpu, reader_cta, {load("r", through_alias ? 1 : 0)}}};
  if (ordered) l.boundaries = {{0, 1}};
  l.weak = {not_equal("r", 1)};
  return l;
}

}  // namespace vmmcheck::patterns::litmus
