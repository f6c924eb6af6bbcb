// The case loader: name generation, pruning, verdict matching, and errors that name file and line.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include "common/error.hpp"
#include "model/loader.hpp"
#include "model/registry.hpp"

namespace vmmcheck::model {
namespace {

const char* kSmall = R"(family = "t.same"
pattern = "resident"
title = "test"
labels = ["gpu"]
snippet = "ld {load}; {signal}"

[[axis]]
name = "view"
doc = "v"
values = [ { value = "same", description = "s" }, { value = "alias", description = "a" } ]

[[axis]]
name = "load"
doc = "l"
values = [ { value = "weak", description = "w", code = "ld.weak" }, { value = "nc", description = "n", code = "ld.nc" } ]

[[axis]]
name = "signal"
doc = "s"
values = [ { value = "kernel", name = "kernelsignal", description = "k", code = "flag = 1" }, { value = "host", name = "hostsignal", description = "h", code = "cudaStreamSynchronize" } ]

[[prune]]
name = "no_nc_host"
why = "test pruning"
when = { load = ["nc"], signal = ["host"] }

[[verdict]]
when = { load = ["nc"] }
expect = "undefined"
rule = "r"
cite = "c"
why = "w"

[[verdict]]
when = { view = ["same"] }
expect = "required"
outcomes = ["new"]
rule = "r"
cite = "c"
why = "w"

[[verdict]]
expect = "undefined"
rule = "r"
cite = "c"
why = "w"
override = "a test table: its verdicts are not the point"
)";

std::string error_of(const std::string& text) {
  try {
    parse_cases(text, "bad.toml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  if (at == std::string::npos) return s;
  return s.replace(at, from.size(), to);
}

TEST(Loader, CrossesAxesIntoStableDottedNamesAndPrunes) {
  const CaseTable t = parse_cases(kSmall, "small.toml");
  std::vector<std::string> names;
  for (const Case& c : t.cases) names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"t.same.same.weak.kernelsignal", "t.same.same.weak.hostsignal", "t.same.same.nc.kernelsignal",
                                             "t.same.alias.weak.kernelsignal", "t.same.alias.weak.hostsignal", "t.same.alias.nc.kernelsignal"}));
  ASSERT_EQ(t.families.size(), 1u);
  EXPECT_EQ(t.families[0].pruned.size(), 2u);
  EXPECT_EQ(t.families[0].pruned[0], "t.same.same.nc.hostsignal: no_nc_host");
}

TEST(Loader, FirstMatchingVerdictWinsAndSnippetIsFilled) {
  const CaseTable t = parse_cases(kSmall, "small.toml");
  auto find = [&](const std::string& n) { return *std::find_if(t.cases.begin(), t.cases.end(), [&](const Case& c) { return c.name == n; }); };
  EXPECT_EQ(find("t.same.same.nc.kernelsignal").verdict.expectation, Expectation::Undefined);
  EXPECT_EQ(find("t.same.same.weak.hostsignal").verdict.expectation, Expectation::Required);
  EXPECT_EQ(find("t.same.alias.weak.hostsignal").verdict.expectation, Expectation::Undefined);
  EXPECT_EQ(find("t.same.same.weak.hostsignal").snippet, "ld ld.weak; cudaStreamSynchronize");
  EXPECT_EQ(find("t.same.same.weak.hostsignal").axis("signal"), "host");
  EXPECT_EQ(find("t.same.same.weak.hostsignal").verdict.source, "small.toml:34");
}

TEST(Loader, MalformedTomlNamesFileAndLine) {
  const std::string e = error_of("family = \"x\"\npattern = \n");
  EXPECT_NE(e.find("bad.toml:2: malformed TOML"), std::string::npos) << e;
}

TEST(Loader, AxisValueThatDoesNotExistIsAnError) {
  const std::string e = error_of(replace(kSmall, "{ value = \"alias\"", "{ value = \"aliass\""));
  EXPECT_NE(e.find("bad.toml:10: axis 'view' has no value 'aliass'"), std::string::npos) << e;
  const std::string w = error_of(replace(kSmall, "when = { load = [\"nc\"] }\nexpect", "when = { load = [\"ncc\"] }\nexpect"));
  EXPECT_NE(w.find("names value 'ncc' of axis 'load', which does not exist"), std::string::npos) << w;
}

TEST(Loader, UnknownKeysPatternsAndOutcomesAreErrors) {
  EXPECT_NE(error_of(replace(kSmall, "title = \"test\"", "titel = \"test\"")).find("unknown key 'titel'"), std::string::npos);
  EXPECT_NE(error_of(replace(kSmall, "pattern = \"resident\"", "pattern = \"nope\"")).find("bad.toml:2: unknown pattern 'nope'"), std::string::npos);
  EXPECT_NE(error_of(replace(kSmall, "outcomes = [\"new\"]", "outcomes = [\"newer\"]")).find("no outcome 'newer'"), std::string::npos);
  EXPECT_NE(error_of(replace(kSmall, "name = \"signal\"\ndoc", "name = \"signals\"\ndoc")).find("has no axis 'signals'"), std::string::npos);
}

TEST(Loader, EveryCaseNeedsAVerdictAndEveryVerdictACase) {
  // Drop the catch-all: alias.weak cases have no verdict.
  std::string no_catch_all = kSmall;
  no_catch_all = no_catch_all.substr(0, no_catch_all.rfind("[[verdict]]"));
  EXPECT_NE(error_of(no_catch_all).find("no [[verdict]] matches case t.same.alias.weak.kernelsignal"), std::string::npos);
  // A verdict after the catch-all can never match.
  const std::string shadowed = std::string(kSmall) + "\n[[verdict]]\nwhen = { view = [\"alias\"] }\nexpect = \"undefined\"\nrule = \"r\"\ncite = \"c\"\nwhy = \"w\"\n";
  EXPECT_NE(error_of(shadowed).find("matches no case"), std::string::npos);
}

TEST(Loader, RequiredVerdictsListOutcomesUndefinedOnesDoNot) {
  EXPECT_NE(error_of(replace(kSmall, "outcomes = [\"new\"]\n", "")).find("must list the outcomes"), std::string::npos);
  EXPECT_NE(error_of(replace(kSmall, "expect = \"undefined\"\nrule", "expect = \"undefined\"\noutcomes = [\"new\"]\nrule")).find("leave 'outcomes' out"), std::string::npos);
}

TEST(Loader, ShippedTablesHaveAtLeastFortyWellFormedCases) {
  const CaseTable t = load_cases(default_cases_path());
  EXPECT_GE(t.cases.size(), 40u);
  const std::regex dotted("[a-z0-9_]+(\\.[a-z0-9_]+)+");
  for (const Case& c : t.cases) {
    EXPECT_TRUE(std::regex_match(c.name, dotted)) << c.name;
    EXPECT_FALSE(c.verdict.rule.empty()) << c.name;
    EXPECT_FALSE(c.verdict.citation.empty()) << c.name;
    EXPECT_FALSE(c.snippet.empty()) << c.name;
  }
  for (const char* family : {"alias.memory.kernels", "alias.memory.resident", "alias.kernels", "alias.resident"}) {
    EXPECT_TRUE(std::any_of(t.cases.begin(), t.cases.end(), [&](const Case& c) { return c.family == family; })) << family;
  }
}

TEST(Loader, MissingPathsAndDuplicateFamiliesAreErrors) {
  EXPECT_THROW(load_cases("/nonexistent/cases"), InputError);
}

}  // namespace
}  // namespace vmmcheck::model
