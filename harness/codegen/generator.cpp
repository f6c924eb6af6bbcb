#include "codegen/generator.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "codegen/kernel_abi.h"
#include "codegen/layout.hpp"
#include "codegen/test_facts.hpp"
#include "litmus/test_text.hpp"

// One kernel per litmus test. Every GPU thread finds, from threadIdx.x and blockIdx.x, which instances it
// runs by inverting the placement formulas of kernel_abi.h -- every litmus thread's role, each for an
// instance of its own, or one role of one instance; then, round by round, it runs each role's operations
// in program order, one inline-PTX statement each (asm volatile with a "memory" clobber: the compiler
// neither drops nor reorders them), and writes its registers out.
namespace vmmcheck::codegen {
namespace {

using namespace patterns::litmus;

// The litmus text of an operation, for the comment above its PTX, its Site and reasons: as the file
// writes it, by the one printer of instructions (litmus/test_text.hpp, the model's instruction_text).
using litmus::op_text;

std::string hex64(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

std::string identifier(const std::string& s, std::size_t most) {
  std::string out;
  for (char c : s) {
    if (out.size() == most) break;
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    out += ok ? c : '_';
  }
  return out;
}

// A C++ string literal holding `s` (PTX text has no quotes or backslashes, but be safe).
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// A Site whose line is not known yet: where in the kernel's body its asm statement starts.
struct PendingSite {
  Site site;
  std::streamoff at = 0;
};

// The variables a role's code names its instance by: the thread's own with one role a thread, the
// role's with every role in every thread (m<k>, ...).
struct Instance {
  std::string m, slot, word, column;
};

bool reused(const Layout& lay, int L) { return L >= 0 && lay.reused[static_cast<std::size_t>(L)]; }

// The generic address of an instance's word of address `a` in this round (unsigned int*).
std::string address_expr(const Litmus& l, const Layout& lay, int a, const Instance& in) {
  const std::size_t i = static_cast<std::size_t>(a);
  if (lay.shared_index[i] >= 0)
    return "&vmmcheck_shared[" + in.slot + " * " + std::to_string(lay.shared_locations) + "u + " +
           std::to_string(lay.shared_index[i]) + "u]";
  const int root = lay.root[i];
  const int L = lay.global_index[i];
  if (lay.surface_backed[static_cast<std::size_t>(L)])
    return "p.view[" + std::to_string(root) + "] + p.texel_word[" + std::to_string(L) + "][" + in.word + "]";
  (void)l;
  return "p.view[" + std::to_string(root) + "] + (" + std::to_string(L) + "ull * p.region_words + " +
         (reused(lay, L) ? in.column : in.word) + ")";
}

// The addresses whose lines a role warms before its round (Build::warm): the global words its loads
// will read that can hold a stale value -- weak loads, or every load but a spin's -- where something other
// than a plain load comes first (the `before` operations, then the role's own): with loads alone before
// it, ptxas may merge the warming read with the load, and the load then warms its own line.
std::set<int> warmed(const Litmus& l, const Layout& lay, Build::Warm warm, std::size_t t, bool barrier) {
  std::set<int> out, seen;
  if (warm == Build::Warm::None) return out;
  for (const Op& op : l.threads[t].ops) {
    const bool can_be_stale = op.kind == OpKind::Load && op.proxy == Proxy::Generic && !op.spin &&
                              (op.sem == Sem::Weak || warm == Build::Warm::All);
    if (can_be_stale && !seen.count(op.address) && barrier && lay.shared_index[static_cast<std::size_t>(op.address)] < 0)
      out.insert(op.address);
    if (op.kind == OpKind::Load) seen.insert(op.address);
    if (!(op.kind == OpKind::Load && op.sem != Sem::Acquire && !op.spin)) barrier = true;
  }
  return out;
}

// Whether a thread's operations hold something other than a plain load (a store, an atom, a fence, an
// acquire, a spin): what keeps ptxas from merging a warming read with a later load.
bool orders_loads(const Thread& th) {
  return std::any_of(th.ops.begin(), th.ops.end(),
                     [](const Op& op) { return !(op.kind == OpKind::Load && op.sem != Sem::Acquire && !op.spin); });
}

// Whether a thread branches (labels and branches): a path may then skip an operation.
bool has_branch(const Thread& th) {
  return std::any_of(th.ops.begin(), th.ops.end(), [](const Op& op) { return op.kind == OpKind::Branch; });
}

// A CTA barrier: litmus barrier k is hardware barrier k + 1 (0 is the rounds' __syncthreads), and not
// .aligned, as the roles pass it at different places in the code (PTX ISA, barrier).
std::string barrier_ptx(std::uint32_t id) { return "barrier.cta.sync " + std::to_string(id + 1) + ";"; }

// What an idle lane of file CTA b runs each round: the barriers b's threads pass (why_not_barriers: they
// all pass the same ones), so that no barrier waits for it.
void emit_idle_barriers(const Litmus& l, const Layout& lay, const std::string& indent, std::ostringstream& o) {
  std::map<int, const Thread*> of_cta;
  for (std::size_t t = 0; t < l.threads.size(); ++t) of_cta.emplace(lay.file_cta[t], &l.threads[t]);
  o << indent << "switch (file_cta) {  // an idle lane passes its file CTA's barriers\n";
  for (const auto& [b, th] : of_cta) {
    o << indent << "  case " << b << "u:\n";
    for (const Op& op : th->ops)
      if (op.kind == OpKind::Barrier)
        o << indent << "    asm volatile(\"" << barrier_ptx(op.value) << "\" ::: \"memory\");  // idle lane: no operation's\n";
    o << indent << "    break;\n";
  }
  o << indent << "  default: break;\n" << indent << "}\n";
}

// One litmus thread's code in one round, for the instance `in` names.
class RoleEmitter {
 public:
  RoleEmitter(const Litmus& l, const Layout& lay, std::size_t t, const Instance& in, std::string indent, std::ostringstream& o,
              std::vector<PendingSite>& sites, const Build& build)
      : l_(l), lay_(lay), t_(t), in_(in), indent_(std::move(indent)), o_(o), sites_(sites),
        loads_before_stores_(build.loads_before_stores && !has_branch(l.threads[t])),
        distinct_(build.distinct_addresses ? distinct_ops() : std::map<std::size_t, std::size_t>{}) {}

  // The role's operations, its registers written out; `warm`: its own warming reads first (one role a thread).
  void emit(const std::set<int>& warm) {
    emit_addresses();
    emit_register_declarations();
    emit_loop_declarations();
    emit_warming(warm);
    for (std::size_t i = 0; i < l_.threads[t_].ops.size(); ++i) {
      op_index_ = static_cast<unsigned>(i);
      emit_op(l_.threads[t_].ops[i]);
    }
    emit_results();
  }

 private:
  std::set<int> addresses_used() const {
    std::set<int> used;
    for (const Op& op : l_.threads[t_].ops)
      if (is_access(op) && !is_tld(op) && op.proxy != Proxy::Surface) used.insert(op.address);
    return used;
  }

  int location_of(const Op& op) const { return lay_.global_index[static_cast<std::size_t>(op.address)]; }

  // The operations ptxas could otherwise merge with, or drop for, the role's previous access of the same
  // address (Build::distinct_addresses), each with that access's index: a store after a store (ptxas drops
  // the first), a weak load after a load or a store (ptxas reuses the value, or swaps two loads). Only
  // where nothing between keeps ptxas from that anyway: a store between two loads, or a load between two
  // stores, of any address (ptxas cannot know it another word), an atomic, a surface or texture access, a
  // fence, a CTA barrier, a label or a branch (a path may skip the first access). Nor where the model
  // orders the two around what is between -- an acquire or a spin before a load, a release before a
  // store: merging there breaks the model, and vmmcheck toolchain must go on seeing ptxas do it (the
  // reload merged across an acquire, docs/toolchain.md). An ld.nc is left as it is: ptxas may move a
  // read-only load past a fence, which an offset would let it do.
  std::map<std::size_t, std::size_t> distinct_ops() const {
    const std::vector<Op>& ops = l_.threads[t_].ops;
    const auto plain = [](const Op& op) {
      return (op.kind == OpKind::Load || op.kind == OpKind::Store) && op.proxy == Proxy::Generic && !is_tld(op);
    };
    std::map<std::size_t, std::size_t> out;
    for (std::size_t j = 0; j < ops.size(); ++j) {
      const Op& b = ops[j];
      const bool load = b.kind == OpKind::Load;
      if (!plain(b) || (load && (b.sem != Sem::Weak || b.spin))) continue;
      for (std::size_t i = j; i-- > 0;) {
        const Op& k = ops[i];
        if (!plain(k)) break;  // an atomic, another proxy's access, a fence, a barrier, a label, a branch
        if (k.address == b.address && !k.spin) {
          if (load || k.kind == OpKind::Store) out.emplace(j, i);
          break;
        }
        const bool conflicts = load ? k.kind == OpKind::Store : k.kind == OpKind::Load;
        const bool ordered = load ? k.kind == OpKind::Load && (k.sem == Sem::Acquire || k.spin)
                                  : k.kind == OpKind::Store && k.sem == Sem::Release;
        if (conflicts || ordered) break;
      }
    }
    return out;
  }

  // The address an operation reaches, as C: a<i>, or -- one of distinct_ops() -- a<i> plus p.zero times a
  // number of its own, which ptxas cannot tell from the earlier access's (a runtime zero: the word is the
  // same); a load after a load also adds that load's value masked by p.zero, and so waits for it (a
  // dependency, which orders nothing in the PTX model: the row's question stays).
  std::string address_of(const Op& op) const {
    const std::string a = "a" + std::to_string(op.address);
    const auto pair = distinct_.find(op_index_);
    if (pair == distinct_.end()) return a;
    std::string offset = "p.zero * " + std::to_string(op_index_ + 1) + "u";
    if (op.kind == OpKind::Load && l_.threads[t_].ops[pair->second].kind == OpKind::Load)
      offset += " + (" + loaded_at_.at(pair->second) + " & p.zero)";
    return "(" + a + " + (unsigned long long)(" + offset + "))";
  }

  // unsigned int* a<i>: the generic address of this instance's word of address i in this round.
  void emit_addresses() {
    for (int a : addresses_used()) {
      const std::size_t i = static_cast<std::size_t>(a);
      o_ << indent_ << "unsigned int* const a" << a << " = " << address_expr(l_, lay_, a, in_) << ";  // " << address_name(l_, a);
      if (lay_.shared_index[i] >= 0) {
        o_ << ": .shared, this instance's word";
      } else {
        const int L = lay_.global_index[i];
        o_ << ": location L" << L;
        if (lay_.surface_backed[static_cast<std::size_t>(L)]) o_ << ", a surface's memory: the word of this instance's texel";
        if (reused(lay_, L)) o_ << ", one word every round (values by round)";
        if (lay_.root[i] != a) o_ << ", a virtual synonym of " << address_name(l_, lay_.root[i]) << " (its view)";
      }
      o_ << "\n";
    }
  }

  std::set<int> registers_set() const {
    std::set<int> regs;
    for (const Op& op : l_.threads[t_].ops)
      if ((op.kind == OpKind::Load || op.kind == OpKind::AtomAdd) && !op.reg.empty())
        regs.insert(lay_.register_index.at(op.reg));
    return regs;
  }

  void emit_register_declarations() {
    for (int k : registers_set())
      o_ << indent_ << "unsigned int v" << k << " = 0u;  // " << one_line(lay_.registers[static_cast<std::size_t>(k)]) << "\n";
  }

  // A branch target's C label: unique in the kernel (the role's code may be emitted many times), by where
  // this role's code starts in the body.
  std::string label_of(const std::string& label) {
    if (label_prefix_.empty()) label_prefix_ = "vmmcheck_L" + std::to_string(static_cast<long long>(start_)) + "_";
    const std::vector<Op>& ops = l_.threads[t_].ops;
    const auto at = std::find_if(ops.begin(), ops.end(), [&](const Op& o) { return o.kind == OpKind::Label && o.label == label; });
    // Its place in the thread makes it unique; the name (cut short) is for people.
    return label_prefix_ + std::to_string(at - ops.begin()) + "_" + identifier(label, 40);
  }

  // The labels a later branch jumps back to (loops), with the registers each one's bound marks timed out:
  // those its body sets and those its branches compare (loop_registers).
  std::map<std::string, std::set<int>> loops() const {
    std::map<std::string, std::set<int>> out;
    for (const auto& [label, regs] : loop_registers(l_.threads[t_])) {
      std::set<int>& mine = out[label];
      for (const std::string& r : regs) mine.insert(lay_.register_index.at(r));
    }
    return out;
  }

  // Each loop's poll count and start, declared before any branch can jump past them.
  void emit_loop_declarations() {
    loops_ = loops();
    int n = 0;
    for (const auto& [label, regs] : loops_) {
      loop_index_[label] = n;
      o_ << indent_ << "unsigned int loop_polls" << n << " = 0u;  // the loop at " << one_line(label) << "\n"
         << indent_ << "unsigned long long loop_started" << n << " = 0ull;\n";
      ++n;
    }
  }

  std::string term_of(const Term& t) const {
    return t.reg.empty() ? std::to_string(t.value) + "u" : "v" + std::to_string(lay_.register_index.at(t.reg));
  }

  // A branch: a goto in C (ptxas lays out its own). A jump back (a loop) is bounded as a spin is, by
  // p.spin_timeout_ns of globaltimer time: the bound reached leaves kSpinBoundReached in the registers the
  // loop sets, an outcome of its own, and the thread goes on past the branch.
  void emit_branch(const Op& op) {
    const std::string condition =
        op.branch_always ? std::string("true") : term_of(op.lhs) + (op.branch_equal ? " == " : " != ") + term_of(op.rhs);
    const auto loop = loop_index_.find(op.label);
    const bool backward = loop != loop_index_.end() && labels_seen_.count(op.label);
    if (!backward) {
      o_ << indent_ << "if (" << condition << ") goto " << label_of(op.label) << ";\n";
      return;
    }
    const std::string n = std::to_string(loop->second);
    o_ << indent_ << "if (" << condition << ") {\n"
       << indent_ << "  if (loop_started" << n << " == 0ull) loop_started" << n << " = vmmcheck_now_ns();\n"
       << indent_ << "  if ((++loop_polls" << n << " & 63u) != 0u || vmmcheck_now_ns() - loop_started" << n
       << " <= p.spin_timeout_ns) goto " << label_of(op.label) << ";\n";
    for (int k : loops_.at(op.label))
      o_ << indent_ << "  v" << k << " = " << kSpinBoundReached << "u;  // the bound reached: an outcome of its own\n";
    o_ << indent_ << "}\n";
  }

  // Warming reads (Build::warm) of the role's own addresses; no site: they are not operations of the test.
  void emit_warming(const std::set<int>& warm) {
    for (int a : warm)
      o_ << indent_ << "vmmcheck_keep ^= vmmcheck_warm(a" << a << ");  // warm the line (stress; orders nothing)\n";
  }

  // A store's address operand: a<i>, or (Build::loads_before_stores) a<i> plus the role's earlier loads'
  // words masked by p.zero, so that the store is issued after they return. `|`, not `^`: two loads ptxas
  // merges into one give one word twice, and w ^ w would fold the dependency away.
  std::string store_address(const Op& op) const {
    const std::string a = address_of(op);
    if (!loads_before_stores_ || loaded_.empty()) return "\"l\"(" + a + ")";
    std::string words;
    for (const std::string& w : loaded_) words += (words.empty() ? "" : " | ") + w;
    return "\"l\"(" + a + " + ((" + words + ") & p.zero))";
  }

  // A scratch word for an asm operand or result: a load without a register, a tagged value.
  std::string scratch() {
    const std::string name = "w" + std::to_string(scratch_++);
    o_ << indent_ << "unsigned int " << name << ";\n";
    return name;
  }

  // The variable a load or an atom writes: its register's, or a scratch one (no register named).
  std::string destination(const Op& op) {
    if (!op.reg.empty()) return "v" + std::to_string(lay_.register_index.at(op.reg));
    return scratch();
  }

  // A store's or an atom's operand; on a word of values by round, tagged with the round.
  std::string operand(const Op& op) {
    const std::string reg = op.value_reg.empty() ? "" : "v" + std::to_string(lay_.register_index.at(op.value_reg));  // a data dependency
    const std::string plain = reg.empty() ? std::to_string(op.value) + "u"
                              : op.value == 0 ? reg
                                              : "(" + reg + " + " + std::to_string(op.value) + "u)";  // `r0 + 1`
    if (!is_access(op) || op.proxy == Proxy::Surface || !reused(lay_, location_of(op))) return plain;
    const std::string w = scratch();
    o_ << indent_ << w << " = tag | " << plain << ";  // this round's value (values by round)\n";
    return w;
  }

  // One asm statement on one line: the line that names the operation's machine code (Site).
  void emit_asm(const std::string& ptx, const std::string& outputs, const std::string& inputs) {
    if (current_) {
      PendingSite p{Site{}, o_.tellp()};
      p.site.thread = static_cast<unsigned>(t_);
      p.site.index = op_index_;
      p.site.text = op_text(l_, *current_);
      p.site.ptx = ptx_opcode(ptx);
      p.site.op = *current_;
      p.site.branches = has_branch(l_.threads[t_]);
      if (is_access(*current_)) {
        const std::size_t a = static_cast<std::size_t>(current_->address);
        p.site.location = lay_.shared_index[a] >= 0 ? 1000 + lay_.shared_index[a] : lay_.global_index[a];
      }
      sites_.push_back(std::move(p));
      current_ = nullptr;
    }
    o_ << indent_ << "asm volatile(" << quoted(ptx);
    if (outputs.empty() && inputs.empty()) o_ << " ::: ";
    else if (outputs.empty()) o_ << " :: " << inputs << " : ";
    else o_ << " : " << outputs << " : " << inputs << " : ";
    o_ << "\"memory\");\n";
  }

  // The instruction of a PTX statement: "{ .reg ...; tex.1d... }" -> "tex.1d.v4.u32.s32".
  static std::string ptx_opcode(const std::string& ptx) {
    const std::size_t bracket = ptx.find('[');
    std::size_t at = bracket == std::string::npos ? std::string::npos : ptx.rfind(';', bracket);
    at = at == std::string::npos ? 0 : at + 1;
    while (at < ptx.size() && (ptx[at] == ' ' || ptx[at] == '{')) ++at;
    const std::size_t end = ptx.find_first_of(" ;", at);
    return ptx.substr(at, end == std::string::npos ? std::string::npos : end - at);
  }

  // A load's result: straight into its register, or -- on a word of values by round -- into a scratch
  // word that is then read as this round's value. Returns what the asm writes.
  std::string load_target(const Op& op, std::string& decode_into) {
    decode_into.clear();
    if (op.proxy == Proxy::Surface || !reused(lay_, location_of(op))) return destination(op);
    decode_into = destination(op);
    return scratch();
  }

  void emit_decode(const std::string& raw, const std::string& into) {
    if (!into.empty()) o_ << indent_ << into << " = vmmcheck_value(" << raw << ", tag);  // values by round\n";
  }

  void emit_op(const Op& op) {
    o_ << indent_ << "// " << op_text(l_, op) << "\n";
    if (op.kind == OpKind::Label) {
      labels_seen_.insert(op.label);
      o_ << indent_ << label_of(op.label) << ":;\n";
      return;
    }
    if (op.kind == OpKind::Branch) return emit_branch(op);
    current_ = &op;
    const std::string scope = name_of(op.scope);
    const std::string a = "\"l\"(" + address_of(op) + ")";
    switch (op.kind) {
      case OpKind::Load: {
        if (op.proxy == Proxy::Surface) return emit_surface(op);
        if (op.spin) return emit_spin(op, a);
        std::string into;
        const std::string target = load_target(op, into);
        if (is_tld(op)) emit_tld(op, target);
        else emit_asm(load_ptx(op), "\"=r\"(" + target + ")", a);
        emit_decode(target, into);
        loaded_.push_back(target);  // (a spin's load needs no place here: its loop waits for each value)
        loaded_at_[op_index_] = target;
        return;
      }
      case OpKind::Store: {
        if (op.proxy == Proxy::Surface) return emit_surface(op);
        const std::string value = operand(op);
        emit_asm(store_ptx(op), "", store_address(op) + ", \"r\"(" + value + ")");
        return;
      }
      case OpKind::AtomAdd: {
        // atom/red with no .sem is .relaxed in PTX; a weak one is emitted so, explicitly.
        const std::string sem = op.sem == Sem::Weak ? "relaxed" : name_of(op.sem);
        const std::string value = operand(op);
        if (is_red(op)) {
          emit_asm("red." + sem + "." + scope + ".add.u32 [%0], %1;", "", a + ", \"r\"(" + value + ")");
        } else if (op.rmw == Rmw::Cas) {
          const std::string dst = destination(op);
          emit_asm("atom." + sem + "." + scope + ".cas.b32 %0, [%1], %2, %3;", "\"=r\"(" + dst + ")",
                   a + ", \"r\"(" + std::to_string(op.expected) + "u), \"r\"(" + value + ")");
          loaded_.push_back(dst);
        } else {
          const std::string dst = destination(op);
          const std::string operation = op.rmw == Rmw::Exch ? ".exch.b32" : ".add.u32";
          emit_asm("atom." + sem + "." + scope + operation + " %0, [%1], %2;", "\"=r\"(" + dst + ")", a + ", \"r\"(" + value + ")");
          loaded_.push_back(dst);
        }
        return;
      }
      case OpKind::FenceSc: emit_asm("fence.sc." + scope + ";", "", ""); return;
      case OpKind::FenceAcqRel: emit_asm("fence.acq_rel." + scope + ";", "", ""); return;
      case OpKind::AliasFence: emit_asm("fence.proxy.alias;", "", ""); return;
      case OpKind::ProxyFence: throw std::logic_error("proxy fences are never generated");
      case OpKind::Barrier: emit_asm(barrier_ptx(op.value), "", ""); return;
      case OpKind::Label:
      case OpKind::Branch: return;  // above
    }
  }

  // A spin-until load: the load repeats until it reads its value, within p.spin_timeout_ns of globaltimer
  // time (read every 64 polls: it is slower than a load); the bound reached leaves kSpinBoundReached in
  // the register, an outcome of its own. The load is one asm statement on its own line, as every other.
  void emit_spin(const Op& op, const std::string& address) {
    std::string into;
    const std::string target = load_target(op, into);
    const std::string dst = into.empty() ? target : into;
    const std::string outer = indent_;
    o_ << outer << "{\n" << outer << "  const unsigned long long spin_started = vmmcheck_now_ns();\n"
       << outer << "  for (unsigned int polls = 0u;; ++polls) {\n";
    indent_ = outer + "    ";
    emit_asm(load_ptx(op), "\"=r\"(" + target + ")", address);
    emit_decode(target, into);
    indent_ = outer;
    o_ << outer << "    if (" << dst << " == " << op.must_read << "u) break;\n"
       << outer << "    if ((polls & 63u) == 63u && vmmcheck_now_ns() - spin_started > p.spin_timeout_ns) {\n"
       << outer << "      " << dst << " = " << kSpinBoundReached << "u;  // the bound reached: an outcome of its own\n"
       << outer << "      break;\n"
       << outer << "    }\n"
       << outer << "  }\n"
       << outer << "}\n";
  }

  static std::string load_ptx(const Op& op) {
    const std::string scope = name_of(op.scope);
    // ld.nc: the read-only path at the generic address, as CUDA's own __ldg writes it (a generic address
    // of global memory is its global address).
    if (op.nc) return "ld.global.nc.u32 %0, [%1];";
    switch (op.sem) {
      case Sem::Weak: return "ld.u32 %0, [%1];";
      case Sem::Relaxed: return "ld.relaxed." + scope + ".u32 %0, [%1];";  // ld.volatile reads as relaxed.sys
      case Sem::Acquire: return "ld.acquire." + scope + ".u32 %0, [%1];";
      default: throw std::logic_error("no such ld");
    }
  }

  static std::string store_ptx(const Op& op) {
    const std::string scope = name_of(op.scope);
    switch (op.sem) {
      case Sem::Weak: return "st.u32 [%0], %1;";
      case Sem::Relaxed: return "st.relaxed." + scope + ".u32 [%0], %1;";
      case Sem::Release: return "st.release." + scope + ".u32 [%0], %1;";
      default: throw std::logic_error("no such st");
    }
  }

  // tld: a texture fetch through the .texref's texture object (over view[address] from its start, 32-bit
  // unsigned elements), at the word's index; the register takes the first component, the other three go
  // to PTX registers scoped to the statement. Over a surface's memory the object is over its array.
  void emit_tld(const Op& op, const std::string& dst) {
    const std::size_t i = static_cast<std::size_t>(op.address);
    const int L = lay_.global_index[i];
    if (lay_.surface_backed[static_cast<std::size_t>(L)]) {
      // A surface's memory: the texture object over the surface's array, at this instance's texel
      // (kernel_abi.h: x = k % surface_width, y = k / surface_width, in texels; k is the round's word).
      const std::string& k = in_.word;
      emit_asm("{ .reg .b32 tld_y, tld_z, tld_w; tex.2d.v4.u32.s32 {%0, tld_y, tld_z, tld_w}, [%1, {%2, %3}]; }",
               "\"=r\"(" + dst + ")",
               "\"l\"(p.texture[" + std::to_string(op.address) + "]), \"r\"((int)(" + k + " % p.surface_width)), \"r\"((int)(" + k +
                   " / p.surface_width))");
      return;
    }
    emit_asm("{ .reg .b32 tld_y, tld_z, tld_w; tex.1d.v4.u32.s32 {%0, tld_y, tld_z, tld_w}, [%1, {%2}]; }",
             "\"=r\"(" + dst + ")",
             "\"l\"(p.texture[" + std::to_string(op.address) + "]), \"r\"((int)(" + std::to_string(L) + "ull * p.region_words + " +
                 (reused(lay_, L) ? in_.column : in_.word) + "))");
  }

  // suld / sust: through the .surfref's surface object, at this instance's texel (kernel_abi.h:
  // x = k % surface_width in bytes for the .b form, y = k / surface_width; k is the round's word).
  void emit_surface(const Op& op) {
    const std::string& k = in_.word;
    const std::string coords = "\"l\"(p.surface[" + std::to_string(op.address) + "]), \"r\"((int)((" + k +
                               " % p.surface_width) * 4u)), \"r\"((int)(" + k + " / p.surface_width))";
    if (op.kind == OpKind::Load) {
      const std::string dst = destination(op);
      emit_asm("suld.b.2d.b32.trap {%0}, [%1, {%2, %3}];", "\"=r\"(" + dst + ")", coords);
      loaded_.push_back(dst);
    } else
      emit_asm("sust.b.2d.b32.trap [%0, {%1, %2}], {%3};", "", coords + ", \"r\"(" + operand(op) + ")");
  }

  void emit_results() {
    const std::set<int> regs = registers_set();
    if (regs.empty()) return;
    o_ << indent_ << "unsigned int* const out = p.registers + ((unsigned long long)r * p.instances + " << in_.m
       << ") * p.register_count;\n";
    for (int k : regs)
      o_ << indent_ << "out[" << k << "] = v" << k << ";  // " << one_line(lay_.registers[static_cast<std::size_t>(k)]) << "\n";
  }

  const Litmus& l_;
  const Layout& lay_;
  std::size_t t_;
  const Instance& in_;
  std::string indent_;
  std::ostringstream& o_;
  std::vector<PendingSite>& sites_;
  const bool loads_before_stores_;       // Build::loads_before_stores, for a role without branches
  // Build::distinct_addresses: the operations reached through an offset -> the earlier access of the word
  const std::map<std::size_t, std::size_t> distinct_;
  std::map<std::size_t, std::string> loaded_at_;  // a load's index -> what it wrote (its asm output)
  std::vector<std::string> loaded_;      // what the role's loads so far wrote (their asm outputs)
  const Op* current_ = nullptr;  // the operation whose asm statement comes next
  unsigned op_index_ = 0;
  int scratch_ = 0;
  std::streamoff start_ = o_.tellp();         // where the role's code starts in the body
  std::string label_prefix_;
  std::map<std::string, std::set<int>> loops_;  // a loop's label -> the registers its bound marks
  std::map<std::string, int> loop_index_;     // a loop's label -> its counters' number
  std::set<std::string> labels_seen_;         // labels emitted so far (a branch to one jumps back)
};

std::string thread_title(const Litmus& l, const Layout& lay, std::size_t t) {
  const Thread& th = l.threads[t];
  return "T" + std::to_string(t) + " \"" + one_line(th.name) + "\" (d" + std::to_string(th.gpu) + ".b" + std::to_string(th.cta) +
         ".t" + std::to_string(th.lane) + "): file CTA " + std::to_string(lay.file_cta[t]) + ", file thread " +
         std::to_string(lay.file_thread[t]);
}

void emit_header(const Litmus& l, const Layout& lay, std::ostringstream& o) {
  o << "// Litmus test \"" << one_line(l.name) << "\" as a CUDA kernel (harness/codegen/generator.cpp). Placement, memory\n"
       "// words and the register output: litmus_abi.h (harness/codegen/kernel_abi.h).\n//\n";
  o << "// Addresses (" << lay.global_locations << " global locations L, " << lay.shared_locations << " shared):\n";
  for (std::size_t a = 0; a < l.addresses.size(); ++a) {
    const Address& addr = l.addresses[a];
    o << "//   " << a << " " << one_line(addr.name) << ": ";
    if (addr.shared) o << ".shared, shared word " << lay.shared_index[a];
    else o << "location L" << lay.global_index[a] << " (file location " << addr.location << ")";
    if (addr.declared != Proxy::Generic) o << ", ." << (addr.declared == Proxy::Texture ? "texref" : "surfref");
    if (addr.same_as >= 0) o << ", virtually aliases " << address_name(l, addr.same_as);
    o << "\n";
  }
  o << "// Threads (" << lay.file_ctas << " file CTAs, up to " << lay.threads_per_file_cta << " threads per file CTA):\n";
  for (std::size_t t = 0; t < l.threads.size(); ++t) {
    const Thread& th = l.threads[t];
    o << "//   T" << t << " " << one_line(th.name) << ": d" << th.gpu << ".b" << th.cta << ".t" << th.lane << " -> b="
      << lay.file_cta[t] << " t=" << lay.file_thread[t] << "\n";
  }
  if (!lay.role_order.empty()) {
    o << "// Every GPU thread runs every role, each for an instance of its own, in the order:";
    for (int t : lay.role_order) o << " T" << t;
    o << "\n";
  } else {
    o << "// One role a GPU thread.\n";
  }
  o << "// Registers (p.registers, in this order):";
  for (const std::string& r : lay.registers) o << " " << one_line(r);
  if (lay.registers.empty()) o << " none";
  if (!lay.finals.empty()) o << "\n// Final values (the host reads them back after the launch):";
  for (int a : lay.finals) o << " " << one_line(final_register(l.addresses[static_cast<std::size_t>(a)].name));
  o << "\n\n#include \"litmus_abi.h\"\n\n";
}

// The device helpers the kernel uses (NVRTC warns of a static function nobody calls).
void emit_helpers(const std::string& body, std::ostringstream& o) {
  o << R"(// a^-1 mod n for a co-prime with n (extended Euclid); n <= 1: 0.
static __device__ unsigned int vmmcheck_inverse(unsigned int a, unsigned int n) {
  if (n <= 1u) return 0u;
  long long t = 0, next_t = 1;
  unsigned int rem = n, next_rem = a % n;
  while (next_rem != 0u) {
    const unsigned int q = rem / next_rem;
    const long long t2 = t - (long long)q * next_t;
    t = next_t;
    next_t = t2;
    const unsigned int r2 = rem - q * next_rem;
    rem = next_rem;
    next_rem = r2;
  }
  return (unsigned int)(t < 0 ? t + (long long)n : t);
}

)";
  o << R"(// Stress grid_barrier (litmus_abi.h): every testing CTA meets the others before round r, within the spin bound.
static __device__ void vmmcheck_grid_barrier(const VmmcheckLitmusLaunch* p, unsigned int r) {
  __syncthreads();
  if (threadIdx.x == 0) {
    const unsigned int target = (r + 1u) * p->ctas;
    unsigned int seen = atomicAdd(p->grid_counter, 1u) + 1u;  // relaxed, device scope
    const unsigned long long started = vmmcheck_now_ns();
    while (seen < target && vmmcheck_now_ns() - started < p->spin_timeout_ns) seen = *(volatile unsigned int*)p->grid_counter;
  }
  __syncthreads();
}

)";
  if (body.find("vmmcheck_warm(") != std::string::npos)
    o << R"(// A warming read: a weak load of a word a later load will read, so that its line is in this SM's cache.
static __device__ __forceinline__ unsigned int vmmcheck_warm(const unsigned int* word) {
  unsigned int v;
  asm volatile("ld.u32 %0, [%1];" : "=r"(v) : "l"(word) : "memory");
  return v;
}

)";
  if (body.find("vmmcheck_value(") != std::string::npos)
    o << R"(// Values by round (litmus_abi.h): a word an earlier round wrote holds the location's initial value.
static __device__ __forceinline__ unsigned int vmmcheck_value(unsigned int word, unsigned int tag) {
  return word >= tag ? (word & ((1u << VMMCHECK_LITMUS_VALUE_BITS) - 1u)) : 0u;
}

)";
}

