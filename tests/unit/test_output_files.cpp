// Output files and environment twins (docs/design.md, "Output files", "Environment twins"): no command
// overwrites a document of another kind, and a variable exported for one command reaches no other.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/app.hpp"
#include "cli/command_line.hpp"
#include "cli/options.hpp"
#include "cli_driver.hpp"
#include "common/error.hpp"
#include "run/records/output_file.hpp"
#include "run/records/report_json.hpp"

namespace vmmcheck {
namespace {

using testing::cli;
using cli::kExitFailure;
using cli::kExitUsage;
using testing::bytes_of;
using testing::Outcome;

const std::filesystem::path kCorpus = std::filesystem::path(VMMCHECK_SOURCE_DIR) / "tests/corpus/documents";

// The kind of every document of the shared corpus is its file name's first word ("none": no kind); the
// report driver reads the same folder (reports/tests/test_output_files.py).
TEST(OutputFiles, EveryCorpusDocumentHasTheKindItsNameSays) {
  std::size_t seen = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kCorpus)) {
    if (entry.path().extension() != ".json") continue;
    const std::string name = entry.path().filename().string();
    const std::string expected = name.substr(0, name.find('.'));
    const std::optional<std::string> kind = run::document_kind_of_file(entry.path());
    EXPECT_EQ(kind.value_or("none"), expected) << name;
    ++seen;
  }
  EXPECT_GE(seen, 15u);
  EXPECT_EQ(run::document_kind_of_file(kCorpus / "no-such-file.json"), std::nullopt);
  EXPECT_EQ(run::document_kind_of_file(kCorpus), std::nullopt);  // a folder
}

std::filesystem::path copy_of(const std::string& corpus_file, const std::string& name) {
  const auto to = std::filesystem::temp_directory_path() / name;
  std::filesystem::copy_file(kCorpus / corpus_file, to, std::filesystem::copy_options::overwrite_existing);
  return to;
}

// Each command that writes JSON, told to write over a results file (or run over a list), exits 2 before
// anything else -- GPU or not -- and leaves the file as it was.
TEST(OutputFiles, NoCommandOverwritesADocumentOfAnotherKind) {
  const auto results = copy_of("results.run.json", "vmmcheck-out-results.json");
  const std::string before = bytes_of(results);
  const std::string litmus = std::string(VMMCHECK_SOURCE_DIR) + "/cases/litmus/corr.test";
  const std::vector<std::vector<std::string>> commands = {
      {"list", "--json", results.string()},
      {"model", litmus, "--json", results.string()},
      {"probe", "--json", results.string()},
      {"bench", "--quick", "--json", results.string()},
      {"selftest", "--json", results.string()},
      {"tune", "--out", results.string()},
  };
  for (const auto& args : commands) {
    const Outcome o = cli(args);
    EXPECT_EQ(o.code, kExitUsage) << args[0] << ": " << o.err;
    EXPECT_NE(o.err.find(results.string() + ": holds vmmcheck results (run --json); not overwriting it"), std::string::npos)
        << args[0] << ": " << o.err;
    EXPECT_EQ(bytes_of(results), before) << args[0];
  }
  const auto list = copy_of("list.schema.json", "vmmcheck-out-list.json");
  const std::string list_before = bytes_of(list);
  const Outcome o = cli({"run", "--filter", "alias.mp.*", "--json", list.string()});
  EXPECT_EQ(o.code, kExitUsage) << o.err;
  EXPECT_NE(o.err.find("holds a vmmcheck case list (list --json)"), std::string::npos) << o.err;
  EXPECT_EQ(bytes_of(list), list_before);
  // The same kind, or a file that is not ours, is written over as before.
  EXPECT_EQ(cli({"list", "--filter", "alias.mp.*", "--json", list.string()}).code, 0);
  const auto foreign = copy_of("none.package.json", "vmmcheck-out-foreign.json");
  EXPECT_EQ(cli({"list", "--filter", "alias.mp.*", "--json", foreign.string()}).code, 0);
  EXPECT_EQ(run::document_kind_of_file(foreign), "list");
}

