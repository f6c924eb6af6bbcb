// Litmus rows that prove something (docs/litmus.md, "Spinning" and "Power"): spin-until loads, the
// controls derived from each assert row and the one its file names, a row's power read from what its
// controls showed, and the generator's mutants. All on recorded counts and generated text: no GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "codegen/generator.hpp"
#include "litmus/derived_controls.hpp"
#include "litmus/folder.hpp"
#include "litmus/parser.hpp"
#include "litmus/rows.hpp"
#include "litmus/test_text.hpp"
#include "model/ptx_model.hpp"
#include "run/records/report_json.hpp"
#include "run/rows/generator_mutants.hpp"
#include "run/rows/outcome_table.hpp"
#include "run/rows/row_power.hpp"
#include "row_outcomes_fixture.hpp"

namespace vmmcheck::run {
namespace {

namespace lt = patterns::litmus;

// Message passing between two CTAs at .gpu: release/acquire (assert), its relaxed control (permit).
const char* kMp = R"(
.global x;
.global flag;
d0.b0.t0 { st [x], 1; $0 [flag], 1; }
d0.b1.t0 { $1 r0, [flag] until 1; ld r1, [x]; }
$2 (r1 $3 1) as $4 $5;
$$
st.release.gpu | ld.acquire.gpu | assert | == | rel_acq | control relaxed
st.relaxed.gpu | ld.relaxed.gpu | permit | != | relaxed |
)";

std::vector<litmus::Row> mp() { return litmus::parse_text(kMp, "MP_power.test").rows; }

using fixture::seen;

constexpr std::uint32_t kBound = lt::kSpinBoundReached;

TEST(Spin, UntilIsASpinningLoadWithItsValue) {
  const auto rows = mp();
  const lt::Op& flag = rows[0].test.threads[1].ops[0];
  EXPECT_TRUE(flag.spin);
  EXPECT_EQ(flag.must_read, 1);
  EXPECT_EQ(model::ptx::instruction_text(rows[0].test, flag), "ld.acquire.gpu r0, [flag] until 1");
  // The model decides the final read: the spin forbids what the precondition did.
  EXPECT_FALSE(litmus::model_verdict(rows[0]).artifact_allows);
  EXPECT_TRUE(litmus::model_verdict(rows[1]).artifact_allows);
}

TEST(Spin, OnlyGenericLoadsSpin) {
  const char* text = ".global x;\n.texref t virtually aliases x;\nd0.b0.t0 { tld r0, [t] until 1; }\npermit (r0 == 1) as a;\n";
  try {
    litmus::parse_text(text, "bad.test");
    FAIL() << "a texture fetch spun";
  } catch (const litmus::ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot spin"), std::string::npos) << e.what();
  }
  EXPECT_THROW(litmus::parse_text(".global x;\nd0.b0.t0 { ld r0, [x] until; }\npermit (r0 == 1) as a;\n", "bad.test"),
               litmus::ParseError);
}

TEST(Spin, TheKernelLoopsWithinItsBoundAndTheLoadIsOneSite) {
  const codegen::Kernel k = codegen::generate(mp()[0].test);
  EXPECT_NE(k.source.find("p.spin_timeout_ns"), std::string::npos);
  EXPECT_NE(k.source.find("== 1u) break;"), std::string::npos);
  EXPECT_NE(k.source.find(std::to_string(kBound) + "u;"), std::string::npos);
  const auto site = std::find_if(k.sites.begin(), k.sites.end(), [](const codegen::Site& s) { return s.op.spin; });
  ASSERT_NE(site, k.sites.end());
  EXPECT_EQ(site->text, "ld.acquire.gpu r0, [flag] until 1");  // as the file writes it
  EXPECT_EQ(site->ptx, "ld.acquire.gpu.u32");
  // The site's line is the asm statement of the load, inside the loop.
  std::size_t at = 0;
  for (unsigned line = 1; line < site->line; ++line) at = k.source.find('\n', at) + 1;
  const std::string text = k.source.substr(at, k.source.find('\n', at) - at);
  EXPECT_NE(text.find("asm volatile(\"ld.acquire.gpu.u32"), std::string::npos) << text;
}

TEST(Spin, ABoundReachedIsAnOutcomeOfItsOwnAndNotJudged) {
  const auto rows = mp();
  CaseResult r = begin_row_result(rows[0]);
  judge_row(rows[0], seen({{{1, 1}, 90}, {{kBound, 0}, 10}}), r);
  EXPECT_EQ(r.status, Status::Pass) << r.reason;
  EXPECT_EQ(r.judged, 90u);
  EXPECT_NE(r.reason.find("10 instances reached a spin's bound"), std::string::npos) << r.reason;
  ASSERT_EQ(r.histogram.size(), 2u);
  EXPECT_EQ(r.histogram[1].first, "r0=timeout r1=0");
}

TEST(Spin, TheTallyTableHasTheBoundForSpinningRegistersOnly) {
  const auto rows = mp();
  const auto& space = model::ptx::outcome_space(rows[0].test);
  const auto spinning = spinning_registers(rows[0].test);
  ASSERT_EQ(spinning, std::vector<std::string>{"r0"});
  const auto table = outcome_table(space, {"r0", "r1"}, spinning);
  ASSERT_TRUE(table);
  EXPECT_NE(bin_of(*table, {kBound, 1}), table->bins);
  EXPECT_EQ(bin_of(*table, {1, kBound}), table->bins);
}

bool has_change(const std::vector<litmus::DerivedControl>& cs, const std::string& change) {
  return std::any_of(cs.begin(), cs.end(), [&](const litmus::DerivedControl& c) { return c.change == change; });
}

TEST(DerivedControls, MessagePassingLosesEachOrderingInTurn) {
  const auto rows = mp();
  const auto controls = litmus::derived_controls(rows[0]);
  // The release relaxed, its scope narrowed to .cta (b0 and b1 are two CTAs); the same of the acquire.
  EXPECT_TRUE(has_change(controls, "ctl_relax_t0_1"));
  EXPECT_TRUE(has_change(controls, "ctl_narrow_t0_1"));
  EXPECT_TRUE(has_change(controls, "ctl_relax_t1_0"));
  EXPECT_TRUE(has_change(controls, "ctl_narrow_t1_0"));
  // And both at once: nothing left that orders it.
  EXPECT_TRUE(has_change(controls, "ctl_unordered"));
  EXPECT_EQ(controls.size(), 5u);
  // Deep (run --deep-power): two changes, a strong access made weak among them.
  const auto deep = litmus::derived_controls(rows[0], litmus::Depth::DeepPairs);
  EXPECT_TRUE(has_change(deep, "ctl_relax_t0_1_and_relax_t1_0"));
  // The release made weak, but never the spinning acquire: a weak spin may read its L1 copy until its bound.
  EXPECT_TRUE(has_change(deep, "ctl_weak_t0_1_and_relax_t1_0"));
  for (const auto& c : deep) EXPECT_EQ(c.change.find("weak_t1_0"), std::string::npos) << c.change;
  for (const auto& c : deep) EXPECT_NE(c.change.find("_and_"), std::string::npos) << c.change;
  for (const auto& c : controls) {
    EXPECT_TRUE(litmus::model_verdict(c.row).artifact_allows) << c.change;  // each lets the stale read through
    EXPECT_EQ(c.row.name, "MP_power.0.rel_acq." + c.change);
    EXPECT_NE(c.row.source.find("as " + c.change + ";"), std::string::npos) << c.row.source;
  }
  const auto relaxed = std::find_if(controls.begin(), controls.end(), [](const auto& c) { return c.change == "ctl_relax_t1_0"; });
  EXPECT_EQ(relaxed->mechanism, "T1's ld.acquire.gpu r0, [flag] until 1 as ld.relaxed.gpu r0, [flag] until 1");
  EXPECT_TRUE(litmus::derived_controls(rows[1]).empty());  // a permit row is a control, it has none
}

// A CTA barrier comes out of every thread of its CTA at once: one thread's alone would leave the other
// waiting on a GPU. The control runs there (the one-sided removal would not).
TEST(DerivedControls, ABarrierComesOutOfEveryThreadOfItsCta) {
  const auto rows = litmus::parse_text(R"(.global x;
.global y;
d0.b0.t0 { st [x], 1; bar.cta.sync 1; ld r0, [y]; }
d0.b0.t1 { st [y], 1; bar.cta.sync 1; ld r1, [x]; }
assert (not (r0 == 0 && r1 == 0)) as sb;
)", "SB_bar.test").rows;
  const auto controls = litmus::derived_controls(rows[0]);
  ASSERT_TRUE(has_change(controls, "ctl_nobar_t0_1")) << controls.size();
  for (const auto& c : controls) {
    if (c.change != "ctl_nobar_t0_1") continue;
    for (const auto& th : c.row.test.threads) EXPECT_EQ(th.ops.size(), 2u) << "both barriers gone";
    EXPECT_EQ(codegen::why_not_generated(c.row.test), "");
    EXPECT_NE(c.mechanism.find("every thread of its CTA"), std::string::npos) << c.mechanism;
  }
}

// A thread whose only operation is the barrier is left out of the control that removes it (Dat3M's
// quorum tests have one): the control's stored source parses back to the same test.
TEST(DerivedControls, AThreadLeftEmptyIsLeftOut) {
  const auto rows = litmus::parse_text(R"(.global x;
d0.b0.t0 { st [x], 1; bar.cta.sync 1; }
d0.b0.t1 { bar.cta.sync 1; ld r0, [x]; }
d0.b0.t2 { bar.cta.sync 1; }
assert (r0 == 1) as after_barrier;
)", "bar_idle.test").rows;
  const auto controls = litmus::derived_controls(rows[0]);
  ASSERT_TRUE(has_change(controls, "ctl_nobar_t0_1")) << controls.size();
  for (const auto& c : controls) {
    if (c.change != "ctl_nobar_t0_1") continue;
    EXPECT_EQ(c.row.test.threads.size(), 2u) << c.row.source;
    const auto back = litmus::parse_text(c.row.source, "control.test").rows;
    ASSERT_EQ(back.size(), 1u);
    EXPECT_EQ(back[0].test.threads.size(), 2u);
    EXPECT_TRUE(litmus::model_verdict(c.row).artifact_allows) << "without the barrier the load may miss the store";
  }
}

TEST(DerivedControls, TheSecondRoundTakesTwoOrderingsAway) {
  const auto rows = mp();
  const auto pairs = second_controls_of(rows[0], 100);
  ASSERT_FALSE(pairs.empty());
  for (const auto& c : pairs) {
    EXPECT_NE(c.token.find("_and_"), std::string::npos) << c.token;
    EXPECT_TRUE(litmus::model_verdict(c.row).artifact_allows) << c.token;
    EXPECT_EQ(c.name, "litmus.mp_power.0.rel_acq." + c.token);
  }
  // One change made on both threads comes first, then a change to a weak access or onto another path;
  // the cap holds.
  std::size_t symmetric = 0;
  while (symmetric < pairs.size() && pairs[symmetric].token == "ctl_relax_t0_1_and_relax_t1_0") ++symmetric;
  EXPECT_EQ(symmetric, 1u) << pairs[0].token;
  ASSERT_LT(symmetric, pairs.size());
  EXPECT_NE(pairs[symmetric].token.find("weak_"), std::string::npos) << pairs[symmetric].token;
  EXPECT_EQ(second_controls_of(rows[0], 2).size(), 2u);
}

TEST(DerivedControls, IriwLosesBothFencesAtOnce) {
  // IRIW with a fence.sc in each reader: removing one leaves the other reader ordered, and the model
  // still allows the outcome (no sc order to forbid it) -- but on a GPU, the shape whose outcome shows is
  // the one with neither fence. The plain round has it (every ordering taken away), and the second
  // round tries the pair of one change on both readers first.
  const char* text = R"(
.global x;
.global y;
d0.b0.t0 { st.relaxed.gpu [x], 1; }
d0.b1.t0 { st.relaxed.gpu [y], 1; }
d0.b2.t0 { ld.relaxed.gpu r0, [x]; fence.sc.gpu; ld.relaxed.gpu r1, [y]; }
d0.b3.t0 { ld.relaxed.gpu r2, [y]; fence.sc.gpu; ld.relaxed.gpu r3, [x]; }
assert (not (r0 == 1 && r1 == 0 && r2 == 1 && r3 == 0)) as fenced;
)";
  const auto rows = litmus::parse_text(text, "iriw.test").rows;
  const auto controls = litmus::derived_controls(rows[0]);
  const auto unordered = std::find_if(controls.begin(), controls.end(), [](const auto& c) { return c.change == "ctl_unordered"; });
  ASSERT_NE(unordered, controls.end());
  EXPECT_EQ(unordered->mechanism, "every fence removed and every release and acquire relaxed");
  EXPECT_EQ(unordered->row.source.find("fence.sc"), std::string::npos) << unordered->row.source;
  EXPECT_TRUE(litmus::model_verdict(unordered->row).artifact_allows);
  const auto pairs = second_controls_of(rows[0], 24);
  ASSERT_FALSE(pairs.empty());
  EXPECT_EQ(pairs[0].token, "ctl_drop_t2_1_and_drop_t3_1");
}

