// The model's explanations (model/ptx_model.hpp, explanation(); harness/model/ptx_explain.cpp) on
// classic shapes, against answers worked out by hand: for a forbidden outcome the cycle that breaks the
// axiom, edge by edge between the instructions as written; for an allowed one the witness with its
// qualifiers and why the program's orderings do not rule it out; and the note on a condition that no
// ordering decides.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "model/ptx_model.hpp"

namespace vmmcheck::model::ptx {
namespace {

using namespace patterns::litmus;

Thread thread(const std::string& name, int cta, std::vector<Op> ops) { return {name, 0, cta, std::move(ops)}; }

Expr one(const std::string& reg, std::uint32_t value) { return Expr{Expr::Kind::Eq, Term{reg, 0}, Term{"", value}, {}}; }

Expr both(const std::string& a, std::uint32_t va, const std::string& b, std::uint32_t vb) {
  Expr e;
  e.kind = Expr::Kind::And;
  e.operands = {one(a, va), one(b, vb)};
  return e;
}

// Message passing: t0 { st [x], 1; st.release.<scope> [flag], 1 }  t1 { ld.acquire.<scope> r0, [flag]; ld r1, [x or y] },
// y a physical alias of x; t1 in CTA `reader_cta`.
Litmus message_passing(Level scope, int reader_cta, bool alias) {
  Litmus l;
  l.name = "MP";
  l.addresses = {{"x", 0}, {"y", 0}, {"flag", 1}};
  l.threads = {thread("t0", 0, {store(0, 1), store(2, 1, Sem::Release, scope)}),
               thread("t1", reader_cta, {load("r0", 2, Sem::Acquire, scope), load("r1", alias ? 1 : 0)})};
  return l;
}

bool has_line(const std::vector<std::string>& lines, const std::string& line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  return text;
}

// By hand: r1 == 0 reads x before t0's store (fr); the store is po-before the release, which t1's acquire
// reads (rf, and the two synchronize), which is po-before the read of x: a cycle of com and cause.
TEST(PtxExplanation, MessagePassingIsACycleThroughTheSynchronizingPair) {
  const Decision d = decide(message_passing(Level::Gpu, 1, false), both("r0", 1, "r1", 0));
  ASSERT_FALSE(d.allowed);
  EXPECT_EQ(d.reason, "the model forbids r0 == 1 && r1 == 0: the one candidate execution showing it breaks an axiom: causality");
  const std::vector<std::string> want{
      "causality: the causality order (po, and rf where a release and an acquire synchronize) runs against what the reads "
      "saw (rf, co, fr), in a cycle:",
      "    t1: ld r1, [x]",
      "      -fr->       t0: st [x], 1",
      "      -po->       t0: st.release.gpu [flag], 1",
      "      -rf->       t1: ld.acquire.gpu r0, [flag]   (the release and the acquire synchronize)",
      "      -po->       t1: ld r1, [x]"};
  EXPECT_EQ(d.broken, want) << joined(d.broken);
  const std::vector<std::string> lines = explanation(d);
  EXPECT_EQ(lines.front(), d.reason);
  EXPECT_TRUE(has_line(lines, "  " + want[1])) << joined(lines);
}

// By hand: the release and the acquire are .cta and the reader runs in CTA 1, so the writer's scope does
// not include it: the acquire reads the flag but nothing synchronizes, and r1 may read 0.
TEST(PtxExplanation, CtaScopeAcrossCtasSaysWhichScopeMissesWhom) {
  const Decision d = decide(message_passing(Level::Cta, 1, false), both("r0", 1, "r1", 0));
  ASSERT_TRUE(d.allowed);
  EXPECT_EQ(d.witness, (std::vector<std::string>{"t1: ld.acquire.cta r0, [flag] reads 1 from `t0: st.release.cta [flag], 1`",
                                                 "t1: ld r1, [x] reads 0 from the initial value"}));
  EXPECT_EQ(d.unordered, (std::vector<std::string>{
                             "`t1: ld.acquire.cta r0, [flag]` reads from `t0: st.release.cta [flag], 1` and does not "
                             "synchronize with it: the .cta scope of `t0: st.release.cta [flag], 1` does not include t1 (GPU 0, CTA 1)"}));
  // In one CTA the same pair synchronizes: nothing to say, and the outcome is forbidden.
  EXPECT_FALSE(decide(message_passing(Level::Cta, 0, false), both("r0", 1, "r1", 0)).allowed);
}

// By hand: the pair synchronizes, so the store to x is in causality order before the read of y; but x
// and y are two virtual addresses of one location and no fence.proxy.alias lies between: the order does
// not carry from one address to the other (the alias rule), so r1 may read 0.
TEST(PtxExplanation, DataThroughAnAliasSaysTheOrderDoesNotCarryAcross) {
  const Decision d = decide(message_passing(Level::Gpu, 1, true), both("r0", 1, "r1", 0));
  ASSERT_TRUE(d.allowed);
  EXPECT_EQ(d.unordered, (std::vector<std::string>{
                             "`t0: st [x], 1` comes before `t1: ld r1, [y]` in causality order (po, rf, po), yet the read "
                             "may see an older value: they name two virtual addresses of one location, and no "
                             "fence.proxy.alias on the way carries the order from one to the other"}));
}

// By hand: a release through flag and an acquire through flag2, a physical alias of it. The artifact's
// strong relation has no address condition: they synchronize and r1 == 0 is forbidden. In the ISA they
// do not overlap, so they are not morally strong: nothing synchronizes.
TEST(PtxExplanation, FlagThroughAnAliasPartsTheReadings) {
  Litmus l;
  l.name = "MP_flag_alias";
  l.addresses = {{"x", 0}, {"flag", 1}, {"flag2", 1}};
  l.threads = {thread("t0", 0, {store(0, 1), alias_fence(), store(1, 1, Sem::Release, Level::Gpu)}),
               thread("t1", 1, {load("r0", 2, Sem::Acquire, Level::Gpu), alias_fence(), load("r1", 0)})};
  const Readings r = decide_readings(l, both("r0", 1, "r1", 0));
  ASSERT_TRUE(r.differ());
  EXPECT_TRUE(has_line(r.isa.unordered,
                       "`t1: ld.acquire.gpu r0, [flag2]` reads from `t0: st.release.gpu [flag], 1` and does not synchronize "
                       "with it: they name two virtual addresses of one location; in the ISA's reading two memory "
                       "operations overlap only when they specify the same virtual address (PTX ISA 8.2.1), so they are "
                       "not morally strong"))
      << joined(r.isa.unordered);
  EXPECT_TRUE(r.isa.broken.empty()) << "an allowed outcome is explained by its witness, not by what was ruled out:\n"
                                    << joined(r.isa.broken);
  EXPECT_FALSE(r.artifact.broken.empty());
  const std::vector<std::string> lines = explanation(r);
  EXPECT_EQ(lines.front().rfind("the ISA's reading: the model allows", 0), 0u) << joined(lines);
  EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& s) { return s.rfind("the artifact's reading: the model forbids", 0) == 0; }))
      << joined(lines);
}

