#include "model/select.hpp"

#include <fnmatch.h>

#include <sstream>

#include "common/error.hpp"

namespace vmmcheck::model {
namespace {

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, sep);) {
    const auto b = item.find_first_not_of(" \t");
    const auto e = item.find_last_not_of(" \t");
    if (b != std::string::npos) out.push_back(item.substr(b, e - b + 1));
  }
  return out;
}

}  // namespace

bool glob_matches(const std::string& pattern, const std::string& name) {
  return fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
}

bool filter_selects(const std::string& filter, const std::string& name) {
  bool included = false, any_include = false;
  for (const std::string& g : split(filter, ',')) {
    if (g[0] == '-') {
      if (glob_matches(g.substr(1), name)) return false;
    } else {
      any_include = true;
      included = included || glob_matches(g, name);
    }
  }
  return included || !any_include;
}

std::vector<const Case*> select_cases_or_none(const std::vector<Case>& cases, const std::string& filter) {
  std::vector<const Case*> out;
  for (const Case& c : cases)
    if (filter_selects(filter, c.name)) out.push_back(&c);
  return out;
}

bool Selection::selects(const std::string& name) const {
  return filter_selects(filter, name) && (!caselist || caselist->selects(name)) &&
         (!shard || shard_of(name, shard->count) == shard->index);
}

std::vector<const Case*> select_cases_or_none(const std::vector<Case>& cases, const Selection& selection) {
  std::vector<const Case*> out;
  for (const Case& c : cases)
    if (selection.selects(c.name)) out.push_back(&c);
  return out;
}

std::vector<const Case*> select_cases(const std::vector<Case>& cases, const std::string& filter) {
  std::vector<const Case*> out = select_cases_or_none(cases, filter);
  if (out.empty() && !cases.empty()) throw InputError("no case matches the filter '" + filter + "'");
  return out;
}

const Case& find_case(const std::vector<Case>& cases, const std::string& name) {
  for (const Case& c : cases)
    if (c.name == name) return c;
  std::string hint;
  int shown = 0;
  for (const Case& c : cases) {
    if (shown < 5 && (c.name.rfind(name, 0) == 0 || name.rfind(c.family, 0) == 0)) {
      hint += (shown++ ? ", " : "; did you mean: ") + c.name;
    }
  }
  throw InputError("unknown case '" + name + "'" + hint);
}

}  // namespace vmmcheck::model
