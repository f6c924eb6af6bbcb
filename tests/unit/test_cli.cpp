// The command line: subcommands, exit codes, messages for bad input, and the no-GPU behaviour.
#include <gtest/gtest.h>
#include <cuda_runtime_api.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/app.hpp"
#include "cli_driver.hpp"
#include "cli/console.hpp"

namespace vmmcheck::cli {
namespace {

using testing::cli;
using testing::has_gpu;
using testing::Outcome;
using testing::temp_file;

// Numbers a flag takes are finite and fit: NaN and infinities (which a range check lets through), a seed past
// 64 bits (which would be clamped) and a negative device are exit 2 with one short line, before any work.
TEST(Cli, NumbersAreFiniteAndFit) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
      {{"run", "--timeout", "nan"}, "--timeout: must be a finite number, not nan"},
      {{"run", "--timeout", "inf"}, "--timeout: must be a finite number, not inf"},
      {{"selftest", "--timeout", "-nan"}, "must be a finite number"},
      {{"tune", "--seconds", "nan"}, "--seconds: must be a finite number"},
      {{"run", "--seed", "99999999999999999999999999"}, "--seed: must be at most 18446744073709551615"},
      {{"run", "--device", "-1"}, "--device: Value -1 not in range 0 to 1023"},
  };
  for (const auto& [args, message] : bad) {
    const Outcome o = cli(args);
    EXPECT_EQ(o.code, kExitUsage) << args[1] << " " << args[2] << ": " << o.err;
    EXPECT_NE(o.err.find(message), std::string::npos) << o.err;
    EXPECT_LT(o.err.size(), 200u) << o.err;
  }
  setenv("VMMCHECK_TIMEOUT", "nan", 1);
  const Outcome env = cli({"run", "--filter", "api.nothing"});
  unsetenv("VMMCHECK_TIMEOUT");
  EXPECT_EQ(env.code, kExitUsage);
  EXPECT_NE(env.err.find("must be a finite number"), std::string::npos) << env.err;
}

// A message that echoes input is one line of printable text: an escape sequence in a case list is shown
// as \x1b..., never sent to the terminal.
TEST(Cli, ErrorsEchoInputAsOnePrintableLine) {
  const auto list = temp_file("vmmcheck-escapes.caselist", "alias.mp.*\n\x1b[31mred\x1b[0m x\n");
  const Outcome o = cli({"run", "--caselist", list.string()});
  EXPECT_EQ(o.code, kExitUsage);
  EXPECT_EQ(o.err.find('\x1b'), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("'\\x1b[31mred\\x1b[0m x'"), std::string::npos) << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
}

TEST(Cli, ListNeedsNoGpuAndShowsAtLeastFortyCases) {
  const Outcome o = cli({"list"});
  EXPECT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("alias.mp.same.flagsame.nofence.gpu"), std::string::npos);
  const std::size_t lines = std::count(o.out.begin(), o.out.end(), '\n');
  EXPECT_GE(lines, 41u);
  const Outcome filtered = cli({"list", "--filter", "alias.resident.*", "--json"});
  EXPECT_EQ(filtered.code, kExitOk);
  EXPECT_EQ(nlohmann::json::parse(filtered.out)["cases"].size(), 18u);
}

// list --litmus: a user's own files, their rows only, each with what the model says of its question; a
// malformed file is exit 2 with its file:line.
TEST(Cli, ListTakesLitmusFiles) {
  const std::string mp = std::string(VMMCHECK_SOURCE_DIR) + "/cases/litmus/MP.test";
  const Outcome o = cli({"list", "--litmus", mp});
  ASSERT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("litmus.mp.0."), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("alias.kernels."), std::string::npos) << "no hand-written case beside the files' rows";
  EXPECT_EQ(o.out.find("alias.mp."), std::string::npos) << "nor a shipped row that stands for a retired case";
  EXPECT_EQ(o.out.find("litmus.sb."), std::string::npos) << "no shipped row of another file";
  const Outcome json = cli({"list", "--litmus", mp, "--json"});
  ASSERT_EQ(json.code, kExitOk) << json.err;
  const auto doc = nlohmann::json::parse(json.out);
  EXPECT_EQ(doc["cases"].size(), 0u);
  EXPECT_GT(doc["litmus_rows"].size(), 10u);
  const auto bad = temp_file("vmmcheck-bad.test", ".global x;\nd0.b0.t0 { ld.gpu r0, [x]; }\npermit (r0 == 0) as a;\n");
  const Outcome broken = cli({"list", "--litmus", bad.string()});
  EXPECT_EQ(broken.code, kExitUsage);
  EXPECT_NE(broken.err.find("vmmcheck-bad.test:2:"), std::string::npos) << broken.err;
}