// CoRR: by hand, r0 == 1 && r1 == 0 has t1's second read before t0's store (fr), the store read by the
// first (rf, relaxed and strong: an observation) which is po-before the second.
TEST(PtxExplanation, CoRRIsACycleThroughAnObservation) {
  Litmus l;
  l.name = "CoRR";
  l.addresses = {{"x", 0}};
  l.threads = {thread("t0", 0, {store(0, 1, Sem::Relaxed, Level::Gpu)}),
               thread("t1", 1, {load("r0", 0, Sem::Relaxed, Level::Gpu), load("r1", 0, Sem::Relaxed, Level::Gpu)})};
  const Decision d = decide(l, both("r0", 1, "r1", 0));
  ASSERT_FALSE(d.allowed);
  EXPECT_EQ(std::vector<std::string>(d.broken.begin() + 1, d.broken.end()),
            (std::vector<std::string>{"    t1: ld.relaxed.gpu r1, [x]", "      -fr->       t0: st.relaxed.gpu [x], 1",
                                      "      -rf->       t1: ld.relaxed.gpu r0, [x]", "      -po->       t1: ld.relaxed.gpu r1, [x]"}))
      << joined(d.broken);
}

// Store buffering with fence.sc: by hand, each of the two orders of the fences closes a cycle
// ld -fr-> st -po-> fence.sc -sc-> fence.sc -po-> ld; the explanation shows the first candidate's.
TEST(PtxExplanation, StoreBufferingWithFenceScIsACycleThroughTheFenceOrder) {
  Litmus l;
  l.name = "SB+fence.sc";
  l.addresses = {{"x", 0}, {"y", 1}};
  l.threads = {thread("t0", 0, {store(0, 1), fence(OpKind::FenceSc, Level::Gpu), load("r0", 1)}),
               thread("t1", 1, {store(1, 1), fence(OpKind::FenceSc, Level::Gpu), load("r1", 0)})};
  const Decision d = decide(l, both("r0", 0, "r1", 0));
  ASSERT_FALSE(d.allowed);
  EXPECT_EQ(d.reason, "the model forbids r0 == 0 && r1 == 0: each of the 2 candidate executions showing it breaks an axiom: "
                      "causality (all 2)");
  const std::vector<std::string> one{"    t0: ld r0, [y]", "      -fr->       t1: st [y], 1", "      -po->       t1: fence.sc.gpu",
                                     "      -sc->       t0: fence.sc.gpu   (fence.sc order)", "      -po->       t0: ld r0, [y]"};
  const std::vector<std::string> other{"    t1: ld r1, [x]", "      -fr->       t0: st [x], 1", "      -po->       t0: fence.sc.gpu",
                                       "      -sc->       t1: fence.sc.gpu   (fence.sc order)", "      -po->       t1: ld r1, [x]"};
  const std::vector<std::string> edges(d.broken.begin() + 1, d.broken.end());
  EXPECT_TRUE(edges == one || edges == other) << joined(d.broken);
  // Without the fences nothing orders anything, and nothing needs saying: no release, no acquire.
  for (Thread& t : l.threads) t.ops.erase(t.ops.begin() + 1);
  const Decision plain = decide(l, both("r0", 0, "r1", 0));
  EXPECT_TRUE(plain.allowed);
  EXPECT_TRUE(plain.unordered.empty()) << joined(plain.unordered);
}