TEST(DerivedControls, AFenceIsRemovedAndAnAliasTakesTheAccess) {
  const char* text = R"(
.global x;
.global y physically aliases x;
d0.b0.t0 { st [x], 1; fence.proxy.alias; ld r0, [y]; }
assert (r0 == 1) as fenced;
)";
  const auto rows = litmus::parse_text(text, "alias.test").rows;
  const auto controls = litmus::derived_controls(rows[0]);
  EXPECT_TRUE(has_change(controls, "ctl_drop_t0_1"));
  for (const auto& c : controls) EXPECT_TRUE(litmus::model_verdict(c.row).artifact_allows) << c.change;
  // Moving the store onto y leaves both accesses on one address: that orders more, not less.
  EXPECT_FALSE(has_change(controls, "ctl_alias_y_t0_0"));
}

TEST(DerivedControls, EveryShippedAssertRowTheModelForbidsHasOne) {
  const auto files = litmus::parse_paths({std::filesystem::path(VMMCHECK_SOURCE_DIR) / "cases" / "litmus"});
  std::size_t asserts = 0, controls = 0, pairs = 0;
  std::vector<std::string> none;
  for (const litmus::File& f : files)
    for (const litmus::Row& row : f.rows) {
      if (row.expect != litmus::Expect::Assert || litmus::model_verdict(row).artifact_allows) continue;
      ++asserts;
      const auto derived = litmus::derived_controls(row);
      controls += derived.size();
      for (const auto& d : derived) pairs += d.change.find("_and_") != std::string::npos;
      if (derived.empty()) none.push_back(row.name);
    }
  std::cout << "[ DerivedControls ] " << asserts << " assert rows, " << controls << " derived controls (" << pairs
            << " of two changes)\n";
  EXPECT_GT(asserts, 100u);
  std::string list;
  for (const auto& n : none) list += " " + n;
  EXPECT_TRUE(none.empty()) << none.size() << " assert rows derive no control:" << list;
}

