#pragma once
// A litmus file: the PTX proxy test language of NVlabs/mixedproxy (docs/litmus.md), parsed. One file is
// a test -- address declarations, threads placed by dD.bB.tT, commands -- or a template: the test with
// $0, $1, ... holes, then "$$", then rows of "|"-separated parameters, one test instance per row. Each
// command of each instance is one Row: the unit that `vmmcheck model` decides and `run --litmus` runs.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "vocabulary/shape.hpp"

namespace vmmcheck::litmus {

// What the file says of its condition: `permit` -- some execution the model allows shows it; `assert`
// -- every execution the model allows shows it; `check` -- as permit (the artifact's sanity check).
enum class Expect { Permit, Assert, Check };
const char* name_of(Expect e);

struct Row {
  std::string name;       // "<stem>.<command>" for a plain test, "<stem>.<instance>.<command>" for a
                          // template (instance counted from 0 in the order of the $$ rows)
  std::string file;       // the path as given
  int line = 0;           // the command's line; for a template, the $$ row's line
  int instance = -1;      // the template row it came from; -1: a plain test
  patterns::litmus::Litmus test;  // test.name == name
  patterns::litmus::Expr condition;
  Expect expect = Expect::Permit;
  std::string source;     // the test text of this instance (template holes filled)
  // An assert row's control named by the file (`... as name control other;`): that permit row's name.
  // Empty: none named (the derived controls, litmus/derived_controls.hpp, are the row's power).
  std::string control;
  std::shared_ptr<const Row> control_row;  // that row, when named
  // The hand-written case this row stands for (`... as name case alias.rmw.same.gpu`): its results are
  // named so (case_name_of). Empty: named by the file, "litmus.<stem>...".
  std::string case_name;
};

struct File {
  std::string path;
  std::vector<Row> rows;
};

// A malformed file: where, and what was expected there. what() is "path:line:column: message".
class ParseError : public std::runtime_error {
 public:
  ParseError(std::string path, int line, int column, const std::string& message);
  const std::string& path() const { return path_; }
  int line() const { return line_; }
  int column() const { return column_; }

 private:
  std::string path_;
  int line_, column_;
};

}  // namespace vmmcheck::litmus