// One role a thread: invert cta_perm and the lane formula of litmus_abi.h to find (b, instance m, slot,
// t), then the litmus thread `who` that file thread t of file CTA b is. Anything that does not map back
// is idle.
void emit_one_role_placement(const Litmus& l, const Layout& lay, unsigned max_slots, std::ostringstream& o) {
  o << "  const unsigned int kFileCtas = " << lay.file_ctas << "u, kThreadsPerFileCta = " << lay.threads_per_file_cta
    << "u, kMaxSlots = " << max_slots << "u;\n";
  o << R"(  int who = -1;            // the litmus thread this thread runs; -1: none (it only joins barriers)
  unsigned int m = 0u;     // its instance
  unsigned int slot = 0u;  // its slot in this CTA
)";
  if (has_barrier(l)) o << "  unsigned int file_cta = 0xFFFFFFFFu;  // this CTA's file CTA b: whose barriers an idle lane passes\n";
  o << R"(  if (blockIdx.x < p.ctas && p.file_ctas == kFileCtas && p.ctas % kFileCtas == 0u && p.slots != 0u &&
      p.slots <= kMaxSlots && p.block_threads == blockDim.x && p.instances == p.ctas / kFileCtas * p.slots) {
    // cta_perm(q) = (q * cta_stride + cta_offset) % ctas = blockIdx.x, q = g + b * groups.
    const unsigned int groups = p.ctas / kFileCtas;
    const unsigned int shifted = (blockIdx.x + p.ctas - p.cta_offset % p.ctas) % p.ctas;
    const unsigned int q = (unsigned int)((unsigned long long)shifted * vmmcheck_inverse(p.cta_stride % p.ctas, p.ctas) % p.ctas);
    const unsigned int b = q / groups, g = q % groups;
)";
  if (has_barrier(l)) o << "    if (((unsigned long long)q * p.cta_stride + p.cta_offset) % p.ctas == blockIdx.x) file_cta = b;\n";
  o << R"(    // lane = ((t * slots + slot) * lane_stride) % block_threads = threadIdx.x.
    const unsigned int y = (unsigned int)((unsigned long long)threadIdx.x *
                                          vmmcheck_inverse(p.lane_stride % p.block_threads, p.block_threads) % p.block_threads);
    const unsigned int t = y / p.slots;
    slot = y % p.slots;
    const bool maps_back = ((unsigned long long)q * p.cta_stride + p.cta_offset) % p.ctas == blockIdx.x &&
                           ((unsigned long long)y * p.lane_stride) % p.block_threads == threadIdx.x;
    if (maps_back && b < kFileCtas && t < kThreadsPerFileCta) {
      m = g + slot * groups;
      switch (b * kThreadsPerFileCta + t) {
)";
  for (std::size_t t = 0; t < l.threads.size(); ++t)
    o << "        case " << (static_cast<unsigned>(lay.file_cta[t]) * lay.threads_per_file_cta + static_cast<unsigned>(lay.file_thread[t]))
      << "u: who = " << t << "; break;  // " << one_line(l.threads[t].name) << "\n";
  o << R"(        default: break;
      }
    }
  }
  // This instance's column of every location's region (memory_stride co-prime with instances).
  const unsigned int column = who < 0 ? 0u : (unsigned int)(((unsigned long long)m * p.memory_stride + p.memory_offset) % p.instances);
)";
}