// A run that runs nothing here (no GPU: every case NotSupported, exit 77) writes no results: the file it
// names keeps the results another machine wrote there.
TEST(OutputFiles, ARunThatRanNothingLeavesTheResultsFileAlone) {
  const auto results = std::filesystem::temp_directory_path() / "vmmcheck-out-h200.json";
  std::filesystem::copy_file(std::filesystem::path(VMMCHECK_SOURCE_DIR) / "ci/results/nvidia-h200_driver-580.159.04.json", results,
                             std::filesystem::copy_options::overwrite_existing);
  const std::string before = bytes_of(results);
  // Another run's results are never the output of a run (it would keep only what it ran): refused first.
  const Outcome o = cli({"run", "--filter", "alias.mp.same.*", "--json", results.string()});
  EXPECT_EQ(o.code, kExitUsage) << o.err;
  EXPECT_NE(o.err.find("holds the results of another run; a run would replace them (--resume"), std::string::npos) << o.err;
  EXPECT_EQ(bytes_of(results), before);
  if (testing::has_gpu()) GTEST_SKIP() << "the rest is about a machine where nothing runs";
  // A fresh name is not created either.
  const auto fresh = std::filesystem::temp_directory_path() / "vmmcheck-out-never-written.json";
  std::filesystem::remove(fresh);
  EXPECT_EQ(cli({"run", "--filter", "alias.mp.same.*", "--json", fresh.string()}).code, cli::kExitNothingRunnable);
  EXPECT_FALSE(std::filesystem::exists(fresh));
}

// A directory named as the output is refused before anything runs, and nothing is left beside it.
TEST(OutputFiles, ADirectoryIsNoOutputFile) {
  const auto dir = std::filesystem::temp_directory_path() / "vmmcheck-out-a-directory";
  std::filesystem::create_directories(dir);
  std::filesystem::remove(dir.string() + ".partial");
  const std::string litmus = std::string(VMMCHECK_SOURCE_DIR) + "/cases/litmus/MP.test";
  for (const std::vector<std::string>& args : {std::vector<std::string>{"model", litmus, "--json", dir.string()},
                                               std::vector<std::string>{"list", "--json", dir.string()}}) {
    const Outcome o = cli(args);
    EXPECT_EQ(o.code, kExitUsage) << args[0] << ": " << o.err;
    EXPECT_NE(o.err.find(dir.string() + ": is a directory; name a file for"), std::string::npos) << args[0] << ": " << o.err;
    EXPECT_FALSE(std::filesystem::exists(dir.string() + ".partial")) << args[0];
  }
  // A failed rename (the path became a directory after the claim) leaves no .partial either.
  EXPECT_THROW(run::write_results(dir, nlohmann::json::object()), InputError);
  EXPECT_FALSE(std::filesystem::exists(dir.string() + ".partial"));
}

// Through a symbolic link the file it names is written, and the link stays (a "latest.json" link to a
// run's file); a link to a file not made yet makes that file. A stale PATH.partial link is removed, never
// written through.
TEST(OutputFiles, ALinkIsFollowedNotReplaced) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "vmmcheck-out-links";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "target.json") << "{}";
  fs::create_symlink("target.json", dir / "link.json");
  std::ofstream(dir / "precious.txt") << "keep";
  fs::create_symlink("precious.txt", dir / "target.json.partial");
  run::write_results(dir / "link.json", nlohmann::json{{"a", 1}});
  EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
  std::ifstream target(dir / "target.json");
  EXPECT_EQ(nlohmann::json::parse(target), (nlohmann::json{{"a", 1}}));
  std::ifstream precious(dir / "precious.txt");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(precious), {}), "keep");
  fs::create_symlink("later.json", dir / "dangling.json");
  run::write_results(dir / "dangling.json", nlohmann::json::object());
  EXPECT_TRUE(fs::is_symlink(dir / "dangling.json"));
  EXPECT_TRUE(fs::is_regular_file(dir / "later.json"));
  fs::remove_all(dir);
}

