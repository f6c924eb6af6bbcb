#pragma once
// A case is plain data: a stable dotted name, the axis values it was generated from, and the verdict a
// person wrote for it. Nothing here touches the GPU.
#include <map>
#include <string>
#include <vector>

namespace vmmcheck::model {

// What the rules say about a case (DESIGN.md, "Expectation classes").
enum class Expectation { Required, Undefined, Fault, Api };

const char* to_string(Expectation e);
bool parse_expectation(const std::string& text, Expectation& out);

struct AxisValue {
  std::string value;        // the token the harness acts on (e.g. "alias")
  std::string name;         // the segment it contributes to the dotted name
  std::string description;  // one line, for `list` and `explain`
  std::string code;         // the fragment it puts into the family's code snippet
};

// One segment of a case's dotted name: the axis and the value the case takes on it.
struct PathStep {
  std::string axis;
  AxisValue value;
};

struct Axis {
  std::string name;
  std::string doc;
  std::vector<AxisValue> values;
};

// The hand-written verdict of a case: written in the case table, never derived by the oracle.
struct Verdict {
  Expectation expectation = Expectation::Undefined;
  std::vector<std::string> outcomes;  // the outcomes the rules allow (required cases)
  std::string rule;                   // one sentence
  std::string citation;               // guide or PTX ISA section
  std::string why;                    // why this expectation, for `explain`
  std::string source;                 // file:line of the verdict entry
};

struct Case {
  std::string name;     // e.g. alias.mp.alias.same.writer.gpu
  std::string family;   // e.g. alias.mp
  std::string pattern;  // which litmus pattern runs it (see patterns.hpp)
  std::string title;    // the family's one-line title
  std::vector<std::string> labels;
  std::map<std::string, std::string> axes;  // axis name -> value token
  std::vector<PathStep> path;               // the axis values, in name order
  std::string snippet;                      // the family's snippet with this case's fragments filled in
  Verdict verdict;
  std::string source;  // the case file it came from

  const std::string& axis(const std::string& name) const;  // throws std::out_of_range
};

}  // namespace vmmcheck::model