// Every role in every thread: this thread's places in the CTA and lane orders (q, y), and for each role
// (file CTA b, file thread t) the instance whose role it runs: ((q - b) mod ctas, (y - t * lane_step) mod
// block_threads), by inverting kernel_abi.h's formulas.
void emit_all_roles_placement(const Litmus& l, const Layout& lay, std::ostringstream& o) {
  o << "  const unsigned int kFileCtas = " << lay.file_ctas << "u, kThreadsPerFileCta = " << lay.threads_per_file_cta << "u;\n";
  o << R"(  bool placed = p.file_ctas == kFileCtas && p.ctas >= kFileCtas && p.block_threads == blockDim.x &&
                p.block_threads >= kThreadsPerFileCta && p.instances == p.ctas * p.block_threads;
  unsigned int q = 0u, y = 0u;  // this CTA's place in cta_perm, this thread's in lane_perm
  if (placed) {
    const unsigned int shifted = (blockIdx.x + p.ctas - p.cta_offset % p.ctas) % p.ctas;
    q = (unsigned int)((unsigned long long)shifted * vmmcheck_inverse(p.cta_stride % p.ctas, p.ctas) % p.ctas);
    y = (unsigned int)((unsigned long long)threadIdx.x * vmmcheck_inverse(p.lane_stride % p.block_threads, p.block_threads) %
                       p.block_threads);
    placed = ((unsigned long long)q * p.cta_stride + p.cta_offset) % p.ctas == blockIdx.x &&
             ((unsigned long long)y * p.lane_stride) % p.block_threads == threadIdx.x;
  }
  const unsigned int lane_step = p.block_threads / kThreadsPerFileCta;
)";
  for (int t : lay.role_order) {
    const std::string k = std::to_string(t);
    o << "  // " << one_line(l.threads[static_cast<std::size_t>(t)].name) << ": the instance whose T" << k << " this thread runs\n"
      << "  const unsigned int u" << k << " = (y + p.block_threads - (" << lay.file_thread[static_cast<std::size_t>(t)]
      << "u * lane_step) % p.block_threads) % p.block_threads;\n"
      << "  const unsigned int m" << k << " = ((q + p.ctas - " << lay.file_cta[static_cast<std::size_t>(t)] << "u % p.ctas) % p.ctas) * p.block_threads + u"
      << k << ";\n"
      << "  const unsigned int column" << k << " = (unsigned int)(((unsigned long long)m" << k
      << " * p.memory_stride + p.memory_offset) % p.instances);\n";
  }
}

