// The malformed case-file corpus (tests/corpus/malformed): every file must be refused with exit 2 and
// a message naming the file and the line. The first line of each file says what is expected:
//   # expect: LINE: TEXT
// The same files seed the case-file fuzzer (fuzz/).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "cli/app.hpp"

namespace vmmcheck::cli {
namespace {

TEST(MalformedCorpus, EveryFileExitsTwoNamingFileAndLine) {
  const std::filesystem::path corpus = std::filesystem::path(VMMCHECK_SOURCE_DIR) / "tests/corpus/malformed";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    if (entry.path().extension() != ".toml") continue;
    ++files;
    std::string first;
    std::getline(std::ifstream(entry.path()) >> std::ws, first);
    std::smatch m;
    const std::regex expect(R"(^# expect: (\d+): (.+)$)");
    ASSERT_TRUE(std::regex_match(first, m, expect)) << entry.path() << " has no '# expect: LINE: TEXT' first line";
    std::ostringstream out, err;
    const int code = run_app({"vmmcheck", "list", "--cases", entry.path().string()}, out, err);
    EXPECT_EQ(code, kExitUsage) << entry.path();
    const std::string where = entry.path().string() + ":" + m[1].str() + ":";
    EXPECT_NE(err.str().find(where), std::string::npos) << "wanted '" << where << "' in: " << err.str();
    EXPECT_NE(err.str().find(m[2].str()), std::string::npos) << "wanted '" << m[2].str() << "' in: " << err.str();
  }
  EXPECT_GE(files, 12);
}

}  // namespace
}  // namespace vmmcheck::cli
