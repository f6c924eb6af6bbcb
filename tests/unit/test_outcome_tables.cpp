// Outcomes counted on the GPU (docs/litmus.md, "Counting on the GPU"): for every shipped row, the table
// the tally kernel indexes by (kernels/outcome_index.h, the same functions nvcc compiles for the GPU)
// and the host's decoding of its bins agree on the row's whole outcome space; and the model's outcome
// space answers each outcome as deciding it alone does.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <set>

#include "codegen/generator.hpp"
#include "litmus/folder.hpp"
#include "model/ptx_model.hpp"
#include "run/kit/in_kernel.hpp"
#include "run/rows/outcome_table.hpp"

namespace vmmcheck::run {
namespace {

using patterns::litmus::Expr;
using patterns::litmus::Term;

std::vector<litmus::Row> shipped_rows() {
  return litmus::rows_of(litmus::parse_paths({std::filesystem::path(VMMCHECK_SOURCE_DIR) / "cases" / "litmus"}));
}

// The outcome values of the model's order, in the kernel's register order.
std::vector<std::uint32_t> in_order(const model::ptx::OutcomeSpace& space, const std::vector<std::uint32_t>& values,
                                    const std::vector<std::string>& registers) {
  std::vector<std::uint32_t> out;
  for (const std::string& r : registers) {
    const auto at = std::find(space.registers.begin(), space.registers.end(), r);
    out.push_back(values[static_cast<std::size_t>(at - space.registers.begin())]);
  }
  return out;
}

Expr exactly(const std::vector<std::string>& registers, const std::vector<std::uint32_t>& values) {
  Expr all;
  all.kind = Expr::Kind::And;
  for (std::size_t k = 0; k < registers.size(); ++k) {
    Expr eq;
    eq.kind = Expr::Kind::Eq;
    eq.lhs = Term{registers[k], 0};
    eq.rhs = Term{"", values[k]};
    all.operands.push_back(eq);
  }
  return all;
}

TEST(OutcomeTables, IndexAndDecodingAgreeOnEveryShippedRowsOutcomeSpace) {
  std::size_t rows = 0, outcomes = 0;
  for (const litmus::Row& row : shipped_rows()) {
    if (!codegen::why_not_generated(row.test).empty()) continue;
    ++rows;
    const model::ptx::OutcomeSpace& space = model::ptx::outcome_space(row.test);
    const codegen::Kernel k = codegen::generate(row.test);
    std::vector<std::string> a = k.registers, b = space.registers;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    ASSERT_EQ(a, b) << row.name << ": the kernel's registers are the model's";
    const std::optional<VmmcheckOutcomeTable> table = outcome_table(space, k.registers);
    ASSERT_TRUE(table) << row.name << ": its outcome space fits a GPU table";
    std::set<unsigned> bins;
    for (const auto& [values, allowed] : space.outcomes) {
      ++outcomes;
      const std::vector<std::uint32_t> words = in_order(space, values, k.registers);
      const unsigned bin = bin_of(*table, words);
      ASSERT_LT(bin, table->bins) << row.name;
      EXPECT_EQ(values_of(*table, bin), words) << row.name << " bin " << bin;
      EXPECT_TRUE(bins.insert(bin).second) << row.name << ": two outcomes in bin " << bin;
    }
    for (unsigned bin = 0; bin < table->bins; ++bin) EXPECT_EQ(bin_of(*table, values_of(*table, bin)), bin) << row.name;
    // A value no candidate gives lands outside the table, where the tally keeps its words.
    if (!k.registers.empty()) {
      std::vector<std::uint32_t> odd = values_of(*table, 0);
      odd[0] = 0xdeadbeefu;
      EXPECT_EQ(bin_of(*table, odd), table->bins) << row.name;
    }
  }
  EXPECT_GT(rows, 200u);
  EXPECT_GT(outcomes, rows);
}

TEST(OutcomeTables, TheOutcomeSpaceAnswersAsDecidingEachOutcomeDoes) {
  for (const litmus::Row& row : shipped_rows()) {
    const model::ptx::OutcomeSpace& space = model::ptx::outcome_space(row.test);
    for (const auto& [values, allowed] : space.outcomes) {
      for (model::ptx::Reading reading : model::ptx::kReadings) {
        EXPECT_EQ(space.allowed(space.registers, values, reading), allowed.by(reading));
        EXPECT_EQ(model::ptx::decide(row.test, exactly(space.registers, values), reading).allowed, allowed.by(reading))
            << row.name << ": " << model::ptx::to_string(exactly(space.registers, values)) << ", " << model::ptx::name_of(reading);
      }
      EXPECT_TRUE(allowed.isa || !allowed.artifact) << row.name << ": the ISA's reading allows all the artifact's does";
    }
    // Outside the space: no candidate shows it, so the model does not allow it.
    if (!space.registers.empty()) {
      std::vector<std::uint32_t> odd(space.registers.size(), 0xdeadbeefu);
      EXPECT_FALSE(space.allowed(space.registers, odd));
    }
  }
}

TEST(OutcomeTables, OneEnumerationPerShape) {
  const std::vector<litmus::Row> rows = shipped_rows();
  ASSERT_FALSE(rows.empty());
  patterns::litmus::Litmus renamed = rows.front().test;
  renamed.name = "another name";
  renamed.weak.clear();
  EXPECT_EQ(&model::ptx::outcome_space(rows.front().test), &model::ptx::outcome_space(renamed));
  // Registers other than the shape's are a mistake, not a forbidden outcome.
  EXPECT_THROW(model::ptx::outcome_space(rows.front().test).allowed({"no_such_register"}, {0}), std::invalid_argument);
}

}  // namespace
}  // namespace vmmcheck::run

namespace vmmcheck::run {
namespace {

// The one placement (run/kit/in_kernel.hpp) is a permutation of instances, lanes and CTAs for any
// geometry a run can ask for -- a block of --stress-params threads_per_block 96 too -- and, for a
// power-of-two block, the lane stride the hand-written kernels always had.
TEST(Placement, EveryStrideIsCoPrimeWithWhatItPermutes) {
  for (std::uint64_t seed = 1; seed < 2000; seed = seed * 7 + 13) {
    for (std::uint32_t lanes : {64u, 96u, 160u, 224u, 256u, 1024u})
      for (std::uint32_t ctas : {1u, 2u, 3u, 263u, 264u}) {
        const std::uint32_t n = ctas * lanes;
        const kernels::Placement p = placement_for(seed, n, ctas, lanes);
        EXPECT_EQ(std::gcd(p.memory_stride, n), 1u) << seed;
        EXPECT_EQ(p.lane_stride % 2, 1u);
        EXPECT_EQ(std::gcd(p.lane_stride, lanes), 1u) << "lanes " << lanes << " seed " << seed;
        EXPECT_EQ(std::gcd(p.cta_stride, ctas), 1u) << "ctas " << ctas << " seed " << seed;
        EXPECT_LT(p.cta_offset, ctas);
      }
    // A power-of-two block: the stride is what it was before the block size was known.
    EXPECT_EQ(placement_for(seed, 4096, 1, 256).lane_stride, placement_for(seed, 4096).lane_stride);
    EXPECT_EQ(placement_for(seed, 4096, 1, 256).memory_stride, placement_for(seed, 4096).memory_stride);
  }
}

}  // namespace
}  // namespace vmmcheck::run