// Two relaxed atom.add on x both reading 0: by hand, the writes are ordered by coherence, and the later
// atom's read is fr-before the earlier atom's write, which comes between its own read and write.
TEST(PtxExplanation, TwoAtomsReadingOneValueBreakAtomicity) {
  Litmus l;
  l.name = "atoms";
  l.addresses = {{"x", 0}};
  l.threads = {thread("t0", 0, {atom_add("r0", 0, 1, Sem::Relaxed, Level::Gpu)}),
               thread("t1", 1, {atom_add("r1", 0, 1, Sem::Relaxed, Level::Gpu)})};
  const Decision d = decide(l, both("r0", 0, "r1", 0));
  ASSERT_FALSE(d.allowed);
  ASSERT_EQ(d.ruled_out.count(Axiom::Atomicity), 1u) << d.reason;
  const auto at = std::find(d.broken.begin(), d.broken.end(),
                            "atomicity: a write comes between the atom's read and its write in coherence order:");
  ASSERT_NE(at, d.broken.end()) << joined(d.broken);
  const std::vector<std::string> edges(at + 1, at + 4);
  const std::vector<std::string> one{"    t0: atom.add.relaxed.gpu r0, [x], 1 (its read)", "      -fr->       t1: atom.add.relaxed.gpu r1, [x], 1 (its write)",
                                     "      -co->       t0: atom.add.relaxed.gpu r0, [x], 1 (its write)"};
  const std::vector<std::string> other{"    t1: atom.add.relaxed.gpu r1, [x], 1 (its read)", "      -fr->       t0: atom.add.relaxed.gpu r0, [x], 1 (its write)",
                                       "      -co->       t1: atom.add.relaxed.gpu r1, [x], 1 (its write)"};
  EXPECT_TRUE(edges == one || edges == other) << joined(d.broken);
}