void emit_round_start(const Layout& lay, unsigned shared_slots, std::ostringstream& o) {
  const bool shared = lay.shared_locations > 0;
  if (shared)
    o << "    // .shared words: zeroed each round, with barriers around (whatever stress.barrier says).\n"
         "    __syncthreads();\n"
         "    for (unsigned int i = threadIdx.x; i < "
      << shared_slots * lay.shared_locations << "u; i += blockDim.x) vmmcheck_shared[i] = 0u;\n";
  // The stress every in-kernel test has (kernels/stress_ops.h): the barrier and the pre-stress accesses.
  o << "    vmmcheck_stress_round(&p.stress, blockIdx.x * blockDim.x + threadIdx.x, r, &vmmcheck_keep);\n"
       "    if (p.grid_barrier) vmmcheck_grid_barrier(&p, r);\n";
  if (shared) o << "    __syncthreads();\n";
  if (std::find(lay.reused.begin(), lay.reused.end(), true) != lay.reused.end())
    o << "    const unsigned int tag = (r + 1u) << VMMCHECK_LITMUS_VALUE_BITS;  // values by round\n";
}

// The body of one-role-a-thread's round: a switch on `who`, each case one litmus thread's code.
void emit_one_role_round(const Litmus& test, const Layout& lay, const Build& build, std::ostringstream& body,
                         std::vector<PendingSite>& pending) {
  body << "    // This round's word of this instance, in every location's region.\n"
          "    const unsigned long long word = (unsigned long long)r * p.instances + column;\n"
          "    (void)word;\n"
          "    switch (who) {\n";
  const Instance in{"m", "slot", "word", "column"};
  for (std::size_t t = 0; t < test.threads.size(); ++t) {
    body << "      case " << t << ": {  // " << thread_title(test, lay, t) << "\n";
    RoleEmitter(test, lay, t, in, "        ", body, pending, build).emit(warmed(test, lay, build.warm, t, false));
    body << "        break;\n      }\n";
  }
  if (has_barrier(test)) {
    body << "      default:\n";
    emit_idle_barriers(test, lay, "        ", body);
    body << "        break;\n    }\n";
    return;
  }
  body << "      default: break;\n    }\n";
}

