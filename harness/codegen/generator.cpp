#include "codegen/generator.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "codegen/kernel_abi.h"
#include "litmus/test_text.hpp"
#include "vocabulary/op_kinds.hpp"

// One kernel per litmus test. Every GPU thread finds, from threadIdx.x and blockIdx.x, which litmus
// thread of which instance it runs by inverting the placement formulas of kernel_abi.h; then, round by
// round, it runs that thread's operations in program order, one inline-PTX statement each (asm volatile
// with a "memory" clobber: the compiler neither drops nor reorders them), and writes its registers out.
namespace vmmcheck::codegen {
namespace {

using namespace patterns::litmus;

constexpr unsigned kMaxBlockThreads = 1024;  // CUDA: threads per CTA

bool is_red(const Op& op) { return op.kind == OpKind::AtomAdd && op.reg.empty(); }
bool is_tld(const Op& op) { return op.kind == OpKind::Load && op.proxy == Proxy::Texture; }

// Text for a // comment: one line, no control characters.
std::string one_line(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return out;
}

std::string address_name(const Litmus& l, int a) {
  if (a < 0 || a >= static_cast<int>(l.addresses.size())) return "<address " + std::to_string(a) + ">";
  return one_line(l.addresses[static_cast<std::size_t>(a)].name);
}

// The litmus text of an operation, for the comment above its PTX, its Site and reasons: as the file
// writes it, by the one printer of instructions (litmus/test_text.hpp, the model's instruction_text).
using litmus::op_text;

// The address whose virtual mapping an address's accesses go through: a virtual synonym
// (".texref t virtually aliases x") is x's own virtual address. -1: a same_as chain that leaves the
// declared addresses or loops.
int root_of(const Litmus& l, int a) {
  const int n = static_cast<int>(l.addresses.size());
  for (int steps = 0; steps <= n; ++steps) {
    if (a < 0 || a >= n) return -1;
    const int next = l.addresses[static_cast<std::size_t>(a)].same_as;
    if (next < 0) return a;
    a = next;
  }
  return -1;
}

// Where everything of a test goes in the kernel (kernel_abi.h's b, t, L; the shared words; registers).
struct Layout {
  std::vector<int> file_cta;     // per litmus thread: its file CTA b (rank of Thread::cta)
  std::vector<int> file_thread;  // per litmus thread: t, its rank in b by (lane, declaration order)
  unsigned file_ctas = 0;
  unsigned threads_per_file_cta = 0;
  std::vector<int> root;          // per address: root_of
  std::vector<int> global_index;  // per address: L (rank of its location among the global ones); -1: shared
  std::vector<int> shared_index;  // per address: rank of its location among the shared ones; -1: global
  unsigned global_locations = 0;
  unsigned shared_locations = 0;
  std::vector<bool> surface_backed;    // per L: a .surfref aliases it (its words are texels, kernel_abi.h)
  std::vector<std::string> registers;  // Kernel::registers
  std::map<std::string, int> register_index;
};

Layout layout_of(const Litmus& l) {
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
  for (int a = 0; a < n; ++a)
    if (l.addresses[static_cast<std::size_t>(a)].declared == Proxy::Surface && lay.global_index[static_cast<std::size_t>(a)] >= 0)
      lay.surface_backed[static_cast<std::size_t>(lay.global_index[static_cast<std::size_t>(a)])] = true;

  // Registers: every register a load or an atom sets, by (thread order, program order), once each.
  for (const Thread& th : l.threads)
    for (const Op& op : th.ops)
      if ((op.kind == OpKind::Load || op.kind == OpKind::AtomAdd) && !op.reg.empty() &&
          lay.register_index.emplace(op.reg, static_cast<int>(lay.registers.size())).second)
        lay.registers.push_back(op.reg);
  return lay;
}

// --- why_not_generated, one check per class of test ---

std::string why_not_harness_extension(const Litmus& l) {
  if (!l.boundaries.empty())
    return "operation boundaries are the harness's own extension, not litmus files: not generated";
  for (const Thread& th : l.threads)
    if (th.resident) return "resident threads are the harness's own extension, not litmus files: not generated";
  return {};
}

std::string why_not_placement(const Litmus& l) {
  if (l.threads.empty()) return "the test has no threads";
  for (const Thread& th : l.threads)
    if (th.gpu != 0) return "needs a second GPU: generated kernels run on one GPU in this version";
  if (l.addresses.size() > VMMCHECK_LITMUS_MAX_ADDRESSES)
    return "declares " + std::to_string(l.addresses.size()) + " addresses; the kernel ABI has room for " +
           std::to_string(VMMCHECK_LITMUS_MAX_ADDRESSES);
  std::map<int, unsigned> per_cta;
  for (const Thread& th : l.threads)
    if (++per_cta[th.cta] > kMaxBlockThreads)
      return "CTA b" + std::to_string(th.cta) + " has more than " + std::to_string(kMaxBlockThreads) +
             " threads, the most one CTA can have";
  return {};
}

// A location under a .surfref is a surface's own allocation (vmm::SurfaceAlias: one linear mapping):
// only that address and its virtual synonyms reach it, and no texture reads it.
std::string why_not_surface_memory(const Litmus& l) {
  const int n = static_cast<int>(l.addresses.size());
  for (int s = 0; s < n; ++s) {
    if (l.addresses[static_cast<std::size_t>(s)].declared != Proxy::Surface) continue;
    const int root = root_of(l, s);
    for (int a = 0; a < n; ++a) {
      const Address& addr = l.addresses[static_cast<std::size_t>(a)];
      if (root_of(l, a) != root && addr.location == l.addresses[static_cast<std::size_t>(root)].location)
        return "address " + address_name(l, a) + " physically aliases the memory of .surfref " + address_name(l, s) +
               ": a second mapping of a surface's memory is not in this version";
      if (root_of(l, a) == root && addr.declared == Proxy::Texture)
        return "a texture over the memory of .surfref " + address_name(l, s) + " is not in this version";
    }
  }
  return {};
}

std::string why_not_addresses(const Litmus& l) {
  const int n = static_cast<int>(l.addresses.size());
  for (int a = 0; a < n; ++a) {
    const Address& addr = l.addresses[static_cast<std::size_t>(a)];
    const int r = root_of(l, a);
    if (r < 0) return "address " + address_name(l, a) + ": its virtual synonym chain (same_as) leaves the declared addresses or loops";
    if (addr.shared != l.addresses[static_cast<std::size_t>(r)].shared)
      return "address " + address_name(l, a) + " is a virtual synonym across state spaces (.shared and .global)";
  }
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      const Address &x = l.addresses[static_cast<std::size_t>(a)], &y = l.addresses[static_cast<std::size_t>(b)];
      if (x.shared && !y.shared && x.location == y.location)
        return "addresses " + address_name(l, a) + " (.shared) and " + address_name(l, b) +
               " (.global) share a physical location: shared memory cannot alias global memory";
    }
  for (const Thread& th : l.threads)
    for (const Op& op : th.ops)
      if (is_access(op) && (op.address < 0 || op.address >= n))
        return one_line(th.name) + ": its operation " + std::to_string(&op - th.ops.data() + 1) + " names no declared address (" +
               address_name(l, op.address) + ")";
  return {};
}

// The proxies a generated kernel cannot take: surface, constant, and fences PTX does not have.
std::string why_not_proxy(const Litmus& l, const Op& op) {
  if (is_access(op) && op.proxy == Proxy::Surface) {
    const Address& addr = l.addresses[static_cast<std::size_t>(op.address)];
    if (addr.declared != Proxy::Surface)
      return op_text(l, op) + ": surface objects are made for .surfref addresses only";
    if (op.kind == OpKind::AtomAdd) return "surface atomics and reductions (suatom, sured) are not generated in this version";
    if (op.sem != Sem::Weak) return op_text(l, op) + ": suld and sust are weak; PTX has no ." + name_of(op.sem) + " surface access";
    if (addr.shared) return "a .surfref of .shared memory: surface objects view global memory only";
  }
  if (is_access(op) && op.proxy == Proxy::Constant)
    return "ldc: the constant state space cannot view global (VMM) memory";
  if (op.kind == OpKind::ProxyFence)
    // PTX ISA 9.0, fence: .proxykind = { .alias, .async, .async.global, .async.shared::{cta,cluster} }, and
    // the one-way fence.proxy.tensormap::generic; no texture, surface, constant or generic kind.
    return std::string("PTX has no fence.proxy.") + name_of(op.proxy) + " instruction";
  if (is_access(op) && op.proxy == Proxy::Texture) {
    if (op.kind != OpKind::Load) return "PTX has no texture-proxy write (tex/tld only reads)";
    if (op.sem != Sem::Weak) return "tld is a weak read: PTX has no ." + std::string(name_of(op.sem)) + " texture fetch";
    if (l.addresses[static_cast<std::size_t>(op.address)].shared)
      return "tld of .shared address " + address_name(l, op.address) + ": texture objects view global memory only";
    if (l.addresses[static_cast<std::size_t>(op.address)].declared != Proxy::Texture)
      return "tld of " + address_name(l, op.address) + ", which is not a .texref: texture objects are made for .texref addresses only";
  }
  return {};
}

// The sems and scopes PTX has for each instruction.
std::string why_not_semantics(const Litmus& l, const Op& op) {
  const std::string text = op_text(l, op);
  if ((op.kind == OpKind::FenceSc || op.kind == OpKind::FenceAcqRel) && op.scope == Level::Thread)
    return text + ": a fence needs a scope (.cta, .gpu or .sys)";
  if (!is_access(op) || is_tld(op)) return {};
  if (op.kind == OpKind::AtomAdd && op.scope == Level::Thread) return text + ": an atom or red needs a scope";
  if (op.sem != Sem::Weak && op.scope == Level::Thread) return text + ": a strong access needs a scope";
  if (op.kind == OpKind::Load && (op.sem == Sem::Release || op.sem == Sem::AcqRel))
    return text + ": PTX ld has no ." + name_of(op.sem);
  if (op.kind == OpKind::Store && (op.sem == Sem::Acquire || op.sem == Sem::AcqRel))
    return text + ": PTX st has no ." + name_of(op.sem);
  if (is_red(op) && (op.sem == Sem::Acquire || op.sem == Sem::AcqRel))
    return text + ": PTX red takes .relaxed or .release only, not ." + name_of(op.sem);
  return {};
}

// Registers live in one thread: an operand register is set earlier by the same thread, and no register
// is set by two threads (the result has one word per register).
std::string why_not_registers(const Litmus& l) {
  std::map<std::string, std::size_t> setter;
  for (std::size_t t = 0; t < l.threads.size(); ++t) {
    const Thread& th = l.threads[t];
    std::set<std::string> set_here;
    for (const Op& op : th.ops) {
      if ((op.kind == OpKind::Store || op.kind == OpKind::AtomAdd) && !op.value_reg.empty() && !set_here.count(op.value_reg))
        return one_line(th.name) + ": " + op_text(l, op) + " uses register " + one_line(op.value_reg) +
               ", which no earlier operation of the thread sets";
      if ((op.kind == OpKind::Load || op.kind == OpKind::AtomAdd) && !op.reg.empty()) {
        const auto [it, fresh] = setter.emplace(op.reg, t);
        if (!fresh && it->second != t)
          return "register " + one_line(op.reg) + " is set by two threads (" + one_line(l.threads[it->second].name) +
                 " and " + one_line(th.name) + ")";
        set_here.insert(op.reg);
      }
    }
  }
  return {};
}

// A .shared word is one CTA's: threads of two file CTAs cannot share it.
std::string why_not_shared(const Litmus& l) {
  std::map<int, int> cta_of;  // shared location -> Thread::cta of its first user
  for (const Thread& th : l.threads)
    for (const Op& op : th.ops) {
      if (!is_access(op) || !l.addresses[static_cast<std::size_t>(op.address)].shared) continue;
      const int location = l.addresses[static_cast<std::size_t>(op.address)].location;
      const auto [it, fresh] = cta_of.emplace(location, th.cta);
      if (!fresh && it->second != th.cta)
        return ".shared address " + address_name(l, op.address) + " is touched by threads of two CTAs (b" +
               std::to_string(it->second) + " and b" + std::to_string(th.cta) + "): shared memory is one CTA's";
    }
  return {};
}

// --- The source ---

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

// One thread's code in one round: the case body of the switch on `who`.
// A Site whose line is not known yet: where in the kernel's body its asm statement starts.
struct PendingSite {
  Site site;
  std::streamoff at = 0;
};

class ThreadEmitter {
 public:
  ThreadEmitter(const Litmus& l, const Layout& lay, std::size_t t, std::ostringstream& o, std::vector<PendingSite>& sites)
      : l_(l), lay_(lay), t_(t), o_(o), sites_(sites) {}

