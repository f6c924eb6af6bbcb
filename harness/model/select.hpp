#pragma once
// Selecting cases by glob over their dotted names.
#include <string>
#include <vector>

#include "model/case.hpp"

namespace vmmcheck::model {

// `filter` is a comma-separated list of globs (`*`, `?`, `[...]`); a glob starting with '-' excludes.
// An empty filter selects every case. A filter that selects nothing is an InputError.
std::vector<const Case*> select_cases(const std::vector<Case>& cases, const std::string& filter);
// The same, without the error: a run that also selects litmus rows may select no case.
std::vector<const Case*> select_cases_or_none(const std::vector<Case>& cases, const std::string& filter);

// Whether `filter` selects the dotted name `name` (litmus rows: litmus.<row>).
bool filter_selects(const std::string& filter, const std::string& name);

// The case with exactly this name; an InputError that suggests close names otherwise.
const Case& find_case(const std::vector<Case>& cases, const std::string& name);

}  // namespace vmmcheck::model
