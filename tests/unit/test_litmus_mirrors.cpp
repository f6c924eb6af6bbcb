// The hand-written in-kernel families retired to litmus files: each row that stands for a case asks what
// the family's table said of it. An assert row the ISA's reading holds is a `required` case, one only the
// artifact's holds a `model` case (docs/litmus-model.md, "Two readings"), a permit row an `undefined` one.
// No GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "litmus/folder.hpp"
#include "litmus/rows.hpp"
#include "model/loader.hpp"
#include "retired_cases.hpp"

namespace vmmcheck::litmus {
namespace {

namespace fs = std::filesystem;

model::Expectation question_of(const Row& row) {
  const RowVerdict v = model_verdict(row);
  return row.expect == Expect::Assert ? v.expectation : model::Expectation::Undefined;
}

// The retired families (alias.rmw, alias.mp, alias.mp_cta, alias.same_thread, alias.memory.mp,
// alias.memory.same_thread): their tables (and the kernels no other family needs) are gone, and the rows that stand for their cases carry their names,
// each asking what its family's table said of it (tests/unit/data/retired_cases.tsv, written from
// `vmmcheck list --json` before each table went).
TEST(LitmusMirrors, ARetiredFamilysRowsCarryItsCaseNamesAndVerdicts) {
  const std::map<std::string, std::string> recorded = testing::retired_cases();
  for (const auto& [name, verdict] : recorded) ASSERT_FALSE(verdict.empty()) << name << ": no verdict";
  ASSERT_EQ(recorded.size(), 169u);  // alias.rmw 6, alias.mp 63, alias.mp_cta 42, alias.same_thread 30,
                                     // alias.memory.mp 12, alias.memory.same_thread 16
  const model::CaseTable table = model::load_cases(model::default_cases_path());
  for (const model::Case& c : table.cases) EXPECT_EQ(recorded.count(c.name), 0u) << c.name << ": its table is back";
  std::map<std::string, std::string> asked;
  std::map<std::string, std::size_t> by_kind;
  for (const std::string stem : {"alias_rmw", "alias_mp", "alias_mp_cta", "alias_same_thread", "alias_memory_mp", "alias_memory_same_thread"})
    for (const Row& row : rows_of(parse_paths({fs::path(VMMCHECK_SOURCE_DIR) / "cases" / "litmus" / (stem + ".test")}))) {
      if (row.case_name.empty()) continue;  // alias_mp_cta's relaxed controls, alias_rmw's plain adds
      EXPECT_EQ(case_name_of(row), row.case_name);
      // The alias.memory families are about other kinds of memory than the device's.
      if (stem.rfind("alias_memory_", 0) == 0) EXPECT_NE(row.test.memory, patterns::Memory::Device) << row.name;
      EXPECT_EQ(row_name_of(row).rfind("litmus." + stem + ".", 0), 0u) << row_name_of(row);
      EXPECT_EQ(asked.count(row.case_name), 0u) << row.case_name << " twice";
      asked[row.case_name] = model::to_string(question_of(row));
      ++by_kind[asked[row.case_name]];
    }
  EXPECT_EQ(asked, recorded);
  // All three kinds of question are among them: the model ones are the flag through an alias.
  EXPECT_EQ(by_kind["model"], 40u);
  EXPECT_EQ(by_kind["required"], 66u);
  EXPECT_EQ(by_kind["undefined"], 63u);
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
