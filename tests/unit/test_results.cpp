// Classification against verdicts, and the JSON records.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "device/machine.hpp"
#include "model/registry.hpp"
#include "run/records/report_json.hpp"
#include "run/records/result.hpp"

namespace vmmcheck::run {
namespace {

model::Case required_case() {
  model::Case c;
  c.name = "peer.mp.same.nofence";
  c.family = "peer.mp";
  c.def = patterns::PeerMp{};
  c.verdict.expectation = model::Expectation::Required;
  c.verdict.outcomes = {"new"};
  return c;
}

CaseResult result_with(const model::PatternInfo& p, std::uint64_t fresh, std::uint64_t stale, std::uint64_t timeout) {
  CaseResult r;
  r.histogram = empty_histogram(p);
  r.histogram[0].second = fresh;
  r.histogram[1].second = stale;
  r.histogram[2].second = timeout;
  r.instances = fresh + stale + timeout;
  return r;
}

TEST(Classify, RequiredPassesOnlyWithAllowedOutcomes) {
  const model::PatternInfo& p = *model::find_pattern("peer_mp");
  const model::Case c = required_case();
  CaseResult ok = result_with(p, 100, 0, 0);
  classify(c, ok);
  EXPECT_EQ(ok.status, Status::Pass);
  EXPECT_EQ(ok.weak, 0u);

  CaseResult bad = result_with(p, 97, 2, 1);
  classify(c, bad);
  EXPECT_EQ(bad.status, Status::Fail);
  EXPECT_EQ(bad.weak, 3u);
  EXPECT_EQ(bad.reason, "2 of 100 instances saw 'stale'; 1 of 100 instances saw 'timeout' (the rules allow only: new)");
}

TEST(Classify, UndefinedNeverFailsButCountsWeakOutcomes) {
  const model::PatternInfo& p = *model::find_pattern("peer_mp");
  model::Case c = required_case();
  c.verdict.expectation = model::Expectation::Undefined;
  c.verdict.outcomes.clear();
  CaseResult r = result_with(p, 10, 90, 0);
  classify(c, r);
  EXPECT_EQ(r.status, Status::Pass);
  EXPECT_EQ(r.weak, 90u);
}

TEST(Classify, AModelCaseWarnsWhereARequiredOneFails) {
  const model::PatternInfo& p = *model::find_pattern("peer_mp");
  model::Case c = required_case();
  c.verdict.expectation = model::Expectation::Model;
  CaseResult r = result_with(p, 97, 3, 0);
  classify(c, r);
  EXPECT_EQ(r.status, Status::Warning);
  EXPECT_NE(r.reason.find("3 of 100 instances saw 'stale'"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("the PTX model requires it, the prose does not clearly"), std::string::npos) << r.reason;
  CaseResult clean = result_with(p, 100, 0, 0);
  classify(c, clean);
  EXPECT_EQ(clean.status, Status::Pass);
}

TEST(Classify, ARejectedCallPassesOnAnyErrorWarnsOnSuccessAndFailsOnAStateChange) {
  model::Case c;
  c.name = "api.map_over_mapped";
  patterns::Api call;
  call.call = patterns::ApiCall::MapOverMapped;
  c.def = call;
  c.verdict.expectation = model::Expectation::Rejected;
  CaseResult r;
  r.instances = 1;
  add_outcome(r.histogram, "CUDA_ERROR_ALREADY_MAPPED");  // a status the pattern does not list: still an error
  classify(c, r);
  EXPECT_EQ(r.status, Status::Pass);
  CaseResult accepted;
  accepted.instances = 1;
  add_outcome(accepted.histogram, "CUDA_SUCCESS");
  accepted.reason = "the address still reads the first allocation's data";
  classify(c, accepted);
  EXPECT_EQ(accepted.status, Status::Warning);  // accepted, the state as documented: a driver finding
  EXPECT_NE(accepted.reason.find("accepted a call its documentation forbids (CUDA_SUCCESS)"), std::string::npos);
  EXPECT_NE(accepted.reason.find("still reads the first allocation"), std::string::npos) << "what the check saw";
  CaseResult corrupted;
  corrupted.instances = 1;
  add_outcome(corrupted.histogram, "VMMCHECK_STATE_CHANGED");
  classify(c, corrupted);
  EXPECT_EQ(corrupted.status, Status::Fail);
  EXPECT_NE(corrupted.reason.find("VMMCHECK_STATE_CHANGED"), std::string::npos);
}

TEST(Classify, AHistogramThatDoesNotAddUpIsAnError) {
  const model::PatternInfo& p = *model::find_pattern("peer_mp");
  CaseResult r = result_with(p, 10, 0, 0);
  r.instances = 11;
  classify(required_case(), r);
  EXPECT_EQ(r.status, Status::Error);
  CaseResult empty = result_with(p, 0, 0, 0);
  classify(required_case(), empty);
  EXPECT_EQ(empty.status, Status::Error);
}

TEST(Json, DocumentHasContextTotalsAndRecords) {
  RunContext ctx;
  ctx.tool_version = "1.2.3";
  ctx.git_sha = "abc";
  ctx.driver_version = 13000;
  ctx.runtime_version = 12080;
  ctx.devices = {{0, "NVIDIA H200", "9.0"}};
  ctx.budget.instances = 5;
  const model::PatternInfo& p = *model::find_pattern("peer_mp");
  CaseResult r = result_with(p, 7, 1, 0);
  r.name = "alias.mp.x";
  r.family = "alias.mp";
  r.status = Status::Fail;
  r.expectation = model::Expectation::Required;
  const nlohmann::json doc = results_document(ctx, {r, not_run(required_case(), Status::NotSupported, "no GPU")});
  EXPECT_EQ(doc["context"]["driver"], "13.0");
  EXPECT_EQ(doc["context"]["cuda"], "12.8");
  EXPECT_EQ(doc["context"]["devices"][0]["name"], "NVIDIA H200");
  EXPECT_EQ(doc["context"]["budget"]["certifying"], false);
  EXPECT_EQ(doc["totals"]["Fail"], 1);
  EXPECT_EQ(doc["totals"]["NotSupported"], 1);
  EXPECT_EQ(doc["results"][0]["histogram"]["stale"], 1);
  EXPECT_EQ(doc["results"][0]["expectation"], "required");
  EXPECT_EQ(doc["results"][1]["status"], "NotSupported");
  EXPECT_EQ(doc["results"][1]["reason"], "no GPU");
}

TEST(Json, DriverReleaseFromProcText) {
  EXPECT_EQ(device::driver_release_from("NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu Oct 2 2025\nGCC version: gcc 12\n"), "580.159.04");
  EXPECT_EQ(device::driver_release_from("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  575.57.08  Release Build\n"), "575.57.08");
  EXPECT_EQ(device::driver_release_from(""), "");
}

TEST(Budget, DefaultsCertifyAndLessDoesNot) {
  Budget b;
  EXPECT_TRUE(b.certifying());
  b.iterations = 1;
  EXPECT_FALSE(b.certifying());
}

}  // namespace
}  // namespace vmmcheck::run

namespace vmmcheck::run {
namespace {

// The results file a run rewrites after every case holds the very bytes write_results writes of
// results_document: each result serialized once, spliced into the rest.
TEST(Json, AResultsFileBuiltCaseByCaseIsTheWholeDocument) {
  const StoredRun stored = read_results(std::filesystem::path(VMMCHECK_SOURCE_DIR) / "ci/results/nvidia-h200_driver-580.159.04.json");
  std::vector<CaseResult> some(stored.results.begin(), stored.results.begin() + 40);
  some[3].reason = "a line\nand \"quotes\" and \xff not UTF-8";
  const auto path = std::filesystem::temp_directory_path() / "vmmcheck-results-file.json";
  const std::vector<std::pair<std::string, std::string>> files{{"fails", "ci/expectations/x-fails.txt"}, {"flakes", ""}};
  ResultsFile file(path, stored.context_block, files);
  for (std::size_t k = 0; k <= some.size(); ++k) {
    const std::vector<CaseResult> first(some.begin(), some.begin() + static_cast<std::ptrdiff_t>(k));
    write_results(path, results_document(stored.context_block, first, files));
    std::ifstream in(path);
    const std::string whole((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_EQ(file.text() + "\n", whole) << k << " results";
    if (k < some.size()) file.add(some[k]);
  }
  file.write();
  EXPECT_EQ(read_results(path).results.size(), some.size());
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace vmmcheck::run