// CoWW through two aliases with fence.proxy.alias between, read twice: by hand, one of the three
// candidates showing r0 == 2 && r1 == 1 (in the artifact's reading) leaves the two stores unordered in
// coherence -- they are at two virtual addresses, so co need not order them -- while causality orders
// them (po through the alias fence): the coherence axiom breaks.
TEST(PtxExplanation, CoWWThroughAliasesBreaksCoherenceWhereCoLeavesTheStoresUnordered) {
  Litmus l;
  l.name = "CoWW+alias";
  l.addresses = {{"x", 0}, {"x2", 0}};
  l.threads = {thread("t0", 0, {store(0, 1, Sem::Relaxed, Level::Gpu), alias_fence(), store(1, 2, Sem::Relaxed, Level::Gpu)}),
               thread("t1", 1, {load("r0", 0, Sem::Relaxed, Level::Gpu), load("r1", 0, Sem::Relaxed, Level::Gpu)})};
  const Decision d = decide(l, both("r0", 2, "r1", 1), Reading::Artifact);
  ASSERT_FALSE(d.allowed);
  EXPECT_EQ(d.ruled_out.at(Axiom::Coherence), 1u) << d.reason;
  const auto at = std::find(d.broken.begin(), d.broken.end(),
                            "coherence: causality orders `t0: st.relaxed.gpu [x], 1` before `t0: st.relaxed.gpu [x2], 2`, and "
                            "coherence leaves them unordered:");
  ASSERT_NE(at, d.broken.end()) << joined(d.broken);
  EXPECT_EQ(std::vector<std::string>(at + 1, at + 4),
            (std::vector<std::string>{"    t0: st.relaxed.gpu [x], 1", "      -po->       t0: fence.proxy.alias",
                                      "      -po->       t0: st.relaxed.gpu [x2], 2"}))
      << joined(d.broken);
}

// A condition no ordering decides: a value no store writes (no candidate shows it), and one that every
// candidate shows (r0 reads 0 or 1, whatever the order).
TEST(PtxExplanation, AConditionNoOrderingDecidesIsFlagged) {
  const Litmus l = message_passing(Level::Gpu, 1, false);
  const Decision never = decide(l, one("r0", 5));
  EXPECT_EQ(never.coverage, Coverage::None);
  EXPECT_TRUE(has_line(explanation(never), "  note: no candidate execution shows it, allowed or not: the answer does not depend on "
                                           "any ordering (is a value or a register mistyped?)"));
  Expr any;
  any.kind = Expr::Kind::Or;
  any.operands = {one("r1", 0), one("r1", 1)};
  const Decision always = decide(l, any);
  EXPECT_EQ(always.coverage, Coverage::Every);
  EXPECT_TRUE(has_line(explanation(always), "  note: every candidate execution that meets the preconditions shows it, allowed or "
                                            "not: the answer does not depend on any ordering"));
  EXPECT_EQ(decide(l, both("r0", 1, "r1", 0)).coverage, Coverage::Some);
}

// Load buffering with data dependencies: by hand, r0 == 1 && r1 == 1 needs each store to write what the
// other thread's load read, so the values justify themselves: no candidate with values shows it, and
// no_thin_air forbids the cycle ld -dep-> st -rf-> ld -dep-> st -rf-> ld. Not vacuous: it is decided.
TEST(PtxExplanation, LoadBufferingWithDependenciesIsThinAir) {
  Litmus l;
  l.name = "LB+deps";
  l.addresses = {{"x", 0}, {"y", 1}};
  Op to_y = store(1, 0), to_x = store(0, 0);
  to_y.value_reg = "r0";
  to_x.value_reg = "r1";
  l.threads = {thread("t0", 0, {load("r0", 0), to_y}), thread("t1", 1, {load("r1", 1), to_x})};
  const Decision d = decide(l, both("r0", 1, "r1", 1));
  ASSERT_FALSE(d.allowed);
  EXPECT_TRUE(d.only_thin_air);
  EXPECT_EQ(d.coverage, Coverage::Some);
  EXPECT_EQ(d.broken, (std::vector<std::string>{
                          "no_thin_air: the values would justify themselves, in a cycle of reads-from and dependencies:",
                          "    t0: ld r0, [x]", "      -dep->      t0: st [y], r0   (the write's value comes from the read)",
                          "      -rf->       t1: ld r1, [y]", "      -dep->      t1: st [x], r1   (the write's value comes from the read)",
                          "      -rf->       t0: ld r0, [x]"}))
      << joined(d.broken);
}

}  // namespace
}  // namespace vmmcheck::model::ptx
