// One GoogleTest per case of the shipped tables, run on the local GPU. ctest sees each as its own test,
// named by the case's dotted name (see the --vmmcheck-ctest-script mode below and CMakeLists.txt).
// Without a GPU, or without a feature a case needs, the test is skipped with the reason -- never passed.
#include <gtest/gtest.h>

#include <cstdlib>

#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "common/error.hpp"
#include "litmus/folder.hpp"
#include "model/loader.hpp"
#include "run/rows/row_result.hpp"
#include "run/execution/suite.hpp"

namespace {

using vmmcheck::model::Case;

const vmmcheck::model::CaseTable& table() {
  static const vmmcheck::model::CaseTable t = vmmcheck::model::load_cases(vmmcheck::model::default_cases_path());
  return t;
}

std::vector<const Case*> all_cases() {
  std::vector<const Case*> out;
  for (const Case& c : table().cases) out.push_back(&c);
  return out;
}

// The shipped litmus rows (cases/litmus, docs/litmus.md): one test each, as `vmmcheck run` runs them.
const std::vector<vmmcheck::litmus::Row>& litmus_rows() {
  static const std::vector<vmmcheck::litmus::Row> rows =
      vmmcheck::litmus::rows_of(vmmcheck::litmus::parse_paths({vmmcheck::model::default_cases_path() / "litmus"}));
  return rows;
}

std::vector<const vmmcheck::litmus::Row*> all_rows() {
  std::vector<const vmmcheck::litmus::Row*> out;
  for (const auto& r : litmus_rows()) out.push_back(&r);
  return out;
}

std::string gtest_name(const std::string& dotted) {
  std::string s = dotted;
  for (char& ch : s)
    if (ch == '.') ch = '_';
  return s;
}

// One suite per process, as `vmmcheck run` builds it (run/execution/suite.hpp): cases that may fault or
// hang run in a child process of the vmmcheck binary; without a GPU, the reason. The tests judge as
// `vmmcheck run` does: with the build's VMMCHECK_BASELINE, when set, and VMMCHECK_STRICT.
vmmcheck::run::Suite& suite() {
  static vmmcheck::run::Suite s = [] {
    vmmcheck::run::RunSettings o;
    o.program = VMMCHECK_BINARY;
    o.cases_paths = {vmmcheck::model::default_cases_path().string()};
    o.cases_path_text = o.cases_paths.front();
    o.power = false;  // a ctest test is the case's verdict; `vmmcheck run` measures power
    if (!std::string(VMMCHECK_CTEST_BASELINE).empty()) {
      o.baseline = vmmcheck::run::Baseline::read(VMMCHECK_CTEST_BASELINE);
      // As `vmmcheck run --baseline` does: a row naming no case is bad input, not a silent no-op.
      std::vector<std::string> known;
      for (const Case& c : table().cases) known.push_back(c.name);
      for (const auto& r : litmus_rows()) known.push_back(vmmcheck::litmus::case_name_of(r));
      for (const std::string& problem : o.baseline->unknown_rows(known)) throw vmmcheck::InputError(problem);
    }
    return vmmcheck::run::Suite(std::move(o), table().cases);
  }();
  return s;
}

class CaseTest : public ::testing::TestWithParam<const Case*> {};

TEST_P(CaseTest, Run) {
  using vmmcheck::run::Status;
  const Case& c = *GetParam();
  vmmcheck::run::Suite& s = suite();
  if (!s.gpu_present()) GTEST_SKIP() << s.no_gpu_reason();
  const vmmcheck::run::CaseResult r = s.run(c).result;
  std::string histogram;
  for (const auto& [outcome, count] : r.histogram) histogram += " " + outcome + "=" + std::to_string(count);
  RecordProperty("histogram", histogram);
  RecordProperty("instances", std::to_string(r.instances));
  if (r.status == Status::NotSupported || r.status == Status::Skip) GTEST_SKIP() << (r.note.empty() ? r.reason : r.note);
  std::cout << c.name << ": " << to_string(r.status) << " (" << vmmcheck::model::to_string(r.expectation) << ")" << histogram << " of "
            << r.instances << " instances" << (s.isolates(c) ? ", isolated" : "") << "\n";
  if (r.status == Status::Warning || r.original_status) std::cout << "  " << (r.note.empty() ? r.reason : r.note) << "\n";
  EXPECT_FALSE(vmmcheck::run::is_failure(r.status, VMMCHECK_CTEST_STRICT != 0))
      << to_string(r.status) << ": " << r.reason << (r.note.empty() ? "" : "\n" + r.note) << "\nhistogram:" << histogram;
}

INSTANTIATE_TEST_SUITE_P(Cases, CaseTest, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<const Case*>& info) { return gtest_name(info.param->name); });

