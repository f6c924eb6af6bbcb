// Case lists and shards (docs/design.md, "Case lists and shards"): the parsers, the stable split, and what
// `list` and `run` select with them -- litmus rows included.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/app.hpp"
#include "cli_driver.hpp"
#include "common/error.hpp"
#include "model/caselist.hpp"
#include "model/shard.hpp"

namespace vmmcheck {
namespace {

using testing::cli;
using cli::kExitFailure;
using cli::kExitUsage;
using testing::Outcome;
using testing::temp_file;

const std::string kPlanted = std::string(VMMCHECK_SOURCE_DIR) + "/tests/planted/host.toml";

TEST(Shard, ParsesKOfNAndRefusesTheRest) {
  EXPECT_EQ(model::parse_shard("1/3"), (model::Shard{1, 3}));
  EXPECT_EQ(model::parse_shard("3/3"), (model::Shard{3, 3}));
  EXPECT_EQ(model::parse_shard("1/1"), (model::Shard{1, 1}));
  for (const char* bad : {"0/3", "4/3", "-1/3", "+1/3", "1/0", "1", "1/", "/3", "a/b", "1/3/4", " 1/3", "1.5/3", ""})
    EXPECT_THROW(model::parse_shard(bad), InputError) << bad;
  EXPECT_EQ(model::to_string(model::Shard{2, 5}), "2/5");
}

// FNV-1a 64 as published (the report driver's merge computes the same; reports/tests/test_merge.py).
TEST(Shard, TheSplitIsFnv1aOfTheName) {
  EXPECT_EQ(model::fnv1a_64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(model::fnv1a_64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(model::fnv1a_64("foobar"), 0x85944171f73967e8ull);
  EXPECT_EQ(model::shard_of("a", 3), 0xaf63dc4c8601ec8cull % 3 + 1);
  for (std::uint32_t n = 1; n < 9; ++n) EXPECT_EQ(model::shard_of("alias.mp.same.flagsame.nofence.gpu", n),
                                                  model::fnv1a_64("alias.mp.same.flagsame.nofence.gpu") % n + 1);
}

std::vector<std::string> listed_names(const Outcome& o) {
  const auto doc = nlohmann::json::parse(o.out);
  std::vector<std::string> names;
  for (const auto& c : doc["cases"]) names.push_back(c["name"]);
  for (const auto& r : doc["litmus_rows"]) names.push_back(r["name"]);
  return names;
}

// Every shipped case and litmus row is in exactly one shard of N, for every N, and each shard has some.
TEST(Shard, EveryCaseAndLitmusRowIsInExactlyOneShard) {
  const Outcome all = cli({"list", "--json"});
  ASSERT_EQ(all.code, 0) << all.err;
  const std::vector<std::string> everything = listed_names(all);
  ASSERT_GT(everything.size(), 650u);
  for (std::uint32_t n : {1u, 2u, 3u, 7u}) {
    std::multiset<std::string> union_of_shards;
    for (std::uint32_t k = 1; k <= n; ++k) {
      const Outcome part = cli({"list", "--json", "--shard", std::to_string(k) + "/" + std::to_string(n)});
      ASSERT_EQ(part.code, 0) << part.err;
      const std::vector<std::string> names = listed_names(part);
      EXPECT_GT(names.size(), everything.size() / n / 2) << k << "/" << n;
      for (const std::string& name : names) {
        EXPECT_EQ(model::shard_of(name, n), k) << name;
        union_of_shards.insert(name);
      }
    }
    EXPECT_EQ(union_of_shards, std::multiset<std::string>(everything.begin(), everything.end())) << "N = " << n;
  }
  EXPECT_EQ(cli({"list", "--shard", "4/3"}).code, kExitUsage);
  EXPECT_EQ(cli({"run", "--shard", "0/3"}).code, kExitUsage);
}

TEST(Caselist, NamesAndGlobsWithCommentsSelectCasesAndRows) {
  const auto list = temp_file("vmmcheck-caselist.txt",
                              "# what a nightly job runs\n"
                              "alias.mp.same.flagsame.nofence.gpu   # one case\n"
                              "\n"
                              "alias.kernels.*.alias\n"
                              "litmus.corr.*\n");
  const Outcome o = cli({"list", "--json", "--caselist", list.string()});
  ASSERT_EQ(o.code, 0) << o.err;
  const std::vector<std::string> names = listed_names(o);
  EXPECT_EQ(std::count(names.begin(), names.end(), "alias.mp.same.flagsame.nofence.gpu"), 1);
  for (const std::string& n : names)
    EXPECT_TRUE(n == "alias.mp.same.flagsame.nofence.gpu" || (n.rfind("alias.kernels.", 0) == 0 && n.size() > 6 && n.substr(n.size() - 6) == ".alias") ||
                n.rfind("litmus.corr.", 0) == 0)
        << n;
  const auto doc = nlohmann::json::parse(o.out);
  EXPECT_GT(doc["litmus_rows"].size(), 0u);
  EXPECT_GT(doc["cases"].size(), 1u);
  // alias.mp retired to its litmus rows: the case's name selects the row that bears it.
  const auto& rows = doc["litmus_rows"];
  EXPECT_EQ(std::count_if(rows.begin(), rows.end(), [](const nlohmann::json& r) { return r["name"] == "alias.mp.same.flagsame.nofence.gpu"; }), 1);
  // --filter narrows what the list names: `litmus.*` leaves out that row, named as its case.
  const Outcome narrowed = cli({"list", "--json", "--caselist", list.string(), "--filter", "litmus.*"});
  ASSERT_EQ(narrowed.code, 0) << narrowed.err;
  EXPECT_EQ(nlohmann::json::parse(narrowed.out)["cases"].size(), 0u);
  EXPECT_EQ(nlohmann::json::parse(narrowed.out)["litmus_rows"].size(), doc["litmus_rows"].size() - 1);
}

TEST(Caselist, ALineThatNamesNothingIsExitTwoWithFileAndLine) {
  const auto typo = temp_file("vmmcheck-caselist-typo.txt", "# header\nalias.mp.same.flagsame.nofence.gpu\nalias.mp.sam.flagsame.nofence.gpu\n");
  Outcome o = cli({"run", "--caselist", typo.string()});
  EXPECT_EQ(o.code, kExitUsage);
  EXPECT_NE(o.err.find(typo.string() + ":3: 'alias.mp.sam.flagsame.nofence.gpu' names no case or litmus row"), std::string::npos)
      << o.err;
  const auto glob = temp_file("vmmcheck-caselist-glob.txt", "nothing.like.this.*\n");
  o = cli({"list", "--caselist", glob.string()});
  EXPECT_EQ(o.code, kExitUsage);
  EXPECT_NE(o.err.find(glob.string() + ":1: 'nothing.like.this.*' matches no case"), std::string::npos) << o.err;
  const auto two = temp_file("vmmcheck-caselist-two.txt", "alias.mp.a alias.mp.b\n");
  o = cli({"list", "--caselist", two.string()});
  EXPECT_EQ(o.code, kExitUsage);
  EXPECT_NE(o.err.find(":1: 'alias.mp.a alias.mp.b': one name or glob a line"), std::string::npos) << o.err;
  const auto empty = temp_file("vmmcheck-caselist-empty.txt", "# nothing\n\n");
  EXPECT_EQ(cli({"list", "--caselist", empty.string()}).code, kExitUsage);
  EXPECT_EQ(cli({"run", "--caselist", "/no/such/caselist.txt"}).code, kExitUsage);
}

// run records what it selected with: the case list's resolved path and the shard, in the context.
TEST(Caselist, RunRecordsTheListAndTheShardInTheContext) {
  const auto list = temp_file("vmmcheck-caselist-planted.txt", "planted.host.ok\nplanted.host.c*\n");
  const auto json = std::filesystem::temp_directory_path() / "vmmcheck-caselist-run.json";
  std::filesystem::remove(json);
  const Outcome o = testing::program({"run", "--cases", kPlanted, "--caselist", list.string(), "--shard", "1/1",
                                      "--timeout", "5", "--json", json.string()});
  ASSERT_EQ(o.code, kExitFailure) << o.out;  // the planted crash
  const auto doc = nlohmann::json::parse(std::ifstream(json));
  EXPECT_EQ(doc["context"]["caselist"], std::filesystem::canonical(list).string());
  EXPECT_EQ(doc["context"]["shard"], nlohmann::json({{"index", 1}, {"count", 1}}));
  std::set<std::string> names;
  for (const auto& r : doc["results"]) names.insert(r["name"]);
  EXPECT_EQ(names, (std::set<std::string>{"planted.host.ok", "planted.host.crash"}));
}

}  // namespace
}  // namespace vmmcheck
