#pragma once
// JSON text's nesting, checked before a parser sees it: no document vmmcheck writes nests deeper than a
// dozen levels, and a file nested some thousands deep is refused in one line, not parsed (the report
// driver's reports/vmmcheck_report/jsontext.py is this in Python).
#include <cstddef>
#include <string>

#include "common/error.hpp"

namespace vmmcheck {

inline constexpr int kMostJsonDepth = 64;

// The offset at which `text` nests arrays and objects deeper than `most`, or npos. Strings are skipped as
// JSON reads them (a bracket inside one nests nothing).
inline std::size_t json_too_deep_at(const std::string& text, int most = kMostJsonDepth) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > most) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::string::npos;
}

// An InputError naming `source` ("SOURCE: not WHAT: arrays and objects nested more than ...") when `text`
// nests past kMostJsonDepth.
inline void refuse_too_deep_json(const std::string& text, const std::string& source, const std::string& what) {
  if (const std::size_t at = json_too_deep_at(text); at != std::string::npos)
    throw InputError(source + ": not " + what + ": arrays and objects nested more than " + std::to_string(kMostJsonDepth) +
                     " deep (at byte " + std::to_string(at + 1) + ")");
}

}  // namespace vmmcheck
