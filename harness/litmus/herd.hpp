#pragma once
// herd-style PTX litmus files (`.litmus`, as Dat3M writes them: docs/litmus.md, "herd-style files"), read
// by translating them into the artifact's language, which the one parser then reads: one AST, one model,
// one generator for both formats. A construct the language does not have yet (a CTA barrier, a branch, a
// compare-and-swap, register arithmetic, a filter, a non-zero initial value) is an UnsupportedConstruct
// naming it and its line; a malformed file is a ParseError at its line.
#include <string>

#include "litmus/file.hpp"

namespace vmmcheck::litmus {

// A herd construct with no counterpart in the litmus language yet: where, and which.
class UnsupportedConstruct : public ParseError {
 public:
  using ParseError::ParseError;
};

// The translation of herd text `text` (the contents of `path`) into the artifact's language, and for each
// of its lines (0-based) the herd line (1-based) it came from.
struct HerdTranslation {
  std::string text;
  std::vector<int> origin;
};
HerdTranslation translate_herd(const std::string& text, const std::string& path);

// The rows of a herd file: one, named "<stem>.<quantifier>" (exists, not_exists, forall). `exists C` is
// `check (C)`: may C be seen; `~exists C` is `assert (not (C))`; `forall C` is `assert (C)`. Row lines and
// parse errors are the herd file's.
File parse_herd_text(const std::string& text, const std::string& path);

// Whether `path` names a herd-style file (its extension is .litmus).
bool is_herd_path(const std::string& path);

}  // namespace vmmcheck::litmus
