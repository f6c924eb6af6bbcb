#pragma once
// Text of the line-oriented files vmmcheck reads (baselines, case lists, filters), and of what it prints.
#include <string>

namespace vmmcheck {

// `s` without leading and trailing blanks (spaces, tabs, a '\r' of a CRLF line end).
inline std::string trimmed(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t\r") - begin + 1);
}

// Every line of `text` after `prefix` (a multi-line explanation under its row).
inline std::string indented(const std::string& text, const std::string& prefix) {
  std::string out = prefix;
  for (char c : text) {
    out += c;
    if (c == '\n') out += prefix;
  }
  return out;
}

}  // namespace vmmcheck
