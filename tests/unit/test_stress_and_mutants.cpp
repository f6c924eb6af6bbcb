// Stress params (files, ranges, the results' budget block, old results) and mutants (names, the
// environment switch), and what tune and selftest do without a GPU. No GPU needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cuda_runtime_api.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "run/rows/generator_mutants.hpp"
#include "cli/app.hpp"
#include "cli_driver.hpp"
#include "common/error.hpp"
#include "model/registry.hpp"
#include "run/records/budget.hpp"
#include "run/kit/mutants.hpp"
#include "run/records/report_json.hpp"
#include "run/records/stress_params.hpp"

namespace vmmcheck::run {
namespace {

using Json = nlohmann::ordered_json;
using testing::cli;
using testing::has_gpu;
using testing::temp_file;

TEST(StressParams, DefaultIsNoStressAndThePresetIsPreStress) {
  EXPECT_FALSE(StressParams{}.any());
  EXPECT_EQ(describe(StressParams{}), "off");
  EXPECT_TRUE(stress_preset().any());
  EXPECT_EQ(describe(stress_preset()), "pre-stress 4");
}

TEST(StressParams, FileRoundTripsEveryKnob) {
  StressParams p;
  p.pre_accesses = 7;
  p.stress_blocks_percent = 30;
  p.stress_accesses = 12;
  p.lines = 64;
  p.pattern = kernels::StressPattern::LoadStore;
  p.barrier = true;
  p.threads_per_block = 128;
  p.spin_timeout_us = 500;
  const auto file = temp_file("vmmcheck-params.json", Json{{"params", to_json(p)}}.dump());
  EXPECT_EQ(read_stress_params(file.string()), p);
  EXPECT_EQ(describe(p),
            "pre-stress 7, stress CTAs 30% x 12, 64 lines load-store, barrier, 128 threads/CTA, spin 500 us");
  // Missing keys keep their defaults.
  EXPECT_EQ(read_stress_params(temp_file("vmmcheck-params-min.json", R"({"params": {}})").string()), StressParams{});
}

// The retired knob `shuffle` (the hand-written kernels' partners re-drawn every round: no kernel reads it
// now) is read from older params and results files and changes nothing; a value of the wrong type is
// still an error, and no file written now carries it.
TEST(StressParams, RetiredShuffleKnobReadAndIgnored) {
  EXPECT_EQ(stress_params_from_json(Json{{"shuffle", false}}, "old"), StressParams{});
  EXPECT_EQ(stress_params_from_json(Json{{"shuffle", true}, {"pre_accesses", 3u}}, "old").pre_accesses, 3u);
  EXPECT_THROW(stress_params_from_json(Json{{"shuffle", "no"}}, "bad"), InputError);
  EXPECT_FALSE(to_json(StressParams{}).contains("shuffle"));
}

// The knobs that change a generated kernel: their defaults, their spellings, and what a results file
// or params file from before them means (warm_loads was a boolean: true is "weak").
TEST(StressParams, KernelKnobsRoundTripAndOldSpellingsRead) {
  const StressParams d;
  EXPECT_TRUE(d.all_roles);
  EXPECT_EQ(d.warm_loads, StressParams::Warm::All);
  EXPECT_TRUE(d.reuse_words);
  StressParams p;
  p.all_roles = false;
  p.warm_loads = StressParams::Warm::None;
  p.reuse_words = false;
  EXPECT_EQ(to_json(p)["warm_loads"], "none");
  EXPECT_EQ(stress_params_from_json(to_json(p), "knobs"), p);
  EXPECT_EQ(describe(p), "warm loads none, one role a thread, a fresh word every round");
  EXPECT_EQ(stress_params_from_json(Json{{"warm_loads", true}}, "old").warm_loads, StressParams::Warm::Weak);
  EXPECT_EQ(stress_params_from_json(Json{{"warm_loads", false}}, "old").warm_loads, StressParams::Warm::None);
  EXPECT_THROW(stress_params_from_json(Json{{"warm_loads", "some"}}, "bad"), InputError);
  EXPECT_THROW(stress_params_from_json(Json{{"all_roles", 1}}, "bad"), InputError);
  // Stores after loads: off by default and in a file from before the knob; named when on.
  EXPECT_FALSE(d.loads_before_stores);
  EXPECT_FALSE(stress_params_from_json(Json{{"lines", 8u}}, "older").loads_before_stores);
  StressParams after;
  after.loads_before_stores = true;
  EXPECT_EQ(stress_params_from_json(to_json(after), "knobs"), after);
  EXPECT_EQ(describe(after), "stores after loads");
  EXPECT_THROW(stress_params_from_json(Json{{"loads_before_stores", "yes"}}, "bad"), InputError);
  // Distinct addresses: on by default, and read so from a file from before the knob; named when off.
  EXPECT_TRUE(d.distinct_addresses);
  EXPECT_TRUE(stress_params_from_json(Json{{"lines", 8u}}, "older").distinct_addresses);
  StressParams repeated;
  repeated.distinct_addresses = false;
  EXPECT_EQ(stress_params_from_json(to_json(repeated), "knobs"), repeated);
  EXPECT_EQ(describe(repeated), "repeated addresses as they are");
  EXPECT_THROW(stress_params_from_json(Json{{"distinct_addresses", 0}}, "bad"), InputError);
  // The rows' launch shape: two CTAs per SM of threads_per_block threads unless set; any CTA size.
  EXPECT_EQ(d.row_ctas_per_sm, 2u);
  EXPECT_EQ(d.row_threads_per_block, 0u);
  StressParams shape;
  shape.row_ctas_per_sm = 8;
  shape.row_threads_per_block = 22;
  shape.row_rounds_per_launch = 1;
  shape.row_word_order = StressParams::WordOrder::Contiguous;
  EXPECT_EQ(stress_params_from_json(to_json(shape), "shape"), shape);
  EXPECT_EQ(describe(shape), "row CTAs/SM 8, row threads/CTA 22, row rounds/launch 1, row words contiguous");
  EXPECT_THROW(stress_params_from_json(Json{{"row_word_order", true}}, "bad"), InputError);
  EXPECT_THROW(stress_params_from_json(Json{{"row_word_order", "sorted"}}, "bad"), InputError);
  // Mixed: the launches alternate, permuted first.
  const StressParams mixed;
  EXPECT_EQ(mixed.row_word_order, StressParams::WordOrder::Mixed);
  EXPECT_FALSE(mixed.contiguous_launch(0));
  EXPECT_TRUE(mixed.contiguous_launch(1));
  EXPECT_FALSE(mixed.contiguous_launch(2));
  EXPECT_TRUE(shape.contiguous_launch(0));
  EXPECT_THROW(stress_params_from_json(Json{{"row_ctas_per_sm", 0}}, "bad"), InputError);
  EXPECT_THROW(stress_params_from_json(Json{{"row_threads_per_block", 2048}}, "bad"), InputError);
  // A results file from before the kernel knobs ran one role a thread, warmed the weak loads, and wrote
  // a fresh word every round.
  Json j = to_json(Budget{});
  j["stress_params"].erase("all_roles");
  j["stress_params"].erase("reuse_words");
  j["stress_params"].erase("row_spin_timeout_us");
  j["stress_params"].erase("row_word_order");
  j["stress_params"]["warm_loads"] = true;
  const Budget old = budget_from_json(j, "old");
  EXPECT_FALSE(old.stress.all_roles);
  EXPECT_FALSE(old.stress.reuse_words);
  EXPECT_EQ(old.stress.warm_loads, StressParams::Warm::Weak);
  // Before row_spin_timeout_us, a row's spins took the hand-written readers' bound.
  EXPECT_EQ(old.stress.row_spin_timeout_us, old.stress.spin_timeout_us);
  // Before row_word_order, every launch permuted its words (a row's own knobs too).
  EXPECT_EQ(old.stress.row_word_order, StressParams::WordOrder::Permuted);
  Json rows = to_json(Budget{});
  rows["row_stress_params"] = Json::array({Json{{"rows", "litmus.mp.*"}, {"params", Json{{"row_ctas_per_sm", 1u}}}}});
  rows["row_stress_params"][0]["params"].erase("row_word_order");
  EXPECT_EQ(budget_from_json(rows, "old rows").row_stress.at(0).params.row_word_order, StressParams::WordOrder::Permuted);
  EXPECT_EQ(budget_from_json(to_json(Budget{}), "new").stress.row_word_order, StressParams::WordOrder::Mixed);
  StressParams short_rows;
  short_rows.row_spin_timeout_us = 100;
  Budget b;
  b.stress = short_rows;
  EXPECT_FALSE(b.certifying()) << "a row's spin bound below the default";
}

TEST(StressParams, BadFilesNameTheProblem) {
  const auto expect_error = [](const std::string& text, const std::string& needle) {
    const auto file = temp_file("vmmcheck-params-bad.json", text);
    try {
      read_stress_params(file.string());
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expect_error(R"({"params": {"pre_stress": 3}})", "'pre_stress' is not a stress knob");
  expect_error(R"({"params": {"lines": 0}})", "'lines' must be an integer from 1 to 8192");
  expect_error(R"({"params": {"stress_blocks_percent": 90}})", "from 0 to 75");
  expect_error(R"({"params": {"threads_per_block": 100}})", "multiple of 32");
  expect_error(R"({"params": {"pattern": "store"}})", "must be one of store-store");
  expect_error(R"({"params": {"barrier": 1}})", "must be true or false");
  expect_error(R"({"pre_accesses": 3})", "a 'params' object");
  expect_error("not json", "not JSON");
}

TEST(StressParams, RandomDrawsStayInRangeAndVary) {
  std::mt19937_64 rng(7);
  std::set<std::string> seen;
  for (int i = 0; i < 200; ++i) {
    const StressParams p = random_stress_params(rng);
    // Every draw is a valid file.
    EXPECT_EQ(stress_params_from_json(to_json(p), "draw"), p);
    EXPECT_GE(p.threads_per_block, 64u);  // two warps a CTA at least
    seen.insert(describe(p));
  }
  EXPECT_GT(seen.size(), 150u);
}

// tune --refine: a refinement is its draw with exactly one knob changed, one that shows in describe() (a
// change that builds the same kernel would measure it twice); over many, every knob the rows read moves.
TEST(StressParams, RefinementChangesOneKnobThatMatters) {
  std::mt19937_64 rng(11);
  std::set<std::string> moved;
  for (int i = 0; i < 400; ++i) {
    const StressParams base = i % 2 ? random_stress_params(rng) : StressParams{};
    const StressParams n = refined_stress_params(base, rng);
    EXPECT_EQ(stress_params_from_json(to_json(n), "refined"), n);
    EXPECT_NE(describe(n), describe(base));
    const Json a = to_json(base), b = to_json(n);
    std::vector<std::string> changed;
    for (const auto& [key, v] : a.items())
      if (b.at(key) != v) changed.push_back(key);
    ASSERT_EQ(changed.size(), 1u) << describe(base) << " -> " << describe(n);
    moved.insert(changed.front());
  }
  // Every knob the rows read moves; spin_timeout_us, peer.mp's alone, never does.
  EXPECT_EQ(moved.size(), to_json(StressParams{}).size() - 1) << "a knob no refinement ever changes";
  EXPECT_EQ(moved.count("spin_timeout_us"), 0u);
}

// What the rows read (as_rows_read): tune measures only generated rows, so a search never refines a knob
// only peer.mp's hand-written reader reads (spin_timeout_us), nor threads_per_block under a
// row_threads_per_block of its own, and records its draws without them.
TEST(StressParams, RefinementAndRecordsKeepToTheKnobsTheRowsRead) {
  StressParams p;
  p.spin_timeout_us = 5;
  p.row_threads_per_block = 32;
  p.threads_per_block = 512;
  p.grid_barrier = true;
  const StressParams rows_see = as_rows_read(p);
  EXPECT_EQ(rows_see.spin_timeout_us, StressParams{}.spin_timeout_us);
  EXPECT_EQ(rows_see.threads_per_block, StressParams{}.threads_per_block);
  EXPECT_EQ(rows_see.row_threads_per_block, 32u);
  EXPECT_TRUE(rows_see.grid_barrier);
  // Without a row_threads_per_block the rows read threads_per_block.
  p.row_threads_per_block = 0;
  EXPECT_EQ(as_rows_read(p).threads_per_block, 512u);

  std::mt19937_64 rng(5);
  for (int i = 0; i < 300; ++i) {
    const StressParams base = as_rows_read(random_stress_params(rng));
    const StressParams n = as_rows_read(refined_stress_params(base, rng));
    EXPECT_NE(describe(n), describe(base));
    EXPECT_EQ(n.spin_timeout_us, StressParams{}.spin_timeout_us);
  }
}

TEST(StressParams, BudgetJsonCarriesThemAndOldResultsStillRead) {
  Budget b;
  b.stress.pre_accesses = 5;
  b.stress.spin_timeout_us = 1000;
  const Json j = to_json(b);
  EXPECT_EQ(j["stress"], true);
  EXPECT_EQ(j["stress_accesses"], 5);
  EXPECT_EQ(j["spin_timeout_ms"], 1.0);
  EXPECT_EQ(budget_from_json(j, "test"), b);
  // A shorter spin than the default may turn a slow flag into a timeout: not certifying.
  EXPECT_FALSE(b.certifying());

  // Results written before stress params: a flag, its access count, the block size and the spin.
  Json old = j;
  old.erase("stress_params");
  old["threads_per_block"] = 128u;
  old["spin_timeout_ms"] = 20.0;
  const Budget read = budget_from_json(old, "old");
  EXPECT_EQ(read.stress.pre_accesses, 5u);
  EXPECT_EQ(read.stress.threads_per_block, 128u);
  EXPECT_EQ(read.stress.spin_timeout_us, 20'000u);
  EXPECT_FALSE(read.stress.distinct_addresses);

  // Results written before distinct_addresses ran without it, the run's knobs and each row's alike.
  Budget rows = b;
  rows.row_stress = {RowStress{"litmus.corr.*", StressParams{}}};
  Json before = to_json(rows);
  before["stress_params"].erase("distinct_addresses");
  before["row_stress_params"][0]["params"].erase("distinct_addresses");
  const Budget earlier = budget_from_json(before, "before");
  EXPECT_FALSE(earlier.stress.distinct_addresses);
  EXPECT_FALSE(earlier.row_stress.at(0).params.distinct_addresses);
  EXPECT_TRUE(budget_from_json(to_json(rows), "now").row_stress.at(0).params.distinct_addresses);
}

// Per-row knobs (tune --each): a params file's "rows" are read in order, every key of an entry's params
// optional, and carried by the budget into the results and back; a malformed entry names itself.
TEST(StressParams, PerRowKnobsAreReadAndCarried) {
  const auto file = temp_file("vmmcheck-params-rows.json", R"({"params": {"pre_accesses": 2},
    "rows": [{"rows": "litmus.iriw.*", "params": {"row_ctas_per_sm": 1, "grid_barrier": true}},
             {"rows": "litmus.mp.*,-litmus.mp.x", "params": {}}]})");
  EXPECT_EQ(read_stress_params(file.string()).pre_accesses, 2u);
  const std::vector<RowStress> rows = read_row_stress(file.string());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].rows, "litmus.iriw.*");
  EXPECT_EQ(rows[0].params.row_ctas_per_sm, 1u);
  EXPECT_TRUE(rows[0].params.grid_barrier);
  EXPECT_EQ(rows[0].params.pre_accesses, 0u);  // not the file's: the defaults under the entry's own
  EXPECT_EQ(rows[1].params, StressParams{});
  EXPECT_TRUE(read_row_stress(temp_file("vmmcheck-params-norows.json", R"({"params": {}})").string()).empty());

  Budget b;
  b.row_stress = rows;
  const Json j = to_json(b);
  EXPECT_EQ(j["row_stress_params"][0]["rows"], "litmus.iriw.*");
  EXPECT_EQ(budget_from_json(j, "test"), b);
  EXPECT_NE(budget_from_json(to_json(Budget{}), "test"), b);
  EXPECT_TRUE(b.certifying());
  b.row_stress[1].params.row_spin_timeout_us = 10;  // a row's spin bound below the default
  EXPECT_FALSE(b.certifying());

  const auto expect_error = [](const std::string& text, const std::string& needle) {
    try {
      read_row_stress(temp_file("vmmcheck-params-rows-bad.json", text).string());
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expect_error(R"({"params": {}, "rows": {}})", "'rows' must be an array");
  expect_error(R"({"params": {}, "rows": [{"params": {}}]})", "rows[0] must be");
  expect_error(R"({"params": {}, "rows": [{"rows": "", "params": {}}]})", "rows[0] must be");
  expect_error(R"({"params": {}, "rows": [{"rows": "a", "params": {"lines": 0}}]})", "rows[0]: 'lines'");
}

TEST(Mutants, NamesAreUniqueAndEachLivesInAPattern) {
  std::set<std::string_view> names;
  for (const patterns::MutantWord& m : patterns::kMutantWords) {
    EXPECT_TRUE(names.insert(m.name).second) << m.name;
    EXPECT_EQ(patterns::mutant_named(m.name), m.mutant);
    // A pattern's runner, or the litmus kernel generator (the generated rows catch it: selftest).
    const auto& generated = generator_mutants();
    bool lives = std::find(generated.begin(), generated.end(), m.mutant) != generated.end();
    for (const model::PatternInfo& p : model::all_patterns()) lives = lives || p.lives(m.mutant) != nullptr;
    EXPECT_TRUE(lives) << m.name << " lives in no pattern's kMutants and not in the generator: nothing could catch it";
  }
}

TEST(Mutants, TheEnvironmentSwitchesOneAndAScopeOverridesIt) {
  unsetenv(kMutantVariable);
  EXPECT_FALSE(active_mutant());
  setenv(kMutantVariable, "no-event-wait", 1);
  EXPECT_TRUE(mutated(Mutant::NoEventWait));
  EXPECT_FALSE(mutated(Mutant::NoProxyFence));
  {
    // A control case runs under its own mutant, whatever the environment says.
    const MutantScope scope(Mutant::NoProxyFence);
    EXPECT_TRUE(mutated(Mutant::NoProxyFence));
    EXPECT_FALSE(mutated(Mutant::NoEventWait));
    const MutantScope none(std::nullopt);  // a case that is not a control changes nothing
    EXPECT_TRUE(mutated(Mutant::NoProxyFence));
  }
  EXPECT_TRUE(mutated(Mutant::NoEventWait));
  setenv(kMutantVariable, "no-such-mutant", 1);
  EXPECT_THROW(active_mutant(), InputError);
  unsetenv(kMutantVariable);
}

// The exit code of the command line, its error text in `err`.
int cli_err(std::vector<std::string> args, std::string& err) {
  const testing::Outcome o = cli(std::move(args));
  err = o.err;
  return o.code;
}

TEST(Cli, TuneAndSelftestSayTheyNeedAGpu) {
  if (has_gpu()) GTEST_SKIP() << "a GPU is present: this test is about machines without one";
  std::string err;
  EXPECT_EQ(cli_err({"tune", "--trials", "2"}, err), cli::kExitNothingRunnable);
  EXPECT_NE(err.find("tune needs a GPU"), std::string::npos) << err;
  EXPECT_EQ(cli_err({"selftest"}, err), cli::kExitNothingRunnable);
  EXPECT_NE(err.find("selftest needs a GPU"), std::string::npos) << err;
}

TEST(Cli, StressAndMutantOptionsAreChecked) {
  std::string err;
  EXPECT_EQ(cli_err({"run", "--stress-params", "/no/such/file.json"}, err), cli::kExitUsage);
  const auto file = temp_file("vmmcheck-params-ok.json", R"({"params": {"barrier": true}})");
  EXPECT_EQ(cli_err({"run", "--stress", "--stress-params", file.string()}, err), cli::kExitUsage);
  EXPECT_NE(err.find("excludes"), std::string::npos) << err;
  EXPECT_EQ(cli_err({"run", "--mutant", "nope"}, err), cli::kExitUsage);
  EXPECT_NE(err.find("'nope' is not a mutant"), std::string::npos) << err;
  unsetenv(kMutantVariable);
  // Usage errors come first, GPU or not.
  EXPECT_EQ(cli_err({"selftest", "--mutant", "nope"}, err), cli::kExitUsage);
  EXPECT_NE(err.find("no mutant 'nope'"), std::string::npos) << err;
  EXPECT_EQ(cli_err({"tune", "--filter", "access.*"}, err), cli::kExitUsage);
  EXPECT_NE(err.find("has no litmus row to measure stress on"), std::string::npos) << err;
}

}  // namespace
}  // namespace vmmcheck::run