// Sets environment variables for one scope.
class Environment {
 public:
  explicit Environment(std::vector<std::pair<std::string, std::string>> vars) : vars_(std::move(vars)) {
    for (const auto& [k, v] : vars_) setenv(k.c_str(), v.c_str(), 1);
  }
  ~Environment() {
    for (const auto& [k, v] : vars_) unsetenv(k.c_str());
  }

 private:
  std::vector<std::pair<std::string, std::string>> vars_;
};

cli::Options parsed(std::vector<std::string> args) {
  args.insert(args.begin(), "vmmcheck");
  cli::Options o;
  std::ostringstream out, err;
  EXPECT_EQ(cli::parse_command_line(args, o, out, err), -1) << err.str();
  return o;
}

// run's twins have the plain names; every other command reads only its own (VMMCHECK_<COMMAND>_<FLAG>).
TEST(EnvironmentTwins, RunsNamesReachRunOnly) {
  const Environment env({{"VMMCHECK_JSON", "/tmp/run-results.json"},
                         {"VMMCHECK_FILTER", "alias.mp.*"},
                         {"VMMCHECK_CASES", "/tmp/run-cases"},
                         {"VMMCHECK_SEED", "7"},
                         {"VMMCHECK_TIMEOUT", "9"}});
  const cli::Options run = parsed({"run"});
  EXPECT_EQ(run.json, "/tmp/run-results.json");
  EXPECT_TRUE(run.json_given);
  EXPECT_EQ(run.filter, "alias.mp.*");
  EXPECT_EQ(run.cases, std::vector<std::string>{"/tmp/run-cases"});
  EXPECT_EQ(run.budget.seed, 7u);
  EXPECT_EQ(run.timeout_s, 9.0);
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"list"}, {"model", "x.test"}, {"toolchain", "x.test"}, {"probe"}, {"bench"}, {"selftest"}, {"tune"}, {"explain"}}) {
    const cli::Options o = parsed(args);
    EXPECT_TRUE(o.json.empty()) << args[0];
    EXPECT_FALSE(o.json_given) << args[0];
    EXPECT_TRUE(o.filter.empty()) << args[0];
    EXPECT_TRUE(o.cases.empty()) << args[0];
    EXPECT_EQ(o.budget.seed, 1u) << args[0];
    EXPECT_EQ(o.timeout_s, 120.0) << args[0];
  }
}

TEST(EnvironmentTwins, EachCommandHasItsOwn) {
  const Environment env({{"VMMCHECK_LIST_FILTER", "alias.rmw.*"},
                         {"VMMCHECK_MODEL_JSON", "/tmp/model.json"},
                         {"VMMCHECK_BENCH_JSON", "/tmp/bench.json"},
                         {"VMMCHECK_SELFTEST_SEED", "3"},
                         {"VMMCHECK_TUNE_TRIALS", "5"},
                         {"VMMCHECK_PROBE_JSON", "/tmp/probe.json"},
                         {"VMMCHECK_EXPLAIN_RESULTS", "/tmp/r.json"},
                         {"VMMCHECK_TOOLCHAIN_JSON", "/tmp/toolchain.json"}});
  EXPECT_EQ(parsed({"list"}).filter, "alias.rmw.*");
  EXPECT_EQ(parsed({"model", "x.test"}).json, "/tmp/model.json");
  EXPECT_EQ(parsed({"bench"}).json, "/tmp/bench.json");
  EXPECT_EQ(parsed({"selftest"}).budget.seed, 3u);
  EXPECT_EQ(parsed({"tune"}).tune_trials, 5u);
  EXPECT_EQ(parsed({"probe"}).json, "/tmp/probe.json");
  EXPECT_EQ(parsed({"explain"}).results, "/tmp/r.json");
  EXPECT_EQ(parsed({"toolchain", "x.test"}).json, "/tmp/toolchain.json");
  // ... and none reaches run.
  const cli::Options run = parsed({"run"});
  EXPECT_TRUE(run.filter.empty());
  EXPECT_TRUE(run.json.empty());
  EXPECT_EQ(run.budget.seed, 1u);
}