  void emit() {
    const Thread& th = l_.threads[t_];
    o_ << "      case " << t_ << ": {  // T" << t_ << " \"" << one_line(th.name) << "\" (d" << th.gpu << ".b" << th.cta
       << ".t" << th.lane << "): file CTA " << lay_.file_cta[t_] << ", file thread " << lay_.file_thread[t_] << "\n";
    emit_addresses();
    emit_register_declarations();
    emit_warming();
    for (std::size_t i = 0; i < th.ops.size(); ++i) {
      op_index_ = static_cast<unsigned>(i);
      emit_op(th.ops[i]);
    }
    emit_results();
    o_ << "        break;\n      }\n";
  }

 private:
  static constexpr const char* kIndent = "        ";

  std::set<int> addresses_used() const {
    std::set<int> used;
    for (const Op& op : l_.threads[t_].ops)
      if (is_access(op) && !is_tld(op) && op.proxy != Proxy::Surface) used.insert(op.address);
    return used;
  }

  // unsigned int* a<i>: the generic address of this instance's word of address i in this round.
  void emit_addresses() {
    for (int a : addresses_used()) {
      const std::size_t i = static_cast<std::size_t>(a);
      o_ << kIndent << "unsigned int* const a" << a << " = ";
      if (lay_.shared_index[i] >= 0) {
        o_ << "&vmmcheck_shared[slot * " << lay_.shared_locations << "u + " << lay_.shared_index[i] << "u];  // "
           << address_name(l_, a) << ": .shared, this slot's word\n";
      } else {
        const int root = lay_.root[i];
        const int L = lay_.global_index[i];
        if (lay_.surface_backed[static_cast<std::size_t>(L)])
          o_ << "p.view[" << root << "] + p.texel_word[" << L << "][word];  // " << address_name(l_, a) << ": location L" << L
             << ", a surface's memory: the word of this instance's texel";
        else
          o_ << "p.view[" << root << "] + (" << L << "ull * p.region_words + word);  // " << address_name(l_, a)
             << ": location L" << L;
        if (root != a) o_ << ", a virtual synonym of " << address_name(l_, root) << " (its view)";
        o_ << "\n";
      }
    }
  }

