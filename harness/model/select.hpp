#pragma once
// Selecting cases by glob over their dotted names.
#include <optional>
#include <string>
#include <vector>

#include "model/case.hpp"
#include "model/caselist.hpp"
#include "model/shard.hpp"

namespace vmmcheck::model {

// `filter` is a comma-separated list of globs (`*`, `?`, `[...]`); a glob starting with '-' excludes.
// An empty filter selects every case. A filter that selects nothing is an InputError.
std::vector<const Case*> select_cases(const std::vector<Case>& cases, const std::string& filter);
// The same, without the error: a run that also selects litmus rows may select no case.
std::vector<const Case*> select_cases_or_none(const std::vector<Case>& cases, const std::string& filter);

// Whether one glob (`*`, `?`, `[...]`) matches the whole of `name`.
bool glob_matches(const std::string& pattern, const std::string& name);

// Whether `filter` selects the dotted name `name` (litmus rows: litmus.<row>, or the case a row stands for).
bool filter_selects(const std::string& filter, const std::string& name);

// What a run takes (docs/design.md, "Case lists and shards"): the names --filter selects, that a --caselist
// line names (when there is one), and that fall in --shard's part (when there is one).
struct Selection {
  std::string filter;
  std::optional<Caselist> caselist;
  std::optional<Shard> shard;
  bool selects(const std::string& name) const;
};
std::vector<const Case*> select_cases_or_none(const std::vector<Case>& cases, const Selection& selection);

// The case with exactly this name; an InputError that suggests close names otherwise.
const Case& find_case(const std::vector<Case>& cases, const std::string& name);

}  // namespace vmmcheck::model
