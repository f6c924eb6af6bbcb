// Explanations of one candidate execution for people (ptx_execution.hpp): the cycle or the out-of-order
// pair that breaks an axiom, as edges between the instructions as the litmus file writes them; and, for
// an execution the model allows, why the orderings the program sets up do not order it.
#include <algorithm>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "model/ptx_execution.hpp"
#include "vocabulary/op_kinds.hpp"

namespace vmmcheck::model::ptx::detail {
namespace {

// One step of a path: `from` is related to `to` by `label` (po, rf, co, fr, rmw, dep, sc, sync,
// boundary); `note` says what the step does, where that is not plain.
struct Edge {
  int from, to;
  std::string label, note;
};
using Path = std::vector<Edge>;

bool in(std::uint64_t set, int e) { return (set >> e) & 1u; }

// An event as the file writes it; an atom's read and write are told apart.
std::string text_of(const Shape& s, int e) {
  const Event& ev = s.events[static_cast<std::size_t>(e)];
  const bool rmw_read = e + 1 < s.n() && s.events[static_cast<std::size_t>(e) + 1].rmw_read == e;
  if (rmw_read) return ev.text + " (its read)";
  if (ev.rmw_read >= 0) return ev.text + " (its write)";
  return ev.text;
}

// Where a thread runs, for scope messages: "T1 (GPU 0, CTA 1)".
std::string where(const Shape& s, int thread) {
  const Thread& t = s.litmus->threads[static_cast<std::size_t>(thread)];
  return t.name + " (GPU " + std::to_string(t.gpu) + ", CTA " + std::to_string(t.cta) + ")";
}

// The shortest path from a to b over the edges `step` offers (BFS; a == b asks for a path of one edge
// or more). Empty when there is none.
Path shortest(int n, int a, int b, const std::function<std::vector<Edge>(int)>& step) {
  std::vector<std::optional<Edge>> via(static_cast<std::size_t>(n));
  std::deque<int> queue;
  for (const Edge& e : step(a)) {
    if (via[static_cast<std::size_t>(e.to)]) continue;
    via[static_cast<std::size_t>(e.to)] = e;
    queue.push_back(e.to);
  }
  while (!queue.empty() && !via[static_cast<std::size_t>(b)]) {
    const int u = queue.front();
    queue.pop_front();
    for (const Edge& e : step(u))
      if (!via[static_cast<std::size_t>(e.to)]) {
        via[static_cast<std::size_t>(e.to)] = e;
        queue.push_back(e.to);
      }
  }
  Path path;
  if (!via[static_cast<std::size_t>(b)]) return path;
  for (int at = b;;) {
    const Edge& e = *via[static_cast<std::size_t>(at)];
    path.insert(path.begin(), e);
    if (e.from == a) break;
    at = e.from;
  }
  return path;
}

class Explainer {
 public:
  Explainer(const Shape& s, Reading reading, const Execution& x)
      : s_(s), k_(s.of(reading)), x_(x), m_(relations_of(s, k_, x)), preserved_(proxy_preserved(s, m_.cause_base)) {}

  std::vector<std::string> broken(Axiom axiom) const {
    switch (axiom) {
      case Axiom::Causality: return causality();
      case Axiom::Atomicity: return atomicity();
      case Axiom::Coherence: return out_of_order(Axiom::Coherence, s_.writes, x_.co, "co", "coherence");
      case Axiom::SeqCst: return out_of_order(Axiom::SeqCst, s_.sc_fences, x_.sc, "sc", "the order of fence.sc");
      case Axiom::NoThinAir: return thin_air();
    }
    return {};
  }

  std::vector<std::string> unordered() const {
    std::vector<std::string> lines = unsynchronized();
    for (std::string& line : stale_reads()) lines.push_back(std::move(line));
    return lines;
  }

 private:
  int n() const { return s_.n(); }
  const Event& ev(int e) const { return s_.events[static_cast<std::size_t>(e)]; }
  std::string quoted(int e) const { return "`" + text_of(s_, e) + "`"; }

  // The path as lines: the first event, then one line per edge.
  std::vector<std::string> lines_of(const Path& path) const {
    std::vector<std::string> lines;
    if (path.empty()) return lines;
    lines.push_back("    " + text_of(s_, path.front().from));
    for (const Edge& e : path) {
      std::string arrow = "-" + e.label + "->";
      arrow.resize(std::max<std::size_t>(arrow.size(), 11), ' ');
      lines.push_back("      " + arrow + " " + text_of(s_, e.to) + (e.note.empty() ? "" : "   (" + e.note + ")"));
    }
    return lines;
  }

  std::string com_label(int a, int b) const {
    if (m_.rf.has(a, b)) return "rf";
    if (x_.co.has(a, b)) return "co";
    return "fr";
  }