  std::set<int> registers_set() const {
    std::set<int> regs;
    for (const Op& op : l_.threads[t_].ops)
      if ((op.kind == OpKind::Load || op.kind == OpKind::AtomAdd) && !op.reg.empty())
        regs.insert(lay_.register_index.at(op.reg));
    return regs;
  }

  // Stress warm_loads (kernel_abi.h): a weak read of each global word a weak generic load of this thread
  // reads (not a spin's flag: a warm flag line would only stall the spin), so that load has a stale copy
  // to hit. No site: it is not an operation of the test, and it orders nothing. Only where something
  // other than a load comes before the word's first weak load (a store, an atom, a fence, an acquire, a
  // spin): with loads alone before it, ptxas may merge the two reads, and the load warms its own line.
  void emit_warming() {
    std::set<int> warm, seen;
    bool barrier = false;  // something ptxas cannot move a load above has come
    for (const Op& op : l_.threads[t_].ops) {
      const bool weak_load = op.kind == OpKind::Load && op.sem == Sem::Weak && op.proxy == Proxy::Generic && !op.spin;
      if (weak_load && !seen.count(op.address) && barrier && lay_.shared_index[static_cast<std::size_t>(op.address)] < 0)
        warm.insert(op.address);
      if (op.kind == OpKind::Load) seen.insert(op.address);
      if (!(op.kind == OpKind::Load && op.sem != Sem::Acquire && !op.spin)) barrier = true;
    }
    if (warm.empty()) return;
    o_ << kIndent << "if (p.warm_loads) {  // warm the lines this thread's weak loads read (stress; orders nothing)\n";
    for (int a : warm)
      o_ << kIndent << "  unsigned int warm" << a << ";\n"
         << kIndent << "  asm volatile(\"ld.u32 %0, [%1];\" : \"=r\"(warm" << a << ") : \"l\"(a" << a << ") : \"memory\");\n"
         << kIndent << "  vmmcheck_keep ^= warm" << a << ";\n";
    o_ << kIndent << "}\n";
  }

