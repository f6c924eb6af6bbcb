// The hand-written families and the litmus files that mirror them (a file whose first line says "the
// hand-written family F") ask the same questions, case by case: a row's question is the case's verdict.
// An assert row the ISA's reading holds is a `required` case, one only the artifact's holds a `model`
// case (docs/litmus-model.md, "Two readings"), a permit row an `undefined` one. No GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>

#include "litmus/folder.hpp"
#include "litmus/rows.hpp"
#include "model/loader.hpp"

namespace vmmcheck::litmus {
namespace {

namespace fs = std::filesystem;

// Mirror file stem -> the family its first line names.
std::map<std::string, std::string> mirrors() {
  std::map<std::string, std::string> out;
  const std::regex says(R"(the hand-written family ([a-z_.]+))");
  for (const auto& entry : fs::directory_iterator(fs::path(VMMCHECK_SOURCE_DIR) / "cases" / "litmus")) {
    std::ifstream in(entry.path());
    std::string first;
    std::getline(in, first);
    std::smatch m;
    if (std::regex_search(first, m, says)) out[entry.path().stem().string()] = m[1];
  }
  return out;
}

// The case a row mirrors: the family's case whose name, dots made underscores, is the row's command.
const model::Case* mirrored(const model::CaseTable& table, const std::string& family, const Row& row) {
  const std::string command = command_token(row);
  for (const model::Case& c : table.cases) {
    if (c.name.rfind(family + ".", 0) != 0) continue;
    std::string rest = c.name.substr(family.size() + 1);
    for (char& ch : rest)
      if (ch == '.') ch = '_';
    if (rest == command) return &c;
  }
  return nullptr;
}

model::Expectation question_of(const Row& row) {
  const RowVerdict v = model_verdict(row);
  return row.expect == Expect::Assert ? v.expectation : model::Expectation::Undefined;
}

TEST(LitmusMirrors, EachRowAsksWhatItsHandWrittenCaseAsks) {
  const model::CaseTable table = model::load_cases(model::default_cases_path());
  const auto files = mirrors();
  ASSERT_GE(files.size(), 3u) << "alias_mp, alias_mp_cta, alias_same_thread";
  std::map<model::Expectation, std::size_t> paired;
  for (const auto& [stem, family] : files) {
    const auto rows = rows_of(parse_paths({fs::path(VMMCHECK_SOURCE_DIR) / "cases" / "litmus" / (stem + ".test")}));
    std::size_t found = 0;
    for (const Row& row : rows) {
      const model::Case* hand = mirrored(table, family, row);
      if (!hand) continue;  // a row with no case of its own (alias_mp_cta's relaxed controls)
      ++found;
      ++paired[hand->verdict.expectation];
      EXPECT_EQ(model::to_string(question_of(row)), std::string(model::to_string(hand->verdict.expectation)))
          << case_name_of(row) << " mirrors " << hand->name << " (" << hand->verdict.source << ")";
    }
    EXPECT_GT(found, 0u) << stem << ".test mirrors no case of " << family;
  }
  // All three kinds of question are among the pairs: the model ones are the flag through an alias.
  EXPECT_GT(paired[model::Expectation::Required], 0u);
  EXPECT_EQ(paired[model::Expectation::Model], 40u);
  EXPECT_GT(paired[model::Expectation::Undefined], 0u);
}

// A retired family (alias.rmw): its table and kernel are gone, and the rows that stand for its cases
// carry their names, asking what the cases asked -- atomicity through one address required, through
// an alias not.
TEST(LitmusMirrors, ARetiredFamilysRowsCarryItsCaseNames) {
  const model::CaseTable table = model::load_cases(model::default_cases_path());
  EXPECT_FALSE(std::any_of(table.cases.begin(), table.cases.end(), [](const model::Case& c) { return c.family == "alias.rmw"; }));
  const auto rows = rows_of(parse_paths({fs::path(VMMCHECK_SOURCE_DIR) / "cases" / "litmus" / "alias_rmw.test"}));
  std::map<std::string, model::Expectation> asked;
  for (const Row& row : rows)
    if (!row.case_name.empty()) {
      EXPECT_EQ(case_name_of(row), row.case_name);
      EXPECT_EQ(row_name_of(row).rfind("litmus.alias_rmw.", 0), 0u) << row_name_of(row);
      asked[row.case_name] = question_of(row);
    }
  using E = model::Expectation;
  EXPECT_EQ(asked, (std::map<std::string, E>{{"alias.rmw.alias.gpu", E::Undefined}, {"alias.rmw.alias.sys", E::Undefined},
                                             {"alias.rmw.offset.gpu", E::Undefined}, {"alias.rmw.offset.sys", E::Undefined},
                                             {"alias.rmw.same.gpu", E::Required}, {"alias.rmw.same.sys", E::Required}}));
}

// The rows only the artifact's reading holds are Model rows for a run, with both readings in their
// explanation; every other row's question has one answer.
TEST(LitmusMirrors, RowsTheReadingsPartOnAreModelRows) {
  const auto rows = rows_of(parse_paths({fs::path(VMMCHECK_SOURCE_DIR) / "cases" / "litmus"}));
  std::size_t parted = 0;
  for (const Row& row : rows) {
    const RowVerdict v = model_verdict(row);
    EXPECT_TRUE(v.matches) << row.name;
    EXPECT_TRUE(!v.artifact_allows || v.isa_allows) << row.name << ": the artifact allows what the ISA forbids";
    if (!v.readings_differ()) continue;
    ++parted;
    if (row.expect == Expect::Assert) EXPECT_EQ(v.expectation, model::Expectation::Model) << row.name;
    EXPECT_NE(v.explanation.find("the artifact's reading"), std::string::npos) << row.name;
    EXPECT_NE(answer_of(row, v).find("in the ISA"), std::string::npos) << row.name;
  }
  EXPECT_EQ(parted, 43u);  // alias_mp x20, alias_mp_cta x20, CoRR.10, CoRR.11, CoWW.8
}

}  // namespace
}  // namespace vmmcheck::litmus
