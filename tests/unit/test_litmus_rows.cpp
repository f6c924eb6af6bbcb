// Litmus rows judged on recorded counts (harness/run/rows/row_result.cpp): every outcome asked of the
// model on its own, preconditions, the row's rate, names, and the attribution of a failure to the
// compiler when the unoptimised kernel shows none of it.
#include <gtest/gtest.h>

#include "litmus/parser.hpp"
#include "run/rows/row_result.hpp"

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

RowOutcomes seen(std::map<std::vector<std::uint32_t>, std::uint64_t> counts) {
  RowOutcomes o;
  o.registers = {"r0", "r1"};
  o.counts = std::move(counts);
  for (const auto& [v, n] : o.counts) o.instances += n;
  return o;
}

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

TEST(LitmusRows, AFailureTheUnoptimisedKernelDoesNotShowIsAToolchainWarning) {
  const auto r = rows();
  CaseResult c = begin_row_result(r[0]);
  judge_row(r[0], seen({{{1, 0}, 2}, {{1, 1}, 98}}), c);
  attribute_failure(r[0], seen({{{0, 0}, 40}, {{1, 1}, 60}}), c);
  EXPECT_EQ(c.status, Status::Warning);
  EXPECT_NE(c.reason.find("compiler is implicated"), std::string::npos) << c.reason;
}

TEST(LitmusRows, AFailureTheUnoptimisedKernelShowsTooStands) {
  const auto r = rows();
  CaseResult c = begin_row_result(r[0]);
  judge_row(r[0], seen({{{1, 0}, 2}, {{1, 1}, 98}}), c);
  attribute_failure(r[0], seen({{{1, 0}, 1}, {{1, 1}, 99}}), c);
  EXPECT_EQ(c.status, Status::Fail);
  EXPECT_NE(c.reason.find("showed 1 too: the GPU"), std::string::npos) << c.reason;
}

TEST(LitmusRows, NoInstancesIsAnError) {
  const auto r = rows();
  CaseResult c = begin_row_result(r[1]);
  judge_row(r[1], seen({}), c);
  EXPECT_EQ(c.status, Status::Error);
}

TEST(LitmusRows, TheModelVerdictOfARow) {
  const auto r = rows();
  EXPECT_TRUE(model_verdict(r[0]).matches);
  EXPECT_FALSE(model_verdict(r[0]).model_allows);  // no allowed execution violates the assert
  EXPECT_TRUE(model_verdict(r[1]).model_allows);
}

}  // namespace
}  // namespace vmmcheck::run
