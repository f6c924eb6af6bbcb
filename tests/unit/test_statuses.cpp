// The statuses are one list for C++ and Python: schema/statuses.json. This holds the enum (model/judge.hpp),
// to_string and parse_status, and how the console counts each (cli/console.hpp) to it;
// reports/tests/test_statuses.py holds model.py's STATUS_TABLE and the results schema's enums to it.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/console.hpp"

namespace vmmcheck::run {
namespace {

// A status's class (model.py's kinds) as the console's tally counts it. A Warning is counted apart from the
// failures a baseline tolerates, but is tolerated as they are: neither fails a run (without --strict).
std::string class_of(Status s) {
  CaseResult r;
  r.status = s;
  const cli::Tally t = cli::tally({r});
  if (t.passed) return "passed";
  if (t.failed) return "failure";
  if (t.skipped) return "skipped";
  if (t.tolerated || t.warnings) return "tolerated";
  return "uncounted";
}

TEST(Statuses, TheEnumAndTheConsoleAreTheSharedList) {
  std::ifstream in(std::string(VMMCHECK_SOURCE_DIR) + "/schema/statuses.json");
  const nlohmann::json shared = nlohmann::json::parse(in).at("statuses");
  nlohmann::json here = nlohmann::json::array();
  for (int i = 0; std::string(to_string(static_cast<Status>(i))) != "?"; ++i) {  // "?": past the last
    const Status s = static_cast<Status>(i);
    Status back;
    EXPECT_TRUE(parse_status(to_string(s), back) && back == s) << to_string(s);
    // judge.hpp: the statuses after Warning come from a baseline, which keeps vmmcheck's in original_status
    here.push_back({{"name", to_string(s)}, {"class", class_of(s)}, {"base", s <= Status::Warning}});
  }
  EXPECT_EQ(here.back()["name"], "UnexpectedPass");
  EXPECT_EQ(here, shared) << "here: " << here.dump() << "\nschema/statuses.json: " << shared.dump();
}

}  // namespace
}  // namespace vmmcheck::run