  // Observation: strong rf and rmw.
  std::vector<Edge> observation_from(int u) const {
    std::vector<Edge> out;
    for (int v = 0; v < n(); ++v)
      if (m_.observation.has(u, v)) out.push_back({u, v, s_.rmw.has(u, v) ? "rmw" : "rf", ""});
    return out;
  }

  // A sync edge as the release pattern, the observation and the acquire pattern it stands for.
  Path sync_steps(int a, int b) const {
    const Rel observed = plus(m_.observation);
    for (int w = 0; w < n(); ++w) {
      if (!k_.release_sequence.has(a, w)) continue;
      for (int r = 0; r < n(); ++r) {
        if (!observed.has(w, r) || !k_.acquire_sequence.has(r, b)) continue;
        Path path;
        if (a != w) path.push_back({a, w, "po", ""});
        Path seen = shortest(n(), w, r, [&](int u) { return observation_from(u); });
        if (!seen.empty()) seen.back().note = "the release and the acquire synchronize";
        path.insert(path.end(), seen.begin(), seen.end());
        if (r != b) path.push_back({r, b, "po", ""});
        return path;
      }
    }
    return {{a, b, "sync", ""}};
  }

  // cause_base = ^(po + sc + sync + api + barriers), a shortest path, sync edges spelt out.
  Path base_path(int a, int b) const {
    const Path coarse = shortest(n(), a, b, [&](int u) {
      std::vector<Edge> out;
      for (int v = 0; v < n(); ++v) {
        if (s_.po_plus.has(u, v)) out.push_back({u, v, "po", ""});
        else if (m_.sync.has(u, v)) out.push_back({u, v, "sync", ""});
        else if (x_.sc.has(u, v)) out.push_back({u, v, "sc", "fence.sc order"});
        else if (s_.api.has(u, v)) out.push_back({u, v, "boundary", "an operation boundary orders them"});
        else if (x_.barrier_sync.has(u, v)) out.push_back({u, v, "bar", "the barriers meet"});
      }
      return out;
    });
    Path fine;
    for (const Edge& e : coarse) {
      if (e.label != "sync") {
        fine.push_back(e);
        continue;
      }
      const Path steps = sync_steps(e.from, e.to);
      fine.insert(fine.end(), steps.begin(), steps.end());
    }
    return fine;
  }

  // The stops a proxy-preserved cause_base path from c to b must make (ptx_model.cpp, proxy_preserved):
  // a proxy fence leaving or entering a non-generic proxy, an alias fence between two virtual addresses.
  std::optional<std::vector<int>> stops(int c, int b) const {
    const Rel& cb = m_.cause_base;
    if (cb.has(c, b) && s_.same_alias.has(c, b) &&
        ((in(s_.generic, c) && in(s_.generic, b)) || (s_.same_block.has(c, b) && s_.same_proxy.has(c, b))))
      return std::vector<int>{};
    std::vector<int> sources, middles, targets;
    if (in(s_.generic, c)) sources.push_back(-1);
    if (in(s_.generic, b)) targets.push_back(-1);
    if (s_.same_alias.has(c, b)) middles.push_back(-1);
    for (int f = 0; f < n(); ++f) {
      if (cb.has(c, f) && s_.proxy_fence_ops.has(f, c)) sources.push_back(f);
      if (cb.has(f, b) && s_.proxy_fence_ops.has(f, b)) targets.push_back(f);
      if (in(s_.alias_fences, f) && s_.same_location.has(c, b)) middles.push_back(f);
    }
    for (int src : sources)
      for (int mid : middles)
        for (int dst : targets) {
          std::vector<int> chain{c};
          for (int stop : {src, mid, dst})
            if (stop >= 0) chain.push_back(stop);
          chain.push_back(b);
          bool ok = true;
          for (std::size_t i = 0; ok && i + 1 < chain.size(); ++i) ok = cb.has(chain[i], chain[i + 1]);
          // The alias fence an operation boundary stands for does not reach an already resident grid.
          if (ok && mid >= 0 && in(s_.boundary_fences, mid)) ok = !in(s_.resident, dst >= 0 ? dst : b);
          if (ok) return std::vector<int>(chain.begin() + 1, chain.end() - 1);
        }
    return std::nullopt;
  }

  // cause = optional[observation].proxy_preserved[cause_base], as a path from a to b.
  Path cause_path(int a, int b) const {
    std::vector<int> starts;
    if (preserved_.has(a, b)) starts.push_back(a);
    for (int c = 0; c < n(); ++c)
      if (m_.observation.has(a, c) && preserved_.has(c, b)) starts.push_back(c);
    for (int c : starts) {
      const std::optional<std::vector<int>> via = stops(c, b);
      if (!via) continue;
      Path path;
      if (c != a) path.push_back({a, c, s_.rmw.has(a, c) ? "rmw" : "rf", ""});
      int at = c;
      for (int stop : *via) {
        const Path leg = base_path(at, stop);
        path.insert(path.end(), leg.begin(), leg.end());
        at = stop;
      }
      const Path leg = base_path(at, b);
      path.insert(path.end(), leg.begin(), leg.end());
      return path;
    }
    return {};
  }