// The body of every-role-in-every-thread's round: the warming reads of every role first (as the
// hand-written kernels warm the line they will read before they write their own instance), then each
// role in role_order, in a scope of its own.
void emit_all_roles_round(const Litmus& test, const Layout& lay, const Build& build, std::ostringstream& body,
                          std::vector<PendingSite>& pending) {
  body << "    if (placed) {\n";
  for (int t : lay.role_order)
    body << "      const unsigned long long word" << t << " = (unsigned long long)r * p.instances + column" << t << ";\n"
         << "      (void)word" << t << ";\n";
  bool barrier = false;  // something ptxas cannot move a load above comes before the role
  std::vector<std::set<int>> warm(test.threads.size());
  for (int t : lay.role_order) {
    warm[static_cast<std::size_t>(t)] = warmed(test, lay, build.warm, static_cast<std::size_t>(t), barrier);
    barrier = barrier || orders_loads(test.threads[static_cast<std::size_t>(t)]);
  }
  for (int t : lay.role_order) {
    const std::string k = std::to_string(t);
    const Instance in{"m" + k, "u" + k, "word" + k, "column" + k};
    for (int a : warm[static_cast<std::size_t>(t)])
      body << "      vmmcheck_keep ^= vmmcheck_warm(" << address_expr(test, lay, a, in) << ");  // T" << k << "'s "
           << address_name(test, a) << " (stress; orders nothing)\n";
  }
  for (int t : lay.role_order) {
    const std::string k = std::to_string(t);
    const Instance in{"m" + k, "u" + k, "word" + k, "column" + k};
    body << "      {  // " << thread_title(test, lay, static_cast<std::size_t>(t)) << "\n";
    RoleEmitter(test, lay, static_cast<std::size_t>(t), in, "        ", body, pending, build).emit({});
    body << "      }\n";
  }
  body << "    }\n";
}

