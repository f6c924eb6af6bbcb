#pragma once
// The cases of the retired hand-written families and the verdict each table gave it
// (tests/unit/data/retired_cases.tsv: "name<TAB>expectation" lines, # comments).
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

namespace vmmcheck::testing {

inline std::map<std::string, std::string> retired_cases() {
  std::map<std::string, std::string> out;
  std::ifstream in(std::filesystem::path(VMMCHECK_SOURCE_DIR) / "tests" / "unit" / "data" / "retired_cases.tsv");
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto tab = line.find('\t');
    out[line.substr(0, tab)] = tab == std::string::npos ? std::string() : line.substr(tab + 1);
  }
  return out;
}

}  // namespace vmmcheck::testing
