#include "toolchain/machine_check.hpp"

#include <algorithm>
#include <map>
#include <sstream>

// The rules (docs/toolchain.md, "What each operation needs"): what ptxas must emit on sm_90 for each
// PTX operation the generator writes, read off the PTX ISA's semantics and the code ptxas gives when it
// keeps them (the table in the docs was measured with ptxas 13.0 at -O0): a strong access carries
// .STRONG at its scope or wider (.SM is .cta's); a release is preceded by a MEMBAR at its scope; an
// acquire at .gpu or .sys is followed by CCTL.IVALL (the SM's L1 holds lines another SM may have
// written); fence.sc is MEMBAR.SC, fence.acq_rel MEMBAR.ALL or .SC, both with CCTL.IVALL at .gpu and
// wider; fence.proxy.alias a MEMBAR at .gpu or wider and CCTL.IVALL. Stronger code than asked is fine.
namespace vmmcheck::toolchain {
namespace {

using patterns::litmus::Level;
using patterns::litmus::OpKind;
using patterns::litmus::Proxy;
using patterns::litmus::Sem;

// NcLoad: LDG.E.CONSTANT, the read-only (non-coherent) data path ld.global.nc takes on sm_90.
enum class Unit { Other, Load, NcLoad, Store, Atomic, Reduction, Texture, SurfaceLoad, SurfaceStore, Membar, Invalidate, Barrier };

struct Decoded {
  Unit unit = Unit::Other;
  int scope = 0;  // 0: weak; 1: .cta (SASS .SM, or shared memory); 2: .gpu; 3: .sys
  bool sc = false;
};

int scope_of(const std::string& token) {
  if (token == "CTA" || token == "SM") return 1;
  if (token == "GPU" || token == "VC") return 2;
  if (token == "SYS") return 3;
  return 0;
}

Decoded decode(const Instruction& i) {
  std::vector<std::string> parts;
  std::stringstream in(i.opcode);
  for (std::string p; std::getline(in, p, '.');) parts.push_back(p);
  Decoded d;
  if (parts.empty()) return d;
  const std::string& base = parts[0];
  const auto has = [&](const char* m) { return std::find(parts.begin() + 1, parts.end(), m) != parts.end(); };
  if (base == "LDG" && has("CONSTANT")) d.unit = Unit::NcLoad;
  else if (base == "LD" || base == "LDG") d.unit = Unit::Load;
  else if (base == "ST" || base == "STG") d.unit = Unit::Store;
  else if (base == "ATOM" || base == "ATOMG" || base == "SUATOM") d.unit = Unit::Atomic;
  else if (base == "RED" || base == "REDG" || base == "SURED") d.unit = Unit::Reduction;
  else if (base == "LDS") d = {Unit::Load, 1, false};
  else if (base == "STS") d = {Unit::Store, 1, false};
  else if (base == "ATOMS") d = {Unit::Atomic, 1, false};
  else if (base == "TLD" || base == "TEX" || base == "TLDS" || base == "TEXS" || base == "TLD4" || base == "TLD4S") d.unit = Unit::Texture;
  else if (base == "SULD") d.unit = Unit::SurfaceLoad;
  else if (base == "BAR" && has("SYNC")) d.unit = Unit::Barrier;
  else if (base == "SUST") d.unit = Unit::SurfaceStore;
  else if (base == "MEMBAR") {
    d.unit = Unit::Membar;
    d.sc = has("SC");
    for (std::size_t k = 1; k < parts.size(); ++k) d.scope = std::max(d.scope, scope_of(parts[k]));
  } else if (base == "CCTL" && has("IVALL")) {
    d.unit = Unit::Invalidate;
  }
  for (std::size_t k = 1; k + 1 < parts.size(); ++k)
    if (parts[k] == "STRONG") d.scope = std::max(d.scope, scope_of(parts[k + 1]));
  return d;
}

int rank(Level l) {
  switch (l) {
    case Level::Cta: return 1;
    case Level::Gpu: return 2;
    case Level::Sys: return 3;
    default: return 0;
  }
}

const char* scope_word(int s) { return s == 1 ? ".cta (.SM)" : s == 2 ? ".gpu" : s == 3 ? ".sys" : "weak"; }

// The operation as its PTX statement states it (Site::ptx): what the machine code must keep. The litmus
// operation says the same unless the generator is wrong, and that is the generator's fault, not the
// compiler's -- so a generator that emitted st.relaxed for st.release leaves the compiler blameless.
codegen::Site as_ptx(const codegen::Site& s) {
  if (s.ptx.empty()) return s;
  std::vector<std::string> t;
  std::stringstream in(s.ptx);
  for (std::string p; std::getline(in, p, '.');) t.push_back(p);
  codegen::Site p = s;
  const auto scope_in = [&](Level fallback) {
    for (const std::string& w : t) {
      if (w == "cta") return Level::Cta;
      if (w == "gpu") return Level::Gpu;
      if (w == "sys") return Level::Sys;
    }
    return fallback;
  };
  const auto sem_in = [&](Sem fallback) {
    for (const std::string& w : t) {
      if (w == "relaxed") return Sem::Relaxed;
      if (w == "acquire") return Sem::Acquire;
      if (w == "release") return Sem::Release;
      if (w == "acq_rel") return Sem::AcqRel;
      if (w == "volatile") return Sem::Relaxed;
    }
    return fallback;
  };
  const std::string& head = t.front();
  if (head == "ld" || head == "st") {
    p.op.kind = head == "ld" ? OpKind::Load : OpKind::Store;
    p.op.sem = sem_in(Sem::Weak);
    p.op.scope = std::find(t.begin(), t.end(), "volatile") != t.end() ? Level::Sys : scope_in(Level::Thread);
  } else if (head == "atom" || head == "red") {
    p.op.kind = OpKind::AtomAdd;
    p.op.sem = sem_in(Sem::Relaxed);
    p.op.scope = scope_in(Level::Gpu);  // PTX: no scope is .gpu
  } else if (head == "fence" && t.size() >= 2) {
    if (t[1] == "sc") p.op.kind = OpKind::FenceSc;
    else if (t[1] == "acq_rel") p.op.kind = OpKind::FenceAcqRel;
    else if (t[1] == "proxy") p.op.kind = t.size() >= 3 && t[2] == "alias" ? OpKind::AliasFence : OpKind::ProxyFence;
    p.op.scope = scope_in(p.op.scope);
  }
  return p;
}

// What a site needs of its line's machine code.
struct Need {
  std::vector<Unit> units;  // its main instruction: one of these
  int scope = 0;            // .STRONG at this scope or wider (0: any)
  bool membar_before = false;
  bool inval_after = false;
  bool sc = false;          // the MEMBAR (a fence's main instruction, or a release's) must be .SC
  bool fence() const { return units.size() == 1 && units[0] == Unit::Membar; }
};

bool acquires(Sem s) { return s == Sem::Acquire || s == Sem::AcqRel; }
bool releases(Sem s) { return s == Sem::Release || s == Sem::AcqRel; }

Need need_of(const codegen::Site& site) {
  const auto& op = site.op;
  Need n;
  switch (op.kind) {
    case OpKind::Load:
      // ld.global.nc: the read-only path, or a coherent load (stronger; ptxas may choose it).
      if (op.nc) return Need{{Unit::NcLoad, Unit::Load}};
      if (op.proxy == Proxy::Texture) return Need{{Unit::Texture}};
      if (op.proxy == Proxy::Surface) return Need{{Unit::SurfaceLoad}};
      n.units = {Unit::Load};
      n.scope = op.sem == Sem::Weak ? 0 : rank(op.scope);
      n.inval_after = acquires(op.sem) && rank(op.scope) >= 2;
      return n;
    case OpKind::Store:
      if (op.proxy == Proxy::Surface) return Need{{Unit::SurfaceStore}};
      n.units = {Unit::Store};
      n.scope = op.sem == Sem::Weak ? 0 : rank(op.scope);
      n.membar_before = releases(op.sem);
      return n;
    case OpKind::AtomAdd:
      n.units = op.reg.empty() ? std::vector<Unit>{Unit::Atomic, Unit::Reduction} : std::vector<Unit>{Unit::Atomic};
      n.scope = rank(op.scope);
      n.membar_before = releases(op.sem);
      n.inval_after = acquires(op.sem) && rank(op.scope) >= 2;
      return n;
    case OpKind::FenceSc: return Need{{Unit::Membar}, rank(op.scope), false, rank(op.scope) >= 2, true};
    case OpKind::FenceAcqRel: return Need{{Unit::Membar}, rank(op.scope), false, rank(op.scope) >= 2, false};
    case OpKind::AliasFence: return Need{{Unit::Membar}, 2, false, true, false};
    case OpKind::ProxyFence: return Need{{Unit::Membar}, 2, false, false, false};
    case OpKind::Barrier: return Need{{Unit::Barrier}};
  }
  return n;
}

bool is_main(const Need& n, const Decoded& d) {
  return std::find(n.units.begin(), n.units.end(), d.unit) != n.units.end();
}

// Does program order between a (first) and b (second) bind the compiler? The PTX model orders them for
// every other thread when either is a fence, a comes with acquire semantics, b with release semantics,
// or both touch the same word (coherence); two plain accesses to different words it leaves unordered.
// (A fence is ordered with everything here: conservative, as ptxas must be.)
bool ordered(const codegen::Site& a, const codegen::Site& b) {
  const auto is_fence = [](const codegen::Site& s) {
    return s.op.kind == OpKind::FenceSc || s.op.kind == OpKind::FenceAcqRel || s.op.kind == OpKind::AliasFence ||
           s.op.kind == OpKind::ProxyFence || s.op.kind == OpKind::Barrier;
  };
  if (is_fence(a) || is_fence(b)) return true;
  // A release orders every earlier access of its thread and an acquire every later one, whatever their
  // proxy: the model's causality runs along program order through them, and only its two ends must share
  // a proxy (sust [s]; st.release [flag] / ld.acquire [flag]; suld [s] in one CTA: docs/litmus-model.md).
  // A texture-proxy read (tld, ld.nc) is the exception: nothing in PTX orders a write of another proxy
  // before it (no texture proxy fence), so an acquire or a release around it orders nothing it could show.
  const auto texture_read = [](const codegen::Site& s) { return s.op.kind == OpKind::Load && s.op.proxy == Proxy::Texture; };
  if ((acquires(a.op.sem) || releases(b.op.sem)) && !texture_read(a) && !texture_read(b)) return true;
  // Plain accesses of two proxies (a texture or surface access, a generic one) are ordered by proxy
  // fences only: program order alone does not order them.
  if (a.op.proxy != b.op.proxy) return false;
  return a.location >= 0 && a.location == b.location;
}

bool is_load_site(const codegen::Site& s) { return s.op.kind == OpKind::Load || (s.op.kind == OpKind::AtomAdd && !s.op.reg.empty()); }

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

const char* name_of(Problem p) {
  switch (p) {
    case Problem::Lost: return "lost";
    case Problem::Merged: return "merged";
    case Problem::Weakened: return "weakened";
    case Problem::Reordered: return "reordered";
    case Problem::Elided: return "elided";
  }
  return "?";
}

std::string requirement_of(const codegen::Site& site) {
  const Need n = need_of(as_ptx(site));
  static const std::map<Unit, const char*> names{{Unit::Load, "a load (LD, LDG or LDS)"},
                                                 {Unit::NcLoad, "a read-only load (LDG.E.CONSTANT)"},
                                                 {Unit::Store, "a store (ST, STG or STS)"},
                                                 {Unit::Atomic, "an atomic (ATOM, ATOMG or ATOMS)"},
                                                 {Unit::Reduction, "a reduction (RED or REDG)"},
                                                 {Unit::Texture, "a texture fetch (TLD, TEX)"},
                                                 {Unit::SurfaceLoad, "SULD"},
                                                 {Unit::SurfaceStore, "SUST"},
                                                 {Unit::Membar, "MEMBAR"},
                                                 {Unit::Barrier, "BAR.SYNC"}};
  std::ostringstream o;
  for (std::size_t k = 0; k < n.units.size(); ++k) o << (k ? " or " : "") << names.at(n.units[k]);
  if (n.fence()) o << (n.sc ? ".SC" : " (.ALL or .SC)") << " at " << scope_word(n.scope) << " or wider";
  else if (n.scope > 0) o << " .STRONG at " << scope_word(n.scope) << " or wider";
  if (n.membar_before) o << ", after a MEMBAR at " << scope_word(n.scope) << " or wider";
  if (n.inval_after) o << ", then CCTL.IVALL";
  return o.str();
}

std::vector<PtxInstruction> ptx_of(const codegen::Site& site, const std::vector<PtxInstruction>& ptx, int line_offset) {
  std::vector<PtxInstruction> out;
  const int line = static_cast<int>(site.line) + line_offset;
  for (const PtxInstruction& p : ptx)
    if (p.source_line == line && p.text.find(site.ptx) != std::string::npos) out.push_back(p);
  return out;
}

MachineCheck check_machine_code(const codegen::Kernel& k, const std::vector<Function>& sass, int line_offset,
                                const std::string& source_file) {
  MachineCheck check;
  const auto f = std::find_if(sass.begin(), sass.end(), [&](const Function& fn) { return fn.name == k.name; });
  if (f == sass.end()) return check;
  check.function_found = true;
  const std::vector<Instruction>& code = f->code;
  std::vector<codegen::Site> sites;
  for (const codegen::Site& s : k.sites) sites.push_back(as_ptx(s));
  const auto line_of = [&](const codegen::Site& s) { return static_cast<int>(s.line) + line_offset; };
  const auto own = [&](const Instruction& i) { return ends_with(i.file, source_file); };
  const auto on_line = [&](std::size_t i, const codegen::Site& s) { return own(code[i]) && code[i].line == line_of(s); };

  // 1. Each site's main instructions on its line: one per copy of its thread's code.
  std::vector<std::vector<std::size_t>> mains(sites.size());
  std::vector<bool> claimed(code.size(), false);
  for (std::size_t s = 0; s < sites.size(); ++s) {
    const Need n = need_of(sites[s]);
    for (std::size_t i = 0; i < code.size(); ++i)
      if (on_line(i, sites[s]) && is_main(n, decode(code[i]))) mains[s].push_back(i);
    for (std::size_t i : mains[s]) claimed[i] = true;
  }

  // 2. Texture and surface instructions come from the generated operations alone, but their line-table
  // entries are loose (ptxas 13.0 gives a hoisted TLD the switch's line, a SULD the line of the texel's
  // address): a site of such a unit with none on its line takes the unit's unclaimed instructions, in
  // order, when they are exactly as many.
  for (Unit u : {Unit::Texture, Unit::SurfaceLoad, Unit::SurfaceStore}) {
    std::vector<std::size_t> waiting, loose;
    for (std::size_t s = 0; s < sites.size(); ++s)
      if (mains[s].empty() && need_of(sites[s]).units == std::vector<Unit>{u}) waiting.push_back(s);
    for (std::size_t i = 0; i < code.size(); ++i)
      if (own(code[i]) && !claimed[i] && decode(code[i]).unit == u) loose.push_back(i);
    if (waiting.empty() || loose.size() != waiting.size()) continue;
    for (std::size_t w = 0; w < waiting.size(); ++w) {
      mains[waiting[w]].push_back(loose[w]);
      claimed[loose[w]] = true;
      check.notes.push_back("`" + sites[waiting[w]].text + "` (source line " + std::to_string(sites[waiting[w]].line) + ") is " +
                            code[loose[w]].text() + ", which the line table gives line " +
                            std::to_string(code[loose[w]].line - line_offset));
    }
  }

  std::map<unsigned, std::vector<std::size_t>> threads;  // thread -> its sites, in program order
  for (std::size_t s = 0; s < sites.size(); ++s) threads[sites[s].thread].push_back(s);

  for (const auto& [thread, ts] : threads) {
    // Copies of the thread's code: as many as its accesses' instructions (a fence's MEMBARs are no
    // count: ptxas lays alternatives out side by side -- fence.proxy.alias picks .GPU or .SYS at run
    // time, and 12.x writes each path with a MEMBAR.ALL.CTA before it).
    // A spin's load is no count either: ptxas may rotate its loop, a first load before it and one in it.
    // Nor is a barrier: barrier.cta.sync (not .aligned) becomes a BAR.SYNC for a converged warp and
    // another behind WARPSYNC.COLLECTIVE for a diverged one, side by side.
    std::size_t copies = 0;
    for (std::size_t s : ts)
      if (!need_of(sites[s]).fence() && !sites[s].op.spin && sites[s].op.kind != OpKind::Barrier)
        copies = std::max(copies, mains[s].size());
    if (copies == 0)
      for (std::size_t s : ts) copies = std::max<std::size_t>(copies, mains[s].empty() ? 0 : 1);
    // Behind a barrier ptxas may lay the code that follows out once for each of its two paths (a
    // converged warp's and a diverged one's), up to the next barrier: an operation's instructions then
    // count those paths, not copies of the thread's code. One copy; each operation's first is checked.
    const bool passes_barrier = std::any_of(ts.begin(), ts.end(), [&](std::size_t s) { return sites[s].op.kind == OpKind::Barrier; });
    // Branches and loops: ptxas lays the thread's blocks out in an order of its own (a loop rotated, its
    // exit placed after the code that follows it), so the listing's order is no program order. One copy;
    // each operation's first instruction is checked for its kind and strength, and program order is not.
    const bool branches = std::any_of(ts.begin(), ts.end(), [&](std::size_t s) { return sites[s].branches; });
    if (branches) {
      check.notes.push_back("thread T" + std::to_string(thread) + " has branches: each operation's first instruction is checked " +
                            "for its kind and strength, not for its place in program order");
      copies = std::min<std::size_t>(copies, 1);
      for (std::size_t s : ts) mains[s].resize(std::min<std::size_t>(mains[s].size(), 1));
    }
    if (passes_barrier && copies > 1) {
      check.notes.push_back("thread T" + std::to_string(thread) + " passes a CTA barrier: its operations' instructions count the " +
                            "barrier's two paths; the first of each is checked");
      copies = 1;
    }
    // A spin with more loads than copies: the first of each copy's stands for the loop (each is checked
    // for its strength below only through it; the note says so).
    for (std::size_t s : ts)
      if (sites[s].op.spin && mains[s].size() > std::max<std::size_t>(copies, 1)) {
        check.notes.push_back("`" + sites[s].text + "` (source line " + std::to_string(sites[s].line) + ") spins: " +
                              std::to_string(mains[s].size()) + " loads for " + std::to_string(std::max<std::size_t>(copies, 1)) +
                              " copies of the thread's code (its loop, rotated); the first is checked");
        mains[s].resize(std::max<std::size_t>(copies, 1));
      }
    // A fence's MEMBARs fall into that many groups, one a copy, each ending in CCTL.IVALL where the fence
    // needs one; its instruction in a copy is the group's first MEMBAR, its strength the group's strongest.
    std::map<std::size_t, std::vector<std::pair<std::size_t, std::size_t>>> fence_groups;  // site -> [first, end)
    for (std::size_t s : ts) {
      const Need n = need_of(sites[s]);
      if (!n.fence() || mains[s].empty()) continue;
      std::vector<std::size_t> starts{mains[s].front()};
      for (std::size_t m = 1; m < mains[s].size() && copies > 1; ++m) {
        bool invalidated = false;
        for (std::size_t i = mains[s][m - 1] + 1; i < mains[s][m]; ++i)
          invalidated = invalidated || (on_line(i, sites[s]) && decode(code[i]).unit == Unit::Invalidate);
        if (invalidated || !n.inval_after) starts.push_back(mains[s][m]);
      }
      if (starts.size() > copies) starts.resize(1);  // alternatives, not copies
      auto& groups = fence_groups[s];
      for (std::size_t g = 0; g < starts.size(); ++g)
        groups.emplace_back(starts[g], g + 1 < starts.size() ? starts[g + 1] : code.size());
      mains[s] = starts;
    }
    check.copies = std::max<unsigned>(check.copies, static_cast<unsigned>(copies));
    const std::size_t copy_count = std::max<std::size_t>(copies, 1);
    const auto present = [&](std::size_t p, std::size_t c) { return c < mains[ts[p]].size(); };

    // The thread's code around its p-th site in copy c: from the nearest kept operation before it to the
    // nearest after it (eight instructions either side where there is none).
    const auto context = [&](std::size_t p, std::size_t c) {
      constexpr std::size_t kNone = static_cast<std::size_t>(-1), kSpan = 8;
      std::size_t lo = kNone, hi = kNone;
      for (std::size_t q = p; q-- > 0;)
        if (present(q, c)) { lo = mains[ts[q]][c]; break; }
      for (std::size_t q = p + 1; q < ts.size(); ++q)
        if (present(q, c)) { hi = mains[ts[q]][c]; break; }
      if (present(p, c)) {
        if (lo == kNone) lo = mains[ts[p]][c] >= kSpan ? mains[ts[p]][c] - kSpan : 0;
        if (hi == kNone) hi = mains[ts[p]][c] + kSpan;
      }
      if (lo == kNone && hi == kNone) return std::vector<std::string>{};
      if (lo == kNone) lo = hi >= kSpan ? hi - kSpan : 0;
      if (hi == kNone) hi = lo + kSpan;
      if (lo > hi) std::swap(lo, hi);
      hi = std::min(hi, code.size() - 1);
      std::vector<std::string> out;
      for (std::size_t i = lo; i <= hi && out.size() < 3 * kSpan; ++i)
        out.push_back("line " + std::to_string(code[i].line - line_offset) + ": " + code[i].text());
      return out;
    };

    // A missing operation the model lets go: a load whose value an earlier access of the same word gives
    // (a merged load, or a store forwarded) and a store a later one overwrites, with nothing between
    // that the model orders with it. Returns why, or empty.
    const auto allowed_elision = [&](std::size_t p, std::size_t c) -> std::string {
      const codegen::Site& s = sites[ts[p]];
      if (s.location < 0) return {};
      // A texture-proxy read (tld, ld.nc): the texture proxy has no writes, and a write of another proxy
      // is ordered before it only by a texture proxy fence (docs/litmus-model.md, "Proxies"), so the
      // earlier read of the word through that proxy stands for it across anything else.
      if (s.op.kind == OpKind::Load && s.op.proxy == Proxy::Texture) {
        for (std::size_t q = p; q-- > 0;) {
          const codegen::Site& e = sites[ts[q]];
          if (e.op.kind == OpKind::ProxyFence && e.op.proxy == Proxy::Texture) return {};
          if (e.location != s.location || e.op.proxy != Proxy::Texture) continue;
          if (!present(q, c)) return {};
          return "the value the earlier `" + e.text + "` reads stands for it (no texture proxy fence between orders a write before it)";
        }
        return {};
      }
      if (is_load_site(s) && s.op.kind == OpKind::Load) {
        for (std::size_t q = p; q-- > 0;) {
          const codegen::Site& e = sites[ts[q]];
          if (e.location != s.location) continue;
          if (!present(q, c) || (e.op.kind != OpKind::Load && e.op.kind != OpKind::Store)) return {};
          for (std::size_t m = q + 1; m < p; ++m)
            if (ordered(sites[ts[m]], s)) return {};
          if (e.op.proxy != s.op.proxy) return {};
          return std::string(e.op.kind == OpKind::Store ? "the value of the earlier `" : "the value the earlier `") + e.text +
                 (e.op.kind == OpKind::Store ? "` stores" : "` reads") + " stands for it";
        }
      }
      if (s.op.kind == OpKind::Store) {
        for (std::size_t q = p + 1; q < ts.size(); ++q) {
          const codegen::Site& later = sites[ts[q]];
          if (later.location != s.location) continue;
          if (later.op.kind != OpKind::Store || !present(q, c) || later.op.proxy != s.op.proxy) return {};
          for (std::size_t m = p + 1; m < q; ++m)
            if (ordered(s, sites[ts[m]])) return {};
          return "the later `" + later.text + "` overwrites it before anything the model orders after it";
        }
      }
      return {};
    };

    std::vector<bool> reported(ts.size(), false);
    for (std::size_t c = 0; c < copy_count; ++c) {
      for (std::size_t p = 0; p < ts.size(); ++p) {
        const codegen::Site& site = sites[ts[p]];
        const Need n = need_of(site);
        if (!present(p, c)) {
          if (reported[p]) continue;
          reported[p] = true;
          Finding f{Problem::Lost, site, "", context(p, c)};
          f.detail = "its source line " + std::to_string(site.line) + " has no instruction of its kind (it needs " + requirement_of(site) + ")";
          if (copy_count > 1)
            f.detail += ", in " + std::to_string(copy_count - mains[ts[p]].size()) + " of " + std::to_string(copy_count) +
                        " copies of the thread's code";
          if (const std::string why = allowed_elision(p, c); !why.empty()) {
            f.problem = Problem::Elided;
            f.detail += "; " + why + ": the model allows that, but the row no longer tests this operation";
          } else if (is_load_site(site)) {
            for (std::size_t q = p; q-- > 0;)
              if (is_load_site(sites[ts[q]]) && sites[ts[q]].location == site.location && present(q, c)) {
                f.problem = Problem::Merged;
                f.detail += "; the earlier `" + sites[ts[q]].text +
                            "` reads the same word and is kept: its value stands for both, across what the model orders between them";
                break;
              }
          }
          check.findings.push_back(std::move(f));
          continue;
        }
        const std::size_t at = mains[ts[p]][c];
        Decoded d = decode(code[at]);
        if (n.fence())  // the strongest MEMBAR of its group
          for (std::size_t i = fence_groups[ts[p]][c].first; i < fence_groups[ts[p]][c].second; ++i) {
            const Decoded m = decode(code[i]);
            if (!on_line(i, site) || m.unit != Unit::Membar) continue;
            d.scope = std::max(d.scope, m.scope);
            d.sc = d.sc || m.sc;
          }
        std::string weak;
        if (d.scope < n.scope) weak = code[at].opcode + " is " + scope_word(d.scope) + ", " + scope_word(n.scope) + " or wider is needed";
        else if (n.fence() && n.sc && !d.sc) weak = code[at].opcode + " is not .SC";
        // The line's fences: a MEMBAR before the access (after the previous copy's), CCTL.IVALL after it.
        const std::size_t from = c > 0 ? mains[ts[p]][c - 1] + 1 : 0;
        const std::size_t to = n.fence() ? fence_groups[ts[p]][c].second : c + 1 < mains[ts[p]].size() ? mains[ts[p]][c + 1] : code.size();
        if (weak.empty() && n.membar_before) {
          bool found = false;
          for (std::size_t i = from; i < at; ++i) {
            const Decoded m = decode(code[i]);
            found = found || (on_line(i, site) && m.unit == Unit::Membar && m.scope >= n.scope);
          }
          if (!found) weak = "no MEMBAR at " + std::string(scope_word(n.scope)) + " or wider before " + code[at].opcode;
        }
        if (weak.empty() && n.inval_after && n.fence()) {
          // Every path of the fence ends in the invalidation: at least one CCTL.IVALL after its last MEMBAR.
          std::size_t last = at;
          for (std::size_t i = at; i < to; ++i)
            if (on_line(i, site) && decode(code[i]).unit == Unit::Membar) last = i;
          bool found = false;
          for (std::size_t i = last + 1; i < to; ++i) found = found || (on_line(i, site) && decode(code[i]).unit == Unit::Invalidate);
          if (!found) weak = "no CCTL.IVALL after the fence's last MEMBAR (the acquire half's invalidation of L1)";
        } else if (weak.empty() && n.inval_after) {
          bool found = false;
          for (std::size_t i = at + 1; i < to; ++i) found = found || (on_line(i, site) && decode(code[i]).unit == Unit::Invalidate);
          if (!found) weak = "no CCTL.IVALL after " + code[at].opcode + " (the acquire's invalidation of L1)";
        }
        if (!weak.empty() && !reported[p]) {
          reported[p] = true;
          check.findings.push_back(Finding{Problem::Weakened, site, weak + "; needed: " + requirement_of(site), context(p, c)});
        }
      }
      // Program order, where the model binds it.
      for (std::size_t j = 0; j < ts.size() && !branches; ++j) {
        if (!present(j, c) || reported[j]) continue;
        for (std::size_t i = 0; i < j; ++i) {
          if (!present(i, c) || !ordered(sites[ts[i]], sites[ts[j]])) continue;
          if (code[mains[ts[j]][c]].offset < code[mains[ts[i]][c]].offset) {
            reported[j] = true;
            check.findings.push_back(Finding{Problem::Reordered, sites[ts[j]],
                                             "its " + code[mains[ts[j]][c]].opcode + " comes before the code of `" + sites[ts[i]].text +
                                                 "` (source line " + std::to_string(sites[ts[i]].line) +
                                                 "), which program order puts first and the model orders before it",
                                             context(j, c)});
            break;
          }
        }
      }
    }
  }
  std::stable_sort(check.findings.begin(), check.findings.end(), [](const Finding& a, const Finding& b) {
    return a.site.thread != b.site.thread ? a.site.thread < b.site.thread : a.site.index < b.site.index;
  });
  return check;
}

}  // namespace vmmcheck::toolchain