  void emit_register_declarations() {
    for (int k : registers_set())
      o_ << kIndent << "unsigned int v" << k << " = 0u;  // " << one_line(lay_.registers[static_cast<std::size_t>(k)]) << "\n";
  }

  // The variable a load or an atom writes: its register's, or a scratch one (no register named).
  std::string destination(const Op& op) {
    if (!op.reg.empty()) return "v" + std::to_string(lay_.register_index.at(op.reg));
    const std::string name = "unread" + std::to_string(unread_++);
    o_ << kIndent << "unsigned int " << name << ";\n";
    return name;
  }

  std::string operand(const Op& op) const {
    if (!op.value_reg.empty()) return "v" + std::to_string(lay_.register_index.at(op.value_reg));  // a data dependency
    return std::to_string(op.value) + "u";
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
      if (is_access(*current_)) {
        const std::size_t a = static_cast<std::size_t>(current_->address);
        p.site.location = lay_.shared_index[a] >= 0 ? 1000 + lay_.shared_index[a] : lay_.global_index[a];
      }
      sites_.push_back(std::move(p));
      current_ = nullptr;
    }
    o_ << kIndent << "asm volatile(" << quoted(ptx);
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

  void emit_op(const Op& op) {
    o_ << kIndent << "// " << op_text(l_, op) << "\n";
    current_ = &op;
    const std::string scope = name_of(op.scope);
    const std::string a = "\"l\"(a" + std::to_string(op.address) + ")";
    switch (op.kind) {
      case OpKind::Load:
        if (is_tld(op)) return emit_tld(op);
        if (op.proxy == Proxy::Surface) return emit_surface(op);
        if (op.spin) return emit_spin(op, a);
        emit_asm(load_ptx(op), "\"=r\"(" + destination(op) + ")", a);
        return;
      case OpKind::Store:
        if (op.proxy == Proxy::Surface) return emit_surface(op);
        emit_asm(store_ptx(op), "", a + ", \"r\"(" + operand(op) + ")");
        return;
      case OpKind::AtomAdd: {
        // atom/red with no .sem is .relaxed in PTX; a weak one is emitted so, explicitly.
        const std::string sem = op.sem == Sem::Weak ? "relaxed" : name_of(op.sem);
        if (is_red(op)) {
          emit_asm("red." + sem + "." + scope + ".add.u32 [%0], %1;", "", a + ", \"r\"(" + operand(op) + ")");
        } else {
          const std::string dst = destination(op);
          emit_asm("atom." + sem + "." + scope + ".add.u32 %0, [%1], %2;", "\"=r\"(" + dst + ")",
                   a + ", \"r\"(" + operand(op) + ")");
        }
        return;
      }
      case OpKind::FenceSc: emit_asm("fence.sc." + scope + ";", "", ""); return;
      case OpKind::FenceAcqRel: emit_asm("fence.acq_rel." + scope + ";", "", ""); return;
      case OpKind::AliasFence: emit_asm("fence.proxy.alias;", "", ""); return;
      case OpKind::ProxyFence: throw std::logic_error("proxy fences are never generated");
    }
  }