// The CI job of the issue: VMMCHECK_JSON exported for run, then list and model called -- the results file
// stays as it was.
TEST(EnvironmentTwins, ListAndModelLeaveRunsResultsFileAlone) {
  const auto results = std::filesystem::temp_directory_path() / "vmmcheck-env-results.json";
  std::filesystem::copy_file(std::string(VMMCHECK_SOURCE_DIR) + "/ci/results/nvidia-h200_driver-580.159.04.json", results,
                             std::filesystem::copy_options::overwrite_existing);
  const std::string before = bytes_of(results);
  const Environment env({{"VMMCHECK_JSON", results.string()}});
  Outcome o = cli({"list"});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find(" litmus rows\n"), std::string::npos) << "the list on the console";
  o = cli({"model", std::string(VMMCHECK_SOURCE_DIR) + "/cases/litmus"});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find(" as the files say, 0 against\n"), std::string::npos) << "the verdicts on the console";
  EXPECT_EQ(bytes_of(results), before);
}

// Help names each flag's twin, so a user can find it; twins_of lists them (selftest clears run's for its passes).
TEST(EnvironmentTwins, HelpNamesThem) {
  const std::vector<std::string> run = cli::twins_of("run");
  for (const char* name : {"VMMCHECK_FILTER", "VMMCHECK_JSON", "VMMCHECK_CASES", "VMMCHECK_CASELIST", "VMMCHECK_SHARD",
                           "VMMCHECK_BASELINE", "VMMCHECK_NO_POWER"})
    EXPECT_NE(std::find(run.begin(), run.end(), name), run.end()) << name;
  for (const std::string& name : cli::twins_of("list")) EXPECT_EQ(name.rfind("VMMCHECK_LIST_", 0), 0u) << name;
  EXPECT_NE(cli({"run", "--help"}).out.find("(Env:VMMCHECK_FILTER)"), std::string::npos);
  EXPECT_NE(cli({"list", "--help"}).out.find("(Env:VMMCHECK_LIST_FILTER)"), std::string::npos);
  EXPECT_NE(cli({"bench", "--help"}).out.find("(Env:VMMCHECK_BENCH_QUICK)"), std::string::npos);
}

// tune's budget per trial: 4M instances for the case tables, a run's own for a user's litmus files (a
// row's launches are the run's, so fewer instances would be fewer rounds a launch than the run gives
// the draw); --refine defaults to a third of the trials, --confirm to none (cli/tune.cpp).
TEST(TuneOptions, LitmusFilesAreMeasuredAtTheRunsBudget) {
  const std::uint64_t run_default = cli::Options{}.budget.instances;
  EXPECT_EQ(parsed({"tune"}).budget.instances, 4'000'000u);
  EXPECT_EQ(parsed({"tune", "--litmus", "x.test"}).budget.instances, run_default);
  EXPECT_EQ(parsed({"tune", "--litmus", "x.test", "--instances", "5000"}).budget.instances, 5000u);
  EXPECT_FALSE(parsed({"tune"}).tune_refine.has_value());
  EXPECT_EQ(parsed({"tune", "--refine", "0"}).tune_refine, 0u);
  EXPECT_EQ(parsed({"tune"}).tune_confirm, 0u);
  EXPECT_EQ(parsed({"tune", "--confirm", "4"}).tune_confirm, 4u);
  // --start is repeatable, one file a time (a second word is no second start).
  const std::string a = std::string(VMMCHECK_SOURCE_DIR) + "/cases/litmus/stress-params.json";
  const std::string b = std::string(VMMCHECK_SOURCE_DIR) + "/ci/results/experiments/nvidia-h200_driver-580.159.04.paper-example1-96-trials.params.json";
  EXPECT_EQ(parsed({"tune", "--start", a, "--start", b}).tune_start, (std::vector<std::string>{a, b}));
  const Outcome two = cli({"tune", "--start", a, b});
  EXPECT_EQ(two.code, 2) << two.err;
}

}  // namespace
}  // namespace vmmcheck
