#include "litmus/parse_source.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "litmus/ascii.hpp"
#include "litmus/file.hpp"

namespace vmmcheck::litmus::syntax {
namespace {

// ASCII classes by hand: <cctype> depends on the locale and is undefined for negative chars.
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

// A character for a message: printable ASCII quoted, anything else as its byte value.
std::string shown(char c) {
  if (c >= ' ' && c <= '~') return std::string("'") + c + "'";
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned char>(c));
  return std::string("byte ") + hex;
}

std::size_t run_end(const std::string& text, std::size_t i, bool (*in_run)(char)) {
  while (i < text.size() && in_run(text[i])) ++i;
  return i;
}

// The symbol starting at text[i], or 0 characters when none does.
std::size_t symbol_length(const std::string& text, std::size_t i) {
  static const char* const kPairs[] = {"==", "!=", "&&", "||"};
  for (const char* pair : kPairs)
    if (text.compare(i, 2, pair) == 0) return 2;
  static const std::string kSingles = ".;,[]{}()=:+";
  return kSingles.find(text[i]) != std::string::npos ? 1 : 0;
}

}  // namespace

Lines::Lines(const std::string& file) {
  starts_.push_back(0);
  for (std::size_t i = 0; i < file.size(); ++i)
    if (file[i] == '\n') starts_.push_back(i + 1);
}

int Lines::line(std::size_t offset) const {
  return static_cast<int>(std::upper_bound(starts_.begin(), starts_.end(), offset) - starts_.begin());
}

int Lines::column(std::size_t offset) const {
  return static_cast<int>(offset - starts_[static_cast<std::size_t>(line(offset)) - 1]) + 1;
}

void fail_in_file(const std::string& path, const Lines& lines, std::size_t offset, const std::string& message) {
  throw ParseError(path, lines.line(offset), lines.column(offset), message);
}

void Source::fail(std::size_t at, const std::string& message) const {
  std::string full = message;
  if (instance >= 0) full += " (template row " + std::to_string(instance) + ")";
  fail_in_file(path, *lines, origin[std::min(at, text.size())], full);
}

Source whole_file(const std::string& file, const Lines& lines, const std::string& path) {
  Source s;
  s.path = path;
  s.lines = &lines;
  s.text = file;
  s.origin.resize(file.size() + 1);
  std::iota(s.origin.begin(), s.origin.end(), std::size_t{0});
  return s;
}

std::vector<Token> tokenize(const Source& source) {
  const std::string& text = source.text;
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    std::size_t end = i;
    TokenKind kind = TokenKind::Symbol;
    if (is_space(c)) {
      ++i;
      continue;
    }
    if (text.compare(i, 2, "//") == 0) {
      i = std::min(text.find('\n', i), text.size());
      continue;
    }
    if (is_word_start(c)) {
      kind = TokenKind::Word;
      end = run_end(text, i, is_word_char);
    } else if (is_digit(c)) {
      kind = TokenKind::Number;
      end = run_end(text, i, is_digit);
    } else {
      end = i + symbol_length(text, i);
    }
    if (end == i) source.fail(i, "unexpected character " + shown(c));
    tokens.push_back({kind, text.substr(i, end - i), i});
    i = end;
  }
  tokens.push_back({TokenKind::End, "", text.size()});
  return tokens;
}

}  // namespace vmmcheck::litmus::syntax
