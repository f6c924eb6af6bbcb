#pragma once
// The litmus parser's text layer: the text one test is read from (a plain file, or one template
// instance), where each of its characters stands in the file, and the tokens of the language.
#include <cstddef>
#include <string>
#include <vector>

namespace vmmcheck::litmus::syntax {

// A file's line starts: file offsets to 1-based lines and columns (a column counts bytes).
class Lines {
 public:
  explicit Lines(const std::string& file);
  int line(std::size_t offset) const;
  int column(std::size_t offset) const;

 private:
  std::vector<std::size_t> starts_;
};

// Throws ParseError at file offset `offset`.
[[noreturn]] void fail_in_file(const std::string& path, const Lines& lines, std::size_t offset,
                               const std::string& message);

// The text one test is parsed from, and for each character the file offset an error there reports:
// a plain file maps to itself; a template instance maps template text to the template and each
// substituted parameter to its place in the $$ row.
struct Source {
  std::string path;
  const Lines* lines = nullptr;
  std::string text;
  std::vector<std::size_t> origin;  // origin[i]: text[i]'s file offset; origin[text.size()]: the end's
  int instance = -1;                // the template row this instance fills; -1: a plain file

  // Throws ParseError at text offset `at`, adding "(template row N)" for an instance.
  [[noreturn]] void fail(std::size_t at, const std::string& message) const;
};

// A plain file: its own text, each character at its own place.
Source whole_file(const std::string& file, const Lines& lines, const std::string& path);

enum class TokenKind { Word, Number, Symbol, End };

struct Token {
  TokenKind kind = TokenKind::End;
  std::string text;    // the characters (End: none)
  std::size_t at = 0;  // offset in Source::text
};

// The tokens of `source`, ending with one End token. Words are [A-Za-z_][A-Za-z0-9_]*, numbers
// [0-9]+, symbols . ; , [ ] { } ( ) == != && ||; whitespace and // comments separate them. Throws
// ParseError at a character that starts none of these.
std::vector<Token> tokenize(const Source& source);

}  // namespace vmmcheck::litmus::syntax