// list --json describes itself: each case its pattern and axes; each family its axes' docs and value
// descriptions, its outcomes and which are weak, and its prune rules with their reasons.
TEST(Cli, ListJsonCarriesPatternsAxesOutcomesAndPrunes) {
  const Outcome o = cli({"list", "--filter", "multicast.st.*,multicast.red.*,multicast.ld_reduce.*", "--json"});
  ASSERT_EQ(o.code, kExitOk) << o.err;
  const auto doc = nlohmann::json::parse(o.out);
  EXPECT_EQ(doc["schema_version"], 2);
  ASSERT_EQ(doc["families"].size(), 1u);
  const auto& fam = doc["families"][0];
  EXPECT_EQ(fam["name"], "multicast");
  EXPECT_EQ(fam["pattern"], "multicast");
  ASSERT_EQ(fam["axes"].size(), 3u);
  EXPECT_EQ(fam["axes"][1]["name"], "fence");
  EXPECT_FALSE(fam["axes"][1]["doc"].get<std::string>().empty());
  EXPECT_EQ(fam["axes"][1]["values"][1]["value"], "proxy_alias");
  EXPECT_EQ(fam["axes"][1]["values"][1]["name"], "fence");
  EXPECT_FALSE(fam["axes"][1]["values"][1]["description"].get<std::string>().empty());
  ASSERT_EQ(fam["outcomes"].size(), 2u);
  EXPECT_EQ(fam["outcomes"][1]["name"], "stale");
  EXPECT_EQ(fam["outcomes"][1]["weak"], true);
  EXPECT_EQ(fam["outcomes"][0]["weak"], false);
  ASSERT_EQ(fam["prunes"].size(), 1u);
  EXPECT_EQ(fam["prunes"][0]["name"], "fence_across_kernels");
  EXPECT_FALSE(fam["prunes"][0]["why"].get<std::string>().empty());
  EXPECT_EQ(fam["prunes"][0]["when"]["fence"], nlohmann::json({"proxy_alias"}));
  EXPECT_EQ(fam["pruned"].size(), 3u);  // 3 operations with a fence and an event between two kernels
  ASSERT_EQ(doc["cases"].size(), 9u);
  for (const auto& c : doc["cases"]) {
    EXPECT_EQ(c["pattern"], "multicast");
    EXPECT_EQ(c["axes"].size(), 3u);
  }
  const auto& first = doc["cases"][0];
  EXPECT_EQ(first["name"], "multicast.ld_reduce.fence.onekernel");
  EXPECT_EQ(first["axes"], nlohmann::json({{"op", "ld_reduce"}, {"fence", "proxy_alias"}, {"order", "none"}}));
}

TEST(Cli, CasesTakesOneValueEachTime) {
  const std::string planted = std::string(VMMCHECK_SOURCE_DIR) + "/tests/planted";
  const Outcome o = cli({"explain", "--cases", planted, "planted.gpu.trap"});
  EXPECT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("Model:     none -- a planted self-test case tests the harness"), std::string::npos) << o.out;
  const Outcome two = cli({"list", "--cases", planted, "--cases", std::string(VMMCHECK_SOURCE_DIR) + "/cases"});
  EXPECT_EQ(two.code, kExitOk) << two.err;
  const Outcome shipped = cli({"list"});
  const auto count = [](const std::string& out) { return std::count(out.begin(), out.end(), '\n') - 1; };
  EXPECT_EQ(count(two.out), count(shipped.out) + 6) << two.out;  // the six planted cases besides the shipped ones
}