TEST(TestText, EveryShippedRowReadsBackAsTheSameTest) {
  const auto files = litmus::parse_paths({std::filesystem::path(VMMCHECK_SOURCE_DIR) / "cases" / "litmus"});
  std::size_t checked = 0;
  for (const litmus::File& f : files)
    for (const litmus::Row& row : f.rows) {
      const std::string text = litmus::test_text(row);
      const auto again = litmus::parse_text(text, "again.test").rows;
      ASSERT_EQ(again.size(), 1u) << text;
      // The same test: the same text again, and the same answer from the model.
      EXPECT_EQ(litmus::test_text(again[0]).substr(0, text.rfind(" as ")), text.substr(0, text.rfind(" as "))) << row.name;
      EXPECT_EQ(litmus::model_verdict(again[0]).artifact_allows, litmus::model_verdict(row).artifact_allows) << row.name;
      ++checked;
    }
  EXPECT_GT(checked, 250u);
}

TEST(NamedControl, AFileNamesAPermitRowAsTheControl) {
  const auto rows = mp();
  EXPECT_EQ(rows[0].control, "MP_power.1.relaxed");
  ASSERT_TRUE(rows[0].control_row);
  const auto controls = controls_of(rows[0]);
  ASSERT_EQ(controls.size(), 6u);  // the named one first, then the five derived
  EXPECT_EQ(controls[0].name, "litmus.mp_power.1.relaxed");
  EXPECT_EQ(controls[0].row.expect, litmus::Expect::Assert);  // asked the row's question
  EXPECT_EQ(model::ptx::to_string(controls[0].row.condition), "r1 == 1");
  EXPECT_EQ(controls[1].name, "litmus.mp_power.0.rel_acq." + controls[1].token);
}

