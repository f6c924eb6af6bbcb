#pragma once
// A case is plain data: a stable dotted name, its typed definition (one alternative of the pattern
// registry), the axis values it was generated from, and the verdict a person wrote for it. Nothing here
// touches the GPU.
#include <optional>
#include <string>
#include <vector>

#include "model/registry.hpp"

namespace vmmcheck::model {

// What the rules say about a case (docs/design.md, "Expectation classes").
enum class Expectation {
  Required,   // the rules define the outcome: anything else fails
  Undefined,  // the rules leave it open: the histogram is the result
  Fault,      // the access must fault
  Api,        // the driver must return the listed status
  Model,      // the PTX model requires it, the prose does not clearly: anything else is a Warning
  Rejected,   // the driver API forbids the call in words without naming a status: any error passes
};

const char* to_string(Expectation e);
bool parse_expectation(const std::string& text, Expectation& out);

struct AxisValue {
  std::string value;        // the token: the one spelling tables use for it, in values and `when` clauses
  std::string name;         // the segment it contributes to the dotted name (defaults to the token)
  std::string description;  // one line, for `list` and `explain`
  std::string code;         // the fragment it puts into the family's code snippet
};

// One segment of a case's dotted name: the axis and the value the case takes on it. A family's fixed
// axes (the table's `fixed`) are steps too, after the crossed ones, that add no segment to the name.
struct PathStep {
  std::string axis;
  AxisValue value;
  bool fixed = false;
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
  // Set where the verdict departs from the oracle (the PTX model): the citation that justifies it, e.g.
  // the guide's resident-grid clause, which is stricter than the model. Without it the loader refuses
  // a verdict the oracle disagrees with.
  std::string override_cite;
  std::string source;                 // file:line of the verdict entry
};

struct Case {
  std::string name;    // e.g. alias.kernels.kernel.kernel.event.alias
  std::string family;  // e.g. alias.kernels
  std::string title;   // the family's one-line title
  patterns::CaseDef def;  // the typed definition runners, oracle and kernels act on
  std::vector<std::string> labels;
  bool isolate = false;        // labelled `isolate`: it may hang or crash, so it always runs in a child
  std::vector<PathStep> path;  // the axis values, in name order (then the family's fixed axes)
  std::string snippet;         // the family's snippet with this case's fragments filled in
  Verdict verdict;
  std::string source;       // the case file it came from
  std::string control_for;  // for a control (model/controls.hpp): the case it is the control of
  // For a control that is the case itself with its mechanism removed: the mutant it runs under.
  std::optional<patterns::Mutant> mutant;

  const PatternInfo& pattern() const { return pattern_of(def); }
  // The token of `axis` (for display and JSON); throws std::out_of_range for an axis the case lacks.
  const std::string& axis(const std::string& axis_name) const;
};

}  // namespace vmmcheck::model
