#pragma once
// Case tables: TOML files in cases/, one family per file. A family crosses its axes into cases; named
// prune rules drop invalid combinations; ordered verdict entries (first match wins) give every case its
// hand-written expectation. Errors name the file and line and are thrown as InputError.
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "model/case.hpp"

namespace vmmcheck::model {

// A named rule that drops axis combinations a family does not test.
struct PruneRule {
  std::string name;
  std::string why;
  std::map<std::string, std::vector<std::string>> when;  // axis -> the values it drops (all must match)
  std::string source;                                    // file:line
};

struct Family {
  std::string name;
  std::string pattern;
  std::string title;
  std::string source;
  std::vector<std::string> labels;
  std::vector<Axis> axes;
  std::vector<std::pair<std::string, std::string>> fixed;  // axis -> token every case of the family takes
  std::vector<PruneRule> prunes;
  std::vector<std::string> pruned;  // "case.name: rule" for every combination a prune rule removed
};

struct CaseTable {
  std::vector<Family> families;
  std::vector<Case> cases;       // sorted by name
};

// Whether a file of a folder is a case table: its name ends in .toml.
bool is_case_table_file(const std::filesystem::path& file);

// Loads one .toml file, or every .toml file in a folder (sorted by file name).
CaseTable load_cases(const std::filesystem::path& file_or_folder);
// Loads several files or folders into one table (a family or case name may appear only once).
CaseTable load_cases(const std::vector<std::filesystem::path>& files_or_folders);

// Parses one family from text; `source` names it in error messages.
CaseTable parse_cases(std::string_view text, const std::string& source);

// The folder of case tables shipped with vmmcheck (compiled in; run --cases, or its twin VMMCHECK_CASES,
// names others).
std::filesystem::path default_cases_path();

}  // namespace vmmcheck::model