  // causality: irreflexive[optional[com].cause] -- the shortest cycle.
  std::vector<std::string> causality() const {
    std::optional<Path> best;
    const auto consider = [&](Path p) {
      if (!p.empty() && (!best || p.size() < best->size())) best = std::move(p);
    };
    for (int e = 0; e < n(); ++e) {
      if (m_.cause.has(e, e)) consider(cause_path(e, e));
      for (int f = 0; f < n(); ++f)
        if (m_.com.has(e, f) && m_.cause.has(f, e)) {
          Path p{{e, f, com_label(e, f), ""}};
          const Path back = cause_path(f, e);
          if (back.empty()) continue;
          p.insert(p.end(), back.begin(), back.end());
          consider(std::move(p));
        }
    }
    if (!best) return {"causality is broken (no cycle found to show)"};
    std::vector<std::string> lines{"causality: the causality order (po, and rf where a release and an acquire synchronize) "
                                   "runs against what the reads saw (rf, co, fr), in a cycle:"};
    for (std::string& l : lines_of(*best)) lines.push_back(std::move(l));
    return lines;
  }

  // atomicity: no strong[fr].(strong[co]) & rmw -- a write comes between an atom's read and its write.
  std::vector<std::string> atomicity() const {
    for (int r = 0; r < n(); ++r)
      for (int w = 0; w < n(); ++w) {
        if (!s_.rmw.has(r, w)) continue;
        for (int between = 0; between < n(); ++between)
          if (m_.fr.has(r, between) && k_.strong.has(r, between) && x_.co.has(between, w) && k_.strong.has(between, w)) {
            std::vector<std::string> lines{"atomicity: a write comes between the atom's read and its write in coherence order:"};
            for (std::string& l : lines_of({{r, between, "fr", ""}, {between, w, "co", ""}})) lines.push_back(std::move(l));
            return lines;
          }
      }
    return {"atomicity is broken"};
  }

  // coherence and seq_cst: cause orders two events of `set` one way, `order` not (or the other way).
  std::vector<std::string> out_of_order(Axiom axiom, std::uint64_t set, const Rel& order, const char* label, const char* what) const {
    for (int a = 0; a < n(); ++a)
      for (int b = 0; b < n(); ++b) {
        if (!in(set, a) || !in(set, b) || !m_.cause.has(a, b) || order.has(a, b)) continue;
        if (axiom == Axiom::Coherence && !s_.same_location.has(a, b)) continue;
        Path p = cause_path(a, b);
        if (p.empty()) continue;
        const bool against = order.has(b, a);
        if (against) p.push_back({b, a, label, ""});
        std::vector<std::string> lines{std::string(name_of(axiom)) + ": causality orders " +
                                       quoted(a) + " before " + quoted(b) + ", and " + what +
                                       (against ? " orders them the other way:" : " leaves them unordered:")};
        for (std::string& l : lines_of(p)) lines.push_back(std::move(l));
        return lines;
      }
    return {std::string(what) + " is broken"};
  }

  // no_thin_air: a cycle in rf + dep -- values that would justify themselves.
  std::vector<std::string> thin_air() const {
    for (int e = 0; e < n(); ++e) {
      const Path p = shortest(n(), e, e, [&](int u) {
        std::vector<Edge> out;
        for (int v = 0; v < n(); ++v) {
          if (m_.rf.has(u, v)) out.push_back({u, v, "rf", ""});
          else if (s_.dep.has(u, v)) out.push_back({u, v, "dep", "the write's value comes from the read"});
        }
        return out;
      });
      if (p.empty()) continue;
      std::vector<std::string> lines{"no_thin_air: the values would justify themselves, in a cycle of reads-from and dependencies:"};
      for (std::string& l : lines_of(p)) lines.push_back(std::move(l));
      return lines;
    }
    return {"no_thin_air is broken"};
  }

