#pragma once
// Text of the line-oriented files vmmcheck reads (baselines, case lists, filters), and of what it prints.
#include <string>

namespace vmmcheck {

// `s` without leading and trailing blanks (spaces, tabs, a '\r' of a CRLF line end).
// Dotted segments of a-z, 0-9 and _ (alias.mp; one segment counts): what case names, their families,
// results, baselines and the schemas take. By hand: std::regex recursed a character at a time.
inline bool is_dotted_name(const std::string& s) {
  return !s.empty() && s.front() != '.' && s.back() != '.' && s.find("..") == std::string::npos &&
         s.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_.") == std::string::npos;
}

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

// `s` as one line of printable text for a terminal: a control byte (an escape sequence's ESC, a newline
// inside a name) or a byte outside ASCII written as \xNN, so no input can move the cursor, recolour the
// terminal or split the line; longer than `most` bytes, cut with "...". For messages that echo input.
inline std::string one_printable_line(const std::string& s, std::size_t most = 2000) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (out.size() >= most) {
      out += "...";
      break;
    }
    if (c >= 0x20 && c < 0x7f) out += ch;
    else out += std::string("\\x") + hex[c >> 4] + hex[c & 15];
  }
  return out;
}

}  // namespace vmmcheck