TEST(NamedControl, MistakesAreNamed) {
  const auto fails = [](const std::string& text, const std::string& words) {
    try {
      litmus::parse_text(text, "named.test");
      ADD_FAILURE() << "parsed: " << text;
    } catch (const litmus::ParseError& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  const std::string head = ".global x;\nd0.b0.t0 { st [x], 1; }\nd0.b1.t0 { ld r0, [x]; }\n";
  fails(head + "assert (r0 == 1 || r0 == 0) as a control b;\n", "names no command");
  fails(head + "assert (r0 == 1 || r0 == 0) as a control b;\nassert (r0 == 0 || r0 == 1) as b;\n", "is an assert row");
  fails(head + "permit (r0 == 1) as a control b;\n", "only an assert row has a control");
}

TEST(RowPower, ControlsThatNarrowAScopeRunLast) {
  // A run stops at the first control that shows the outcome; narrowing a spin's scope to .cta across
  // CTAs makes it wait out its bound, so those are tried after the cheap ones.
  const auto controls = controls_of(mp()[0]);
  std::size_t first_narrow = controls.size(), last_other = 0;
  for (std::size_t i = 0; i < controls.size(); ++i)
    if (controls[i].token.find("narrow_") != std::string::npos)
      first_narrow = std::min(first_narrow, i);
    else
      last_other = i;
  ASSERT_LT(first_narrow, controls.size()) << "MP at .gpu has a narrowed control";
  EXPECT_GT(first_narrow, 0u);
  EXPECT_LT(last_other, first_narrow);
  EXPECT_EQ(controls[0].name, "litmus.mp_power.1.relaxed");  // the file's own still first
}

TEST(RowPower, EveryOrderingTakenAwayRunsFirst) {
  // The control most likely to show the outcome runs first (the file's own before it): a run stops at
  // the first that shows it, and the row's power is the strongest shown.
  const auto controls = controls_of(mp()[0]);
  ASSERT_GT(controls.size(), 2u);
  EXPECT_EQ(controls[0].name, "litmus.mp_power.1.relaxed");
  EXPECT_EQ(controls[1].token, "ctl_unordered");
  for (std::size_t i = 2; i < controls.size(); ++i) EXPECT_NE(controls[i].token, "ctl_unordered");
}

TEST(RowPower, ARowThatStandsForACaseNamesItsControlsAfterIt) {
  const auto rows = litmus::parse_text(R"(.global x;
.global xb physically aliases x;
d0.b0.t0 { atom.add.relaxed.gpu r0, [x], 1; }
d0.b1.t0 { atom.add.relaxed.gpu r1, [x], 1; }
assert ([x] == 2) as same case alias.rmw.same.gpu;
)", "r.test").rows;
  const auto controls = controls_of(rows[0]);
  ASSERT_FALSE(controls.empty());
  for (const RowControl& c : controls) {
    EXPECT_EQ(c.name.rfind("alias.rmw.same.gpu.ctl_", 0), 0u) << c.name;
    EXPECT_EQ(litmus::case_name_of(c.row), c.name);  // knobs and seeds follow the control's own name
  }
}

TEST(RowPower, ShowedForbiddenJudgesAsTheRowIs) {
  const auto controls = controls_of(mp()[0]);
  const ControlRun showed{&controls[1], seen({{{1, 1}, 99}, {{1, 0}, 1}}), Status::Pass, ""};
  const ControlRun bound_only{&controls[1], seen({{{1, 1}, 99}, {{kBound, 0}, 7}}), Status::Pass, ""};
  const ControlRun not_run{&controls[1], std::nullopt, Status::NotSupported, "not here"};
  EXPECT_TRUE(showed_forbidden(showed));
  EXPECT_FALSE(showed_forbidden(bound_only));  // r1 == 0 after a spin at its bound met no precondition
  EXPECT_FALSE(showed_forbidden(not_run));
}

TEST(RowPower, TheControlWithTheHighestRateIsTheRecord) {
  const auto rows = mp();
  const auto controls = controls_of(rows[0]);
  std::vector<ControlRun> runs(3);
  runs[0] = {&controls[0], seen({{{1, 1}, 99}, {{1, 0}, 1}}), Status::Pass, ""};     // 1 of 100
  runs[1] = {&controls[1], seen({{{1, 1}, 90}, {{1, 0}, 10}}), Status::Pass, ""};    // 10 of 100
  runs[2] = {&controls[2], std::nullopt, Status::NotSupported, "not here"};
  const Power p = row_power(runs);
  EXPECT_TRUE(p.discriminating());
  EXPECT_EQ(p.control, controls[1].name);
  EXPECT_EQ(p.violations, 10u);
  EXPECT_EQ(p.instances, 100u);
  ASSERT_EQ(p.tried.size(), 3u);
  EXPECT_EQ(p.tried[0].violations, 1u);
  EXPECT_EQ(p.tried[2].status, Status::NotSupported);
  EXPECT_EQ(p.tried[2].reason, "not here");
  EXPECT_EQ(p.axes.at(0).second, controls[1].token);
}

TEST(RowPower, NoControlShowingItIsNotDiscriminating) {
  const auto rows = mp();
  const auto controls = controls_of(rows[0]);
  std::vector<ControlRun> runs{{&controls[1], seen({{{1, 1}, 50}, {{kBound, 0}, 5}}), Status::Pass, ""},
                               {&controls[2], seen({{{1, 1}, 40}}), Status::Pass, ""}};
  const Power p = row_power(runs);
  EXPECT_FALSE(p.discriminating());
  EXPECT_EQ(p.control, controls[1].name);  // the first, when none showed it
  EXPECT_EQ(p.instances, 50u);             // the spin's bound is not an instance judged
}

TEST(RowPower, TriedRoundTripsThroughTheResultsFile) {
  const auto rows = mp();
  const auto controls = controls_of(rows[0]);
  std::vector<ControlRun> runs{{&controls[1], seen({{{1, 1}, 90}, {{1, 0}, 10}}), Status::Pass, ""}};
  CaseResult r = begin_row_result(rows[0]);
  judge_row(rows[0], seen({{{1, 1}, 100}}), r);
  r.power = row_power(runs);
  const CaseResult back = result_from_json(to_json(r), "test");
  ASSERT_TRUE(back.power);
  ASSERT_EQ(back.power->tried.size(), 1u);
  EXPECT_EQ(back.power->tried[0].control, controls[1].name);
  EXPECT_EQ(back.power->tried[0].violations, 10u);
  EXPECT_EQ(back.power->tried[0].mechanism, controls[1].mechanism);
}

TEST(GeneratorMutants, EachTakesOutItsMechanismOnly) {
  const char* text = R"(
.global x;
.global y physically aliases x;
.global flag;
d0.b0.t0 { st [x], 1; fence.proxy.alias; st.release.sys [flag], 1; }
d0.b1.t0 { ld.acquire.gpu r0, [flag] until 1; ld r1, [y]; }
assert (r1 == 1) as a;
)";
  const lt::Litmus t = litmus::parse_text(text, "m.test").rows[0].test;
  using patterns::Mutant;
  const lt::Litmus acquire = as_generated(t, Mutant::RelaxedAcquire);
  EXPECT_EQ(acquire.threads[1].ops[0].sem, lt::Sem::Relaxed);
  EXPECT_EQ(acquire.threads[0].ops[2].sem, lt::Sem::Release);
  const lt::Litmus release = as_generated(t, Mutant::RelaxedRelease);
  EXPECT_EQ(release.threads[0].ops[2].sem, lt::Sem::Relaxed);
  EXPECT_EQ(release.threads[1].ops[0].sem, lt::Sem::Acquire);
  const lt::Litmus fence = as_generated(t, Mutant::NoProxyFence);
  EXPECT_EQ(fence.threads[0].ops.size(), 2u);
  const lt::Litmus narrow = as_generated(t, Mutant::NarrowScope);
  EXPECT_EQ(narrow.threads[0].ops[2].scope, lt::Level::Cta);
  EXPECT_EQ(narrow.threads[1].ops[0].scope, lt::Level::Cta);
  EXPECT_EQ(as_generated(t, Mutant::NoEventWait).threads[0].ops.size(), 3u);  // another runner's mutant
  // The kernel of a mutated test differs; its sites say what was emitted.
  const codegen::Kernel k = codegen::generate(acquire);
  for (const codegen::Site& s : k.sites) EXPECT_EQ(s.ptx.find("acquire"), std::string::npos) << s.ptx;
}

TEST(GeneratorMutants, PlainRmwMakesAnAddALoadAndAStore) {
  const char* text = R"(
.global x;
d0.b0.t0 { atom.add.acq_rel.gpu r0, [x], 2; red.add.relaxed.gpu [x], 1; }
d0.b1.t0 { atom.add.relaxed.gpu r1, [x], 1; atom.exch.relaxed.gpu r2, [x], 5; }
assert (not (r0 == 0 && r1 == 0)) as a;
)";
  const lt::Litmus t = litmus::parse_text(text, "m.test").rows[0].test;
  const lt::Litmus plain = as_generated(t, patterns::Mutant::PlainRmw);
  ASSERT_EQ(plain.threads[0].ops.size(), 3u);  // the red stays: it sets no register
  const lt::Op& load = plain.threads[0].ops[0];
  const lt::Op& store = plain.threads[0].ops[1];
  EXPECT_EQ(load.kind, lt::OpKind::Load);
  EXPECT_EQ(load.reg, "r0");
  EXPECT_EQ(load.sem, lt::Sem::Acquire);
  EXPECT_EQ(load.scope, lt::Level::Gpu);
  EXPECT_EQ(store.kind, lt::OpKind::Store);
  EXPECT_EQ(store.sem, lt::Sem::Release);
  EXPECT_EQ(store.value_reg, "r0");
  EXPECT_EQ(store.value, 2u);
  EXPECT_TRUE(store.reg.empty());
  EXPECT_EQ(store.must_read, -1);
  EXPECT_TRUE(load.value_reg.empty());
  EXPECT_EQ(load.address, store.address);
  EXPECT_EQ(plain.threads[0].ops[2].kind, lt::OpKind::AtomAdd);
  ASSERT_EQ(plain.threads[1].ops.size(), 3u);  // the exch stays
  EXPECT_EQ(plain.threads[1].ops[0].sem, lt::Sem::Relaxed);
  EXPECT_EQ(plain.threads[1].ops[2].rmw, lt::Rmw::Exch);
  // The model lets the plain adds lose an update the atoms cannot; the kernel emits no atom.add with a register.
  litmus::Row row = litmus::parse_text(text, "m.test").rows[0];
  EXPECT_FALSE(litmus::model_verdict(row).artifact_allows);
  row.test = plain;
  EXPECT_TRUE(litmus::model_verdict(row).isa_allows);
  const codegen::Kernel k = codegen::generate(plain);
  std::size_t adds = 0;  // the red stays a red; no atom.add is left
  for (const codegen::Site& s : k.sites) {
    EXPECT_FALSE(s.ptx.rfind("atom.", 0) == 0 && s.ptx.find(".add.") != std::string::npos) << s.ptx;
    adds += s.ptx.rfind("red.", 0) == 0;
  }
  EXPECT_EQ(adds, 1u);
}

}  // namespace
}  // namespace vmmcheck::run
