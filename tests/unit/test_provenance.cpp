// Resuming keeps provenance (docs/design.md, "Isolation, timeouts, resuming"): a results file is continued
// only by the same run -- GPU model and count, driver, vmmcheck, case tables (resolved), selection, device,
// budget -- and its context is never rewritten, only its resumptions added.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/app.hpp"
#include "cli_driver.hpp"
#include "run/records/provenance.hpp"

namespace vmmcheck::run {
namespace {

using testing::cli;
using cli::kExitFailure;
using cli::kExitUsage;
using testing::bytes_of;
using testing::Outcome;

RunContext h200_run(int gpus) {
  RunContext c;
  c.tool_version = "0.1.0";
  c.git_sha = "e892203";
  c.driver_version = 13000;
  c.driver_release = "580.159.04";
  for (int i = 0; i < gpus; ++i) c.devices.push_back({i, "NVIDIA H200", "9.0"});
  c.cases_path = std::string(VMMCHECK_SOURCE_DIR) + "/cases";
  return c;
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += s + "\n";
  return out;
}

TEST(Provenance, TheSameRunMayBeResumed) {
  EXPECT_TRUE(resume_mismatches(h200_run(1), h200_run(1)).empty());
  RunContext here = h200_run(1);
  here.git_sha = "e892203abcde";  // the same commit, spelt longer
  here.cases_path = std::string(VMMCHECK_SOURCE_DIR) + "/cases/";  // the same folder, spelt otherwise
  here.started = "2027-01-01T00:00:00Z";  // when is not what
  EXPECT_TRUE(resume_mismatches(h200_run(1), here).empty()) << joined(resume_mismatches(h200_run(1), here));
}

TEST(Provenance, EveryDifferenceIsNamed) {
  const RunContext file = h200_run(1);
  EXPECT_EQ(joined(resume_mismatches(file, h200_run(2))),
            "the GPUs: that run had 1 x NVIDIA H200, this machine has 2 x NVIDIA H200\n");
  RunContext cpu = file;
  cpu.devices.clear();
  cpu.driver_version = 0;
  cpu.driver_release.clear();
  EXPECT_EQ(joined(resume_mismatches(file, cpu)),
            "the GPUs: that run had 1 x NVIDIA H200, this machine has no GPU\n"
            "the driver: that run had driver 580.159.04 (CUDA 13.0), this one has no driver\n");
  RunContext other = file;
  other.devices = {{0, "NVIDIA H100 80GB HBM3", "9.0"}};
  other.driver_release = "575.57.08";
  other.tool_version = "0.2.0";
  other.git_sha = "0123456";
  other.cases_path = "/somewhere/else/cases";
  other.filter = "alias.*";
  other.caselist = "/ci/nightly.txt";
  other.shard = model::Shard{2, 3};
  other.device = 1;
  other.budget.seed = 9;
  const std::string all = joined(resume_mismatches(file, other));
  for (const char* phrase :
       {"the GPUs: that run had 1 x NVIDIA H200, this machine has 1 x NVIDIA H100 80GB HBM3",
        "the driver: that run had driver 580.159.04 (CUDA 13.0), this one has driver 575.57.08 (CUDA 13.0)",
        "vmmcheck: that run had 0.1.0 (git e892203), this one has 0.2.0 (git 0123456)",
        "the case tables (--cases): that run had '", "this one has '/somewhere/else/cases'",
        "--filter: that run had none, this one has 'alias.*'", "--caselist: that run had none, this one has '/ci/nightly.txt'",
        "--shard: that run had none, this one has 2/3", "--device: that run had 0, this one has 1", "seed 1", "seed 9"})
    EXPECT_NE(all.find(phrase), std::string::npos) << phrase << "\nin:\n" << all;
}

// Two budgets that differ only in their per-row knobs are told apart in words, not as one text twice.
TEST(Provenance, PerRowKnobsAreNamedWhenTheyDiffer) {
  const RunContext file = h200_run(1);
  RunContext here = file;
  StressParams tuned;
  tuned.grid_barrier = true;
  here.budget.row_stress = {{"litmus.iriw.*", tuned}};
  const std::string said = joined(resume_mismatches(file, here));
  EXPECT_NE(said.find("this one has"), std::string::npos) << said;
  EXPECT_NE(said.find("per-row knobs rows litmus.iriw.*: grid barrier"), std::string::npos) << said;
  EXPECT_LT(said.find("this one has"), said.find("per-row knobs")) << "only this run has per-row knobs: " << said;
}

// The committed one-H200 run resumed here (the CPU machine: no GPU, another build) is refused with exit 2,
// naming what differs; the file is byte for byte as it was.
TEST(Provenance, TheCommittedH200RunIsNotResumedOnAnotherMachine) {
  const auto copy = std::filesystem::temp_directory_path() / "vmmcheck-resume-h200.json";
  std::filesystem::copy_file(std::string(VMMCHECK_SOURCE_DIR) + "/ci/results/nvidia-h200_driver-580.159.04.json", copy,
                             std::filesystem::copy_options::overwrite_existing);
  const std::string before = bytes_of(copy);
  const Outcome o = cli({"run", "--resume", copy.string()});
  EXPECT_EQ(o.code, kExitUsage) << o.out << o.err;
  EXPECT_NE(o.err.find(copy.string() + ": cannot resume a run of another machine or selection here"), std::string::npos) << o.err;
  if (!testing::has_gpu())
    EXPECT_NE(o.err.find("the GPUs: that run had 1 x NVIDIA H200, this machine has no GPU"), std::string::npos) << o.err;
  // The file's own build, as its context names it (the committed run changes with the results), named
  // where this build is another.
  const std::string sha = nlohmann::json::parse(before)["context"]["git_sha"].get<std::string>().substr(0, 12);
  if (cli({"--version"}).out.find("(git " + sha) == std::string::npos)
    EXPECT_NE(o.err.find("vmmcheck: that run had 0.1.0 (git " + sha), std::string::npos) << o.err;
  EXPECT_EQ(bytes_of(copy), before);
}

// A resumed file goes on with its own context block, untouched but for the resumption's time.
TEST(Provenance, AResumedFileKeepsItsContext) {
  const std::string planted = std::string(VMMCHECK_SOURCE_DIR) + "/tests/planted/host.toml";
  const auto file = std::filesystem::temp_directory_path() / "vmmcheck-resume-context.json";
  std::filesystem::remove(file);
  ASSERT_EQ(testing::program({"run", "--cases", planted, "--filter", "planted.host.ok", "--json", file.string()}).code, 0);
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(std::ifstream(file));
  doc["context"]["started"] = "2026-01-02T03:04:05Z";  // an earlier start, to see it kept
  doc["results"] = nlohmann::ordered_json::array();    // nothing finished yet
  std::ofstream(file) << doc.dump(2);
  const nlohmann::ordered_json context_before = doc["context"];

  const Outcome o = testing::program({"run", "--cases", std::string(VMMCHECK_SOURCE_DIR) + "/tests/./planted//host.toml", "--filter", "planted.host.ok", "--resume", file.string()});
  ASSERT_EQ(o.code, 0) << o.out;
  const nlohmann::ordered_json after = nlohmann::ordered_json::parse(std::ifstream(file));
  nlohmann::ordered_json context_after = after["context"];
  ASSERT_TRUE(context_after.contains("resumed"));
  ASSERT_EQ(context_after["resumed"].size(), 1u);
  EXPECT_NE(context_after["resumed"][0], "2026-01-02T03:04:05Z");
  context_after.erase("resumed");
  EXPECT_EQ(context_after, context_before);
  EXPECT_EQ(after["results"].size(), 1u);
}

}  // namespace
}  // namespace vmmcheck::run