  // A spin-until load: the load repeats until it reads its value, within p.spin_timeout_ns of globaltimer
  // time (read every 64 polls: it is slower than a load); the bound reached leaves kSpinBoundReached in
  // the register, an outcome of its own. The load is one asm statement on its own line, as every other.
  void emit_spin(const Op& op, const std::string& address) {
    const std::string dst = destination(op);
    o_ << kIndent << "{\n"
       << kIndent << "  const unsigned long long spin_started = vmmcheck_now_ns();\n"
       << kIndent << "  for (unsigned int polls = 0u;; ++polls) {\n"
       << "    ";
    emit_asm(load_ptx(op), "\"=r\"(" + dst + ")", address);
    o_ << kIndent << "    if (" << dst << " == " << op.must_read << "u) break;\n"
       << kIndent << "    if ((polls & 63u) == 63u && vmmcheck_now_ns() - spin_started > p.spin_timeout_ns) {\n"
       << kIndent << "      " << dst << " = " << kSpinBoundReached << "u;  // the bound reached: an outcome of its own\n"
       << kIndent << "      break;\n"
       << kIndent << "    }\n"
       << kIndent << "  }\n"
       << kIndent << "}\n";
  }

  static std::string load_ptx(const Op& op) {
    const std::string scope = name_of(op.scope);
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
  // to PTX registers scoped to the statement.
  void emit_tld(const Op& op) {
    const std::size_t i = static_cast<std::size_t>(op.address);
    const std::string dst = destination(op);
    emit_asm("{ .reg .b32 tld_y, tld_z, tld_w; tex.1d.v4.u32.s32 {%0, tld_y, tld_z, tld_w}, [%1, {%2}]; }",
             "\"=r\"(" + dst + ")",
             "\"l\"(p.texture[" + std::to_string(op.address) + "]), \"r\"((int)(" + std::to_string(lay_.global_index[i]) +
                 "ull * p.region_words + word))");
  }

  // suld / sust: through the .surfref's surface object, at this instance's texel (kernel_abi.h:
  // x = k % surface_width in bytes for the .b form, y = k / surface_width; k is `word`).
  void emit_surface(const Op& op) {
    const std::string coords = "\"l\"(p.surface[" + std::to_string(op.address) +
                               "]), \"r\"((int)((word % p.surface_width) * 4u)), \"r\"((int)(word / p.surface_width))";
    if (op.kind == OpKind::Load)
      emit_asm("suld.b.2d.b32.trap {%0}, [%1, {%2, %3}];", "\"=r\"(" + destination(op) + ")", coords);
    else
      emit_asm("sust.b.2d.b32.trap [%0, {%1, %2}], {%3};", "", coords + ", \"r\"(" + operand(op) + ")");
  }

  void emit_results() {
    const std::set<int> regs = registers_set();
    if (regs.empty()) return;
    o_ << kIndent << "unsigned int* const out = p.registers + ((unsigned long long)r * p.instances + m) * p.register_count;\n";
    for (int k : regs)
      o_ << kIndent << "out[" << k << "] = v" << k << ";  // " << one_line(lay_.registers[static_cast<std::size_t>(k)]) << "\n";
  }

  const Litmus& l_;
  const Layout& lay_;
  std::size_t t_;
  std::ostringstream& o_;
  std::vector<PendingSite>& sites_;
  const Op* current_ = nullptr;  // the operation whose asm statement comes next
  unsigned op_index_ = 0;
  int unread_ = 0;
};

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
  o << "// Registers (p.registers, in this order):";
  for (const std::string& r : lay.registers) o << " " << one_line(r);
  if (lay.registers.empty()) o << " none";
  o << "\n\n#include \"litmus_abi.h\"\n\n";
}

void emit_helpers(std::ostringstream& o) {
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
}

// Placement: invert cta_perm and the lane formula of litmus_abi.h to find (b, instance m, slot, t), then
// the litmus thread `who` that file thread t of file CTA b is. Anything that does not map back is idle.
void emit_placement(const Litmus& l, const Layout& lay, unsigned max_slots, std::ostringstream& o) {
  o << "  const unsigned int kFileCtas = " << lay.file_ctas << "u, kThreadsPerFileCta = " << lay.threads_per_file_cta
    << "u, kMaxSlots = " << max_slots << "u;\n";
  o << R"(  int who = -1;            // the litmus thread this thread runs; -1: none (it only joins barriers)
  unsigned int m = 0u;     // its instance
  unsigned int slot = 0u;  // its slot in this CTA
  if (blockIdx.x < p.ctas && p.file_ctas == kFileCtas && p.ctas % kFileCtas == 0u && p.slots != 0u &&
      p.slots <= kMaxSlots && p.block_threads == blockDim.x && p.instances == p.ctas / kFileCtas * p.slots) {
    // cta_perm(q) = (q * cta_stride + cta_offset) % ctas = blockIdx.x, q = g + b * groups.
    const unsigned int groups = p.ctas / kFileCtas;
    const unsigned int shifted = (blockIdx.x + p.ctas - p.cta_offset % p.ctas) % p.ctas;
    const unsigned int q = (unsigned int)((unsigned long long)shifted * vmmcheck_inverse(p.cta_stride % p.ctas, p.ctas) % p.ctas);
    const unsigned int b = q / groups, g = q % groups;
    // lane = ((t * slots + slot) * lane_stride) % block_threads = threadIdx.x.
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

void emit_round_start(const Layout& lay, unsigned max_slots, std::ostringstream& o) {
  const bool shared = lay.shared_locations > 0;
  if (shared)
    o << "    // .shared words: zeroed each round, with barriers around (whatever stress.barrier says).\n"
         "    __syncthreads();\n"
         "    for (unsigned int i = threadIdx.x; i < p.slots * "
      << lay.shared_locations << "u && i < " << max_slots * lay.shared_locations
      << "u; i += blockDim.x) vmmcheck_shared[i] = 0u;\n";
  // The stress every in-kernel test has (kernels/stress_ops.h): the barrier and the pre-stress accesses.
  o << "    vmmcheck_stress_round(&p.stress, blockIdx.x * blockDim.x + threadIdx.x, r, &vmmcheck_keep);\n";
  if (shared) o << "    __syncthreads();\n";
}

std::string kernel_name(const Litmus& l, const std::string& body) {
  return "vmmcheck_litmus_" + identifier(l.name, 40) + "_" + hex64(fnv1a(l.name + '\n' + body));
}

}  // namespace

std::string why_not_generated(const Litmus& test) {
  for (const std::string& reason :
       {why_not_harness_extension(test), why_not_placement(test), why_not_addresses(test), why_not_surface_memory(test)})
    if (!reason.empty()) return reason;
  for (const Thread& th : test.threads)
    for (const Op& op : th.ops)
      for (const std::string& reason : {why_not_proxy(test, op), why_not_semantics(test, op)})
        if (!reason.empty()) return reason;
  for (const std::string& reason : {why_not_registers(test), why_not_shared(test)})
    if (!reason.empty()) return reason;
  return {};
}

Kernel generate(const Litmus& test) {
  if (const std::string reason = why_not_generated(test); !reason.empty())
    throw std::invalid_argument("litmus test " + test.name + " cannot be generated: " + reason);
  const Layout lay = layout_of(test);
  // Slots share a CTA (slots * threads_per_file_cta <= block_threads <= 1024): the most .shared words.
  const unsigned max_slots = kMaxBlockThreads / std::max(1u, lay.threads_per_file_cta);

  std::ostringstream body;
  body << "(VmmcheckLitmusLaunch p) {\n"
          "  // The memory-stress CTAs after the testing ones (kernels/stress_ops.h) run no instance.\n"
          "  if (blockIdx.x >= p.ctas) {\n"
          "    if (p.stress.scratch != 0 && p.stress.done != 0) vmmcheck_memory_stress(&p.stress, p.ctas);\n"
          "    return;\n"
          "  }\n"
          "  unsigned int vmmcheck_keep = 0u;  // what the stress loads read, kept so that they happen\n";
  emit_placement(test, lay, max_slots, body);
  if (lay.shared_locations > 0)
    body << "  __shared__ unsigned int vmmcheck_shared[" << max_slots * lay.shared_locations
         << "];  // [slot][shared location]\n";
  body << "  for (unsigned int r = 0; r < p.rounds; ++r) {\n";
  emit_round_start(lay, max_slots, body);
  body << "    // This round's word of this instance, in every location's region.\n"
          "    const unsigned long long word = (unsigned long long)r * p.instances + column;\n"
          "    (void)word;\n"
          "    switch (who) {\n";
  std::vector<PendingSite> pending;
  for (std::size_t t = 0; t < test.threads.size(); ++t) ThreadEmitter(test, lay, t, body, pending).emit();
  body << "      default: break;\n    }\n  }\n"
          "  if (vmmcheck_keep == 0xFFFFFFFFu && p.stress.scratch != 0) p.stress.scratch[0] = vmmcheck_keep;\n"
          "  vmmcheck_testing_done(&p.stress);\n}\n";

  Kernel k;
  k.name = kernel_name(test, body.str());
  std::ostringstream src;
  emit_header(test, lay, src);
  emit_helpers(src);
  k.function_at = static_cast<std::size_t>(src.tellp());
  src << "extern \"C\" __global__ void " << k.name << body.str();
  k.source = src.str();
  // A site's line: the lines before the body's text, and the body's lines before its statement.
  const std::string text = body.str();
  const auto lines_before = [](const std::string& s, std::size_t end) {
    return static_cast<unsigned>(std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
  };
  const unsigned body_line = 1 + lines_before(k.source, k.function_at);
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
  return k;
}

}  // namespace vmmcheck::codegen