TEST(Cli, HelpNamesTheProgram) {
  const Outcome o = cli({"--help"});
  EXPECT_EQ(o.code, kExitOk);
  EXPECT_NE(o.out.find("Usage: vmmcheck "), std::string::npos) << o.out;
  const Outcome run = cli({"run", "--help"});
  EXPECT_NE(run.out.find("Usage: vmmcheck run "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("--verbose"), std::string::npos) << run.out;
}

TEST(Cli, ExplainWorksForEveryCase) {
  const Outcome names = cli({"list", "--json"});
  for (const auto& c : nlohmann::json::parse(names.out)["cases"]) {
    const Outcome o = cli({"explain", c["name"].get<std::string>()});
    ASSERT_EQ(o.code, kExitOk) << c["name"] << o.err;
    EXPECT_NE(o.out.find("Rule:"), std::string::npos);
    EXPECT_NE(o.out.find("Citation:"), std::string::npos);
    EXPECT_NE(o.out.find("The pattern:"), std::string::npos);
    // The PTX model's derivation (memory-model cases), the contract oracle's, or why neither applies.
    EXPECT_TRUE(o.out.find("\nModel:     ") != std::string::npos || o.out.find("\nOracle:    ") != std::string::npos) << c["name"];
  }
}

TEST(Cli, BadInputExitsTwoAndNamesTheProblem) {
  Outcome o = cli({"run", "--frobnicate"});
  EXPECT_EQ(o.code, kExitUsage);
  EXPECT_NE(o.err.find("--frobnicate"), std::string::npos) << o.err;

  o = cli({"explain", "alias.mp.nope"});
  EXPECT_EQ(o.code, kExitUsage);
  EXPECT_NE(o.err.find("unknown case 'alias.mp.nope'"), std::string::npos) << o.err;

  o = cli({"run", "--filter", "no.such.*"});
  EXPECT_EQ(o.code, kExitUsage);
  EXPECT_NE(o.err.find("no case or litmus row matches the filter 'no.such.*'"), std::string::npos) << o.err;

  const auto bad = temp_file("vmmcheck-bad.toml", "family = \"x\"\npattern = \"resident\"\ntitle = [\n");
  o = cli({"list", "--cases", bad.string()});
  EXPECT_EQ(o.code, kExitUsage);
  EXPECT_NE(o.err.find("vmmcheck-bad.toml:3"), std::string::npos) << o.err;

  o = cli({"run", "--iterations", "0"});
  EXPECT_EQ(o.code, kExitUsage);
  o = cli({});
  EXPECT_EQ(o.code, kExitUsage);
}

// A verdict the PTX model disagrees with is refused at load, with the model's reason; an `override`
// citing why the table departs from the model lets it through.
TEST(Cli, AVerdictTheModelDisagreesWithIsRefused) {
  const std::string family = R"(family = "wrong.peer_mp"
pattern = "peer_mp"
title = "a deliberately wrong verdict"
snippet = "-"
[[axis]]
name = "data"
doc = "d"
values = [ { value = "alias", description = "B" } ]
[[axis]]
name = "fence"
doc = "d"
values = [ { value = "none", description = "no fence" } ]
[[verdict]]
expect = "required"
outcomes = ["new"]
rule = "wrong on purpose: a read through an alias with no fence is not ordered"
cite = "c"
why = "w"
)";
  const auto bad = temp_file("vmmcheck-wrong-verdict.toml", family);
  Outcome o = cli({"list", "--cases", bad.string()});
  EXPECT_EQ(o.code, kExitUsage);
  EXPECT_NE(o.err.find("vmmcheck-wrong-verdict.toml:13: case wrong.peer_mp.alias.none"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("the verdict says required [new], the PTX memory model says undefined"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("the model allows r2 != 1"), std::string::npos) << o.err;
  const auto overridden = temp_file("vmmcheck-overridden-verdict.toml", family + "override = \"a citation\"\n");
  EXPECT_EQ(cli({"list", "--cases", overridden.string()}).code, kExitOk);
}

TEST(Cli, EnvironmentTwinsSetFlags) {
  setenv("VMMCHECK_FILTER", "alias.kernels.*", 1);
  const Outcome o = cli({"list", "--json"});
  unsetenv("VMMCHECK_FILTER");
  EXPECT_EQ(o.code, kExitOk);
  for (const auto& c : nlohmann::json::parse(o.out)["cases"]) EXPECT_EQ(c["family"], "alias.kernels");
}

TEST(Cli, WithoutAGpuRunSkipsEveryCaseAndExits77) {
  if (has_gpu()) GTEST_SKIP() << "a GPU is present: this test is about machines without one";
  const auto json = std::filesystem::temp_directory_path() / "vmmcheck-nogpu.json";
  std::filesystem::remove(json);
  const Outcome o = cli({"run", "--filter", "alias.mp.*", "--json", json.string()});
  EXPECT_EQ(o.code, kExitNothingRunnable);
  EXPECT_NE(o.out.find("0 passed, 0 failed, 63 skipped"), std::string::npos) << o.out;
  // The reason once (in the header), not once per case; the tally; no case lines.
  EXPECT_NE(o.out.find("device: none (no CUDA GPU here"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("no CUDA GPU here"), o.out.rfind("no CUDA GPU here")) << o.out;
  EXPECT_EQ(o.err.find("no CUDA GPU here"), std::string::npos) << o.err;
  EXPECT_EQ(o.out.find("NOT-SUP"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("63 cases skipped for want of a GPU; --verbose lists them"), std::string::npos) << o.out;
  // A run that ran nothing writes no results (it would replace a file of results from elsewhere).
  EXPECT_FALSE(std::filesystem::exists(json));
  // --verbose lists every case, each with the reason.
  const Outcome verbose = cli({"run", "--filter", "alias.mp.*", "--verbose"});
  EXPECT_EQ(verbose.code, kExitNothingRunnable);
  EXPECT_EQ(std::count(verbose.out.begin(), verbose.out.end(), '\n'), 4 + 63 + 1) << verbose.out;
  // Each by its status as the JSON spells it (NotSupported), not as a baseline's Skip.
  EXPECT_NE(verbose.out.find("NOT-SUP alias.mp.alias.flagalias.bothfence.cta  (no CUDA GPU here"), std::string::npos)
      << verbose.out;
  EXPECT_EQ(cli({"probe"}).code, kExitNothingRunnable);
}

TEST(Console, TallyLineAndCounts) {
  EXPECT_EQ(tally_line({3, 1, 2}), "3 passed, 1 failed, 2 skipped");
  EXPECT_EQ(human_count(999), "999");
  EXPECT_EQ(human_count(12'345), "12k");
  EXPECT_EQ(human_count(10'616'832), "11M");
  EXPECT_EQ(human_count(2'500'000'000ull), "2.5G");
}

}  // namespace
}  // namespace vmmcheck::cli

namespace vmmcheck::testing {
namespace {

using cli::kExitNothingRunnable;
using cli::kExitFailure;
using cli::kExitUsage;

// list --json carries what the handbook draws and explains: each case's why, the oracle's derivation and
// the litmus shape the model decides (null where the model says nothing).
TEST(CliModel, ListJsonCarriesDerivationAndShape) {
  const Outcome o = cli({"list", "--json", "--filter", "peer.mp.same.nofence,access.none.read"});
  ASSERT_EQ(o.code, 0) << o.err;
  const auto doc = nlohmann::json::parse(o.out);
  const auto& access = doc["cases"][0];
  const auto& mp = doc["cases"][1];
  EXPECT_FALSE(mp["why"].get<std::string>().empty());
  EXPECT_EQ(mp["derivation"]["by"], "the PTX proxy model");
  EXPECT_EQ(mp["derivation"]["expectation"], "required");
  ASSERT_EQ(mp["shape"]["threads"].size(), 2u);
  EXPECT_EQ(mp["shape"]["threads"][0]["ops"].back(), "st.release.sys [flag_A], 1") << mp["shape"].dump();
  EXPECT_TRUE(access["shape"].is_null());
}

// `vmmcheck model` (docs/litmus.md): 0 when every row's permit/assert is what the model says, 1 when one
// is not (named, with the model's reason), 2 for a malformed file (file:line:column).
TEST(CliModel, ExitCodesFollowTheVerdicts) {
  const char* mp = R"(.global x;
.global flag;
d0.b0.t0 { st [x], 1; st.release.gpu [flag], 1; }
d0.b1.t0 { ld.acquire.gpu r0, [flag] == 1; ld r1, [x]; }
)";
  const auto good = temp_file("vmmcheck-mp-good.test", std::string(mp) + "assert (r1 == 1) as data;\n");
  Outcome o = cli({"model", good.string()});
  EXPECT_EQ(o.code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("litmus.vmmcheck_mp_good.data"), std::string::npos) << o.out;  // as run and explain name it
  EXPECT_NE(o.out.find("1 rows: 1 as the files say, 0 against"), std::string::npos) << o.out;

  const auto wrong = temp_file("vmmcheck-mp-wrong.test", std::string(mp) + "permit (r1 != 1) as data;\n");
  o = cli({"model", wrong.string()});
  EXPECT_EQ(o.code, 1) << o.out;
  EXPECT_NE(o.out.find("AGAINST THE FILE"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("forbids"), std::string::npos) << o.out;

  const auto bad = temp_file("vmmcheck-mp-bad.test", ".global x;\nd0.b0.t0 { st [x] 1; }\n");
  o = cli({"model", bad.string()});
  EXPECT_EQ(o.code, kExitUsage);
  EXPECT_NE(o.err.find("vmmcheck-mp-bad.test:2:19: expected ','"), std::string::npos) << o.err;

  o = cli({"model", "--json", "-", good.string()});
  EXPECT_EQ(o.code, 0);
  EXPECT_NE(o.out.find("\"schema\": \"vmmcheck-model/1\""), std::string::npos) << o.out;
}

// With --json the console still says what disagrees and how many: a CI log shows why model exits 1.
TEST(CliModel, JsonStillPrintsTheSummaryAndEveryRowAgainstItsFile) {
  const auto wrong = temp_file("vmmcheck-mp-json-wrong.test", R"(.global x;
.global flag;
d0.b0.t0 { st [x], 1; st.release.gpu [flag], 1; }
d0.b1.t0 { ld.acquire.gpu r0, [flag] == 1; ld r1, [x]; }
permit (r1 != 1) as data;
assert (r1 == 1) as fine;
)");
  const auto json = std::filesystem::temp_directory_path() / "vmmcheck-model-verdicts.json";
  std::filesystem::remove(json);
  Outcome o = cli({"model", wrong.string(), "--json", json.string()});
  EXPECT_EQ(o.code, kExitFailure);
  EXPECT_NE(o.out.find("litmus.vmmcheck_mp_json_wrong.data"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("AGAINST THE FILE (" + wrong.string() + ":5)"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("litmus.vmmcheck_mp_json_wrong.fine"), std::string::npos) << "a row as its file says is in the JSON only";
  EXPECT_NE(o.out.find("2 rows: 1 as the files say, 1 against; verdicts in " + json.string()), std::string::npos) << o.out;
  EXPECT_EQ(nlohmann::json::parse(std::ifstream(json))["rows"].size(), 2u);
  // To stdout, the JSON alone is there; the summary and the row go to stderr.
  o = cli({"model", wrong.string(), "--json", "-"});
  EXPECT_EQ(o.code, kExitFailure);
  EXPECT_EQ(nlohmann::json::parse(o.out)["rows"].size(), 2u);
  EXPECT_NE(o.err.find("AGAINST THE FILE"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("2 rows: 1 as the files say, 1 against"), std::string::npos) << o.err;
}

// Counts are never negative: "-5" is refused, not read as 2^64-5 (from the command line or a twin).
TEST(Cli, NumericFlagsRefuseNegatives) {
  const std::vector<std::vector<std::string>> flags = {
      {"run", "--seed"},       {"run", "--iterations"},  {"run", "--instances"}, {"run", "--op-words"},
      {"run", "--device"},     {"run", "--timeout"},     {"tune", "--trials"},   {"tune", "--seconds"},
      {"tune", "--seed"},      {"selftest", "--seed"},   {"selftest", "--timeout"}, {"bench", "--warmup"},
      {"bench", "--min-samples"}, {"bench", "--max-samples"}, {"bench", "--seconds"}, {"bench", "--rounds"},
      {"bench", "--max-size"}, {"bench", "--device"},    {"bench", "--confidence"}};
  for (const auto& f : flags) {
    for (const char* value : {"-5", "-1"}) {
      const Outcome o = cli({f[0], f[1], value});
      EXPECT_EQ(o.code, kExitUsage) << f[0] << " " << f[1] << " " << value << ": " << o.out << o.err;
    }
  }
  setenv("VMMCHECK_SEED", "-5", 1);
  const Outcome o = cli({"run"});
  unsetenv("VMMCHECK_SEED");
  EXPECT_EQ(o.code, kExitUsage) << o.err;
  EXPECT_NE(o.err.find("--seed: must not be negative"), std::string::npos) << o.err;
}

// list shows the litmus rows run runs, with their verdicts; the filter selects them as it selects cases.
TEST(Cli, ListShowsLitmusRowsWithTheirVerdicts) {
  Outcome o = cli({"list", "--filter", "litmus.corr.*"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("litmus.corr.0.cta_relaxed"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("required  assert (not (r0 == 1 && r1 == 0)): holds"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("0 cases and "), std::string::npos) << o.out;
  o = cli({"list", "--json", "--filter", "litmus.corr.*"});
  ASSERT_EQ(o.code, 0) << o.err;
  const auto doc = nlohmann::json::parse(o.out);
  EXPECT_EQ(doc["schema"], "vmmcheck-list/1");
  EXPECT_EQ(doc["cases"].size(), 0u);
  ASSERT_GT(doc["litmus_rows"].size(), 0u);
  const auto& row = doc["litmus_rows"][0];
  EXPECT_EQ(row["name"], "litmus.corr.0.cta_relaxed");
  EXPECT_EQ(row["family"], "litmus.corr");
  EXPECT_EQ(row["expectation"], "required");
  EXPECT_EQ(row["expect"], "assert");
  EXPECT_EQ(row["model"], "holds");
  EXPECT_EQ(row["matches"], true);
  EXPECT_EQ(row["axes"]["file"], "corr");
  // The row's own test, its template's holes filled: the store and the reader CoRR.test's row 0 gives.
  const std::string source = row["source"];
  EXPECT_NE(source.find("st.relaxed.cta [x], 1;"), std::string::npos) << source;
  EXPECT_NE(source.find("d0.b0.t1 {"), std::string::npos) << source;
  EXPECT_EQ(source.find('$'), std::string::npos) << source;
  const auto all = nlohmann::json::parse(cli({"list", "--json"}).out);
  o = cli({"list"});
  EXPECT_NE(o.out.find(std::to_string(all["cases"].size()) + " cases and " + std::to_string(all["litmus_rows"].size()) +
                       " litmus rows"),
            std::string::npos)
      << o.out.substr(o.out.size() - 300);
  EXPECT_EQ(cli({"list", "--filter", "litmus.nothing.*"}).code, kExitUsage);
}

// The shipped litmus folder is part of the default suite: listed, run (skipped here without a GPU), and
// selected by the filter like the cases.
TEST(CliModel, RunTakesLitmusFilesAndTheFilter) {
  const auto file = temp_file("vmmcheck-run-litmus.test",
                              ".global x;\nd0.b0.t0 { st [x], 1; ld r0, [x]; }\nassert (r0 == 1) as own;\n");
  Outcome o = cli({"run", "--litmus", file.string(), "--verbose"});
  EXPECT_NE(o.out.find("litmus.vmmcheck_run_litmus.own"), std::string::npos) << o.out;
  if (!has_gpu()) EXPECT_EQ(o.code, kExitNothingRunnable) << o.out << o.err;
  o = cli({"run", "--litmus", file.string(), "--filter", "litmus.nothing.*"});
  EXPECT_EQ(o.code, kExitUsage);
}

// explain takes a litmus row's case name: the test as written, the model's answer with its witness.
TEST(CliModel, ExplainALitmusRow) {
  const auto file = temp_file("vmmcheck-explain-litmus.test",
                              ".global x;\nd0.b0.t0 { st [x], 1; ld r0, [x]; }\nassert (r0 == 1) as own;\n");
  Outcome o = cli({"explain", "--litmus", file.string(), "litmus.vmmcheck_explain_litmus.own"});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("st [x], 1;"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("as the file says"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("Its locations are"), std::string::npos) << "device memory says nothing of its kind";
  o = cli({"explain", "--litmus", file.string(), "litmus.vmmcheck_explain_litmus.nope"});
  EXPECT_EQ(o.code, kExitUsage);
  EXPECT_NE(o.err.find("unknown litmus row"), std::string::npos) << o.err;
  // A row over another kind of memory says which, and that the model's answer does not depend on it.
  const auto numa = temp_file("vmmcheck-explain-numa.test",
                              ".memory host_numa;\n.global x;\nd0.b0.t0 { st [x], 1; ld r0, [x]; }\nassert (r0 == 1) as own;\n");
  o = cli({"explain", "--litmus", numa.string(), "litmus.vmmcheck_explain_numa.own"});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("Its locations are host memory of the GPU's NUMA node"), std::string::npos) << o.out;
}

}  // namespace
}  // namespace vmmcheck::testing
