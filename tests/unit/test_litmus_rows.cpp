// Litmus rows judged on recorded counts (harness/run/rows/row_result.cpp): every outcome asked of the
// model on its own, preconditions, the row's rate, names, and who a failure belongs to: the compiler
// when the machine code the GPU ran broke the model, the GPU when it is intact.
#include <gtest/gtest.h>

#include "litmus/parser.hpp"
#include "run/rows/launch_split.hpp"
#include "run/rows/row_result.hpp"
#include "row_outcomes_fixture.hpp"

namespace vmmcheck::run {
namespace {

// Message passing with release/acquire (the model forbids r0 == 1 && r1 == 0) and its relaxed control.
const char* kMp = R"(
.global x;
.global flag;
d0.b0.t0 { st [x], 1; $0 [flag], 1; }
d0.b1.t0 { $1 r0, [flag] == 1; ld r1, [x]; }
$2 (r1 $3 1) as data;
$$
st.release.gpu | ld.acquire.gpu | assert | ==
st.relaxed.gpu | ld.relaxed.gpu | permit | !=
)";

std::vector<litmus::Row> rows() { return litmus::parse_text(kMp, "cases/litmus/MP_rows.test").rows; }

using fixture::seen;

TEST(LitmusRows, NamesAreResultNames) {
  const auto r = rows();
  EXPECT_EQ(case_name_of(r[0]), "litmus.mp_rows.0.data");
  const CaseResult c = begin_row_result(r[1]);
  EXPECT_EQ(c.family, "litmus.mp_rows");
  EXPECT_EQ(c.pattern, "litmus");
  EXPECT_EQ(c.axes.at(1).second, "1");
  EXPECT_EQ(c.axes.at(3).second, "permit");
  EXPECT_NE(c.citation.find("cases/litmus/MP_rows.test:"), std::string::npos) << c.citation;
}

TEST(LitmusRows, AnAllowedHistogramPassesAndCountsTheAskedOutcome) {
  const auto r = rows();
  CaseResult c = begin_row_result(r[1]);  // relaxed: the stale read is allowed, and asked about
  judge_row(r[1], seen({{{0, 0}, 50}, {{1, 0}, 3}, {{1, 1}, 47}}), c);
  EXPECT_EQ(c.status, Status::Pass) << c.reason;
  EXPECT_EQ(c.instances, 100u);
  EXPECT_EQ(c.weak, 3u);  // r1 != 1 among the 50 instances that read the flag as 1
  EXPECT_EQ(c.judged, 50u);
  EXPECT_NE(c.reason.find("3 of 50"), std::string::npos) << c.reason;
  EXPECT_NE(c.reason.find("50 instances did not meet them"), std::string::npos) << c.reason;
  ASSERT_EQ(c.histogram.size(), 3u);
  EXPECT_EQ(c.histogram[1].first, "r0=1 r1=0");
}

TEST(LitmusRows, AForbiddenOutcomeFailsAndIsNamed) {
  const auto r = rows();
  CaseResult c = begin_row_result(r[0]);  // release/acquire: r0 == 1 && r1 == 0 is forbidden
  judge_row(r[0], seen({{{1, 0}, 2}, {{1, 1}, 98}}), c);
  EXPECT_EQ(c.status, Status::Fail);
  EXPECT_NE(c.reason.find("r0=1 r1=0 (2)"), std::string::npos) << c.reason;
  EXPECT_EQ(c.weak, 2u);
}

// The machine code's verdicts (toolchain/machine_check.hpp) as run hands them over.
MachineCodeVerdict code_with(std::vector<toolchain::Problem> problems) {
  MachineCodeVerdict v;
  v.compiler = "ptxas of NVRTC 13.0";
  v.check.function_found = true;
  for (toolchain::Problem p : problems) {
    toolchain::Finding f;
    f.problem = p;
    f.site.thread = 1;
    f.site.text = "ld.weak r1, x";
    f.detail = "no instruction on its source line";
    v.check.findings.push_back(f);
  }
  return v;
}

TEST(LitmusRows, AFailureOnCodeThatBrokeTheModelIsAToolchainWarning) {
  const auto r = rows();
  CaseResult c = begin_row_result(r[0]);
  judge_row(r[0], seen({{{1, 0}, 2}, {{1, 1}, 98}}), c);
  attribute_failure(code_with({toolchain::Problem::Merged}), c);
  EXPECT_EQ(c.status, Status::Warning);
  EXPECT_NE(c.reason.find("ptxas of NVRTC 13.0 broke the model"), std::string::npos) << c.reason;
  EXPECT_NE(c.reason.find("merged `ld.weak r1, x` of thread T1"), std::string::npos) << c.reason;
}

TEST(LitmusRows, AFailureOnIntactCodeIsTheGpus) {
  const auto r = rows();
  CaseResult c = begin_row_result(r[0]);
  judge_row(r[0], seen({{{1, 0}, 2}, {{1, 1}, 98}}), c);
  attribute_failure(code_with({}), c);
  EXPECT_EQ(c.status, Status::Fail);
  EXPECT_NE(c.reason.find("keeps every memory operation"), std::string::npos) << c.reason;
  // An elision the model allows cannot make a forbidden outcome: the Fail stands.
  CaseResult d = begin_row_result(r[0]);
  judge_row(r[0], seen({{{1, 0}, 2}, {{1, 1}, 98}}), d);
  attribute_failure(code_with({toolchain::Problem::Elided}), d);
  EXPECT_EQ(d.status, Status::Fail);
  EXPECT_NE(d.reason.find("only as the model allows"), std::string::npos) << d.reason;
}

TEST(LitmusRows, AFailureOnUncheckedCodeStandsAndSaysWhy) {
  const auto r = rows();
  CaseResult c = begin_row_result(r[0]);
  judge_row(r[0], seen({{{1, 0}, 2}, {{1, 1}, 98}}), c);
  MachineCodeVerdict v = code_with({toolchain::Problem::Merged});
  v.why_unchecked = "no nvdisasm on PATH";
  attribute_failure(v, c);
  EXPECT_EQ(c.status, Status::Fail);
  EXPECT_NE(c.reason.find("not checked (no nvdisasm on PATH)"), std::string::npos) << c.reason;
}

TEST(LitmusRows, NothingChangesForARowThatPassed) {
  const auto r = rows();
  CaseResult c = begin_row_result(r[0]);
  judge_row(r[0], seen({{{1, 1}, 100}}), c);
  const std::string reason = c.reason;
  attribute_failure(code_with({toolchain::Problem::Merged}), c);
  EXPECT_EQ(c.status, Status::Pass);
  EXPECT_EQ(c.reason, reason);
}

TEST(LitmusRows, TheUnoptimisedExperimentIsACountNotAVerdict) {
  const auto r = rows();
  CaseResult c = begin_row_result(r[0]);
  judge_row(r[0], seen({{{1, 0}, 2}, {{1, 1}, 98}}), c);
  attribute_failure(code_with({}), c);
  note_unoptimized(r[0], seen({{{0, 0}, 40}, {{1, 1}, 60}}), c);
  EXPECT_EQ(c.status, Status::Fail);
  EXPECT_NE(c.reason.find("experiment: compiled with ptxas -O0 the row showed 0 forbidden outcomes in 100 instances"), std::string::npos)
      << c.reason;
}

TEST(LitmusRows, NoInstancesIsAnError) {
  const auto r = rows();
  CaseResult c = begin_row_result(r[1]);
  judge_row(r[1], seen({}), c);
  EXPECT_EQ(c.status, Status::Error);
}

// A register word the kernel never wrote is the harness's fault: an Error naming how many, never an
// outcome judged (the engine marks every word kUnwritten before each launch).
TEST(LitmusRows, InstancesTheKernelNeverWroteAreAnError) {
  const auto r = rows();
  CaseResult c = begin_row_result(r[0]);
  judge_row(r[0], seen({{{1, 1}, 90}, {{kUnwritten, kUnwritten}, 10}}), c);
  EXPECT_EQ(c.status, Status::Error) << c.reason;
  EXPECT_NE(c.reason.find("left the registers of 10 instances unwritten"), std::string::npos) << c.reason;
  EXPECT_EQ(c.judged, 90u);
  // Even beside a forbidden outcome: a kernel that misses instances proves nothing either way.
  judge_row(r[0], seen({{{1, 0}, 1}, {{kUnwritten, 0}, 1}}), c);
  EXPECT_EQ(c.status, Status::Error) << c.reason;
}

TEST(LitmusRows, TheModelVerdictOfARow) {
  const auto r = rows();
  EXPECT_TRUE(model_verdict(r[0]).matches);
  EXPECT_FALSE(model_verdict(r[0]).artifact_allows);  // no allowed execution violates the assert
  EXPECT_FALSE(model_verdict(r[0]).isa_allows);
  EXPECT_TRUE(model_verdict(r[1]).isa_allows);
}

}  // namespace
}  // namespace vmmcheck::run

// A row's rounds fall into launches of at most so many rounds, the instance-rounds kept (a long budget is
// more launches of the default's rounds: run/rows/engine.cpp).
TEST(LitmusRowLaunches, AtMostSoManyRoundsALaunch) {
  using vmmcheck::run::at_most;
  using vmmcheck::run::RoundsAndLaunches;
  const RoundsAndLaunches long_run{2500, 4};  // 100x the default's 25 rounds a launch
  const RoundsAndLaunches split = at_most(long_run, 25);
  EXPECT_EQ(split.rounds, 25u);
  EXPECT_EQ(split.launches, 400u);
  EXPECT_EQ(at_most({25, 4}, 25).launches, 4u);   // within the limit: as it was
  EXPECT_EQ(at_most({2500, 4}, 0).rounds, 2500u);  // 0: no limit
  const RoundsAndLaunches odd = at_most({10, 3}, 4);  // 30 instance-rounds: 8 launches of 4, none lost
  EXPECT_EQ(odd.rounds, 4u);
  EXPECT_EQ(odd.launches, 8u);
  EXPECT_GE(static_cast<std::uint64_t>(odd.rounds) * odd.launches, 30u);
}
