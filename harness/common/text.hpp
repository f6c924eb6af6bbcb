#pragma once
// Text of the line-oriented files vmmcheck reads (baselines, case lists, filters).
#include <string>

namespace vmmcheck {

// `s` without leading and trailing blanks (spaces, tabs, a '\r' of a CRLF line end).
inline std::string trimmed(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t\r") - begin + 1);
}

}  // namespace vmmcheck