  // Each read from another thread in which a release or an acquire takes part, but no synchronization.
  std::vector<std::string> unsynchronized() const {
    std::vector<std::string> lines;
    for (int r = 0; r < n(); ++r) {
      const int w = x_.source[static_cast<std::size_t>(r)];
      if (w < 0 || ev(r).kind != Kind::Read || ev(w).thread == ev(r).thread) continue;
      std::vector<int> releases, acquires;  // nearest first
      if (in(s_.release_writes, w)) releases.push_back(w);
      for (int f = w - 1; f >= 0; --f)
        if (s_.po_plus.has(f, w) && is_memory_fence(ev(f))) releases.push_back(f);
      if (in(s_.acquire_reads, r) && !in(s_.reductions, r)) acquires.push_back(r);
      for (int f = r + 1; f < n(); ++f)
        if (s_.po_plus.has(r, f) && is_memory_fence(ev(f))) acquires.push_back(f);
      if (releases.empty() && acquires.empty()) continue;
      bool synchronized = false;
      for (int a : releases)
        for (int b : acquires) synchronized |= m_.sync.has(a, b);
      if (synchronized) continue;
      const std::string reads = quoted(r) + " reads from " + quoted(w);
      if (releases.empty()) {
        lines.push_back(reads + " and does not synchronize with it: the write is no release, and no fence.sc or "
                        "fence.acq_rel comes before it in " + s_.thread_of(ev(w)).name);
      } else if (acquires.empty()) {
        lines.push_back(reads + " and does not synchronize with it: the read is no acquire, and no fence.sc or "
                        "fence.acq_rel follows it in " + s_.thread_of(ev(r)).name);
      } else {
        lines.push_back(reads + " and does not synchronize with it: " + not_strong(releases.front(), acquires.front(), w, r));
      }
    }
    return lines;
  }

  // Why the release a (ending in the write w) and the acquire b (beginning with the read r) do not form sync.
  std::string not_strong(int a, int b, int w, int r) const {
    const auto scope_miss = [&](int op, int other) -> std::optional<std::string> {
      if (contains(s_.instance_of(ev(op)), thread_instance(*s_.litmus, ev(other).thread))) return std::nullopt;
      return "the ." + std::string(patterns::litmus::name_of(ev(op).scope)) + " scope of " + quoted(op) + " does not include " +
             where(s_, ev(other).thread);
    };
    for (const auto& [p, q] : {std::pair{a, b}, std::pair{b, a}, std::pair{w, r}, std::pair{r, w}})
      if (const auto miss = scope_miss(p, q)) return *miss;
    for (int e : {w, r})
      if (ev(e).sem == Sem::Weak) return quoted(e) + " is a weak access, morally strong with nothing";
    if (ev(w).proxy != ev(r).proxy) return "they go through two proxies (" + std::string(name_of(ev(w).proxy)) + " and " +
                                          name_of(ev(r).proxy) + "), so they are not morally strong";
    if (ev(w).address != ev(r).address && !k_.strong.has(w, r))
      return "they name two virtual addresses of one location; in the ISA's reading two memory operations overlap only "
             "when they specify the same virtual address (PTX ISA 8.2.1), so they are not morally strong";
    return quoted(a) + " and " + quoted(b) + " form no release and acquire pattern that is morally strong";
  }

  // Reads that see a value older than a write causality orders before them, with the reason the order
  // does not reach them: two virtual addresses, two proxies, a resident grid.
  std::vector<std::string> stale_reads() const {
    std::vector<std::string> lines;
    for (int r = 0; r < n(); ++r) {
      if (ev(r).kind != Kind::Read || in(s_.reductions, r)) continue;
      for (int w = 0; w < n(); ++w) {
        if (ev(w).kind != Kind::Write || !s_.same_location.has(w, r) || !m_.cause_base.has(w, r) || !m_.fr.has(r, w) ||
            m_.cause.has(w, r))
          continue;
        std::string order;
        for (const Edge& e : base_path(w, r)) order += (order.empty() ? "" : ", ") + e.label;
        std::string why;
        if (ev(w).address != ev(r).address)
          why = "they name two virtual addresses of one location, and no fence.proxy.alias on the way carries the order "
                "from one to the other";
        else if (ev(w).proxy != ev(r).proxy)
          why = std::string("they go through two proxies (") + name_of(ev(w).proxy) + " and " + name_of(ev(r).proxy) +
                "), and no proxy fence of the right proxy on the way carries the order across";
        else
          why = "the order does not reach " + where(s_, ev(r).thread) + ", which was resident before the boundary";
        lines.push_back(quoted(w) + " comes before " + quoted(r) + " in causality order (" + order + "), yet the read may see an "
                        "older value: " + why);
      }
    }
    return lines;
  }

  const Shape& s_;
  const Shape::Strength& k_;
  const Execution& x_;
  const Relations m_;
  const Rel preserved_;
};

}  // namespace

std::vector<std::string> broken_edges(const Shape& s, Reading reading, const Execution& x, Axiom axiom) {
  return Explainer(s, reading, x).broken(axiom);
}

std::vector<std::string> unordered_because(const Shape& s, Reading reading, const Execution& x) {
  return Explainer(s, reading, x).unordered();
}

}  // namespace vmmcheck::model::ptx::detail
