#include <gtest/gtest.h>

#include "common/error.hpp"
#include "model/select.hpp"

namespace vmmcheck::model {
namespace {

std::vector<Case> cases_named(std::initializer_list<const char*> names) {
  std::vector<Case> out;
  for (const char* n : names) {
    Case c;
    c.name = n;
    c.family = std::string(n).substr(0, std::string(n).rfind('.'));
    out.push_back(c);
  }
  return out;
}

TEST(Select, GlobsIncludeAndMinusExcludes) {
  const auto cases = cases_named({"alias.mp.same.gpu", "alias.mp.same.cta", "alias.kernels.x.y"});
  EXPECT_EQ(select_cases(cases, "").size(), 3u);
  EXPECT_EQ(select_cases(cases, "alias.mp.*").size(), 2u);
  EXPECT_EQ(select_cases(cases, "alias.mp.*,-*.cta").size(), 1u);
  EXPECT_EQ(select_cases(cases, "-alias.kernels.*").size(), 2u);
  EXPECT_EQ(select_cases(cases, "*.gpu, alias.kernels.*").size(), 2u);
  EXPECT_THROW(select_cases(cases, "nothing.*"), InputError);
}

TEST(Select, UnknownCaseNamesTheProblem) {
  const auto cases = cases_named({"alias.mp.same.gpu"});
  EXPECT_EQ(&find_case(cases, "alias.mp.same.gpu"), &cases[0]);
  try {
    find_case(cases, "alias.mp.same");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown case 'alias.mp.same'; did you mean: alias.mp.same.gpu"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace vmmcheck::model
