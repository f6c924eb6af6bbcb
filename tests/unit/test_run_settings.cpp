// One run-settings type (run/records/run_settings.hpp): the command line fills it once
// (cli/run_settings.hpp), and an isolated child gets it whole, as JSON in its spec, and reads it back
// (run/execution/isolated_child.cpp does settings_from_json(spec["settings"])). Every flag of `run` must
// change what the child reads, or be named here as one only the parent acts on, with the reason: a new
// flag that is neither fails the first test. No GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command_line.hpp"
#include "cli/run_settings.hpp"
#include "common/error.hpp"
#include "litmus/folder.hpp"
#include "model/caselist.hpp"
#include "model/shard.hpp"
#include "run/records/run_settings.hpp"
#include "run/records/stress_params.hpp"

namespace vmmcheck::cli {
namespace {

namespace fs = std::filesystem;

fs::path temp_file(const std::string& name, const std::string& text) {
  const fs::path p = fs::temp_directory_path() / name;
  std::ofstream(p) << text;
  return p;
}

// What the child of a run with these arguments reads: the settings the CLI fills, through the spec's JSON.
std::string child_reads(const std::vector<std::string>& run_args) {
  std::vector<std::string> args{"vmmcheck", "run"};
  args.insert(args.end(), run_args.begin(), run_args.end());
  Options o;
  std::ostringstream out, err;
  EXPECT_EQ(parse_command_line(args, o, out, err), -1) << err.str();
  resolve_stress(o);
  model::Selection selection;  // as cli::select fills it (cases.cpp)
  selection.filter = o.filter;
  if (!o.caselist.empty()) selection.caselist = model::Caselist::read(o.caselist);
  if (!o.shard.empty()) selection.shard = model::parse_shard(o.shard);
  const run::RunSettings sent = run_settings(o, selection, std::nullopt);
  const run::Json spec_settings = run::to_json(sent);
  const run::RunSettings read = run::settings_from_json(run::Json::parse(spec_settings.dump()), "test spec");
  // Whole: what the child reads back is what was sent.
  EXPECT_EQ(run::to_json(read).dump(), spec_settings.dump());
  return run::to_json(read).dump();
}

// The flag an environment twin belongs to: VMMCHECK_ROW_LAUNCHES -> --row-launches.
std::string flag_of(const std::string& twin) {
  std::string flag = "--" + twin.substr(std::string("VMMCHECK_").size());
  for (char& c : flag) c = c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return flag;
}

TEST(RunSettings, EveryRunFlagReachesTheIsolatedChildOrIsTheParentsAlone) {
  const fs::path params = temp_file("vmmcheck-settings-params.json",
                                    run::Json{{"params", run::to_json(run::stress_preset())}}.dump());
  const fs::path caselist = temp_file("vmmcheck-settings-caselist.txt", "alias.mp.*\n");
  const fs::path cases = fs::path(VMMCHECK_SOURCE_DIR) / "cases";
  // Each flag with a value that is not its default.
  const std::map<std::string, std::vector<std::string>> reaches{
      {"--cases", {"--cases", (cases / "alias_kernels.toml").string()}},
      {"--filter", {"--filter", "alias.*"}},
      {"--caselist", {"--caselist", caselist.string()}},
      {"--shard", {"--shard", "2/3"}},
      {"--json", {"--json", "results.json"}},
      {"--iterations", {"--iterations", "3"}},
      {"--instances", {"--instances", "12345"}},
      {"--row-launches", {"--row-launches", "7"}},
      {"--op-words", {"--op-words", "4096"}},
      {"--seed", {"--seed", "42"}},
      {"--device", {"--device", "1"}},
      {"--stress", {"--stress"}},
      {"--stress-params", {"--stress-params", params.string()}},
      {"--isolate", {"--isolate"}},
      {"--timeout", {"--timeout", "7"}},
      {"--resume", {"--resume", "earlier.json"}},
      {"--allow-multicast", {"--allow-multicast"}},
      {"--no-power", {"--no-power"}},
      {"--deep-power", {"--deep-power"}},
      {"--rerun-unoptimized", {"--rerun-unoptimized"}},
      {"--mutant", {"--mutant", "no-proxy-fence"}},  // hidden (no twin): selftest's word to its runs
  };
  // Flags that are no setting of a case's run: what the parent prints, how it exits, which rows its own
  // engine runs, how its processes are laid out, whether a baseline row may name nothing.
  const std::map<std::string, std::string> parent_only{
      {"--verbose", "the console's listing"},
      {"--strict", "the exit code"},
      {"--litmus", "the rows the parent runs in its own engine instead of the tables; no child runs a row"},
      {"--mpi", "the ranks' layout: each rank is a parent of its own children"},
      {"--baseline", "applied by the parent to each result (its files do reach the child: BaselineTravelsAsItsFiles)"},
      {"--allow-unknown", "checked by the parent against every name before the run"},
  };
  const std::string plain = child_reads({});
  std::vector<std::string> flags{"--mutant"};
  for (const std::string& twin : twins_of("run")) flags.push_back(flag_of(twin));
  for (const std::string& flag : flags) {
    if (parent_only.count(flag)) continue;
    const auto given = reaches.find(flag);
    if (given == reaches.end()) {
      ADD_FAILURE() << "run " << flag << " is new here: put it in `reaches` (with a value) if the isolated child "
                    << "must see it -- then it needs a field in RunSettings, filled in run_settings() and carried "
                    << "by to_json/settings_from_json -- or in `parent_only`, with the reason";
      continue;
    }
    EXPECT_NE(child_reads(given->second), plain) << "run " << flag << " does not reach the isolated child";
  }
  for (const auto& [flag, why] : parent_only)
    EXPECT_NE(std::find(flags.begin(), flags.end(), flag), flags.end()) << flag << " is not a run flag now (" << why << ")";
}

TEST(RunSettings, BaselineTravelsAsItsFiles) {
  const fs::path fails = temp_file("vmmcheck-settings-fails.txt", "# none\n");
  run::RunSettings s;
  s.baseline = run::Baseline::read(fails);
  const run::RunSettings back = run::settings_from_json(run::to_json(s), "test");
  ASSERT_TRUE(back.baseline);
  EXPECT_EQ(back.baseline->files(), s.baseline->files());
}

TEST(RunSettings, ASpecWithoutSettingsIsNamed) {
  try {
    run::settings_from_json(run::Json{{"device", 0}}, "isolated-case spec");
    FAIL() << "read settings from nothing";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("isolated-case spec: run settings"), std::string::npos) << e.what();
  }
}

// A litmus folder's stress-params.json gives its rows their knobs in run and selftest; --stress and
// --stress-params replace them, and tune draws its own for every row.
TEST(RunSettings, ALitmusFolderGivesItsRowsTheirKnobs) {
  const fs::path dir = fs::temp_directory_path() / "vmmcheck-folder-knobs";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "mp.test") << ".global x;\nd0.b0.t0 {\n  st [x], 1;\n}\npermit ([x] == 1) as one;\n";
  std::ofstream(dir / litmus::kFolderStressParams)
      << R"({"schema": "vmmcheck-stress-params/1", "rows": [{"rows": "litmus.mp.*", "params": {"row_launches": 1}}]})";
  const fs::path params = temp_file("vmmcheck-folder-knobs-params.json", R"({"params": {"pre_accesses": 2}})");
  const auto knobs_of = [&](const std::string& command, std::vector<std::string> extra) {
    std::vector<std::string> args{"vmmcheck", command, "--litmus", dir.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    Options o;
    std::ostringstream out, err;
    EXPECT_EQ(parse_command_line(args, o, out, err), -1) << err.str();
    resolve_stress(o);
    return o.budget.row_stress;
  };
  const std::vector<run::RowStress> run_knobs = knobs_of("run", {});
  ASSERT_EQ(run_knobs.size(), 1u);
  EXPECT_EQ(run_knobs[0].rows, "litmus.mp.*");
  EXPECT_EQ(run_knobs[0].params.row_launches, 1u);
  EXPECT_TRUE(knobs_of("run", {"--stress"}).empty());
  EXPECT_TRUE(knobs_of("run", {"--stress-params", params.string()}).empty());
  EXPECT_TRUE(knobs_of("tune", {}).empty());
  // A folder whose knobs file is not one: exit 2's InputError, naming the file.
  std::ofstream(dir / litmus::kFolderStressParams) << R"({"rows": [{"rows": "litmus.mp.*", "params": {"row_launches": -1}}]})";
  try {
    knobs_of("run", {});
    FAIL() << "read a knob out of range";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(litmus::kFolderStressParams), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace vmmcheck::cli