std::string kernel_name(const Litmus& l, const std::string& body) {
  return "vmmcheck_litmus_" + identifier(l.name, 40) + "_" + hex64(fnv1a(l.name + '\n' + body));
}

}  // namespace

std::string key_of(const Build& b) {
  return "all_roles=" + std::to_string(b.all_roles) + " warm=" + std::to_string(static_cast<int>(b.warm)) +
         " reuse_words=" + std::to_string(b.reuse_words) + " loads_before_stores=" + std::to_string(b.loads_before_stores) +
         " distinct_addresses=" + std::to_string(b.distinct_addresses);
}

Kernel generate(const Litmus& test, const Build& build) {
  if (const std::string reason = why_not_generated(test); !reason.empty())
    throw std::invalid_argument("litmus test " + test.name + " cannot be generated: " + reason);
  const Layout lay = layout_of(test, build);
  const bool all_roles = !lay.role_order.empty();
  // .shared words: one per instance and location in its CTA -- a slot's (slots * threads_per_file_cta <=
  // block_threads <= 1024), or every role in every thread, a lane's.
  const unsigned shared_slots = all_roles ? kMaxBlockThreads : kMaxBlockThreads / std::max(1u, lay.threads_per_file_cta);

  std::ostringstream body;
  body << "(VmmcheckLitmusLaunch p) {\n"
          "  // The memory-stress CTAs after the testing ones (kernels/stress_ops.h) run no instance.\n"
          "  if (blockIdx.x >= p.ctas) {\n"
          "    if (p.stress.scratch != 0 && p.stress.done != 0) vmmcheck_memory_stress(&p.stress, p.ctas);\n"
          "    return;\n"
          "  }\n"
          "  unsigned int vmmcheck_keep = 0u;  // what the stress and warming loads read, kept so that they happen\n";
  if (all_roles) emit_all_roles_placement(test, lay, body);
  else emit_one_role_placement(test, lay, shared_slots, body);
  if (lay.shared_locations > 0)
    body << "  __shared__ unsigned int vmmcheck_shared[" << shared_slots * lay.shared_locations << "];  // ["
         << (all_roles ? "lane" : "slot") << "][shared location]\n";
  body << "  for (unsigned int r = 0; r < p.rounds; ++r) {\n";
  emit_round_start(lay, shared_slots, body);
  std::vector<PendingSite> pending;
  if (all_roles) emit_all_roles_round(test, lay, build, body, pending);
  else emit_one_role_round(test, lay, build, body, pending);
  body << "  }\n"
          "  if (vmmcheck_keep == 0xFFFFFFFFu && p.stress.scratch != 0) p.stress.scratch[0] = vmmcheck_keep;\n"
          "  vmmcheck_testing_done(&p.stress);\n}\n";

  Kernel k;
  k.name = kernel_name(test, body.str());
  std::ostringstream src;
  emit_header(test, lay, src);
  emit_helpers(body.str(), src);
  k.function_at = static_cast<std::size_t>(src.tellp());
  src << "extern \"C\" __global__ void " << k.name << body.str();
  k.source = src.str();
  // A site's line: the lines before the body's text, and the body's lines before its statement.
  const std::string text = body.str();
  const auto lines_before = [](const std::string& s, std::size_t end) {
    return static_cast<unsigned>(std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
  };
  const unsigned body_line = 1 + lines_before(k.source, k.function_at);
  // Sites by thread, then program order (all roles emit them in role order).
  std::stable_sort(pending.begin(), pending.end(),
                   [](const PendingSite& a, const PendingSite& b) { return a.site.thread < b.site.thread; });
  for (PendingSite& p : pending) {
    p.site.line = body_line + lines_before(text, static_cast<std::size_t>(p.at));
    k.sites.push_back(std::move(p.site));
  }
  k.registers = lay.registers;
  k.file_ctas = lay.file_ctas;
  k.threads_per_file_cta = lay.threads_per_file_cta;
  k.locations = lay.global_locations;
  k.location_of_address = lay.global_index;
  k.surface_locations = lay.surface_backed;
  k.build = build;
  k.all_roles = all_roles;
  k.role_order = lay.role_order;
  k.reused_locations = lay.reused;
  k.initial_values = lay.initial;
  for (int a : lay.finals)
    k.finals.push_back({static_cast<unsigned>(lay.register_index.at(final_register(test.addresses[static_cast<std::size_t>(a)].name))),
                        lay.root[static_cast<std::size_t>(a)], lay.global_index[static_cast<std::size_t>(a)]});
  return k;
}

}  // namespace vmmcheck::codegen
