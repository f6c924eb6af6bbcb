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

bool glob(const std::string& pattern, const std::string& name) {
  return fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
}

}  // namespace

std::vector<const Case*> select_cases(const std::vector<Case>& cases, const std::string& filter) {
  std::vector<std::string> include, exclude;
  for (const std::string& g : split(filter, ',')) (g[0] == '-' ? exclude : include).push_back(g[0] == '-' ? g.substr(1) : g);
  std::vector<const Case*> out;
  for (const Case& c : cases) {
    bool in = include.empty();
    for (const std::string& g : include) in = in || glob(g, c.name);
    for (const std::string& g : exclude) in = in && !glob(g, c.name);
    if (in) out.push_back(&c);
  }
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
