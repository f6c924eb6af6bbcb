#pragma once
// The litmus parser's grammar: one test (a plain file or one template instance) -- address
// declarations, threads, commands -- by recursive descent over its tokens (the artifact's
// src/grammar.lark, with the rules of docs/litmus.md).
#include <cstddef>
#include <string>
#include <vector>

#include "litmus/file.hpp"
#include "litmus/parse_source.hpp"
#include "vocabulary/shape.hpp"

namespace vmmcheck::litmus::syntax {

// `permit (condition) as name;` and its kin.
struct Command {
  Expect expect = Expect::Permit;
  patterns::litmus::Expr condition;
  std::string name;
  std::size_t at = 0;  // the keyword's offset in Source::text
  // `assert (...) as name control other;`: the permit command `other` of the same file is this row's
  // control (docs/litmus.md, "Power"), besides those derived from the row. Empty: none named.
  std::string control;
  std::size_t control_at = 0;
  // `... as name case alias.rmw.same.gpu ...`: the name of the hand-written case the row stands for (a
  // retired family's, docs/litmus.md "Beside the hand-written kernels"): the row's results name. Empty:
  // the row's own name.
  std::string case_name;
  std::size_t case_at = 0;
};

struct Test {
  patterns::litmus::Litmus litmus;  // unnamed: each command's Row names it
  std::vector<Command> commands;    // at least one
};

// Parses `source` as one test. Throws ParseError.
Test parse_test(const Source& source);

}  // namespace vmmcheck::litmus::syntax
