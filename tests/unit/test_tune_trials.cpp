// tune's judgement of its draws (cli/tune_trial.hpp): the score, the order, and which draws the
// confirmation measures again and keeps. The search itself measures on the GPU; these decide on counts.
#include <gtest/gtest.h>

#include "cli/tune_trial.hpp"
#include "common/error.hpp"

namespace vmmcheck::cli {
namespace {

// A draw told apart by its stress_accesses, with one row showing `weak` of a million instances.
Trial trial(std::uint32_t accesses, std::uint64_t weak, std::string rejected = "") {
  Trial t;
  t.params.stress_accesses = accesses;
  t.targets.push_back({"litmus.mp.0.x", weak, 1'000'000, 0.001, true});
  t.rejected = std::move(rejected);
  return t;
}

TEST(TuneTrials, ScoredPerMillionInstancesOrPerGpuSecond) {
  Measured m{"row", 250, 1'000'000, 0.5, true};
  EXPECT_DOUBLE_EQ(m.rate(), 250.0);
  m.per_instance = false;
  EXPECT_DOUBLE_EQ(m.rate(), 500.0);
  Trial t = trial(1, 999);
  EXPECT_DOUBLE_EQ(t.score(), 3.0);  // log10(1 + 999)
  t.targets.push_back({"ctl", 0, 1'000'000, 0.001, true});
  EXPECT_DOUBLE_EQ(t.score(), 1.5);
  EXPECT_EQ(t.racing(), 1u);
}

TEST(TuneTrials, AdmissibleThenRacingThenScore) {
  EXPECT_TRUE(trial(1, 10).better_than(trial(2, 5000, "a required case Failed")));
  EXPECT_FALSE(trial(2, 5000, "rejected").better_than(trial(1, 10)));
  Trial two = trial(1, 10);
  two.targets.push_back({"ctl", 1, 1'000'000, 0.001, true});
  Trial one = trial(2, 100'000);
  one.targets.push_back({"ctl", 0, 1'000'000, 0.001, true});
  EXPECT_TRUE(two.better_than(one)) << "more targets racing beats a higher score";
  EXPECT_TRUE(trial(1, 20).better_than(trial(2, 10)));
}

TEST(TuneTrials, TheConfirmationTakesTheBestAdmissibleDrawsOnceEach) {
  const std::vector<Trial> trials{trial(0, 10),          trial(1, 900),
                                  trial(2, 5000, "Fail"),  // the highest count, but inadmissible
                                  trial(3, 400),         trial(1, 700),  // a refinement back at trial 2's knobs
                                  trial(4, 400),         trial(5, 800)};
  EXPECT_EQ(confirm_candidates(trials, 3), (std::vector<std::size_t>{1, 6, 3}))
      << "best first, trial 2's knobs once, trial 4 of two equals the earlier";
  EXPECT_EQ(confirm_candidates(trials, 100), (std::vector<std::size_t>{1, 6, 3, 5, 0}));
  EXPECT_TRUE(confirm_candidates(trials, 0).empty());
  EXPECT_TRUE(confirm_candidates({trial(1, 10, "Fail")}, 2).empty());
}

TEST(TuneTrials, TheSecondMeasurementAloneDecides) {
  // The search's best (first) fell back measured again; the third held.
  EXPECT_EQ(confirmed_best({trial(1, 300), trial(6, 200), trial(3, 450)}), 2u);
  EXPECT_EQ(confirmed_best({trial(1, 300), trial(3, 900, "a spin at its bound")}), 0u) << "rejected the second time";
  EXPECT_FALSE(confirmed_best({trial(1, 300, "Fail"), trial(3, 900, "Fail")}).has_value());
  EXPECT_FALSE(confirmed_best({}).has_value());
}

// The draws in order: the two fixed, the starts, random draws, the refinements last; the refinements never
// take a fixed draw's or a start's place.
TEST(TuneTrials, TheStartsComeRightAfterTheFixedDraws) {
  const DrawPlan plan = plan_draws(12, std::nullopt, 2);
  EXPECT_EQ(plan.refinements, 4u) << "a third of the trials";
  const std::vector<Draw> want{Draw::Default, Draw::ContiguousWords, Draw::Start, Draw::Start, Draw::Random, Draw::Random,
                               Draw::Random,  Draw::Random,          Draw::Refined, Draw::Refined, Draw::Refined, Draw::Refined};
  for (std::uint32_t i = 0; i < plan.trials; ++i) EXPECT_EQ(plan.at(i), want[i]) << "trial " << i;
  const DrawPlan crowded = plan_draws(5, 30, 2);
  EXPECT_EQ(crowded.refinements, 1u) << "the refinements give way to the fixed draws and the starts";
  EXPECT_EQ(crowded.at(3), Draw::Start);
  EXPECT_EQ(crowded.at(4), Draw::Refined);
  EXPECT_EQ(plan_draws(4, std::nullopt, 2).refinements, 0u);
  EXPECT_EQ(plan.start_index(2), 0u);
  EXPECT_EQ(plan.start_index(3), 1u);
  EXPECT_TRUE(plan.always_runs(3)) << "--seconds never skips a start";
  EXPECT_FALSE(plan.always_runs(4));
  const DrawPlan alone = plan_draws(1, std::nullopt, 0);
  EXPECT_EQ(alone.refinements, 0u);
  EXPECT_EQ(alone.at(0), Draw::Default) << "the default alone, as before --start";
  const DrawPlan none = plan_draws(24, std::nullopt, 0);
  EXPECT_EQ(none.refinements, 8u);
  EXPECT_EQ(none.at(2), Draw::Random);
  EXPECT_EQ(none.at(15), Draw::Random);
  EXPECT_EQ(none.at(16), Draw::Refined);
  EXPECT_EQ(none.at(23), Draw::Refined);
  EXPECT_EQ(plan_draws(24, 0, 0).at(23), Draw::Random) << "--refine 0: random draws only";
  EXPECT_THROW(plan_draws(3, std::nullopt, 2), InputError) << "no room for the second start";
}

}  // namespace
}  // namespace vmmcheck::cli
