// The CPU-only build (-DVMMCHECK_GPU=OFF; built there alone): the commands that need no GPU run, and
// every other one parses as in the GPU build and then exits 2 naming the build it needs
// (cli/gpu_commands_off.cpp) -- never 77, which a CI job would read as "no GPU here, skipped".
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cli/app.hpp"

namespace vmmcheck::cli {
namespace {

struct Outcome {
  int code;
  std::string out, err;
};

Outcome cli(std::vector<std::string> args) {
  args.insert(args.begin(), "vmmcheck");
  std::ostringstream out, err;
  const int code = run_app(args, out, err);
  return {code, out.str(), err.str()};
}

TEST(CpuOnlyBuild, GpuCommandsSayTheyNeedTheGpuBuild) {
  const std::string litmus = std::string(VMMCHECK_SOURCE_DIR) + "/cases/litmus";
  const std::vector<std::pair<std::vector<std::string>, std::string>> commands = {
      {{"run"}, "run"},
      {{"run", "--filter", "alias.mp.*"}, "run"},
      {{"probe"}, "probe"},
      {{"tune"}, "tune"},
      {{"selftest"}, "selftest"},
      {{"toolchain", litmus}, "toolchain"},
      {{"bench", "--quick"}, "bench"},
      {{"list", "--here"}, "list --here"},
  };
  for (const auto& [args, name] : commands) {
    const Outcome o = cli(args);
    EXPECT_EQ(o.code, kExitUsage) << args[0];
    EXPECT_NE(o.err.find("built with -DVMMCHECK_GPU=OFF: `" + name + "` needs the GPU build"), std::string::npos)
        << args[0] << ": " << o.err;
  }
}

TEST(CpuOnlyBuild, BadInputIsStillTheParsersAnswer) {
  // The parser is the GPU build's: a bad flag of a GPU command is a usage error before the build's word.
  const Outcome o = cli({"run", "--no-such-flag"});
  EXPECT_EQ(o.code, kExitUsage);
  EXPECT_EQ(o.err.find("GPU build"), std::string::npos) << o.err;
}

TEST(CpuOnlyBuild, HelpSaysWhatRunsHere) {
  const Outcome o = cli({"--help"});
  EXPECT_EQ(o.code, kExitOk);
  EXPECT_NE(o.out.find("Built with -DVMMCHECK_GPU=OFF: list, explain and model run here"), std::string::npos) << o.out;
}

TEST(CpuOnlyBuild, ModelListAndExplainRun) {
  const std::string litmus = std::string(VMMCHECK_SOURCE_DIR) + "/cases/litmus";
  EXPECT_EQ(cli({"model", litmus}).code, kExitOk);
  const Outcome list = cli({"list"});
  ASSERT_EQ(list.code, kExitOk) << list.err;
  // The first litmus row listed, explained.
  const std::size_t at = list.out.find("\nlitmus.");
  ASSERT_NE(at, std::string::npos);
  const std::string row = list.out.substr(at + 1, list.out.find(' ', at + 1) - at - 1);
  const Outcome explained = cli({"explain", row});
  EXPECT_EQ(explained.code, kExitOk) << explained.err;
  EXPECT_NE(explained.out.find("The PTX proxy model"), std::string::npos) << explained.out;
  EXPECT_EQ(cli({"explain", "alias.same_thread.alias.weak.nofence"}).code, kExitOk);
}

}  // namespace
}  // namespace vmmcheck::cli