class LitmusRowTest : public ::testing::TestWithParam<const vmmcheck::litmus::Row*> {};

TEST_P(LitmusRowTest, Run) {
  using vmmcheck::run::Status;
  const vmmcheck::litmus::Row& row = *GetParam();
  vmmcheck::run::Suite& s = suite();
  if (!s.gpu_present()) GTEST_SKIP() << s.no_gpu_reason();
  const vmmcheck::run::CaseResult r = s.run(row).result;
  std::string histogram;
  for (const auto& [outcome, count] : r.histogram) histogram += " [" + outcome + "]=" + std::to_string(count);
  RecordProperty("histogram", histogram);
  RecordProperty("instances", std::to_string(r.instances));
  if (r.status == Status::NotSupported || r.status == Status::Skip) GTEST_SKIP() << (r.note.empty() ? r.reason : r.note);
  std::cout << r.name << ": " << to_string(r.status) << histogram << " of " << r.instances << " instances\n  " << r.reason << "\n";
  EXPECT_FALSE(vmmcheck::run::is_failure(r.status, VMMCHECK_CTEST_STRICT != 0))
      << to_string(r.status) << ": " << r.reason << "\nhistogram:" << histogram;
}

INSTANTIATE_TEST_SUITE_P(Litmus, LitmusRowTest, ::testing::ValuesIn(all_rows()),
                         [](const ::testing::TestParamInfo<const vmmcheck::litmus::Row*>& info) {
                           return gtest_name(vmmcheck::litmus::case_name_of(*info.param));
                         });

// Writes a CTest script with one test per case: its dotted name, its labels, one GPU (two for multigpu),
// and one GPU test at a time even under `ctest -j` (RESOURCE_LOCK gpu): a case's bounded spins read the
// GPU's wall clock, and the contexts of concurrent test processes time-slice the GPU, so a reader swapped
// out past its bound would time out without any reordering (seen under -j4 on an H200: 10 timeouts in
// 10.8M instances of a required message-passing case). CPU tests still run beside them.
int write_ctest_script(const std::string& path, const std::string& self) {
  std::ofstream out(path);
  for (const Case& c : table().cases) {
    std::string labels;
    bool two_gpus = false;  // a multigpu case takes two GPUs of the resource spec (ctest --resource-spec-file)
    for (const std::string& l : c.labels) {
      labels += (labels.empty() ? "" : ";") + l;
      two_gpus = two_gpus || l == "multigpu";
    }
    out << "add_test([==[" << c.name << "]==] [==[" << self << "]==] [==[--gtest_filter=Cases/CaseTest.Run/"
        << gtest_name(c.name) << "]==])\n"
        << "set_tests_properties([==[" << c.name << "]==] PROPERTIES LABELS [==[" << labels
        << "]==] RESOURCE_GROUPS " << (two_gpus ? "gpus:2" : "gpus:1")
        << " RESOURCE_LOCK gpu TIMEOUT 300 SKIP_REGULAR_EXPRESSION [==[\\[  SKIPPED \\]]==])\n";
  }
  for (const vmmcheck::litmus::Row& row : litmus_rows()) {
    const std::string name = vmmcheck::litmus::case_name_of(row);
    const std::string test = gtest_name(name);
    out << "add_test([==[" << name << "]==] [==[" << self << "]==] [==[--gtest_filter=Litmus/LitmusRowTest.Run/" << test
        << "]==])\n"
        << "set_tests_properties([==[" << name << "]==] PROPERTIES LABELS [==[gpu;litmus]==] RESOURCE_GROUPS gpus:1"
        << " RESOURCE_LOCK gpu TIMEOUT 300 SKIP_REGULAR_EXPRESSION [==[\\[  SKIPPED \\]]==])\n";
  }
  return out ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  // The ipc.* and fabric.* cases start a second vmmcheck process: this binary is not one.
  setenv("VMMCHECK_PROGRAM", VMMCHECK_BINARY, 0);
  const std::string script_flag = "--vmmcheck-ctest-script=";
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg.rfind(script_flag, 0) == 0) return write_ctest_script(arg.substr(script_flag.size()), argv[0]);
    }
    table();  // a broken case table or litmus file fails loudly here, not as a missing test
    litmus_rows();
  } catch (const std::exception& e) {
    std::cerr << "vmmcheck_case_tests: " << e.what() << "\n";
    return 2;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
