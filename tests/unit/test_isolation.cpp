// Isolation without a GPU: children that crash, hang or answer; the planted host cases through the
// vmmcheck program itself (the run goes on past a crash and a hang); a run killed with SIGKILL and
// resumed gives the same results as one uninterrupted run.
#include <gtest/gtest.h>
#include <cuda_runtime_api.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "model/loader.hpp"
#include "model/select.hpp"
#include "run/executor.hpp"
#include "run/isolation.hpp"

namespace vmmcheck::run {
namespace {

using namespace std::chrono_literals;

const std::string kPlanted = std::string(VMMCHECK_SOURCE_DIR) + "/tests/planted/host.toml";

TEST(Isolation, AChildThatCrashesIsReportedWithItsSignal) {
  const ChildRun r = run_child({"/bin/sh", "-c", "echo about to crash; kill -SEGV $$"}, 10s);
  EXPECT_EQ(r.end, ChildRun::End::Signalled);
  EXPECT_EQ(signal_name(r.code), "SIGSEGV");
  EXPECT_NE(r.log_tail.find("about to crash"), std::string::npos);
}

TEST(Isolation, AChildThatSleepsIsKilledAtTheTimeout) {
  const ChildRun r = run_child({"/bin/sleep", "60"}, 300ms);
  EXPECT_EQ(r.end, ChildRun::End::TimedOut);
  EXPECT_GE(r.seconds, 0.3);
  EXPECT_LT(r.seconds, 10.0);  // killed, not waited for
}

TEST(Isolation, AChildThatAnswersHandsItsResultOnFd3) {
  const ChildRun r = run_child({"/bin/sh", "-c", "echo noise; printf '{\"ok\":1}' >&3; exit 0"}, 10s);
  EXPECT_EQ(r.end, ChildRun::End::Exited);
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.result, "{\"ok\":1}");
  EXPECT_EQ(r.log_tail, "noise\n");
}

TEST(Isolation, AMissingProgramDoesNotStart) {
  const ChildRun r = run_child({"/nonexistent/vmmcheck"}, 10s);
  EXPECT_EQ(r.end, ChildRun::End::NotStarted);
  EXPECT_NE(r.error.find("/nonexistent/vmmcheck"), std::string::npos);
}

// Runs the vmmcheck program on the planted host cases and returns name -> status from its JSON.
std::map<std::string, std::string> statuses(const std::filesystem::path& json_file) {
  std::map<std::string, std::string> out;
  const nlohmann::json doc = nlohmann::json::parse(std::ifstream(json_file));
  for (const auto& r : doc.at("results")) out[r.at("name")] = r.at("status");
  return out;
}

std::filesystem::path fresh(const std::string& name) {
  const auto p = std::filesystem::temp_directory_path() / ("vmmcheck_isolation_" + name + ".json");
  std::filesystem::remove(p);
  return p;
}

ChildRun vmmcheck(std::vector<std::string> args, std::chrono::milliseconds timeout = 60s) {
  args.insert(args.begin(), VMMCHECK_BINARY);
  return run_child(args, timeout);
}

TEST(Isolation, PlantedCrashAndHangFailAndTheRunGoesOn) {
  const auto json_file = fresh("planted");
  const ChildRun r = vmmcheck({"run", "--cases", kPlanted, "--timeout", "1", "--json", json_file.string()});
  ASSERT_EQ(r.end, ChildRun::End::Exited) << r.log_tail;
  EXPECT_EQ(r.code, 1) << r.log_tail;  // a Crash and a Timeout are failures
  const auto s = statuses(json_file);
  EXPECT_EQ(s.at("planted.host.crash"), "Crash");
  EXPECT_EQ(s.at("planted.host.hang"), "Timeout");
  EXPECT_EQ(s.at("planted.host.ok"), "Pass");  // after the crash and the hang, in the same run
  EXPECT_NE(r.log_tail.find("killed by SIGSEGV"), std::string::npos) << r.log_tail;
}

TEST(Isolation, AKilledRunResumedEqualsAnUninterruptedOne) {
  const auto whole = fresh("whole");
  ASSERT_EQ(vmmcheck({"run", "--cases", kPlanted, "--timeout", "2", "--json", whole.string()}).end, ChildRun::End::Exited);

  // Killed with SIGKILL while the hanging case runs (the crash case, first by name, is finished).
  const auto part = fresh("part");
  const ChildRun killed = vmmcheck({"run", "--cases", kPlanted, "--timeout", "2", "--json", part.string()}, 1000ms);
  ASSERT_EQ(killed.end, ChildRun::End::TimedOut);
  const auto before = statuses(part);
  ASSERT_EQ(before.size(), 1u) << "the finished case is on disk";
  EXPECT_EQ(before.at("planted.host.crash"), "Crash");

  const ChildRun resumed = vmmcheck({"run", "--cases", kPlanted, "--timeout", "2", "--resume", part.string()});
  ASSERT_EQ(resumed.end, ChildRun::End::Exited);
  EXPECT_NE(resumed.log_tail.find("planted.host.crash  (the child was killed by SIGSEGV)  (resumed)"), std::string::npos)
      << resumed.log_tail;
  EXPECT_EQ(statuses(part), statuses(whole));
}

TEST(Isolation, ResumeRefusesAnotherBudget) {
  const auto part = fresh("budget");
  ASSERT_EQ(vmmcheck({"run", "--cases", kPlanted, "--filter", "planted.host.ok", "--json", part.string()}).end,
            ChildRun::End::Exited);
  const ChildRun r = vmmcheck({"run", "--cases", kPlanted, "--seed", "7", "--resume", part.string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.log_tail.find("another budget"), std::string::npos) << r.log_tail;
}

// After a Crash the executor asks a child whether the GPU still answers. Here the "GPU" is one this
// machine does not have, so the check fails as it would on a wedged GPU: the run stops, and every case
// after the crash is recorded as not run, with the reason.
TEST(Isolation, AfterACrashADeviceThatNoLongerAnswersStopsTheRun) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0) GTEST_SKIP() << "a GPU answers here";
  const model::CaseTable table = model::load_cases(std::filesystem::path(kPlanted));
  ExecutorOptions o;
  o.program = VMMCHECK_BINARY;
  o.cases_paths = {kPlanted};
  o.gpu_present = true;  // pretend: the alive check will find no device
  o.timeout = 10s;
  Executor executor(o, nullptr);
  const CaseResult crash = executor.run(model::find_case(table.cases, "planted.host.crash"));
  EXPECT_EQ(crash.status, Status::Crash);
  ASSERT_FALSE(executor.device_lost().empty());
  EXPECT_NE(executor.device_lost().find("after planted.host.crash (Crash) the GPU no longer answered"), std::string::npos)
      << executor.device_lost();
  const CaseResult next = executor.run(model::find_case(table.cases, "planted.host.ok"));
  EXPECT_EQ(next.status, Status::NotSupported);
  EXPECT_EQ(next.reason.rfind("not run: after planted.host.crash", 0), 0u) << next.reason;
}

}  // namespace
}  // namespace vmmcheck::run
