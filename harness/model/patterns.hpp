#pragma once
// The litmus patterns the harness can run. A case table names one; the loader checks that the family's
// axes and values are ones the pattern understands, so a typo in a case file is an input error, not a
// silently different test.
#include <string>
#include <string_view>
#include <vector>

namespace vmmcheck::model {

struct Outcome {
  std::string name;
  bool weak;  // an outcome the rules allow only when the accesses are unordered
  std::string description;
};

struct PatternAxis {
  std::string name;
  std::vector<std::string> values;
};

struct Pattern {
  std::string name;
  bool in_kernel;  // both accesses inside one kernel (budgeted in litmus instances)
  std::vector<PatternAxis> axes;
  std::vector<Outcome> outcomes;  // histogram bins, in kernel order
  bool needs_gpu = true;          // false: runs on the host alone (the planted self-test cases)
  // The outcomes are the CUresult names a driver call returns (api cases): `outcomes` lists the usual
  // ones, and any other CUDA_* name is accepted and gets its own bin.
  bool driver_status_outcomes = false;

  const PatternAxis* find_axis(std::string_view axis) const;
  int outcome_index(std::string_view outcome) const;  // -1 when unknown
  bool accepts_outcome(std::string_view outcome) const;
};

const std::vector<Pattern>& patterns();
const Pattern* find_pattern(std::string_view name);

}  // namespace vmmcheck::model
