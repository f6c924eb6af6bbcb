// The shared corpus of expectation files (tests/data/expectations/corpus.json) read by run --baseline's
// reader (run/records/baseline.hpp). reports/tests/test_expectations_corpus.py holds the report driver's
// reader to the same manifest, so that the two readers agree on every file of it.
#include <gtest/gtest.h>

#include <exception>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "common/error.hpp"
#include "run/records/baseline.hpp"

namespace vmmcheck::run {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kCorpus = fs::path(VMMCHECK_SOURCE_DIR) / "tests" / "data" / "expectations";

// The manifest's entries (kept for the whole test: a range-for over a temporary's member would dangle).
const json& entries() {
  static const json files = [] {
    std::ifstream in(kCorpus / "corpus.json");
    return json::parse(in).at("files");
  }();
  return files;
}

// Baseline::read takes a fails file and reads the flakes and skips files beside it: the corpus file is
// copied into a folder of its own as corpus-<kind>.txt, beside an empty fails file when it is not one.
// Returns the copy's path.
fs::path staged(const json& entry) {
  const std::string file = entry.at("file"), kind = entry.at("kind");
  const std::string seed = std::to_string(::testing::UnitTest::GetInstance()->random_seed());
  const fs::path dir = fs::temp_directory_path() / ("vmmcheck-corpus-" + seed + "-" + file);
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(kCorpus / file, dir / ("corpus-" + kind + ".txt"));
  if (kind != "fails") std::ofstream(dir / "corpus-fails.txt");
  return dir / ("corpus-" + kind + ".txt");
}

fs::path fails_beside(const fs::path& copy) { return copy.parent_path() / "corpus-fails.txt"; }

TEST(ExpectationsCorpus, ValidFilesListAndMatchAsTheManifestSays) {
  std::size_t files = 0;
  for (const json& entry : entries()) {
    if (!entry.at("valid").get<bool>()) continue;
    ++files;
    const std::string kind = entry.at("kind");
    SCOPED_TRACE(entry.at("file").get<std::string>());
    const fs::path copy = staged(entry);
    Baseline b;
    try {
      b = Baseline::read(fails_beside(copy));
    } catch (const std::exception& e) {
      ADD_FAILURE() << "a valid file was refused: " << e.what();
      continue;
    }
    // Each probe fails as listed (Fail where nothing lists it): apply says which line took it, and how.
    for (const json& p : entry.at("probes")) {
      const std::string name = p.at("name");
      SCOPED_TRACE(name);
      Status status;
      ASSERT_TRUE(parse_status(p.value("status", "Fail"), status));
      CaseResult r;
      r.name = name;
      r.status = status;
      b.apply(r);
      if (p.at("line").is_null()) {
        EXPECT_EQ(r.status, status);
        EXPECT_EQ(r.note, "");
        continue;
      }
      const std::string where = copy.string() + ":" + std::to_string(p.at("line").get<int>());
      if (kind == "fails") {
        EXPECT_EQ(r.status, Status::ExpectedFail);
        EXPECT_EQ(r.note, std::string("expected ") + to_string(status) + " (" + where + "): " +
                              p.at("reason").get<std::string>());
      } else if (kind == "flakes") {
        EXPECT_EQ(r.status, Status::Flake);
        EXPECT_EQ(r.note, "known flaky (" + where + ")");
      } else {
        EXPECT_EQ(r.status, Status::Skip);
        const std::string skipped = b.skipped_by(name).value_or("");
        EXPECT_EQ(skipped.rfind(where + " (pattern '", 0), 0u) << skipped;
      }
    }
  }
  EXPECT_GT(files, 0u);
}

TEST(ExpectationsCorpus, InvalidFilesAreInputErrorsNamingFileAndLine) {
  std::size_t files = 0;
  for (const json& entry : entries()) {
    if (entry.at("valid").get<bool>()) continue;
    ++files;
    SCOPED_TRACE(entry.at("file").get<std::string>());
    const fs::path copy = staged(entry);
    std::string message;
    try {
      Baseline::read(fails_beside(copy));
      ADD_FAILURE() << "read without an error";
      continue;
    } catch (const InputError& e) {
      message = e.what();
    } catch (const std::exception& e) {  // (a fails line of '#' alone once threw std::out_of_range)
      ADD_FAILURE() << "not an InputError: " << e.what();
      continue;
    }
    const json& line = entry.at("line");
    const std::string start = copy.string() + (line.is_null() ? ": " : ":" + std::to_string(line.get<int>()) + ": ");
    EXPECT_EQ(message.rfind(start, 0), 0u) << message;
    for (const json& words : entry.at("error"))
      EXPECT_NE(message.find(words.get<std::string>()), std::string::npos) << words << " in " << message;
  }
  EXPECT_GT(files, 0u);
}

}  // namespace
}  // namespace vmmcheck::run
