// Baselines (run --baseline, run/records/baseline.hpp): the expectation files of ci/expectations read as the
// report driver reads them, applied to results, and what a run with one prints, writes and exits with.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli/app.hpp"
#include "cli/console.hpp"
#include "cli_driver.hpp"
#include "common/error.hpp"
#include "run/records/baseline.hpp"
#include "run/records/report_json.hpp"

namespace vmmcheck::run {
namespace {

namespace fs = std::filesystem;

// A folder with <stem>-fails.txt and, when given, the flakes and skips files beside it.
fs::path baseline_files(const std::string& fails, const std::string& flakes = "", const std::string& skips = "") {
  const fs::path dir = fs::temp_directory_path() / ("vmmcheck-baseline-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                                    "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto write = [&](const std::string& kind, const std::string& text) {
    if (!text.empty()) std::ofstream(dir / ("gpu-1.0-" + kind + ".txt")) << text;
  };
  write("fails", fails);
  write("flakes", flakes);
  write("skips", skips);
  return dir / "gpu-1.0-fails.txt";
}

CaseResult result(const std::string& name, Status s) {
  CaseResult r;
  r.name = name;
  r.status = s;
  return r;
}

TEST(Baseline, ListedFailuresFlakesAndSkipsRewriteTheStatus) {
  const Baseline b = Baseline::read(baseline_files("# a header, ended by the blank line\n\n"
                                                   "# the driver returns the wrong thing\n# (since 580)\n"
                                                   "api.one,Fail\n# hangs here\nalias.two,Timeout\n",
                                                   "# flaky\nalias\\.mp\\..*\n", "peer\\..*\n"));
  CaseResult listed = result("api.one", Status::Fail);
  b.apply(listed);
  EXPECT_EQ(listed.status, Status::ExpectedFail);
  EXPECT_EQ(listed.original_status, Status::Fail);
  EXPECT_NE(listed.note.find("the driver returns the wrong thing (since 580)"), std::string::npos) << listed.note;
  EXPECT_NE(listed.note.find("gpu-1.0-fails.txt:5"), std::string::npos) << listed.note;

  CaseResult now_passes = result("alias.two", Status::Pass);
  b.apply(now_passes);
  EXPECT_EQ(now_passes.status, Status::UnexpectedPass);
  EXPECT_TRUE(is_failure(now_passes.status, false)) << "a listed case that passes needs the list updated";

  CaseResult otherwise = result("alias.two", Status::Crash);  // listed as Timeout: news, kept as it is
  b.apply(otherwise);
  EXPECT_EQ(otherwise.status, Status::Crash);
  EXPECT_FALSE(otherwise.original_status);
  EXPECT_NE(otherwise.note.find("but got Crash"), std::string::npos);

  CaseResult flaky = result("alias.mp.x.y", Status::Fail);
  b.apply(flaky);
  EXPECT_EQ(flaky.status, Status::Flake);
  CaseResult flaky_pass = result("alias.mp.x.y", Status::Pass);
  b.apply(flaky_pass);
  EXPECT_EQ(flaky_pass.status, Status::Pass) << "a flake pattern changes failures only";

  EXPECT_TRUE(b.skipped_by("peer.kernels.event.same"));
  EXPECT_FALSE(b.skipped_by("alias.peer.x"));  // matched against the whole name
  CaseResult skipped = result("peer.kernels.event.same", Status::NotSupported);
  b.apply(skipped);
  EXPECT_EQ(skipped.status, Status::Skip);

  // Applying again starts from what vmmcheck said; reset undoes it.
  b.apply(listed);
  EXPECT_EQ(listed.status, Status::ExpectedFail);
  Baseline::reset(listed);
  EXPECT_EQ(listed.status, Status::Fail);
  EXPECT_FALSE(listed.original_status);
}

TEST(Baseline, MalformedFilesNameFileAndLine) {
  auto error_of = [](const std::string& fails, const std::string& flakes = "") -> std::string {
    try {
      Baseline::read(baseline_files(fails, flakes));
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(error_of("api.one,Fail\n").find("fails.txt:1: api.one,Fail has no '# reason'"), std::string::npos);
  EXPECT_NE(error_of("# why\napi.one,Warning\n").find(":2: status 'Warning' is not one of"), std::string::npos);
  EXPECT_NE(error_of("# why\napi.one\n").find(":2: expected 'name,Status'"), std::string::npos);
  EXPECT_NE(error_of("# why\nNot A Name,Fail\n").find("is not a dotted case name"), std::string::npos);
  EXPECT_NE(error_of("# a\napi.one,Fail\n# b\napi.one,Crash\n").find(":4: api.one is already listed at"), std::string::npos);
  EXPECT_NE(error_of("# no rows\n", "alias(\n").find("flakes.txt:1: bad regular expression"), std::string::npos);
  EXPECT_THROW(Baseline::read("/no/such/gpu-fails.txt"), InputError);
}

TEST(Baseline, TheResultsRecordWhatVmmcheckSaidAndWhy) {
  const Baseline b = Baseline::read(baseline_files("# known\napi.one,Fail\n"));
  CaseResult r = result("api.one", Status::Fail);
  r.family = "api";
  b.apply(r);
  const Json j = to_json(r);
  EXPECT_EQ(j["status"], "ExpectedFail");
  EXPECT_EQ(j["original_status"], "Fail");
  const CaseResult back = result_from_json(j, "test");
  EXPECT_EQ(back.status, Status::ExpectedFail);
  EXPECT_EQ(back.original_status, Status::Fail);
  EXPECT_EQ(back.note, r.note);
  RunContext ctx;
  ctx.expectations = b.files();
  const Json doc = results_document(ctx, {r});
  EXPECT_EQ(doc["totals"]["ExpectedFail"], 1);
  EXPECT_TRUE(doc["expectations"]["flakes"].is_null());
  EXPECT_NE(doc["expectations"]["fails"].get<std::string>().find("gpu-1.0-fails.txt"), std::string::npos);
}

TEST(Baseline, TheConsoleCountsToleratedFailuresApartAndNamesCasesThatNowPass) {
  CaseResult expected = result("api.one", Status::ExpectedFail), upass = result("api.two", Status::UnexpectedPass);
  const cli::Tally t = cli::tally({expected, upass, result("a.b", Status::Pass), result("a.c", Status::Skip)});
  EXPECT_EQ(t.tolerated, 1u);
  EXPECT_EQ(t.failed, 1u);
  EXPECT_EQ(t.skipped, 1u);
  EXPECT_EQ(cli::tally_line(t), "1 passed, 1 expected by the baseline, 1 failed, 1 skipped");
  EXPECT_NE(cli::baseline_lines({expected, upass}).find("1 listed case now pass (UnexpectedPass; remove from the baseline): api.two"),
            std::string::npos);
  EXPECT_EQ(cli::baseline_lines({result("a.b", Status::Pass)}), "");
}

TEST(Baseline, RunChecksTheFileBeforeAnything) {
  const testing::Outcome missing = testing::cli({"run", "--baseline", "/no/such/file-fails.txt"});
  EXPECT_EQ(missing.code, cli::kExitUsage);
  const testing::Outcome bad = testing::cli({"run", "--baseline", baseline_files("api.one,Fail\n").string()});
  EXPECT_EQ(bad.code, cli::kExitUsage);
  EXPECT_NE(bad.err.find("has no '# reason'"), std::string::npos) << bad.err;
}

// A fails row naming no case or litmus row there is (a typo, a case renamed since) tolerates nothing and
// would say nothing: exit 2 naming file:line, or with --allow-unknown a warning and the run goes on.
TEST(Baseline, ARowNamingNoCaseIsExitTwoUnlessAllowed) {
  const auto fails = baseline_files(
      "# known: the driver accepts it\napi.unmap_with_hole,Fail\n\n# a typo\napi.unmap_with_hol,Fail\n"
      "\n# a litmus row is a case too\nlitmus.corr.0.cta_relaxed,Fail\n");
  const testing::Outcome o = testing::cli({"run", "--filter", "api.*", "--baseline", fails.string()});
  EXPECT_EQ(o.code, cli::kExitUsage) << o.out << o.err;
  EXPECT_NE(o.err.find(fails.string() + ":5: api.unmap_with_hol names no case or litmus row (--allow-unknown makes it a warning)"),
            std::string::npos)
      << o.err;
  EXPECT_EQ(o.err.find("unmap_with_hole names"), std::string::npos) << o.err;
  EXPECT_EQ(o.err.find("litmus.corr.0.cta_relaxed names"), std::string::npos) << o.err;
  const testing::Outcome allowed = testing::cli({"run", "--filter", "api.*", "--baseline", fails.string(), "--allow-unknown"});
  EXPECT_NE(allowed.code, cli::kExitUsage) << allowed.err;
  EXPECT_NE(allowed.err.find("vmmcheck: warning: " + fails.string() + ":5: api.unmap_with_hol names no case or litmus row"),
            std::string::npos)
      << allowed.err;
  // The shipped baseline names only cases that exist.
  const testing::Outcome shipped = testing::cli(
      {"run", "--filter", "api.*", "--baseline",
       std::string(VMMCHECK_SOURCE_DIR) + "/ci/expectations/nvidia-h200-580.159.04-fails.txt"});
  EXPECT_NE(shipped.code, cli::kExitUsage) << shipped.err;
}

TEST(Baseline, StrictMakesWarningsFailures) {
  EXPECT_FALSE(is_failure(Status::Warning, false));
  EXPECT_TRUE(is_failure(Status::Warning, true));
  for (Status s : {Status::Pass, Status::NotSupported, Status::ExpectedFail, Status::Flake, Status::Skip})
    EXPECT_FALSE(is_failure(s, true)) << to_string(s);
  for (Status s : {Status::Fail, Status::Crash, Status::Timeout, Status::Error, Status::UnexpectedPass})
    EXPECT_TRUE(is_failure(s, false)) << to_string(s);
}

}  // namespace
}  // namespace vmmcheck::run
