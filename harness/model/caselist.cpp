#include "model/caselist.hpp"

#include <sstream>
#include <unordered_set>

#include "common/error.hpp"
#include "common/paths.hpp"
#include "common/text.hpp"
#include "model/select.hpp"

namespace vmmcheck::model {
namespace {

bool is_glob(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

}  // namespace

Caselist Caselist::read(const std::filesystem::path& file) {
  std::istringstream in(read_input_file(file, "a case list"));
  Caselist list;
  list.path_ = resolved_path(file);
  std::size_t number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    const std::string text = trimmed(line.substr(0, line.find('#')));
    if (text.empty()) continue;
    const std::string where = file.string() + ":" + std::to_string(number);
    if (text.find_first_of(" \t,") != std::string::npos)
      throw InputError(where + ": '" + text + "': one name or glob a line (no spaces or commas)");
    if (text[0] == '-') throw InputError(where + ": '" + text + "': a case list names what to run; --filter '-GLOB' excludes");
    list.entries_.push_back({text, where});
  }
  if (list.entries_.empty()) throw InputError(file.string() + ": the case list names no case");
  return list;
}

bool Caselist::selects(const std::string& name) const {
  for (const Entry& e : entries_)
    if (glob_matches(e.glob, name)) return true;
  return false;
}

void Caselist::check_against(const std::vector<std::string>& known) const {
  const std::unordered_set<std::string> names(known.begin(), known.end());
  for (const Entry& e : entries_) {
    bool found = false;
    if (!is_glob(e.glob)) {
      found = names.count(e.glob) > 0;
    } else {
      for (const std::string& n : known)
        if ((found = glob_matches(e.glob, n))) break;
    }
    if (!found)
      throw InputError(e.where + ": '" + e.glob + "' " + (is_glob(e.glob) ? "matches" : "names") +
                       " no case or litmus row ('vmmcheck list' lists them)");
  }
}

}  // namespace vmmcheck::model
