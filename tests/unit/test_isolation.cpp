// Isolation without a GPU: children that crash, hang or answer; the planted host cases through the
// vmmcheck program itself (the run goes on past a crash and a hang); a run killed with SIGKILL and
// resumed gives the same results as one uninterrupted run.
#include <gtest/gtest.h>
#include <cuda_runtime_api.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "model/loader.hpp"
#include "model/select.hpp"
#include "run/execution/executor.hpp"
#include "ipc/child_process.hpp"
#include "run/records/report_json.hpp"

namespace vmmcheck::run {
using namespace ipc;
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

// A file of schema version 1 (no pattern or axes in its records) resumes into a valid version-2 file.
TEST(Isolation, AVersionOneFileResumesIntoVersionTwo) {
  const auto part = fresh("v1");
  ASSERT_EQ(vmmcheck({"run", "--cases", kPlanted, "--filter", "planted.host.ok,planted.host.crash", "--timeout", "2",
                      "--json", part.string()})
                .end,
            ChildRun::End::Exited);
  nlohmann::json doc = nlohmann::json::parse(std::ifstream(part));
  doc["schema_version"] = 1;
  for (auto& r : doc["results"]) {
    r.erase("pattern");
    r.erase("axes");
  }
  doc["results"].erase(1);  // the ok case is still to run
  std::ofstream(part) << doc.dump(2);
  const ChildRun resumed = vmmcheck({"run", "--cases", kPlanted, "--filter", "planted.host.ok,planted.host.crash",
                                     "--timeout", "2", "--resume", part.string()});
  ASSERT_EQ(resumed.end, ChildRun::End::Exited) << resumed.log_tail;
  const nlohmann::json after = nlohmann::json::parse(std::ifstream(part));
  EXPECT_EQ(after["schema_version"], 2);
  ASSERT_EQ(after["results"].size(), 2u);
  for (const auto& r : after["results"]) {
    EXPECT_EQ(r["pattern"], "planted_host") << r["name"];
    EXPECT_EQ(r["axes"].size(), 1u) << r["name"];
  }
  EXPECT_EQ(after["results"][0]["axes"]["behaviour"], "crash");
}

TEST(Isolation, ResumeRefusesAnotherBudget) {
  const auto part = fresh("budget");
  ASSERT_EQ(vmmcheck({"run", "--cases", kPlanted, "--filter", "planted.host.ok", "--json", part.string()}).end,
            ChildRun::End::Exited);
  const ChildRun r = vmmcheck({"run", "--cases", kPlanted, "--seed", "7", "--resume", part.string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.log_tail.find("the budget (--iterations, --instances, --row-launches, --op-words, --seed, stress params): that run had "
                            "10000000 instances, 4 iterations, 40 launches a litmus row, 4194304 op words, seed 1"),
            std::string::npos)
      << r.log_tail;
  EXPECT_NE(r.log_tail.find("this one has 10000000 instances, 4 iterations, 40 launches a litmus row, 4194304 op words, seed 7"),
            std::string::npos)
      << r.log_tail;
}

// A resume keeps every stored result or refuses: a result the run does not select would be dropped when
// the file is rewritten, and one whose question or verdict is not this run's (another file of the row's
// name) would stand as its result. Both refused before anything is written.
TEST(Isolation, ResumeRefusesResultsItWouldDropOrMisread) {
  const auto part = fresh("foreign");
  ASSERT_EQ(vmmcheck({"run", "--cases", kPlanted, "--filter", "planted.host.ok", "--json", part.string()}).end,
            ChildRun::End::Exited);
  const auto edit = [&](const std::function<void(nlohmann::json&)>& change) {
    std::ifstream in(part);
    nlohmann::json doc = nlohmann::json::parse(in);
    in.close();
    change(doc);
    std::ofstream(part) << doc.dump(1);
    std::ifstream again(part);
    return std::string(std::istreambuf_iterator<char>(again), {});
  };
  std::string before = edit([](nlohmann::json& doc) {
    nlohmann::json other = doc["results"][0];
    other["name"] = "planted.host.crash";
    doc["results"].push_back(other);
  });
  ChildRun r = vmmcheck({"run", "--cases", kPlanted, "--filter", "planted.host.ok", "--resume", part.string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.log_tail.find("holds a result of planted.host.crash, which this run does not select"), std::string::npos) << r.log_tail;
  std::ifstream after(part);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(after), {}), before) << "the refused resume left the file alone";

  edit([](nlohmann::json& doc) {
    doc["results"].erase(1);
    doc["results"][0]["rule"] = "another rule";
  });
  r = vmmcheck({"run", "--cases", kPlanted, "--filter", "planted.host.ok", "--resume", part.string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.log_tail.find("its result of planted.host.ok was made of another test than this run's"), std::string::npos)
      << r.log_tail;
}

TEST(Isolation, ResumeRefusesAnotherFilter) {
  const auto part = fresh("filter");
  ASSERT_EQ(vmmcheck({"run", "--cases", kPlanted, "--filter", "planted.host.ok", "--json", part.string()}).end,
            ChildRun::End::Exited);
  const ChildRun r = vmmcheck({"run", "--cases", kPlanted, "--filter", "planted.host.c*", "--resume", part.string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.log_tail.find("--filter: that run had 'planted.host.ok', this one has 'planted.host.c*'"), std::string::npos)
      << r.log_tail;
  EXPECT_EQ(statuses(part).size(), 1u) << "the refused resume left the file alone";
}

TEST(Isolation, AnIgnoredSigchldDoesNotHideHowTheChildEnded) {
  struct sigaction before {};
  sigaction(SIGCHLD, nullptr, &before);
  signal(SIGCHLD, SIG_IGN);
  const ChildRun r = run_child({"/bin/sh", "-c", "exit 3"}, 10s);
  sigaction(SIGCHLD, &before, nullptr);
  EXPECT_EQ(r.end, ChildRun::End::Exited);
  EXPECT_EQ(r.code, 3);
}

// The child command run by a person (no fd 3 from a parent) prints its result on stdout.
TEST(Isolation, TheChildCommandByHandPrintsItsResult) {
  // The spec a parent writes (child_spec), with no parent to check for.
  RunSettings settings;
  settings.cases_paths = {kPlanted};
  const std::string spec = Json{{"case", "planted.host.ok"}, {"settings", to_json(settings)}}.dump();
  const ChildRun r = run_child({"/bin/sh", "-c", "exec 3>&-; exec \"$0\" isolated-case --spec \"$1\"", VMMCHECK_BINARY, spec}, 30s);
  EXPECT_EQ(r.end, ChildRun::End::Exited);
  EXPECT_TRUE(r.result.empty());
  EXPECT_NE(r.log_tail.find("\"name\":\"planted.host.ok\""), std::string::npos) << r.log_tail;
  EXPECT_NE(r.log_tail.find("\"status\":\"Pass\""), std::string::npos) << r.log_tail;
}

// A stand-in for vmmcheck's child side: a script that does what the test needs, whatever it is asked.
std::string fake_child(const std::string& name, const std::string& body) {
  const auto p = std::filesystem::temp_directory_path() / ("vmmcheck_fake_" + name + ".sh");
  std::ofstream(p) << "#!/bin/sh\n" << body << "\n";
  std::filesystem::permissions(p, std::filesystem::perms::owner_all);
  return p.string();
}

CaseResult run_with(const std::string& program, const std::string& case_name, std::chrono::milliseconds timeout) {
  const model::CaseTable table = model::load_cases(std::filesystem::path(kPlanted));
  RunSettings o;
  o.program = program;
  o.cases_paths = {kPlanted};
  o.timeout = timeout;
  Executor executor(o, false, "", nullptr);
  return executor.run(model::find_case(table.cases, case_name));
}

TEST(Isolation, AResultThatArrivedBeforeTheKillIsKept) {
  const std::string result =
      R"({"name":"planted.host.ok","family":"planted.host","status":"Pass","expectation":"required",)"
      R"("histogram":{"done":1},"weak":0,"instances":1,"seconds":0.0,"gpu_seconds":0.0,"reason":""})";
  const std::string slow = fake_child("slow_exit", "printf '%s' '" + result + "' >&3; exec 3>&-; sleep 5");
  const CaseResult r = run_with(slow, "planted.host.ok", 500ms);
  EXPECT_EQ(r.status, Status::Pass) << r.reason;
  EXPECT_NE(r.reason.find("reported, then was killed"), std::string::npos) << r.reason;
}

TEST(Isolation, AChildsBinaryOutputCannotBreakTheResultsFile) {
  const std::string noisy = fake_child("noisy", "printf 'half a character: \\303\\n' >&2; kill -SEGV $$");
  const CaseResult r = run_with(noisy, "planted.host.ok", 10s);
  EXPECT_EQ(r.status, Status::Crash);
  EXPECT_NE(r.reason.find("half a character: \\xC3"), std::string::npos) << r.reason;
  const auto file = fresh("noisy");
  EXPECT_NO_THROW(write_results(file, results_document(RunContext{}, {r})));
  EXPECT_EQ(statuses(file).at("planted.host.ok"), "Crash");
}

// After a Crash the executor asks a child whether the GPU still answers. Here the "GPU" is one this
// machine does not have, so the check fails as it would on a wedged GPU: the run stops, and every case
// after the crash is recorded as not run, with the reason.
TEST(Isolation, AfterACrashADeviceThatNoLongerAnswersStopsTheRun) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0) GTEST_SKIP() << "a GPU answers here";
  const model::CaseTable table = model::load_cases(std::filesystem::path(kPlanted));
  RunSettings o;
  o.program = VMMCHECK_BINARY;
  o.cases_paths = {kPlanted};
  o.timeout = 10s;
  Executor executor(o, /*gpu_present=*/true, "", nullptr);  // pretend: the alive check will find no device
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
